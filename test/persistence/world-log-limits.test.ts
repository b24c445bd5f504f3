/**
 * Issue 40, items 1, 3 and 5 over HTTP (node:http, express and msw adapters): the world's log
 * keeps only requests that authenticated and passed validation (a refused one, however large,
 * costs the log nothing); it is bounded per input (413 before the handler: nothing applied) and
 * in bytes (a save past it answers 409 naming the limit); a world document is held to the CLI's
 * and the control routes' limits (422 naming the field, the world unchanged) and no malformed one
 * answers 500; fault rules come back from a snapshot or an import exactly as they were at the save.
 */
import { describe, expect, it } from 'vitest';
import { WORLD_FORMAT, worldLogOf } from '../../src/engine/persist.js';
import { Rng } from '../../src/engine/rng.js';
import { ALL_ADAPTERS, createClient, type TestClient } from '../support/client.js';

const OPTIONS = { seed: 3, users: 2, usersElsewhere: 0, clock: 'manual', feed: 'off', logger: () => undefined } as const;
const ADAPTERS = ALL_ADAPTERS.filter((a) => a !== 'fetch');

/** Inputs the world's log holds in memory since its last checkpoint (a save would take a new one: read it directly). */
const logLength = async (c: TestClient): Promise<number> => {
  const log = worldLogOf(c.sandbox.world);
  if (!log) throw new Error('no world log');
  return log.entries.length;
};

