/**
 * Snapshots, export/import and fork on every adapter that serves the control plane (express,
 * msw), through the control routes, the control client and `createSandbox`'s own methods: a
 * restore rewinds users, clock and pending jobs; a bad document or name changes nothing.
 */
import { expect, it } from 'vitest';
import { createSandbox } from '../../src/sandbox.js';
import { connectSandbox, startSandbox } from '../../src/testing.js';
import { createClient, forEachAdapter } from '../support/client.js';

const OPTIONS = { seed: 3, users: 2, usersElsewhere: 0, feed: 'off' } as const;

forEachAdapter('snapshots and worlds', (adapter) => {
  it('saves, lists, restores (clock and jobs included) and drops a snapshot', async () => {
    const c = createClient(adapter, OPTIONS);
    expect((await c.post('/v2/user', { client_user_id: 'kept' })).status).toBe(200);
    const saved = await c.post('/_sandbox/snapshots', { name: 'before-orders' });
    expect(saved.status).toBe(201);
    expect(saved.body).toMatchObject({ name: 'before-orders', seed: 3, now: '2026-01-05T09:00:00.000Z' });
    const users = (await c.get('/v2/user')).text;
    const jobs = (await c.get('/_sandbox/jobs')).text;

    expect((await c.post('/v2/user', { client_user_id: 'gone' })).status).toBe(200);
    expect((await c.advance(7200)).status).toBe(200);
    expect((await c.get('/v2/user')).text).not.toBe(users);

    const restored = await c.post('/_sandbox/snapshots/before-orders/restore');
    expect(restored.status).toBe(200);
    expect(restored.body).toEqual({ status: 'ok', seed: 3, now: '2026-01-05T09:00:00.000Z' });
    expect((await c.get('/v2/user')).text).toBe(users);
    expect((await c.get('/_sandbox/jobs')).text).toBe(jobs);
    expect((await c.get('/_sandbox/clock')).body.now).toBe('2026-01-05T09:00:00.000Z');

    expect((await c.get('/_sandbox/snapshots')).body.snapshots.map((s: { name: string }) => s.name)).toEqual(['before-orders']);
    expect((await c.delete('/_sandbox/snapshots/before-orders')).status).toBe(204);
    expect((await c.delete('/_sandbox/snapshots/before-orders')).status).toBe(404);
    expect((await c.post('/_sandbox/snapshots/before-orders/restore')).status).toBe(404);
    expect((await c.post('/_sandbox/snapshots', { name: 'no spaces/here' })).status).toBe(422);
  });

  it('exports the world and imports it into a sandbox of another seed, which keeps its keys', async () => {
    const a = createClient(adapter, OPTIONS);
    expect((await a.post('/v2/user', { client_user_id: 'exported' })).status).toBe(200);
    const doc = (await a.get('/_sandbox/world')).body;
    expect(doc).toMatchObject({ format: 'health-sandbox-world', version: 3 });

    const b = createClient(adapter, { ...OPTIONS, seed: 9 });
    const bad = await b.put('/_sandbox/world', { ...doc, version: 99 });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].msg).toMatch(/format version 99/);
    expect((await b.put('/_sandbox/world', { format: 'nope' })).status).toBe(422);
    expect(b.sandbox.world.seed).toBe(9);

    const put = await b.put('/_sandbox/world', doc);
    expect(put.status).toBe(200);
    const keys = (c: typeof a) => ({ ...c.sandbox.credentials(), base_url: '', management_url: '' });
    expect(keys(b)).toEqual(keys(a));
    // Requests with the imported world's keys read the same users.
    const users = (await a.get('/v2/user')).text;
    const fork = createClient(adapter, { ...OPTIONS, seed: 9, from: doc });
    await fork.sandbox.ready;
    expect((await fork.get('/v2/user')).text).toBe(users);
    // The fork is independent of the world it came from.
    expect((await fork.post('/v2/user', { client_user_id: 'only-in-fork' })).status).toBe(200);
    expect((await a.get('/v2/user')).text).toBe(users);
  });
});

it("createSandbox's snapshot(name) / restore(name) and the control client's methods", async () => {
  const sandbox = createSandbox(OPTIONS);
  const info = sandbox.snapshot('start');
  expect(info).toMatchObject({ name: 'start', inputs: 0 });
  await sandbox.advance('1d');
  expect(sandbox.world.clock.iso()).toBe('2026-01-06T09:00:00.000Z');
  await sandbox.restore('start');
  expect(sandbox.world.clock.iso()).toBe('2026-01-05T09:00:00.000Z');
  await expect(sandbox.restore('missing')).rejects.toThrow(/No snapshot named "missing"/);
  expect(() => createSandbox({ from: { format: 'health-sandbox-world', version: 0 } })).toThrow(/format version 0/);

  const server = await startSandbox(OPTIONS);
  try {
    const control = connectSandbox(server.url);
    await control.advance(60);
    expect(await control.snapshot('one')).toMatchObject({ name: 'one', now: '2026-01-05T09:01:00.000Z' });
    expect((await control.snapshots()).map((s) => s.name)).toEqual(['one']);
    await control.advance(60);
    expect(await control.restore('one')).toMatchObject({ now: '2026-01-05T09:01:00.000Z' });
    const doc = await control.exportWorld();
    await control.reset({ seed: 8 });
    expect(await control.importWorld(doc)).toMatchObject({ seed: 3, now: '2026-01-05T09:01:00.000Z' });
    await control.deleteSnapshot('one');
    expect(await control.snapshots()).toEqual([]);
  } finally {
    await server.close();
  }
});
