/**
 * Issue 40 items 4, 5 and 9 through the CLI (`--state-file`): a second server on the same file
 * exits 2 naming the lock and touches nothing, even with a busy port; a stale lock (its pid gone)
 * is taken; a location that cannot be written fails the start with exit 2; an exported world
 * document given as a state file is named as one; SIGTERM exits 0; a fault rule a GET used comes
 * back from the file after SIGKILL exactly as it was.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { killNow, type RunningCli, remoteClient, runCli, startCli } from './cli-support.js';

const running: RunningCli[] = [];
afterEach(() => {
  for (const cli of running.splice(0)) cli.proc.kill('SIGKILL');
});

const BASE = ['--seed', '6', '--clock', 'manual', '--users', '2', '--feed', 'off'];
const fresh = (): string => join(mkdtempSync(join(tmpdir(), 'hs-lock-')), 'world.state');

describe("the state file is one server's", () => {
  it('a second server on the same file exits 2 naming the lock, touching nothing (a busy port included)', async () => {
    const state = fresh();
    const first = await startCli(['--port', '0', ...BASE, '--state-file', state]);
    running.push(first);
    const c = remoteClient(first.line);
    expect((await c.post('/v2/user', { client_user_id: 'first' })).status).toBe(200);
    const bytes = readFileSync(state);
    const port = new URL(first.line.url).port;
    for (const args of [
      ['--port', '0'],
      ['--port', port],
    ]) {
      const second = await runCli([...args, ...BASE, '--state-file', state]);
      expect(second.code).toBe(2);
      expect(second.stderr).toMatch(/in use by another health-sandbox \(pid \d+/);
      expect(readFileSync(state).equals(bytes)).toBe(true);
    }
    // The first still writes, and its writes are kept.
    expect((await c.post('/v2/user', { client_user_id: 'after' })).status).toBe(200);
    expect(readFileSync(state).length).toBeGreaterThan(bytes.length);
  });

  it('a stale lock (its server killed) is taken; SIGTERM exits 0; a used fault rule comes back as it was', async () => {
    const state = fresh();
    const first = await startCli(['--port', '0', ...BASE, '--state-file', state]);
    running.push(first);
    const c = remoteClient(first.line);
    const user = (await c.post('/v2/user', { client_user_id: 'faulted' })).body.user_id as string;
    const rule = { match: { method: 'GET', path: '/v2/user/*' }, action: { status: 503 }, times: 3, probability: 0.7 };
    expect((await c.post('/_sandbox/faults', rule)).status).toBe(200);
    for (let i = 0; i < 3; i++) await c.get(`/v2/user/${user}`);
    const saved = (await c.get('/_sandbox/faults')).body.faults;
    expect(saved[0].matched).toBe(3);
    await killNow(first);
    expect(readFileSync(`${state}.lock`, 'utf8').trim()).toBe(String(first.proc.pid));

    const second = await startCli(['--port', '0', ...BASE, '--state-file', state]);
    running.push(second);
    const d = remoteClient(second.line);
    expect((await d.get('/_sandbox/faults')).body.faults).toEqual(saved);
    const exited = new Promise<number | null>((done) => second.proc.once('exit', (code) => done(code)));
    second.proc.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('a location that cannot be written fails the start with exit 2', async () => {
    const state = join(tmpdir(), 'hs-no-such-dir', String(process.pid), 'world.state');
    const res = await runCli(['--port', '0', ...BASE, '--state-file', state]);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/cannot be written \(ENOENT/);
  });

  it('an exported world document given as a state file is named as one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hs-doc-'));
    const doc = join(dir, 'world.json');
    writeFileSync(doc, `${JSON.stringify({ format: 'health-sandbox-world', version: 2, build: {}, log: [] })}\n`);
    const res = await runCli(['--port', '0', ...BASE, '--state-file', doc]);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/is a world document .*use --world-file/);
    expect(res.stderr).not.toMatch(/truncated/);
  });
});