for (const adapter of ADAPTERS) {
  describe(`the world log keeps only what can change the world [${adapter}]`, () => {
    it('a refused request (no key, bad key, invalid input, unknown user) never enters the log', async () => {
      const c = createClient(adapter, OPTIONS);
      const before = await logLength(c);
      const big = 'x'.repeat(200_000);
      expect((await c.post('/v2/user', { client_user_id: 'a', big }, { anonymous: true })).status).toBe(401);
      expect((await c.post('/v2/user', { client_user_id: 'a', big }, { headers: { 'x-service-api-key': 'sk_us_wrong' } })).status).toBe(
        401,
      );
      expect((await c.post('/v2/user', { client_user_id: 42, big })).status).toBe(422);
      expect((await c.delete('/v2/user/00000000-0000-0000-0000-000000000000')).status).toBe(404);
      expect(await logLength(c)).toBe(before);
      // An accepted one does.
      expect((await c.post('/v2/user', { client_user_id: 'kept' })).status).toBe(200);
      expect(await logLength(c)).toBe(before + 1);
    });

    it('one input larger than the log keeps is refused with 413 and not applied', async () => {
      const c = createClient(adapter, OPTIONS);
      const log = worldLogOf(c.sandbox.world);
      if (!log) throw new Error('no world log');
      log.entryLimit = 4096;
      const users = (await c.get('/v2/user')).body.total;
      const res = await c.post('/v2/user', { client_user_id: 'too-big', ignored: 'y'.repeat(8000) });
      expect(res.status).toBe(413);
      expect(res.body.detail).toMatch(/4096 bytes/);
      expect((await c.get('/v2/user')).body.total).toBe(users);
      expect((await c.post('/v2/user', { client_user_id: 'small' })).status).toBe(200);
    });

    it('past the bytes the log keeps in memory, a quiet world saves its state: the inputs go, saving still works (issue 47)', async () => {
      const c = createClient(adapter, OPTIONS);
      const log = worldLogOf(c.sandbox.world);
      if (!log) throw new Error('no world log');
      log.byteLimit = 20_000;
      for (let i = 0; i < 2; i++) expect((await c.post('/v2/user', { client_user_id: `u${i}`, pad: 'z'.repeat(6000) })).status).toBe(200);
      expect(log.entries.length).toBe(2);
      expect(log.hasCheckpoint).toBe(false);
      expect((await c.post('/v2/user', { client_user_id: 'u2', pad: 'z'.repeat(6000) })).status).toBe(200);
      // The third passed the bound: the answer left, the world was quiet, its state replaced its inputs.
      expect(log.entries.length).toBe(0);
      expect(log.hasCheckpoint).toBe(true);
      const res = await c.get('/_sandbox/world');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ version: 3, log: [] });
      expect((await c.post('/_sandbox/snapshots', { name: 'past' })).status).toBe(201);
      const users = (await c.get('/v2/user')).body.total;
      const d = createClient(adapter, { ...OPTIONS, from: res.body });
      await d.sandbox.ready;
      expect((await d.get('/v2/user')).body.total).toBe(users);
    });
  });

  describe(`world documents are held to the limits [${adapter}]`, () => {
    it('refuses, naming the field, a document past a limit, and keeps the world', async () => {
      const c = createClient(adapter, OPTIONS);
      const doc = (await c.get('/_sandbox/world')).body;
      const now = (await c.get('/_sandbox/clock')).text;
      const bad: Array<[string, unknown]> = [
        ['build.users', { ...doc, build: { ...doc.build, users: 5_000_000 } }],
        ['build.startAt', { ...doc, build: { ...doc.build, startAt: 1e20 } }],
        ['build.seed', { ...doc, build: { ...doc.build, seed: 2 ** 40 } }],
        ['log.0.ms', { ...doc, log: [{ k: 'adv', ms: 1e15 }] }],
        ['log.0.at', { ...doc, log: [{ k: 'req', at: -1, m: 'POST', s: 'data', p: '/v2/user', q: {}, h: {}, b: '' }] }],
        ['log', { ...doc, log: Array.from({ length: 50_001 }, () => ({ k: 'wall' })) }],
        ['build.scenario', { ...doc, build: { ...doc.build, scenario: { version: 99 } } }],
        ['stores', { ...doc, stores: { faults: { rules: 'no' } } }],
      ];
      for (const [field, body] of bad) {
        const res = await c.put('/_sandbox/world', body);
        expect(res.status, field).toBe(422);
        expect(JSON.stringify(res.body), field).toContain(field);
      }
      expect((await c.get('/_sandbox/clock')).text).toBe(now);
    });

    it('answers every malformed document 4xx, never 500', async () => {
      const c = createClient(adapter, OPTIONS);
      expect((await c.post('/v2/user', { client_user_id: 'fuzz' })).status).toBe(200);
      const doc = (await c.get('/_sandbox/world')).body as Record<string, unknown>;
      const rng = new Rng(40);
      const junk = [null, true, -1, 1e308, '', 'x', [], {}, [{}], { k: 'req' }, Number.MAX_SAFE_INTEGER];
      const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rng.next() * xs.length)] as T;
      /** Every path to a value in the document. */
      const paths = (v: unknown, at: Array<string | number> = []): Array<Array<string | number>> =>
        typeof v !== 'object' || v === null
          ? [at]
          : [at, ...Object.entries(v).flatMap(([k, x]) => paths(x, [...at, Array.isArray(v) ? Number(k) : k]))];
      const all = paths(doc).filter((p) => p.length > 0);
      for (let i = 0; i < 40; i++) {
        const copy = JSON.parse(JSON.stringify(doc)) as Record<string, unknown>;
        const path = pick(all);
        let holder = copy as Record<string | number, unknown>;
        for (const key of path.slice(0, -1)) holder = holder[key] as Record<string | number, unknown>;
        holder[path.at(-1) as string | number] = pick(junk);
        const res = await c.put('/_sandbox/world', copy);
        expect(res.status, `${path.join('.')}`).toBeLessThan(500);
      }
      expect((await c.put('/_sandbox/world', '{"format":')).status).toBeLessThan(500);
      expect((await c.put('/_sandbox/world', { format: WORLD_FORMAT, version: 2 })).status).toBe(422);
    });
  });

  describe(`fault rules come back as they were at the save [${adapter}]`, () => {
    it('remaining times, counters and the seeded draws, after GETs used them (snapshot and import)', async () => {
      const c = createClient(adapter, OPTIONS);
      const add = await c.post('/_sandbox/faults', {
        match: { method: 'GET', path: '/v2/user/*' },
        action: { status: 503 },
        times: 6,
        probability: 0.5,
      });
      expect(add.status).toBe(200);
      const user = (await c.post('/v2/user', { client_user_id: 'faulted' })).body.user_id as string;
      for (let i = 0; i < 4; i++) await c.get(`/v2/user/${user}`);
      const saved = (await c.get('/_sandbox/faults')).body.faults;
      expect(saved[0].matched).toBe(4);
      const doc = (await c.get('/_sandbox/world')).body;
      expect((await c.post('/_sandbox/snapshots', { name: 'used' })).status).toBe(201);
      // What the next GETs answer from here, live.
      const next = async (d: TestClient): Promise<number[]> => {
        const out: number[] = [];
        // The imported world keeps the saved world's keys.
        for (let i = 0; i < 8; i++) out.push((await d.get(`/v2/user/${user}`, { headers: { 'x-service-api-key': c.apiKey } })).status);
        return out;
      };
      const live = await next(c);
      // Restored from the snapshot: the rule as saved, the same answers next.
      expect((await c.post('/_sandbox/snapshots/used/restore', {})).status).toBe(200);
      expect((await c.get('/_sandbox/faults')).body.faults).toEqual(saved);
      expect(await next(c)).toEqual(live);
      // Imported into another sandbox (another seed): the same.
      const d = createClient(adapter, { ...OPTIONS, seed: 9 });
      expect((await d.put('/_sandbox/world', doc)).status).toBe(200);
      expect((await d.get('/_sandbox/faults')).body.faults).toEqual(saved);
      expect(await next(d)).toEqual(live);
    });
  });
}
