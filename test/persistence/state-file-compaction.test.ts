/**
 * Issue 47: the state file is compacted into the world's state once its inputs pass a size
 * (`STATE_FILE_COMPACT_BYTES`, lowered here), atomically: a kill at any step of a compaction
 * leaves a file that loads, with every acknowledged write. The kill is a file system that dies at
 * its k-th call of the compaction (from then on every call fails, as nothing of a killed process
 * reaches the disk), for every k; the file is then read back with the real one. A compaction that
 * fails without a kill (ENOSPC on the temporary file) keeps the file taking inputs.
 */
import * as fs from 'node:fs';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readStateFile, type StateFs, stateFileSink } from '../../src/adapters/state-file.js';
import { worldLogOf } from '../../src/engine/persist.js';
import { createClient } from '../support/client.js';
import { differingParts, exportOf } from '../support/world-state.js';

const OPTIONS = { seed: 4, users: 2, usersElsewhere: 0, clock: 'manual', feed: 'off', logger: () => undefined } as const;

const fresh = (): string => join(mkdtempSync(join(tmpdir(), 'hs-compact-')), 'world.state');

/** node:fs that dies at its `killAt`-th call once armed (every call after fails too). */
function mortalFs(): StateFs & { arm(killAt: number): void; calls: number; dead: boolean } {
  let armedAt: number | null = null;
  const state = { calls: 0, dead: false };
  const wrap = <F extends (...args: never[]) => unknown>(f: F): F =>
    ((...args: never[]) => {
      if (armedAt !== null) {
        if (state.calls++ >= armedAt) state.dead = true;
        if (state.dead) throw Object.assign(new Error('killed'), { code: 'EKILLED' });
      }
      return f(...args);
    }) as F;
  return Object.assign(state, {
    openSync: wrap(fs.openSync),
    writeSync: wrap(fs.writeSync),
    fsyncSync: wrap(fs.fsyncSync),
    closeSync: wrap(fs.closeSync),
    renameSync: wrap(fs.renameSync),
    ftruncateSync: wrap(fs.ftruncateSync),
    unlinkSync: wrap(fs.unlinkSync),
    arm(killAt: number) {
      armedAt = killAt;
      state.calls = 0;
    },
  });
}

async function usersIn(doc: ReturnType<typeof readStateFile>): Promise<string[]> {
  const c = createClient('fetch', { ...OPTIONS, from: doc });
  await c.sandbox.ready;
  const list = (await c.get('/v2/user', { query: { limit: '100' } })).body.users as Array<{ client_user_id: string }>;
  return list.map((u) => u.client_user_id);
}

