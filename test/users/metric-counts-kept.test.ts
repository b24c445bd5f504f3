/**
 * Issue 45: `GET /v2/user/metrics` reads counts kept beside the stores (state/users/metric-counts.ts),
 * made at a team environment's first read and kept by every write that changes them. On both
 * adapters, a sandbox that reads the metrics after each change (twice at first, so the second
 * read is served from the counts the first made) answers what a fresh sandbox answers after the
 * same changes without the reads before: connections made (demo, Link import), errored,
 * reconnected, deregistered, paused (bulk pause, ingestion end), re-pulled, users deleted,
 * restored, purged and expired, lab orders placed, and the clock moving the weeks.
 */
import { expect, it } from 'vitest';
import { createClient, forEachAdapter, type AdapterName, type TestClient } from '../support/client.js';
import { newOrder } from '../support/lab-helpers.js';
import { fixedWall, refusedDelivery } from '../support/route-requests.js';

const OPTIONS = { seed: 45, users: 6, usersElsewhere: 0, feed: 'off', wallClock: fixedWall, webhookTransport: refusedDelivery } as const;
const DAY_S = 24 * 3600;

interface World {
  c: TestClient;
  /** The seeded users, then those the steps create (by client_user_id). */
  seeded: string[];
  made: Map<string, string>;
}

const made = (w: World, name: string): string => w.made.get(name) as string;

async function createUser(w: World, name: string): Promise<void> {
  const res = await w.c.post('/v2/user', { client_user_id: name });
  expect(res.status, res.text).toBe(200);
  w.made.set(name, res.body.user_id as string);
}

/** The provider of a seeded user's first current connection. */
async function providerOf(w: World, userId: string): Promise<string> {
  const providers = (await w.c.get(`/v2/user/providers/${userId}`)).body.providers as Array<{ slug: string }>;
  expect(providers.length).toBeGreaterThan(0);
  return (providers[0] as { slug: string }).slug;
}

const imported = (userIds: string[]) => ({
  provider: 'fitbit',
  connections: userIds.map((user_id) => ({
    user_id,
    access_token: 'at',
    refresh_token: 'rt',
    provider_id: 'p',
    expires_at: 1_800_000_000,
  })),
  wait_for_completion: true,
});

/** What changes the metrics, one step after the other (the same requests in every sandbox). */
const STEPS: ReadonlyArray<(w: World) => Promise<unknown>> = [
  async () => undefined,
  async () => undefined,
  (w) => createUser(w, 'metrics-a'),
  (w) => w.c.post('/v2/link/connect/demo', { user_id: made(w, 'metrics-a'), provider: 'oura' }),
  async (w) => {
    await createUser(w, 'metrics-b');
    await createUser(w, 'metrics-c');
    return w.c.post('/v2/link/bulk_import', imported([made(w, 'metrics-b'), made(w, 'metrics-c')]));
  },
  async (w) => w.c.post(`/_sandbox/connections/${w.seeded[1]}/${await providerOf(w, w.seeded[1] as string)}/error`, {}),
  async (w) => w.c.post(`/_sandbox/connections/${w.seeded[1]}/${await providerOf(w, w.seeded[1] as string)}/reconnect`),
  async (w) => w.c.post(`/_sandbox/connections/${w.seeded[0]}/${await providerOf(w, w.seeded[0] as string)}/error`, {}),
  // (not the Health SDK's connection: deregistering it has no effect in its default mode)
  (w) => w.c.delete(`/v2/user/${w.seeded[5]}/fitbit`),
  (w) => w.c.post('/v2/link/bulk_pause', { user_ids: [made(w, 'metrics-b')], provider: 'fitbit' }),
  (w) =>
    w.c.post('/v2/link/bulk_trigger_historical_pull', { user_ids: [made(w, 'metrics-c')], provider: 'fitbit', wait_for_completion: true }),
  async (w) => {
    // Ingestion ended: the connections pause once its catchment passed (on the next read of them).
    await w.c.patch(`/v2/user/${w.seeded[3]}`, { ingestion_end: '2025-06-01' });
    return w.c.get(`/v2/user/providers/${w.seeded[3]}`);
  },
  (w) => w.c.delete(`/v2/user/${w.seeded[0]}`),
  (w) => w.c.delete(`/v2/user/${w.seeded[2]}`),
  (w) => w.c.post('/v2/user/undo_delete', undefined, { query: { user_id: w.seeded[0] as string } }),
  (w) => newOrder(w.c, 'testkit'),
  (w) => w.c.advance(8 * DAY_S),
  (w) => w.c.advance(40 * DAY_S),
  (w) => w.c.post('/v2/link/bulk_import', imported([made(w, 'metrics-b')])),
];

async function worldOf(adapter: AdapterName): Promise<World> {
  const c = createClient(adapter, OPTIONS);
  const seeded = ((await c.get('/v2/user')).body.users as Array<{ user_id: string }>).map((u) => u.user_id);
  return { c, seeded, made: new Map() };
}

async function metrics(w: World): Promise<string> {
  const res = await w.c.get('/v2/user/metrics');
  expect(res.status).toBe(200);
  return res.bytes.toString('utf8');
}

forEachAdapter('users: the metrics follow every change', (adapter) => {
  it('a sandbox reading the metrics after every change answers what a fresh one answers after the same changes', async () => {
    const warm = await worldOf(adapter);
    const seen: string[] = [];
    for (const step of STEPS) {
      await step(warm);
      seen.push(await metrics(warm));
    }
    // The answer moves with the changes (so the comparison below compares something); pauses and
    // a new pull keep a connection counted as it was.
    const moved = STEPS.map((_, at) => at > 0 && seen[at] !== seen[at - 1]);
    expect(moved).toEqual(STEPS.map((_, at) => at > 1 && ![9, 10, 11].includes(at)));
    for (let at = 1; at < STEPS.length; at++) {
      const fresh = await worldOf(adapter);
      for (const step of STEPS.slice(0, at + 1)) await step(fresh);
      expect(await metrics(fresh), `after step ${at}`).toBe(seen[at]);
    }
  });
});

forEachAdapter('users: the metrics of a restored world', (adapter) => {
  it('a snapshot restored after changes answers the metrics it answered when taken (the counts are not saved)', async () => {
    const w = await worldOf(adapter);
    const before = await metrics(w);
    expect((await w.c.post('/_sandbox/snapshots', { name: 'metrics' })).status).toBe(201);
    for (const step of STEPS.slice(2, 9)) await step(w);
    const after = await metrics(w);
    expect(after).not.toBe(before);
    expect((await w.c.post('/_sandbox/snapshots/metrics/restore')).status).toBe(200);
    expect(await metrics(w)).toBe(before);
    // The restored world's counts follow its own changes.
    await STEPS[5]?.(w);
    const fresh = await worldOf(adapter);
    await STEPS[5]?.(fresh);
    expect(await metrics(w)).toBe(await metrics(fresh));
  });
});
