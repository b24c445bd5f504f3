/**
 * Webhooks across team lifecycles and long runs: a deleted team's endpoints and pipelines go with
 * it (pending retries stop at once, the receiver no longer verifies for them), and the bounded
 * retention of the delivery log, pipeline streams and test receivers.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { EmittedEnvelope, EventEnvelope } from '../../src/engine/events.js';
import { receiversOf } from '../../src/state/webhooks/webhook-receiver.js';
import { createClient, forEachAdapter, type TestClient } from '../support/client.js';
import {
  attempts,
  createEndpoint,
  emit,
  flush,
  startReceiver,
  teamOf,
  USER_ID,
  type TestReceiver,
  QUIET,
} from '../support/webhooks-support.js';
import { WEBHOOKS_ERRORS } from '../../src/state/webhooks/errors.js';

let rx: TestReceiver;
beforeAll(async () => {
  rx = await startReceiver();
});
afterAll(async () => {
  await rx.close();
});

const DAY = 86400;
const CONN = 'Endpoint=sb://acme.servicebus.windows.net/;SharedAccessKeyName=send;SharedAccessKey=abc123=';

/** Creates a team through the management API; answers its id. */
async function newTeam(c: TestClient, name: string): Promise<string> {
  const res = await c.mgmt('POST', `/v1/org/${c.orgId}/team`, { body: { name, region: 'us' } });
  expect(res.status, res.text).toBe(200);
  return res.body.id as string;
}

function emitTo(c: TestClient, teamId: string, eventType: string): void {
  const team = c.sandbox.world.tenancy.teams.get(teamId);
  if (!team) throw new Error('team missing');
  const partition = c.sandbox.world.tenancy.partition(team, 'sandbox');
  const envelope: EventEnvelope = { event_type: eventType, data: {}, team_id: teamId, user_id: USER_ID, client_user_id: 'client-1' };
  c.sandbox.world.events.emit(partition, envelope as EmittedEnvelope);
}

function azurePipeline(teamId: string) {
  return {
    team_ids: [teamId],
    preferences: { preferred: 'azure_amqp', enabled: ['azure_amqp', 'svix'] },
    azure_amqp: { connection_string: CONN, default_event_hub: 'all-events', event_hub_matchers: [] },
  };
}

forEachAdapter('webhooks of a deleted team', (adapter) => {
  it('deleting a team drops its endpoints and pipelines and stops their pending attempts at once', async () => {
    const c = createClient(adapter, QUIET);
    const teamId = await newTeam(c, `Doomed ${adapter}`);
    const base = `/v1/org/${c.orgId}/team/${teamId}/sandbox/webhook`;
    const created = await c.mgmt('POST', base, { body: { url: `${rx.url}/${adapter}/doomed` } });
    expect(created.status).toBe(200);
    const epId = created.body.id as string;
    const pipelines = `/v1/org/${c.orgId}/team_etl_pipelines/sandbox/us`;
    expect((await c.mgmt('POST', pipelines, { body: azurePipeline(teamId) })).status).toBe(200);
    rx.script.push({ status: 500 });
    emitTo(c, teamId, 'labtest.order.created');
    await flush(c);
    const [first] = await attempts(c, { endpoint_id: epId });
    expect(first).toMatchObject({ status: 'failed', next_attempt_at: '2026-01-05T09:00:05.000Z' });
    const jobs = async () => ((await c.get('/_sandbox/jobs')).body.jobs as Array<{ label: string }>).filter((j) => j.label.includes(epId));
    expect(await jobs()).toHaveLength(1);

    expect((await c.mgmt('DELETE', `/v1/org/${c.orgId}/team/${teamId}`)).status).toBe(200);
    // The retry is gone from the clock, the endpoint from every view, the pipeline too.
    expect(await jobs()).toHaveLength(0);
    const msgs = await c.get('/_sandbox/webhooks/messages', { query: { team_id: teamId } });
    expect(msgs.body.messages).toHaveLength(1);
    expect(msgs.body.messages[0].destinations[0]).toMatchObject({
      status: 'failed',
      failure_reason: 'team_deleted',
      next_attempt_at: null,
    });
    expect((await c.get('/_sandbox/webhooks/endpoints', { query: { team_id: teamId } })).body.endpoints).toEqual([]);
    expect((await c.mgmt('GET', `${base}/${epId}`)).status).toBe(404);
    expect((await c.mgmt('GET', pipelines)).body.pipelines.some((p: { team_id: string }) => p.team_id === teamId)).toBe(false);
    const resend = await c.post(`/_sandbox/webhooks/messages/${first!.msg_id}/endpoints/${epId}/resend`, {});
    expect(resend.status).toBe(404);
    expect(resend.body).toEqual({ detail: WEBHOOKS_ERRORS.endpointNotFound });
    await c.advance(2 * DAY);
    expect(await attempts(c, { endpoint_id: epId })).toHaveLength(1);
    // The other teams' webhooks are untouched.
    const other = await createEndpoint(c, { url: `${rx.url}/${adapter}/survivor` });
    emit(c, 'daily.data.steps.created');
    await flush(c);
    expect((await attempts(c, { endpoint_id: other.id })).map((a) => a.status)).toEqual(['success']);
  });

  it("the built-in receiver stops verifying for a deleted team's endpoint", async () => {
    const c = createClient(adapter, QUIET);
    const teamId = await newTeam(c, `Receiver ${adapter}`);
    const name = `deleted-${adapter}`;
    const url = `${c.sandbox.world.urls.base}/_sandbox/receiver/${name}`;
    const created = await c.mgmt('POST', `/v1/org/${c.orgId}/team/${teamId}/production/webhook`, { body: { url } });
    expect(created.status).toBe(200);
    expect(c.sandbox.world.tenancy.teams.has(teamId)).toBe(true);
    expect((await c.mgmt('DELETE', `/v1/org/${c.orgId}/team/${teamId}`)).status).toBe(200);
    const delivery = receiversOf(c.sandbox.world).receive(
      name,
      { 'svix-id': 'msg_x', 'svix-timestamp': '1', 'svix-signature': 'v1,x' },
      new Uint8Array(),
    );
    expect(delivery).toMatchObject({ verified: false, verification_error: `No webhook endpoint points at /_sandbox/receiver/${name}` });
  });
});

