/**
 * Issue 40 items 1, 4 and 5 for the state file, over HTTP (node:http, express, msw) with the file
 * system injected: a write the disk refuses (ENOSPC) is not applied and answers 503 naming the
 * cause, the file stays readable at its last good state; an input past the file's size answers 413;
 * a request its handler refused leaves the file as it was; a fault rule a GET used is in the file.
 */
import * as fs from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readStateFile, type StateFs, stateFileSink } from '../../src/adapters/state-file.js';
import { ALL_ADAPTERS, createClient } from '../support/client.js';

const OPTIONS = { seed: 4, users: 2, usersElsewhere: 0, clock: 'manual', feed: 'off', logger: () => undefined } as const;

/** node:fs whose writes fail with `code` while `armed`. */
function flakyFs(): StateFs & { armed: string | null } {
  const out = {
    ...fs,
    armed: null as string | null,
    writeSync: ((...args: Parameters<typeof fs.writeSync>) => {
      if (out.armed !== null) throw Object.assign(new Error(`${out.armed}: refused`), { code: out.armed });
      return (fs.writeSync as (...a: unknown[]) => number)(...args);
    }) as typeof fs.writeSync,
  };
  return out;
}

const fresh = (): string => join(mkdtempSync(join(tmpdir(), 'hs-durable-')), 'world.state');

for (const adapter of ALL_ADAPTERS.filter((a) => a !== 'fetch')) {
  describe(`the state file keeps only what it made durable [${adapter}]`, () => {
    it('a write the disk refuses is not applied: 503 naming the cause, the file readable as it was', async () => {
      const path = fresh();
      const disk = flakyFs();
      const c = createClient(adapter, { ...OPTIONS, stateSink: stateFileSink(path, disk) });
      expect((await c.post('/v2/user', { client_user_id: 'before' })).status).toBe(200);
      const inputs = readStateFile(path)?.log.length;
      const users = (await c.get('/v2/user')).body.total;
      for (const code of ['ENOSPC', 'EIO', 'EROFS']) {
        disk.armed = code;
        const res = await c.post('/v2/user', { client_user_id: `refused-${code}` });
        expect(res.status).toBe(503);
        expect(res.body.detail).toContain(code);
        disk.armed = null;
        expect((await c.get('/v2/user')).body.total).toBe(users);
        expect(readStateFile(path)?.log.length).toBe(inputs);
      }
      expect((await c.post('/v2/user', { client_user_id: 'after' })).status).toBe(200);
      expect(readStateFile(path)?.log.length).toBe((inputs ?? 0) + 1);
    });

    it('an input that would take the file past its size answers 413 naming it', async () => {
      const path = fresh();
      const c = createClient(adapter, { ...OPTIONS, stateSink: stateFileSink(path, fs, 0) });
      await c.sandbox.ready;
      const res = await c.post('/v2/user', { client_user_id: 'too-much' });
      expect(res.status).toBe(413);
      expect(res.body.detail).toMatch(/past 0 bytes/);
    });

    it('a request its handler refused leaves the file as it was; a fault rule a GET used is saved in it', async () => {
      const path = fresh();
      const c = createClient(adapter, { ...OPTIONS, stateSink: stateFileSink(path) });
      const user = (await c.post('/v2/user', { client_user_id: 'kept' })).body.user_id as string;
      const inputs = readStateFile(path)?.log.length;
      expect((await c.delete('/v2/user/00000000-0000-0000-0000-000000000000')).status).toBe(404);
      expect(readStateFile(path)?.log.length).toBe(inputs);
      expect(
        (await c.post('/_sandbox/faults', { match: { method: 'GET', path: '/v2/user/*' }, action: { status: 503 }, times: 3 })).status,
      ).toBe(200);
      expect((await c.get(`/v2/user/${user}`)).status).toBe(503);
      const saved = readStateFile(path)?.stores as { faults: { rules: Array<{ fired: number; matched: number }> } };
      expect(saved.faults.rules[0]).toMatchObject({ fired: 1, matched: 1 });
    });
  });
}
