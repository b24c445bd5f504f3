/** Scenario files (issue 17): every file in scenarios/ boots and holds what it declares. */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createExpressApp } from '../../src/adapters/express.js';
import { createSandbox } from '../../src/index.js';
import { parseScenario, ScenarioError } from '../../src/scenario/parse.js';
import { scenarioJsonSchema } from '../../src/scenario/schema.js';
import { createClient, forEachAdapter } from '../support/client.js';

const dir = resolve(dirname(fileURLToPath(import.meta.url)), '../../scenarios');
const FILES = readdirSync(dir).filter((f) => /\.(json|ya?ml)$/.test(f) && f !== 'scenario.schema.json');

describe('scenario schema', () => {
  it('scenarios/scenario.schema.json is generated from the zod schema and up to date', () => {
    expect(JSON.parse(readFileSync(resolve(dir, 'scenario.schema.json'), 'utf8'))).toEqual(scenarioJsonSchema());
  });

  it('ships at least five example scenarios, each naming the schema', () => {
    expect(FILES.length).toBeGreaterThanOrEqual(5);
    for (const f of FILES) expect(readFileSync(resolve(dir, f), 'utf8')).toContain('scenario.schema.json');
  });

  it('names the path of every problem and applies nothing', () => {
    const bad = {
      users: [{ client_user_id: 'a' }, { client_user_id: 'b' }, { client_user_id: 'c', connections: [{ provider: 'fitbitt' }] }],
    };
    expect(() => parseScenario(bad)).toThrow('users[2].connections[0].provider: unknown provider "fitbitt"');
    expect(() => parseScenario({ users: [{ client_user_id: 'x', lab_orders: [{ method: 'testkit', path: 'redraw' }] }] })).toThrow(
      'users[0].lab_orders[0].path: path "redraw" applies to walk_in_test orders, not testkit',
    );
    expect(() => parseScenario({ webhooks: [{ filter_types: ['labtest.'] }] })).toThrow('webhooks[0]: give exactly one of receiver or url');
    expect(() => parseScenario('users: [ {client_user_id: ')).toThrow(ScenarioError);
    expect(() => parseScenario({ users: [{ client_user_id: 'x', time_zone: 'Mars/Olympus' }] })).toThrow(
      'users[0].time_zone: unknown time zone "Mars/Olympus"',
    );
    expect(() => createSandbox({ scenario: JSON.stringify(bad) })).toThrow(ScenarioError);
    expect(() =>
      parseScenario({ users: [{ client_user_id: 'x', ecg: ['atrial_fibrillation'], connections: [{ provider: 'oura' }] }] }),
    ).toThrow('users[0].ecg: needs a connection that records ECGs');
  });
});