forEachAdapter('delivery log retention', (adapter) => {
  it('keeps the most recent N messages per team environment, never a pending one', async () => {
    const c = createClient(adapter, QUIET);
    const settings = await c.get('/_sandbox/webhooks/settings');
    expect(settings.body).toEqual({ jitter: false, retention: 5000, evicted: 0 });
    const put = await c.put('/_sandbox/webhooks/settings', { retention: 3 });
    expect(put.body).toEqual({ jitter: false, retention: 3, evicted: 0 });
    const { id } = await createEndpoint(c, { url: `${rx.url}/${adapter}/retention` });
    rx.script.push({ status: 500 });
    emit(c, 'daily.data.e0.created');
    await flush(c);
    for (let i = 1; i <= 5; i++) emit(c, `daily.data.e${i}.created`);
    emit(c, 'daily.data.other-env.created', {}, 'production');
    await flush(c);
    // e0 is still pending (retry at +5 s): kept; of the finished ones only the newest fit.
    const msgs = await c.get('/_sandbox/webhooks/messages', { query: { team_id: teamOf(c), environment: 'sandbox' } });
    expect(msgs.body.messages.map((m: { event_type: string }) => m.event_type)).toEqual([
      'daily.data.e0.created',
      'daily.data.e4.created',
      'daily.data.e5.created',
    ]);
    expect((await attempts(c, { endpoint_id: id })).map((a) => a.event_type)).toEqual([
      'daily.data.e0.created',
      'daily.data.e4.created',
      'daily.data.e5.created',
    ]);
    expect((await c.get('/_sandbox/webhooks/settings')).body.evicted).toBe(3);
    await c.advance(10);
    const e0 = msgs.body.messages[0];
    expect((await c.get(`/_sandbox/webhooks/messages/${e0.id}`)).body.destinations[0].status).toBe('success');
    // A lower retention applies at once; a dropped message is gone from every view.
    await c.put('/_sandbox/webhooks/settings', { retention: 1 });
    const left = await c.get('/_sandbox/webhooks/messages', { query: { team_id: teamOf(c), environment: 'sandbox' } });
    expect(left.body.messages.map((m: { event_type: string }) => m.event_type)).toEqual(['daily.data.e5.created']);
    expect((await c.get(`/_sandbox/webhooks/messages/${e0.id}`)).status).toBe(404);
    expect((await c.post(`/_sandbox/webhooks/messages/${e0.id}/endpoints/${id}/resend`, {})).status).toBe(404);
    expect(await attempts(c, { endpoint_id: id })).toHaveLength(1);
  });

  it('bounds pipeline streams per team environment and the test receivers too; validates the setting', async () => {
    const c = createClient(adapter, QUIET);
    const region = c.creds.teams[0]!.region;
    const res = await c.mgmt('POST', `/v1/org/${c.orgId}/team_etl_pipelines/sandbox/${region}`, { body: azurePipeline(teamOf(c)) });
    expect(res.status, res.text).toBe(200);
    await c.put('/_sandbox/webhooks/settings', { retention: 2 });
    for (let i = 0; i < 4; i++) emit(c, `daily.data.p${i}.created`);
    await flush(c);
    const records = (await c.get('/_sandbox/pipelines/streams/all-events')).body.records as Array<{ event_type: string }>;
    expect(records.map((r) => r.event_type)).toEqual(['daily.data.p2.created', 'daily.data.p3.created']);
    expect((await c.get('/_sandbox/pipelines/streams')).body.streams).toEqual([{ stream: 'all-events', count: 2 }]);
    const receivers = receiversOf(c.sandbox.world);
    for (let i = 0; i < 4; i++) receivers.receive('bounded', {}, new Uint8Array());
    expect(receivers.get('bounded').deliveries.map((d) => d.seq)).toEqual([3, 4]);
    for (const bad of [{ retention: 0 }, { retention: 'many' }, { jitter: 'yes' }]) {
      const r = await c.put('/_sandbox/webhooks/settings', bad);
      expect(r.status).toBe(422);
      expect(r.body.detail[0].loc[0]).toBe('body');
    }
    expect((await c.get('/_sandbox/webhooks/settings')).body.retention).toBe(2);
  });
});
