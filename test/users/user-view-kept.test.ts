/**
 * A user's view is kept from its second read (src/state/users/users.ts, issue 33's keyed reads)
 * and rendered once (render-cache.ts `sealView`): every change of the record or of the user's
 * connections shows in the next read, byte for byte what a fresh render gives. A read by id is
 * answered from the kept view without reading the record while the partition's users store has
 * not been written since (`keptUserView`); any write sends the next read back to the record.
 */
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/index.js';
import { sealView } from '../../src/engine/render-cache.js';
import { createClient, forEachAdapter, type TestClient } from '../support/client.js';

/** Three reads: the first notes the user, the second keeps its view, the third is served from it. */
async function readThrice(c: TestClient, userId: string): Promise<unknown> {
  const first = await c.get(`/v2/user/${userId}`);
  const second = await c.get(`/v2/user/${userId}`);
  const third = await c.get(`/v2/user/${userId}`);
  expect(second.text).toBe(first.text);
  expect(third.text).toBe(first.text);
  return third.body;
}

forEachAdapter('users: a kept view follows every change', (adapter) => {
  it('shows patches, connections, deregistrations, deletion and undo at the next read', async () => {
    const c = createClient(adapter, { seed: 33, users: 2, usersElsewhere: 0 });
    const userId = (await c.post('/v2/user', { client_user_id: 'kept-1' })).body.user_id as string;
    expect(await readThrice(c, userId)).toMatchObject({ client_user_id: 'kept-1', connected_sources: [], fallback_time_zone: null });

    expect((await c.patch(`/v2/user/${userId}`, { fallback_time_zone: 'Europe/Paris', client_user_id: 'kept-2' })).status).toBe(204);
    expect(await readThrice(c, userId)).toMatchObject({ client_user_id: 'kept-2', fallback_time_zone: { id: 'Europe/Paris' } });
    expect((await c.patch(`/v2/user/${userId}`, { ingestion_start: '2026-01-01', fallback_birth_date: '1990-01-02' })).status).toBe(204);
    expect(await readThrice(c, userId)).toMatchObject({ ingestion_start: '2026-01-01', fallback_birth_date: { value: '1990-01-02' } });

    expect((await c.post('/v2/link/connect/demo', { user_id: userId, provider: 'oura' })).status).toBe(200);
    const connected = (await readThrice(c, userId)) as { connected_sources: Array<{ provider: { slug: string } }> };
    expect(connected.connected_sources.map((s) => s.provider.slug)).toEqual(['oura']);
    expect((await c.delete(`/v2/user/${userId}/oura`)).status).toBe(200);
    expect(await readThrice(c, userId)).toMatchObject({ connected_sources: [] });

    expect((await c.delete(`/v2/user/${userId}`)).status).toBe(200);
    expect((await c.get(`/v2/user/${userId}`)).status).toBe(404);
    expect((await c.post('/v2/user/undo_delete', undefined, { query: { user_id: userId } })).status).toBe(200);
    expect(await readThrice(c, userId)).toMatchObject({ client_user_id: 'kept-2', ingestion_start: '2026-01-01' });
  });

  it("another user's writes, a purge after the grace period and other tenants' keys see the record again", async () => {
    const c = createClient(adapter, { seed: 36, users: 2, usersElsewhere: 0 });
    const a = (await c.post('/v2/user', { client_user_id: 'kept-a' })).body.user_id as string;
    const b = (await c.post('/v2/user', { client_user_id: 'kept-b' })).body.user_id as string;
    const before = await readThrice(c, a);
    await readThrice(c, b);
    // A write to b moves the store's version: a's next read checks a's record, finds it the same, keeps its view.
    expect((await c.patch(`/v2/user/${b}`, { fallback_time_zone: 'Asia/Tokyo' })).status).toBe(204);
    expect(await readThrice(c, a)).toEqual(before);
    expect(await readThrice(c, b)).toMatchObject({ fallback_time_zone: { id: 'Asia/Tokyo' } });
    // A kept user is not visible through another team environment's key.
    for (const key of [c.creds.teams[0]?.api_keys.production, c.creds.teams[1]?.api_keys.sandbox]) {
      expect((await c.get(`/v2/user/${a}`, { headers: { 'x-service-api-key': key ?? '' } })).status).toBe(404);
    }
    // Deleted, then purged when the grace period ends: never served from the kept view.
    expect((await c.delete(`/v2/user/${a}`)).status).toBe(200);
    expect((await c.get(`/v2/user/${a}`)).status).toBe(404);
    expect((await c.advance(8 * 24 * 3600)).status).toBe(200);
    const gone = await c.get(`/v2/user/${a}`);
    expect(gone.status).toBe(404);
    expect((await c.get(`/v2/user/${a}`)).text).toBe(gone.text);
    expect(await readThrice(c, b)).toMatchObject({ client_user_id: 'kept-b' });
  });

  it('a kept view in a list page and in a single read are the same bytes as a fresh world gives', async () => {
    const c = createClient(adapter, { seed: 34, users: 3, usersElsewhere: 0 });
    const fresh = createClient(adapter, { seed: 34, users: 3, usersElsewhere: 0 });
    const list = (await c.get('/v2/user')).body as { users: Array<{ user_id: string }> };
    for (let k = 0; k < 3; k++) await c.get('/v2/user');
    for (const u of list.users) {
      await readThrice(c, u.user_id);
      expect((await c.get(`/v2/user/${u.user_id}`)).text).toBe((await fresh.get(`/v2/user/${u.user_id}`)).text);
    }
    expect((await c.get('/v2/user')).text).toBe((await fresh.get('/v2/user')).text);
  });
});

