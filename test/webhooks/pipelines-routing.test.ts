/**
 * Team ETL pipelines: the management endpoints (schemas from the management OpenAPI when present)
 * and routing into event hub streams (ordered matchers, first match wins, default hub), blob
 * storage, NDJSON export, and the interplay with webhook delivery.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { directorySink } from '../../src/adapters/file-sink.js';
import { createClient, forEachAdapter, type TestClient } from '../support/client.js';
import { oasValidator } from '../support/openapi.js';
import { createEndpoint, emit, flush, startReceiver, teamOf, USER_ID, type TestReceiver, QUIET } from '../support/webhooks-support.js';

const oas = oasValidator('management');
const CONN = 'Endpoint=sb://acme.servicebus.windows.net/;SharedAccessKeyName=send;SharedAccessKey=abc123=';

let rx: TestReceiver;
const dir = mkdtempSync(join(tmpdir(), 'hs-pipelines-'));
beforeAll(async () => {
  rx = await startReceiver();
});
afterAll(async () => {
  await rx.close();
  rmSync(dir, { recursive: true, force: true });
});

function region(c: TestClient, index = 0): string {
  return c.creds.teams[index]!.region;
}

function pipelinesPath(c: TestClient, env = 'sandbox', index = 0): string {
  return `/v1/org/${c.orgId}/team_etl_pipelines/${env}/${region(c, index)}`;
}

function azureBody(c: TestClient, extra: Record<string, unknown> = {}) {
  return {
    team_ids: [teamOf(c)],
    preferences: { preferred: 'azure_amqp', enabled: ['azure_amqp', 'svix'] },
    azure_amqp: {
      connection_string: CONN,
      default_event_hub: 'other-events',
      event_hub_matchers: [
        { event_type_prefix: 'labtest.', event_hub: 'labtest-events' },
        { event_type_prefix: 'daily.data.steps.', event_hub: 'steps-events' },
        { event_type_regex: '^(daily|historical)\\.', event_hub: 'wearable-events' },
        {
          event_type_prefix: 'raw.',
          blob_storage: { connection_string: 'DefaultEndpointsProtocol=https;AccountName=a;AccountKey=k', container_name: 'raw-blobs' },
        },
      ],
    },
    ...extra,
  };
}

async function stream(c: TestClient, name: string) {
  const res = await c.get(`/_sandbox/pipelines/streams/${encodeURIComponent(name)}`);
  expect(res.status).toBe(200);
  return res.body.records as Array<Record<string, any>>;
}

forEachAdapter('etl pipelines', (adapter) => {
  it('upserts, reads and deletes a team pipeline in the documented shapes', async () => {
    const c = createClient(adapter, QUIET);
    const res = await c.mgmt('POST', pipelinesPath(c), { body: azureBody(c) });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toHaveLength(1);
    expect(res.body[0]).toMatchObject({
      team_id: teamOf(c),
      push_historical_data: false,
      provider_raw_data: false,
      preferences: { preferred: 'azure_amqp', enabled: ['azure_amqp', 'svix'] },
      azure_amqp: { default_event_hub: 'other-events', compression: 'auto' },
      cloud_pubsub: null,
      rabbitmq: null,
      event_type_prefixes: null,
    });
    for (const p of res.body) oas?.expectValid('ClientFacingETLPipeline', p);
    const got = await c.mgmt('GET', pipelinesPath(c), { query: { team_id: teamOf(c) } });
    expect(got.body).toEqual({ pipelines: res.body, next_cursor: null });
    oas?.expectValid('TeamETLPipelinesResponse', got.body);
    expect((await c.mgmt('GET', pipelinesPath(c))).body.pipelines).toHaveLength(1);
    expect((await c.mgmt('GET', pipelinesPath(c, 'production'))).body.pipelines).toEqual([]);
    // An update keeps what it does not mention.
    const upd = await c.mgmt('POST', pipelinesPath(c), { body: { team_ids: [teamOf(c)], push_historical_data: true } });
    expect(upd.body[0]).toMatchObject({ push_historical_data: true, azure_amqp: { default_event_hub: 'other-events' } });
    const del = await c.mgmt('DELETE', pipelinesPath(c), { query: { team_id: [teamOf(c)] } });
    expect(del.status).toBe(200);
    expect(del.body).toHaveLength(1);
    expect((await c.mgmt('GET', pipelinesPath(c))).body.pipelines).toEqual([]);
  });

  it('routes events to hubs by ordered matchers (first match wins) and the default hub', async () => {
    const c = createClient(adapter, QUIET);
    expect((await c.mgmt('POST', pipelinesPath(c), { body: azureBody(c) })).status).toBe(200);
    emit(c, 'labtest.order.created', { id: 'o1' });
    emit(c, 'daily.data.steps.created', { n: 1 });
    emit(c, 'daily.data.sleep.created', { n: 2 });
    emit(c, 'historical.data.sleep.created');
    emit(c, 'provider.connection.created');
    emit(c, 'raw.data.created', { blob: 'x'.repeat(2000) });
    emit(c, 'daily.data.sleep.created', {}, 'production');
    await flush(c);
    const names = await c.get('/_sandbox/pipelines/streams');
    expect(names.body.streams).toEqual([
      { stream: 'blob:raw-blobs', count: 1 },
      { stream: 'labtest-events', count: 1 },
      { stream: 'other-events', count: 1 },
      { stream: 'steps-events', count: 1 },
      { stream: 'wearable-events', count: 2 },
    ]);
    const [lab] = await stream(c, 'labtest-events');
    expect(lab).toMatchObject({
      destination: 'azure_amqp',
      team_id: teamOf(c),
      environment: 'sandbox',
      event_type: 'labtest.order.created',
      user_id: USER_ID,
      partition_key: USER_ID,
      compressed: false,
      enqueued_at: '2026-01-05T09:00:00.000Z',
      body: { event_type: 'labtest.order.created', data: { id: 'o1' }, team_id: teamOf(c), user_id: USER_ID, client_user_id: 'client-1' },
    });
    expect(lab!.properties).toEqual({
      'event-type': 'labtest.order.created',
      'user-id': USER_ID,
      'team-id': teamOf(c),
      'idempotency-key': expect.any(String),
    });
    expect((await stream(c, 'wearable-events')).map((r) => r.event_type)).toEqual([
      'daily.data.sleep.created',
      'historical.data.sleep.created',
    ]);
    expect((await stream(c, 'other-events')).map((r) => r.event_type)).toEqual(['provider.connection.created']);
    const [blob] = await stream(c, 'blob:raw-blobs');
    expect(blob).toMatchObject({ compressed: true, partition_key: null, properties: { 'content-encoding': 'gzip' } });
    expect(blob!.blob_name).toMatch(
      new RegExp(`^${teamOf(c)}/${USER_ID}/2026-01-05T09:00:00.000Z#raw\\.data\\.created#[0-9A-Za-z]+\\.json\\.gz$`),
    );
    // Read and clear.
    const cleared = await c.delete('/_sandbox/pipelines/streams/wearable-events');
    expect(cleared.body).toEqual({ stream: 'wearable-events', cleared: 2 });
    expect(await stream(c, 'wearable-events')).toEqual([]);
    expect((await c.delete('/_sandbox/pipelines/streams')).body.cleared).toBe(4);
  });

  it('keeps webhooks on while svix is enabled, and off when the preferences leave it out', async () => {
    const c = createClient(adapter, QUIET);
    const path = `/${adapter}/pipeline-svix`;
    await createEndpoint(c, { url: `${rx.url}${path}` });
    await c.mgmt('POST', pipelinesPath(c), { body: azureBody(c) });
    emit(c, 'labtest.order.created');
    await flush(c);
    expect(rx.received.filter((r) => r.path === path)).toHaveLength(1);
    await c.mgmt('POST', pipelinesPath(c), {
      body: { team_ids: [teamOf(c)], preferences: { preferred: 'azure_amqp', enabled: ['azure_amqp'] } },
    });
    emit(c, 'labtest.order.updated');
    await flush(c);
    expect(rx.received.filter((r) => r.path === path)).toHaveLength(1);
    expect((await stream(c, 'labtest-events')).map((r) => r.event_type)).toEqual(['labtest.order.created', 'labtest.order.updated']);
    // The pipeline's own prefix allowlist filters what reaches its destinations.
    await c.mgmt('POST', pipelinesPath(c), { body: { team_ids: [teamOf(c)], event_type_prefixes: ['daily.'] } });
    emit(c, 'labtest.order.updated');
    emit(c, 'daily.data.sleep.created');
    await flush(c);
    expect(await stream(c, 'labtest-events')).toHaveLength(2);
    expect(await stream(c, 'wearable-events')).toHaveLength(1);
  });

  it('routes to Pub/Sub and RabbitMQ streams too', async () => {
    const c = createClient(adapter, QUIET);
    const res = await c.mgmt('POST', pipelinesPath(c), {
      body: {
        team_ids: [teamOf(c)],
        preferences: { preferred: 'cloud_pubsub', enabled: ['cloud_pubsub', 'rabbitmq'] },
        cloud_pubsub: { project: 'proj', topic: 'events', message_ordering: true },
        rabbitmq: { uri: 'amqps://mq.example.com', exchange: 'vital' },
      },
    });
    expect(res.status, res.text).toBe(200);
    emit(c, 'daily.data.steps.created');
    await flush(c);
    const [ps] = await stream(c, 'pubsub:proj/events');
    expect(ps).toMatchObject({
      destination: 'cloud_pubsub',
      partition_key: USER_ID,
      properties: { 'event-type': 'daily.data.steps.created', 'blob-type': 'json' },
    });
    const [mq] = await stream(c, 'rabbitmq:vital');
    expect(mq).toMatchObject({ destination: 'rabbitmq', routing_key: 'daily.data.steps.created' });
  });

  it('appends every stream record as NDJSON when a file is set (off by default)', async () => {
    const c = createClient(adapter, { ...QUIET, fileSink: directorySink(dir) });
    const file = join(dir, `${adapter}.ndjson`);
    await c.mgmt('POST', pipelinesPath(c), { body: azureBody(c) });
    emit(c, 'labtest.order.created');
    expect((await c.put('/_sandbox/pipelines/ndjson', { path: `${adapter}.ndjson` })).body).toEqual({ ndjson_file: `${adapter}.ndjson` });
    emit(c, 'daily.data.sleep.created');
    emit(c, 'provider.connection.created');
    await flush(c);
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { stream: string; event_type: string });
    expect(lines.map((l) => [l.stream, l.event_type])).toEqual([
      ['wearable-events', 'daily.data.sleep.created'],
      ['other-events', 'provider.connection.created'],
    ]);
    await c.put('/_sandbox/pipelines/ndjson', { path: null });
    emit(c, 'labtest.order.updated');
    await flush(c);
    expect(readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(2);
  });

  it('validates everything before storing anything', async () => {
    const c = createClient(adapter, QUIET);
    const base = azureBody(c);
    const matcher = (m: Record<string, unknown>) => ({ ...base, azure_amqp: { ...base.azure_amqp, event_hub_matchers: [m] } });
    const cases: Array<[Record<string, unknown>, number]> = [
      [matcher({ event_type_prefix: 'a.', event_type_regex: '^a', event_hub: 'h' }), 422],
      [matcher({ event_hub: 'h' }), 422],
      [matcher({ event_type_regex: '(', event_hub: 'h' }), 422],
      [matcher({ event_type_prefix: 'a.', event_hub: 'h', blob_storage: { connection_string: 'x', container_name: 'c' } }), 422],
      [{ ...base, azure_amqp: { ...base.azure_amqp, connection_string: `${CONN};EntityPath=hub` } }, 422],
      [{ ...base, azure_amqp: { ...base.azure_amqp, connection_string: 'nope' } }, 422],
      [{ ...base, preferences: { preferred: 'rabbitmq', enabled: ['azure_amqp'] } }, 422],
      [{ ...base, preferences: { preferred: 'rabbitmq', enabled: ['rabbitmq'] } }, 422],
      [{ ...base, preferences: { preferred: 'kafka', enabled: ['kafka'] } }, 422],
      [{ ...base, preferences: undefined }, 422],
      [{ ...base, team_ids: [] }, 422],
      [{ ...base, team_ids: [teamOf(c), 'not-a-uuid'] }, 422],
      [{ ...base, team_ids: [teamOf(c), '00000000-0000-4000-8000-000000000000'] }, 404],
    ];
    for (const [body, status] of cases) {
      const res = await c.mgmt('POST', pipelinesPath(c), { body });
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.detail).toBeDefined();
    }
    // A team of the other region is unknown in this region.
    const otherIndex = c.creds.teams.findIndex((t) => t.region !== region(c));
    if (otherIndex >= 0) {
      const res = await c.mgmt('POST', pipelinesPath(c), { body: { ...base, team_ids: [teamOf(c, otherIndex)] } });
      expect(res.status).toBe(404);
    }
    expect((await c.mgmt('GET', pipelinesPath(c))).body.pipelines).toEqual([]);
  });
});
