/**
 * Worlds built again with a seed already built in the process (a restore, a reset, a fork) copy
 * their seeded lab orders from the first build (fixtures/labs/lab-world.ts): the copy is the same
 * world byte for byte, and each world's orders are its own (an order moved in one world stays put
 * in another built from the same seed, before or after the move).
 */
import { expect, it } from 'vitest';
import { snapshotWorld } from '../../src/engine/snapshot.js';
import { createSandbox, type Sandbox } from '../../src/sandbox.js';

const decoder = new TextDecoder();
const OPTIONS = { seed: 41, users: 2, usersElsewhere: 1, feed: 'off' } as const;

async function get(sandbox: Sandbox, method: string, path: string, query: Record<string, string[]> = {}) {
  const res = await sandbox.dispatch({
    method,
    surface: 'data',
    path,
    query,
    headers: { 'x-service-api-key': sandbox.credentials().teams[0]?.api_keys.sandbox ?? '' },
    rawBody: new Uint8Array(0),
  });
  return { status: res.status, text: decoder.decode(res.body) };
}

it('a world built again from a seed is the same world, and its orders are its own', async () => {
  const first = createSandbox(OPTIONS);
  const dump = snapshotWorld(first.world);
  const orders = await get(first, 'GET', '/v3/orders', { size: ['100'] });
  const listed = JSON.parse(orders.text) as { orders: Array<{ id: string; status: string; lab_test: { method: string } }> };
  const moving = listed.orders.find((o) => o.status === 'received' && o.lab_test.method === 'testkit');
  expect(moving).toBeDefined();
  const id = moving?.id ?? '';
  const untouched = (await get(first, 'GET', `/v3/order/${id}`)).text;

  const second = createSandbox(OPTIONS);
  expect(snapshotWorld(second.world)).toBe(dump);
  // Moved in the second world only: the first world and a world built afterwards keep it as seeded.
  const moved = await get(second, 'POST', `/v3/order/${id}/test`, {});
  expect(moved.status, moved.text).toBe(200);
  expect((await get(second, 'GET', `/v3/order/${id}`)).text).not.toBe(untouched);
  expect((await get(first, 'GET', `/v3/order/${id}`)).text).toBe(untouched);
  const third = createSandbox(OPTIONS);
  expect((await get(third, 'GET', `/v3/order/${id}`)).text).toBe(untouched);
  expect(snapshotWorld(third.world)).toBe(dump);

  // A reset of the sandbox whose order moved, and a restore of a snapshot taken before the move.
  first.snapshot('seeded');
  expect((await get(first, 'POST', `/v3/order/${id}/test`, {})).status).toBe(200);
  await first.restore('seeded');
  expect((await get(first, 'GET', `/v3/order/${id}`)).text).toBe(untouched);
  second.reset();
  expect(snapshotWorld(second.world)).toBe(dump);
});

it('a realtime world is seeded at its start time, however long its build took', () => {
  /** A wall clock moving `step` ms at every read: a build that reads it as often takes longer or shorter. */
  const wall = (step: number) => {
    let t = 1_767_600_000_000;
    return () => (t += step);
  };
  const dump = (sandbox: Sandbox) => snapshotWorld(sandbox.world).replace(/^\{"seed":\d+,"now":"[^"]*"/, '');
  const a = createSandbox({ ...OPTIONS, seed: 43, clock: 'realtime', wallClock: wall(5) });
  const b = createSandbox({ ...OPTIONS, seed: 43, clock: 'realtime', wallClock: wall(13) });
  a.close();
  b.close();
  expect(dump(b)).toBe(dump(a));
  expect(dump(a)).toContain('"created_at"');
});