describe('keptUserView', () => {
  it("answers from the kept view without reading the user's record, and not once the store was written", async () => {
    const sandbox = createSandbox({ seed: 37, users: 3, usersElsewhere: 0, logger: () => undefined });
    const { keptUserView, userView, usersOf } = await import('../../src/state/users/users.js');
    const team = [...sandbox.world.tenancy.teams.values()][0];
    if (!team) throw new Error('no team');
    const partition = sandbox.world.tenancy.partition(team, 'sandbox');
    const store = usersOf(partition, sandbox.world);
    const [user, other] = store.all();
    if (!user || !other) throw new Error('no users');
    const id = `${user.user_id}`;
    expect(keptUserView({ world: sandbox.world, partition: partition }, id)).toBeUndefined();
    userView({ world: sandbox.world, partition: partition }, user, id);
    expect(keptUserView({ world: sandbox.world, partition: partition }, id)).toBeUndefined();
    const kept = userView({ world: sandbox.world, partition: partition }, user, id);
    // The record can no longer be read: the kept answer does not need it.
    const record = user as unknown as Record<string, unknown>;
    const fields = { ...record };
    for (const key of Object.keys(fields)) {
      Object.defineProperty(record, key, {
        configurable: true,
        get() {
          throw new Error(`read ${key}`);
        },
      });
    }
    expect(keptUserView({ world: sandbox.world, partition: partition }, id)).toBe(kept);
    for (const [key, value] of Object.entries(fields)) Object.defineProperty(record, key, { configurable: true, writable: true, value });
    // Any write to the store (here another user's patch) sends the next read back to the record.
    store.update(other, {
      fallback_time_zone: other.fallback_time_zone,
      fallback_birth_date: other.fallback_birth_date,
      ingestion_start: '2026-02-01',
      ingestion_end: other.ingestion_end,
    });
    expect(keptUserView({ world: sandbox.world, partition: partition }, id)).toBeUndefined();
    expect(userView({ world: sandbox.world, partition: partition }, user, id)).toBe(kept);
    expect(keptUserView({ world: sandbox.world, partition: partition }, id)).toBe(kept);
    store.markDeleted(user, { scheduled_at: '2026-01-01T00:00:00+00:00', purge_at: '2026-01-08T00:00:00+00:00' });
    expect(keptUserView({ world: sandbox.world, partition: partition }, id)).toBeUndefined();
  });
});

describe('kept views per world', () => {
  it("one world's connections leave another world's kept views alone; its own send them back to the record", async () => {
    const { keptUserView, userView, usersOf } = await import('../../src/state/users/users.js');
    const a = createClient('fetch', { seed: 38, users: 2, usersElsewhere: 0 });
    const b = createClient('fetch', { seed: 38, users: 2, usersElsewhere: 0 });
    const team = [...a.sandbox.world.tenancy.teams.values()][0];
    if (!team) throw new Error('no team');
    const partition = a.sandbox.world.tenancy.partition(team, 'sandbox');
    const user = usersOf(partition, a.sandbox.world).all()[0];
    if (!user) throw new Error('no user');
    userView({ world: a.sandbox.world, partition: partition }, user);
    const kept = userView({ world: a.sandbox.world, partition: partition }, user);
    expect(keptUserView({ world: a.sandbox.world, partition: partition }, user.user_id)).toBe(kept);
    const inB = (await b.post('/v2/user', { client_user_id: 'world-b' })).body.user_id as string;
    expect((await b.post('/v2/link/connect/demo', { user_id: inB, provider: 'oura' })).status).toBe(200);
    expect(keptUserView({ world: a.sandbox.world, partition: partition }, user.user_id)).toBe(kept);
    const inA = (await a.post('/v2/user', { client_user_id: 'world-a' })).body.user_id as string;
    expect(keptUserView({ world: a.sandbox.world, partition: partition }, user.user_id)).toBe(kept);
    expect((await a.post('/v2/link/connect/demo', { user_id: inA, provider: 'oura' })).status).toBe(200);
    expect(keptUserView({ world: a.sandbox.world, partition: partition }, user.user_id)).toBeUndefined();
  });
});

describe('sealView', () => {
  it('freezes the whole view; a kept user view cannot be written to', async () => {
    const view = sealView({ a: { b: [1, { c: 'x' }] } });
    expect(Object.isFrozen(view.a.b[1])).toBe(true);
    const sandbox = createSandbox({ seed: 35, users: 1, usersElsewhere: 0, logger: () => undefined });
    const { userView, usersOf } = await import('../../src/state/users/users.js');
    const team = [...sandbox.world.tenancy.teams.values()][0];
    if (!team) throw new Error('no team');
    const partition = sandbox.world.tenancy.partition(team, 'sandbox');
    const user = usersOf(partition, sandbox.world).all()[0];
    if (!user) throw new Error('no user');
    userView({ world: sandbox.world, partition: partition }, user);
    const kept = userView({ world: sandbox.world, partition: partition }, user);
    expect(userView({ world: sandbox.world, partition: partition }, user)).toBe(kept);
    expect(Object.isFrozen(kept)).toBe(true);
    expect(Object.isFrozen(kept.connected_sources)).toBe(true);
  });
});