forEachAdapter('scenario files', (adapter) => {
  for (const file of FILES) {
    it(`${file} boots and holds its users, connections, orders and webhooks`, async () => {
      const text = readFileSync(resolve(dir, file), 'utf8');
      const scenario = parseScenario(text);
      const c = createClient(adapter, { scenario: text });
      await c.sandbox.ready;
      const creds = (await c.get('/_sandbox/credentials')).body;
      for (const t of scenario.teams) expect(creds.teams.map((x: { name: string }) => x.name)).toContain(t.name);
      const clock = (await c.get('/_sandbox/clock')).body;
      if (scenario.clock?.start_at) expect(Date.parse(clock.now)).toBe(Date.parse(scenario.clock.start_at));
      const listed = (await c.get('/v2/user', { query: { limit: 100 } })).body;
      const inFirstTeam = scenario.users.filter((u) => u.team === undefined);
      if (scenario.world === 'empty') expect(listed.total).toBe(inFirstTeam.length);
      for (const u of inFirstTeam) {
        const user = (await c.get(`/v2/user/resolve/${u.client_user_id}`)).body;
        expect(user.client_user_id).toBe(u.client_user_id);
        if (u.time_zone) expect(user.fallback_time_zone?.id ?? user.fallback_time_zone).toBe(u.time_zone);
        const providers = (await c.get(`/v2/user/providers/${user.user_id}`)).body.providers as Array<{ slug: string; status: string }>;
        expect(providers.map((p) => p.slug).sort()).toEqual(u.connections.map((x) => x.provider).sort());
        for (const conn of u.connections)
          expect(providers.find((p) => p.slug === conn.provider)?.status).toBe(conn.state === 'error' ? 'error' : 'connected');
        if (u.ecg) {
          const ecg = (
            await c.get(`/v2/summary/electrocardiogram/${user.user_id}`, {
              query: {
                start_date: new Date(Date.parse(clock.now) - 60 * 86400_000).toISOString().slice(0, 10),
                end_date: clock.now.slice(0, 10),
              },
            })
          ).body;
          const seen = new Set(ecg.electrocardiogram.map((e: { classification: string }) => e.classification));
          for (const cls of u.ecg) expect(seen.has(cls), cls).toBe(true);
        }
        const orders = (await c.get('/v3/orders', { query: { user_id: user.user_id, size: 50 } })).body.orders as Array<{
          patient_details?: unknown;
        }>;
        expect(orders.length).toBe(u.lab_orders.length);
      }
      const endpoints = (await c.get('/_sandbox/webhooks/endpoints')).body;
      const count = Array.isArray(endpoints) ? endpoints.length : (endpoints.endpoints ?? endpoints.data ?? []).length;
      expect(count).toBe(scenario.webhooks.length);
      // Deterministic like any other world: the same scenario answers byte for byte.
      const again = createClient(adapter, { scenario: text });
      expect((await again.get('/v2/user', { query: { limit: 100 } })).text).toBe((await c.get('/v2/user', { query: { limit: 100 } })).text);
    });
  }

  it('starts lab orders at the status given, through every step and its event, for each method', async () => {
    const c = createClient(adapter, {
      scenario: {
        users: [
          {
            client_user_id: 'starts',
            lab_orders: [
              { method: 'walk_in_test', status: 'partial_results' },
              { method: 'at_home_phlebotomy', status: 'collecting_sample.at_home_phlebotomy.appointment_scheduled' },
              { method: 'testkit', status: 'cancelled' },
              { method: 'on_site_collection', status: 'draw_completed' },
              { method: 'testkit' },
            ],
          },
        ],
      },
    });
    await c.sandbox.ready;
    const user = (await c.get('/v2/user/resolve/starts')).body;
    const orders = (await c.get('/v3/orders', { query: { user_id: user.user_id, size: 50 } })).body.orders as Array<{
      id: string;
      events: Array<{ status: string }>;
    }>;
    expect(orders.map((o) => o.events.at(-1)?.status).sort()).toEqual([
      'cancelled.testkit.cancelled',
      'collecting_sample.at_home_phlebotomy.appointment_scheduled',
      'received.testkit.ordered',
      'sample_with_lab.on_site_collection.draw_completed',
      'sample_with_lab.walk_in_test.partial_results',
    ]);
    const walkIn = orders.find((o) => o.events.at(-1)?.status.endsWith('.partial_results'));
    expect(walkIn?.events.map((e) => e.status.split('.')[2])).toEqual(['ordered', 'requisition_created', 'partial_results']);
    const updated = (await c.get('/_sandbox/events', { query: { event_type: 'labtest.order.updated', limit: 1000 } })).body
      .events as Array<{ envelope: { data: { id: string } } }>;
    // One labtest.order.updated per step (partial results only with partial_webhooks_enabled, off here).
    expect(updated.filter((e) => e.envelope.data.id === walkIn?.id)).toHaveLength(1);
    const visit = orders.find((o) => o.events.at(-1)?.status.endsWith('.appointment_scheduled'));
    expect(updated.filter((e) => e.envelope.data.id === visit?.id)).toHaveLength(3);
  });

  it('walks the scripted lab paths: redraw, critical result, lost in transit', async () => {
    const walk = createClient(adapter, { scenario: readFileSync(resolve(dir, 'lab-walk-in-redraw.yaml'), 'utf8') });
    const lost = createClient(adapter, { scenario: readFileSync(resolve(dir, 'lab-testkit-lost.yaml'), 'utf8') });
    for (const c of [walk, lost]) expect((await c.post('/_sandbox/clock/advance', { duration: '30d' })).status).toBe(200);
    const types = async (c: typeof walk) =>
      (await c.get('/_sandbox/events', { query: { event_type_prefix: 'labtest.', limit: 10000 } })).body.events as Array<{
        envelope: { event_type: string; data: { last_event?: { status: string } } };
      }>;
    const walkEvents = await types(walk);
    expect(walkEvents.some((e) => e.envelope.event_type === 'labtest.result.critical')).toBe(true);
    expect(walkEvents.some((e) => e.envelope.data.last_event?.status?.endsWith('.redraw_available'))).toBe(true);
    const lostEvents = await types(lost);
    expect(lostEvents.some((e) => e.envelope.data.last_event?.status?.endsWith('.lost'))).toBe(true);
  });

  it('webhook-fails-twice.yaml: the receiver answers 500 twice, then 200; the retries on the clock deliver the message', async () => {
    // The receiver must be reachable at the sandbox's base URL: msw intercepts it; express listens.
    const c = createClient(adapter, { world: 'empty' });
    if (adapter === 'express') {
      const server = createExpressApp(c.sandbox).listen(0, '127.0.0.1');
      await new Promise<void>((done) => server.once('listening', () => done()));
      c.sandbox.setUrls({ base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
      onTestFinished(
        () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      );
    }
    await c.sandbox.loadScenario(readFileSync(resolve(dir, 'webhook-fails-twice.yaml'), 'utf8'));
    await c.sandbox.settle();
    const before = (await c.get('/_sandbox/receiver/flaky')).body;
    expect(before.config).toMatchObject({ status: 500, times: 2 - before.count });
    expect((await c.post('/_sandbox/clock/advance', { duration: '10m' })).status).toBe(200);
    await c.sandbox.settle();
    const after = (await c.get('/_sandbox/receiver/flaky')).body;
    const got = after.deliveries as Array<{ answered_status: number; msg_id: string; verified: boolean; event_type: string }>;
    expect(got.map((d) => d.answered_status)).toEqual([500, 500, 200]);
    expect(new Set(got.map((d) => d.msg_id)).size).toBe(1);
    expect(got.every((d) => d.verified && d.event_type === 'provider.connection.created')).toBe(true);
    // Back to the default answer once the failures are used up.
    expect(after.config).toEqual({ status: 200, body: { ok: true }, retry_after: null, headers: {} });
    const messages = (await c.get('/_sandbox/webhooks/messages')).body;
    const list = (messages.messages ?? messages.data ?? messages) as Array<Record<string, unknown>>;
    expect(list).toHaveLength(1);
    expect(JSON.stringify(list[0])).toContain('success');
    // Nothing more arrives later: the message is done.
    expect((await c.post('/_sandbox/clock/advance', { duration: '1d' })).status).toBe(200);
    await c.sandbox.settle();
    expect((await c.get('/_sandbox/receiver/flaky')).body.count).toBe(3);
  });

  it('PUT /_sandbox/scenario replaces the world, survives reset, and a bad one changes nothing (422 with the path)', async () => {
    const c = createClient(adapter, { users: 3, usersElsewhere: 0 });
    expect((await c.get('/v2/user')).body.total).toBe(3);
    const ok = await c.put('/_sandbox/scenario', { users: [{ client_user_id: 'only-one', connections: [{ provider: 'oura' }] }] });
    expect(ok.status, ok.text).toBe(200);
    expect((await c.get('/v2/user')).body.total).toBe(1);
    const bad = await c.put('/_sandbox/scenario', {
      users: [{ client_user_id: 'a' }, { client_user_id: 'b' }, { client_user_id: 'c', connections: [{ provider: 'fitbitt' }] }],
    });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].msg).toBe(
      'users[2].connections[0].provider: unknown provider "fitbitt" (demo providers: apple_health_kit, fitbit, freestyle_libre, oura)',
    );
    expect((await c.get('/v2/user/resolve/only-one')).status).toBe(200);
    expect((await c.post('/_sandbox/reset', {})).status).toBe(200);
    expect((await c.get('/v2/user')).body.total).toBe(1);
    expect((await c.delete('/_sandbox/scenario')).status).toBe(200);
    expect((await c.get('/v2/user')).body.total).toBe(3);
  });
});