describe('the state file is compacted into the world state', () => {
  it('once its inputs pass the size: the file holds the state and no inputs, and loads the same world', async () => {
    const path = fresh();
    const c = createClient('node', { ...OPTIONS, stateSink: stateFileSink(path) });
    await c.sandbox.ready;
    const log = worldLogOf(c.sandbox.world);
    if (!log) throw new Error('no world log');
    log.compactBytes = Number.POSITIVE_INFINITY;
    for (let i = 0; i < 8; i++) expect((await c.post('/v2/user', { client_user_id: `kept-${i}` })).status).toBe(200);
    const before = readStateFile(path);
    expect(before?.state).toBeUndefined();
    expect(before?.log.length).toBe(8);
    log.compact();
    const after = readStateFile(path);
    expect(after).toMatchObject({ version: 3, log: [] });
    expect(after?.state).toBeDefined();
    expect(await usersIn(after)).toEqual(await usersIn(before));
    // Inputs after the compaction go after the state.
    expect((await c.post('/v2/user', { client_user_id: 'after' })).status).toBe(200);
    expect(readStateFile(path)?.log.length).toBe(1);
    expect(await usersIn(readStateFile(path))).toContain('after');

    // On its own: past the size, the answer leaves and the next turn of the event loop compacts.
    log.compactBytes = 2_000;
    for (let i = 0; i < 6; i++) expect((await c.post('/v2/user', { client_user_id: `more-${i}` })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 0));
    const auto = readStateFile(path);
    expect(auto?.log.length).toBeLessThan(6);
    expect(await usersIn(auto)).toEqual(expect.arrayContaining(['after', 'more-5']));
  });

  it('a kill at any step of a compaction leaves a file that loads with every acknowledged write', async () => {
    let steps = 0;
    for (let killAt = 0; ; killAt++) {
      const path = fresh();
      const disk = mortalFs();
      const c = createClient('fetch', { ...OPTIONS, stateSink: stateFileSink(path, disk) });
      await c.sandbox.ready;
      const log = worldLogOf(c.sandbox.world);
      if (!log) throw new Error('no world log');
      log.compactBytes = Number.POSITIVE_INFINITY;
      const acknowledged: string[] = [];
      for (let i = 0; i < 5; i++)
        if ((await c.post('/v2/user', { client_user_id: `ack-${i}` })).status === 200) acknowledged.push(`ack-${i}`);
      disk.arm(killAt);
      log.compact();
      // After the kill nothing more is acknowledged (the dead disk refuses), before it everything is.
      const late = await c.post('/v2/user', { client_user_id: 'late' });
      if (late.status === 200) acknowledged.push('late');
      const doc = readStateFile(path);
      const users = await usersIn(doc);
      for (const name of acknowledged) expect(users, `kill at step ${killAt}: ${name}`).toContain(name);
      if (!disk.dead) {
        steps = killAt;
        break;
      }
      expect(readFileSync(path).length).toBeGreaterThan(0);
    }
    // The compaction has steps to kill it at (temporary file, writes, fsync, rename, the directory, the handle).
    expect(steps).toBeGreaterThan(5);
  });

  it('a compaction the disk refuses (ENOSPC) leaves the file taking inputs', async () => {
    const path = fresh();
    let refuse = false;
    const disk: StateFs = {
      ...fs,
      openSync: ((file: fs.PathLike, ...rest: unknown[]) => {
        if (refuse && String(file).endsWith('.tmp')) throw Object.assign(new Error('ENOSPC: no space'), { code: 'ENOSPC' });
        return (fs.openSync as (...a: unknown[]) => number)(file, ...rest);
      }) as typeof fs.openSync,
    };
    const c = createClient('fetch', { ...OPTIONS, stateSink: stateFileSink(path, disk) });
    await c.sandbox.ready;
    const log = worldLogOf(c.sandbox.world);
    if (!log) throw new Error('no world log');
    expect((await c.post('/v2/user', { client_user_id: 'one' })).status).toBe(200);
    refuse = true;
    log.compact();
    refuse = false;
    expect((await c.post('/v2/user', { client_user_id: 'two' })).status).toBe(200);
    expect(await usersIn(readStateFile(path))).toEqual(expect.arrayContaining(['one', 'two']));
  });
});

describe('a long advance is checkpointed between its jobs', () => {
  it('the file is compacted while the advance runs, and that file (its state, then the rest of the advance) restores to the same world', async () => {
    const path = fresh();
    let calls = 0;
    let middle = false;
    const answer = { status: 200, headers: { 'content-type': 'application/json' }, body: '{"ok":true}' };
    const wall = () => Date.parse('2026-01-05T09:00:00Z');
    const options = { ...OPTIONS, users: 3, feed: 'on', wallClock: wall } as const;
    let log: ReturnType<typeof worldLogOf>;
    const receiver = async () => {
      calls++;
      // Once the advance was checkpointed between its jobs, no more compactions: the file keeps that
      // state and every input after it, as a kill at the end of the advance leaves it.
      if (!middle && log?.hasCheckpoint && log.entries[0]?.k === 'adv') {
        middle = true;
        log.compactBytes = Number.POSITIVE_INFINITY;
      }
      return answer;
    };
    const a = createClient('fetch', { ...options, webhookTransport: receiver, stateSink: stateFileSink(path) });
    await a.sandbox.ready;
    log = worldLogOf(a.sandbox.world);
    if (!log) throw new Error('no world log');
    log.compactBytes = 30_000;
    const team = a.creds.teams[0]?.team_id;
    expect(
      (await a.mgmt('POST', `/v1/org/${a.orgId}/team/${team}/sandbox/webhook`, { body: { url: 'https://receiver.test/all' } })).status,
    ).toBe(200);
    expect((await a.post('/_sandbox/clock/advance', { seconds: 2 * 86_400 })).status).toBe(200);
    await a.sandbox.settle();
    expect(calls).toBeGreaterThan(200);
    expect(middle).toBe(true);
    const doc = readStateFile(path);
    expect(doc?.state).toBeDefined();
    expect(doc?.log[0]).toMatchObject({ k: 'adv' });
    expect(doc?.log.length).toBeGreaterThan(10);
    // Restored elsewhere (another seed, a receiver that must not be called: its answers are in the file).
    const unreachable = () => Promise.reject(new Error('a restored world sent a delivery again'));
    const b = createClient('fetch', { ...options, webhookTransport: unreachable, seed: 99, from: doc });
    await b.sandbox.ready;
    await b.sandbox.settle();
    expect(b.sandbox.world.clock.now()).toBe(a.sandbox.world.clock.now());
    expect(differingParts(exportOf(a.sandbox.world), exportOf(b.sandbox.world))).toEqual([]);
  }, 60_000);
});
