/**
 * Issue 47: a world saved as its state. Every store of every area and every scheduled job saves
 * and loads as data: a world that went through every route of the table is saved, loaded into a
 * sandbox of another seed, and saved again to the same bytes; both then live the same future
 * (canonical dumps equal after the same advance). What cannot be saved fails the save, naming
 * where: a closure in a store, an instance of a class nobody registered, a job kind nobody
 * registered; and no area schedules a closure.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jobKind } from '../../src/engine/job-kinds.js';
import type { Partition } from '../../src/engine/tenancy.js';
import { decodeState, encodeState, WorldCodecError } from '../../src/engine/world-codec.js';
import { saveWorldState } from '../../src/engine/world-state.js';
import { worldSlot } from '../../src/engine/world.js';
import { createClient } from '../support/client.js';
import { runRouteCases } from '../support/route-cases.js';
import { fixedWall, refusedDelivery } from '../support/route-requests.js';
import { differingParts, exportOf } from '../support/world-state.js';

const OPTIONS = {
  seed: 5,
  users: 4,
  usersElsewhere: 1,
  clock: 'manual',
  feed: 'on',
  logger: () => undefined,
  wallClock: fixedWall,
  webhookTransport: refusedDelivery,
} as const;

describe('a world saved as its state', () => {
  it('every store and job of a world that went through every route saves, loads into another seed and saves to the same bytes; the same future follows', async () => {
    const a = createClient('fetch', OPTIONS);
    await runRouteCases(a, () => undefined);
    await a.sandbox.advance(3600);
    await a.sandbox.settle();
    const saved = JSON.stringify(saveWorldState(a.sandbox.world));
    const doc = JSON.parse(JSON.stringify(a.sandbox.exportWorld()));
    expect(doc).toMatchObject({ version: 3, log: [] });
    expect(a.sandbox.world.scheduler.pending()).toBeGreaterThan(0);

    const b = createClient('fetch', { ...OPTIONS, seed: 77, from: doc });
    await b.sandbox.ready;
    expect(JSON.stringify(saveWorldState(b.sandbox.world))).toBe(saved);
    expect(differingParts(exportOf(a.sandbox.world), exportOf(b.sandbox.world))).toEqual([]);

    // The same future: two days of jobs (lab orders, pulls, the feed, retries, queries) on both.
    await a.sandbox.advance(2 * 86_400);
    await b.sandbox.advance(2 * 86_400);
    await a.sandbox.settle();
    await b.sandbox.settle();
    expect(differingParts(exportOf(a.sandbox.world), exportOf(b.sandbox.world))).toEqual([]);
    expect(JSON.stringify(saveWorldState(b.sandbox.world))).toBe(JSON.stringify(saveWorldState(a.sandbox.world)));
  }, 120_000);

  it('a default world restores in well under a millisecond per user', async () => {
    const a = createClient('fetch', { seed: 9, users: 400, clock: 'manual', feed: 'off', logger: () => undefined });
    await a.post('/v2/user', { client_user_id: 'one-more' });
    const doc = JSON.parse(JSON.stringify(a.sandbox.exportWorld()));
    expect(doc.state).toBeDefined();
    // Built from the state, not from the seed: restoring does not run the seeding (a bare world)
    // nor any replay (no inputs after the state). The timing itself is the bench's (`npm run bench -- --worlds`).
    const b = createClient('fetch', { seed: 1, users: 0, clock: 'manual', feed: 'off', logger: () => undefined, from: doc });
    await b.sandbox.ready;
    expect((await b.get('/v2/user', { query: { limit: '1' } })).body.total).toBe(401);
  });
});

describe('what cannot be saved fails the save, naming where', () => {
  it('a closure in a store, an unregistered class, a job kind nobody registered', async () => {
    const c = createClient('fetch', { seed: 2, users: 1, clock: 'manual', feed: 'off', logger: () => undefined });
    const world = c.sandbox.world;
    const leaky = worldSlot('test.leaky-store', () => ({ rows: new Map<string, unknown>() }));
    leaky(world).rows.set('r1', { onChange: () => undefined });
    expect(() => saveWorldState(world)).toThrow(WorldCodecError);
    expect(() => saveWorldState(world)).toThrow(/a function \(onChange\).* at \.slots\[\d+\]\.rows\["r1"\]\.onChange/);
    class Unregistered {
      n = 1;
    }
    leaky(world).rows.set('r1', new Unregistered());
    expect(() => saveWorldState(world)).toThrow(/an instance of Unregistered \(not a registered state class\)/);
    leaky(world).rows.clear();
    expect(() => saveWorldState(world)).not.toThrow();

    // A job is a registered kind and data: a kind object nobody registered cannot be scheduled.
    expect(() => world.scheduler.at(world.clock.now() + 1000, { name: 'test.nobody', run: () => undefined }, null)).toThrow(
      /not registered/,
    );
    // Its arguments are state: a closure among them fails the save.
    const kind = jobKind<{ partition: Partition; onDone: () => void }>('test.with-closure', () => undefined);
    const partition = world.tenancy.allPartitions()[0] as Partition;
    const job = world.scheduler.at(world.clock.now() + 1000, kind, { partition, onDone: () => undefined });
    expect(() => saveWorldState(world)).toThrow(/a function \(onDone\)/);
    expect(() => saveWorldState(world)).toThrow(/at \.scheduler\.jobs\[\d+\]\.args\.onDone$/);
    job.cancel();
    expect(() => saveWorldState(world)).not.toThrow();
  });

  it('the state form keeps shared objects shared, Map and Set order, and refuses what it does not know', () => {
    const row = { id: 'x', tags: new Set(['b', 'a']) };
    const value = { byId: new Map([['x', row]]), all: [row], when: new Date(5), n: [Number.NaN, -0, 1n], u: undefined, $k: 1 };
    const back = decodeState(JSON.parse(JSON.stringify(encodeState(value, new Map()))), new Map()) as typeof value;
    expect(back.byId.get('x')).toBe(back.all[0]);
    expect([...(back.all[0]?.tags ?? [])]).toEqual(['b', 'a']);
    expect(back.when.getTime()).toBe(5);
    expect(Object.is(back.n[1], -0)).toBe(true);
    expect(back.n[2]).toBe(1n);
    expect('u' in back && back.u === undefined).toBe(true);
    expect(back.$k).toBe(1);
    expect(() => decodeState({ $c: 'Nobody', f: {} }, new Map())).toThrow(/unknown state class "Nobody"/);
    expect(() => decodeState({ $r: 3 }, new Map())).toThrow(/reference to object 3/);
  });
});

describe('no area schedules a closure', () => {
  it('every scheduler.at / scheduler.after in src passes a job kind (a function argument is a closure: not data)', () => {
    const root = join(import.meta.dirname, '../..');
    const walk = (d: string): string[] =>
      readdirSync(d, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? walk(join(d, e.name)) : e.name.endsWith('.ts') ? [join(d, e.name)] : [],
      );
    const offenders: string[] = [];
    for (const file of walk(join(root, 'src'))) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/scheduler\.(?:at|after)\(([^;]*?)\);/gs))
        if (/=>|\bfunction\b/.test(m[1] ?? '')) offenders.push(`${relative(root, file)}: ${m[0].slice(0, 80)}`);
    }
    expect(offenders).toEqual([]);
    // The check sees a closure where there is one.
    expect(/=>/.test("world.scheduler.at(at, 'x', () => run())")).toBe(true);
  });
});
