/**
 * Kept user views never go stale (issue 33: a read by id is answered from a kept view without
 * reading the record while the partition's users store is unwritten). fast-check draws sequences
 * of creates, patches, deletions, undos, connections, deregistrations, clock moves and reads; every
 * read in the world that has read all along must give the bytes a fresh world gives after the same
 * writes alone (its first read: nothing kept). `HEALTH_SANDBOX_SLOW_TESTS=1` runs more sequences.
 */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { createClient, type TestClient, type TestResponse } from '../support/client.js';
import { runCount } from '../support/run-size.js';

const OPTIONS = { seed: 41, users: 2, usersElsewhere: 0, feed: 'off' } as const;
const PROVIDERS = ['oura', 'fitbit'] as const;

type Write =
  | { kind: 'create'; cid: number }
  | { kind: 'patch'; user: number; body: Record<string, unknown> }
  | { kind: 'delete'; user: number }
  | { kind: 'undo'; user: number }
  | { kind: 'connect'; user: number; provider: number }
  | { kind: 'deregister'; user: number; provider: number }
  | { kind: 'advance'; days: number };
type Read = { kind: 'get'; user: number } | { kind: 'resolve'; cid: number } | { kind: 'list' };
type Step = Write | Read;

const user = fc.nat({ max: 3 });
const cid = fc.nat({ max: 4 });
const patchBody = fc.oneof(
  fc.record({ fallback_time_zone: fc.constantFrom('Europe/Paris', 'Asia/Tokyo', null) }),
  fc.record({ fallback_birth_date: fc.constantFrom('1990-01-02', '1985-06-30', null) }),
  fc.record({ ingestion_start: fc.constantFrom('2026-01-01', null) }),
  fc.record({ client_user_id: cid.map((n) => `prop-${n}`) }),
);
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 2, arbitrary: cid.map((n): Step => ({ kind: 'create', cid: n })) },
  { weight: 2, arbitrary: fc.tuple(user, patchBody).map(([u, body]): Step => ({ kind: 'patch', user: u, body })) },
  { weight: 1, arbitrary: user.map((u): Step => ({ kind: 'delete', user: u })) },
  { weight: 1, arbitrary: user.map((u): Step => ({ kind: 'undo', user: u })) },
  { weight: 1, arbitrary: fc.tuple(user, fc.nat({ max: 1 })).map(([u, p]): Step => ({ kind: 'connect', user: u, provider: p })) },
  { weight: 1, arbitrary: fc.tuple(user, fc.nat({ max: 1 })).map(([u, p]): Step => ({ kind: 'deregister', user: u, provider: p })) },
  { weight: 1, arbitrary: fc.constantFrom(1, 8).map((d): Step => ({ kind: 'advance', days: d })) },
  { weight: 6, arbitrary: user.map((u): Step => ({ kind: 'get', user: u })) },
  { weight: 2, arbitrary: cid.map((n): Step => ({ kind: 'resolve', cid: n })) },
  { weight: 1, arbitrary: fc.constant<Step>({ kind: 'list' }) },
);

/** The world's users in the order this run made them (the seeded ones first). */
async function userIds(c: TestClient): Promise<string[]> {
  const list = (await c.get('/v2/user', { query: { limit: 100 } })).body as { users: Array<{ user_id: string }> };
  return list.users.map((u) => u.user_id);
}

/** Sends one write; the ids a step names are those of `ids` (the users this world has made, seeded first). */
async function write(c: TestClient, ids: string[], w: Write): Promise<void> {
  const id = (n: number): string => ids[n % ids.length] ?? 'none';
  if (w.kind === 'create') {
    const res = await c.post('/v2/user', { client_user_id: `prop-${w.cid}` });
    if (res.status === 200) ids.push(res.body.user_id as string);
  } else if (w.kind === 'patch') await c.patch(`/v2/user/${id(w.user)}`, w.body);
  else if (w.kind === 'delete') await c.delete(`/v2/user/${id(w.user)}`);
  else if (w.kind === 'undo') await c.post('/v2/user/undo_delete', undefined, { query: { user_id: id(w.user) } });
  else if (w.kind === 'connect') await c.post('/v2/link/connect/demo', { user_id: id(w.user), provider: PROVIDERS[w.provider] });
  else if (w.kind === 'deregister') await c.delete(`/v2/user/${id(w.user)}/${PROVIDERS[w.provider]}`);
  else await c.advance(w.days * 24 * 3600);
}

function read(c: TestClient, ids: string[], r: Read): Promise<TestResponse> {
  if (r.kind === 'get') return c.get(`/v2/user/${ids[r.user % ids.length] ?? 'none'}`);
  if (r.kind === 'resolve') return c.get(`/v2/user/resolve/prop-${r.cid}`);
  return c.get('/v2/user', { query: { limit: 100 } });
}

it('a world that reads all along answers every read as a fresh world does after the same writes', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(step, { minLength: 4, maxLength: 24 }), async (steps) => {
      // The live world runs the whole sequence first; each of its reads is then checked against a
      // fresh world that has seen the writes before it and nothing else.
      const live = createClient('fetch', OPTIONS);
      const ids = await userIds(live);
      const writes: Write[] = [];
      const checks: Array<{ writes: number; read: Read; got: TestResponse }> = [];
      for (const s of steps) {
        if (s.kind === 'get' || s.kind === 'resolve' || s.kind === 'list') {
          // Read twice first, so the third read is answered from the kept view when nothing changed.
          await read(live, ids, s);
          await read(live, ids, s);
          checks.push({ writes: writes.length, read: s, got: await read(live, ids, s) });
        } else {
          writes.push(s);
          await write(live, ids, s);
        }
      }
      for (const check of checks) {
        const fresh = createClient('fetch', OPTIONS);
        const freshIds = await userIds(fresh);
        for (const w of writes.slice(0, check.writes)) await write(fresh, freshIds, w);
        const want = await read(fresh, freshIds, check.read);
        expect({ status: check.got.status, text: check.got.text }).toEqual({ status: want.status, text: want.text });
      }
    }),
    { numRuns: runCount(150, 30), seed: 20261127 },
  );
});
