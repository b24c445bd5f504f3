/**
 * The state file through the CLI (`--state-file`): the route-table requests and their
 * preconditions change every area (users, connections, orders at several statuses, appointments,
 * webhook endpoints, management teams and keys, continuous queries), a delivery fails and waits
 * for its retry, SIGKILL follows the last answer at once; the restarted CLI answers every GET route
 * alike and delivers the pending message. The same file cut at any offset is refused (exit 2, one
 * line naming the file), and left as it was; one of another format version too (in process).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readStateFile, StateFileError } from '../../src/adapters/state-file.js';
import type { Route } from '../../src/engine/route.js';
import { surfaceOf } from '../../src/engine/router.js';
import { ROUTES } from '../../src/routes.js';
import type { CallOptions, TestClient } from '../support/client.js';
import { routeIds, validRequest } from '../support/valid-requests.js';
import { queryFor } from '../support/route-params.js';
import { killNow, type RunningCli, remoteClient, runCli, startCli } from './cli-support.js';

// The request journal is what this process was sent: a restarted process starts its own (and the
// integration report counts the requests this world was sent: a replay sends no reads).
const GETS = ROUTES.filter(
  (r) =>
    r.method === 'GET' &&
    r.id !== 'meta.docs.asset' &&
    !r.path.startsWith('/_sandbox/world') &&
    !r.path.startsWith('/_sandbox/requests') &&
    !r.path.startsWith('/_sandbox/report'),
);
const running: RunningCli[] = [];
afterEach(() => {
  for (const cli of running.splice(0)) cli.proc.kill('SIGKILL');
});

async function readAll(c: TestClient, requests: Map<Route, { path: string; options: CallOptions }>): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const [route, request] of requests) {
    const res = await c.call('GET', request.path, { ...request.options, surface: surfaceOf(route), redirect: 'manual' });
    // Measured latencies and signature timestamps included: each attempt reads its own back (keyed wall reads).
    out.set(route.id, `${res.status} ${res.text}`);
  }
  return out;
}

function whereDiffer(a: string, b: string): string {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return `at ${i}: ${a.slice(Math.max(0, i - 120), i + 80)} <> ${b.slice(Math.max(0, i - 120), i + 80)}`;
}

describe('the state file survives SIGKILL', () => {
  it('restores every answer and delivers what was pending', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hs-state-'));
    const state = join(dir, 'world.state');
    const args = ['--seed', '4', '--clock', 'manual', '--users', '3', '--feed', 'off', '--state-file', state];
    const first = await startCli(['--port', '0', ...args]);
    running.push(first);
    const port = new URL(first.line.url).port;
    const c = remoteClient(first.line);
    const ids = await routeIds(c);
    const requests = new Map<Route, { path: string; options: CallOptions }>();
    let serial = 0;
    for (const route of GETS) requests.set(route, await validRequest(c, route, ids, serial++, queryFor(route)));
    // Orders move on (several statuses), continuous queries run, a day of jobs.
    expect((await c.advance(86_400)).status).toBe(200);
    // The receiver fails: the next delivery is recorded failed and waits for its retry.
    expect((await c.put('/_sandbox/receiver/params', { status: 500 })).status).toBe(200);
    const user = (await c.post('/v2/user', { client_user_id: 'made-before-the-kill' })).body;
    expect((await c.post('/v2/link/connect/demo', { user_id: user.user_id, provider: 'oura' })).status).toBe(200);
    await c.get('/_sandbox/webhooks/messages'); // the attempt (failed: 500) is recorded once its answer is in
    expect((await c.get('/_sandbox/jobs')).text).toMatch(/webhook (attempts|retry)/);
    const before = await readAll(c, requests);
    const messages = (await c.get('/_sandbox/webhooks/messages')).text;
    await killNow(first);

    const second = await startCli(['--port', port, ...args]);
    running.push(second);
    const d = remoteClient(second.line);
    expect(second.line.management_key).toBe(first.line.management_key);
    const after = await readAll(d, requests);
    const differ = [...before]
      .filter(([id, text]) => after.get(id) !== text)
      .map(([id, text]) => `${id}: ${whereDiffer(text, after.get(id) ?? '')}`);
    expect(differ).toEqual([]);
    expect((await d.get('/_sandbox/webhooks/messages')).text).toBe(messages);

    // The failed delivery is retried after the restart, now that the receiver answers.
    const received = (await d.get('/_sandbox/receiver/params')).body.deliveries.length;
    expect((await d.get('/_sandbox/jobs')).text).toMatch(/webhook (attempts|retry)/);
    expect((await d.put('/_sandbox/receiver/params', { status: 200 })).status).toBe(200);
    expect((await d.advance(3600)).status).toBe(200);
    expect((await d.get('/_sandbox/receiver/params')).body.deliveries.length).toBeGreaterThan(received);
    await killNow(second);

    // Cut at any offset: refused with one line naming the file, and the file left as it was.
    const whole = readFileSync(state);
    const cuts = new Set<number>([0, 1, whole.length - 1, whole.length - 2]);
    for (let i = 1; i < 60; i++) cuts.add(Math.floor((whole.length * i) / 60));
    // Every line boundary too (a cut there leaves only whole lines).
    for (let i = whole.indexOf(10); i >= 0 && cuts.size < 400; i = whole.indexOf(10, i + 1)) cuts.add(i + 1);
    cuts.delete(whole.length);
    const cut = join(dir, 'cut.state');
    for (const at of cuts) {
      writeFileSync(cut, whole.subarray(0, at));
      expect(() => readStateFile(cut), `cut at ${at}`).toThrow(StateFileError);
      try {
        readStateFile(cut);
      } catch (error) {
        expect((error as Error).message).toContain(cut);
        expect((error as Error).message).not.toContain('\n');
      }
    }
    writeFileSync(cut, whole.subarray(0, Math.floor(whole.length / 2)));
    const refused = await runCli(['--port', '0', '--state-file', cut]);
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr).toContain(`state file ${cut}:`);
    expect(readFileSync(cut).equals(whole.subarray(0, Math.floor(whole.length / 2)))).toBe(true);
    // A file of another format version is refused with the version named, by the same reader the
    // CLI's refusal above goes through (in process: the exit and its one line are proven above).
    writeFileSync(cut, whole.toString('utf8').replace('"version":3', '"version":7'));
    expect(() => readStateFile(cut)).toThrow(StateFileError);
    expect(() => readStateFile(cut)).toThrow(/corrupt|version 7/);
  }, 120_000);
});
