/**
 * Wall-clock reads replayed to the work that made them (issue 30): two endpoints delivered side
 * by side, the second answering before the first, so attempts finish in another order than they
 * started; the state file written while it ran (never closed: a kill), read back and restored
 * with another wall clock gives the same attempt log byte for byte (each attempt's signature
 * timestamp and `latency_ms` its own). A version 1 document (one ordered stream of reads) is
 * still read, and its world keeps its version; another version is refused, naming it.
 */
import { worldLogOf } from '../../src/engine/persist.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { readStateFile, stateFileSink } from '../../src/adapters/state-file.js';
import type { SimRequest } from '../../src/engine/http-types.js';
import { WorldLog } from '../../src/engine/persist.js';
import { createSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox.js';
import type { WebhookTransport } from '../../src/state/webhooks/transport.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A wall clock that moves 7 ms at every read, from `start`. */
function steppingWall(start: number): () => number {
  let t = start;
  return () => (t += 7);
}

/**
 * `/late` answers a message only once `/early` has answered it: attempts to the two endpoints
 * finish in the other order than they started. Records both orders.
 */
function crossingTransport() {
  const started: string[] = [];
  const finished: string[] = [];
  const early = new Map<string, () => void>();
  const waiting = new Map<string, Promise<void>>();
  const gate = (id: string): Promise<void> => {
    let open = waiting.get(id);
    if (!open) {
      open = new Promise<void>((resolve) => early.set(id, resolve));
      waiting.set(id, open);
    }
    return open;
  };
  const transport: WebhookTransport = async (request) => {
    const id = request.headers['svix-id'] ?? request.headers['webhook-id'] ?? '';
    const path = new URL(request.url).pathname;
    started.push(`${path} ${id}`);
    if (path === '/late') await gate(id);
    finished.push(`${path} ${id}`);
    if (path === '/early') {
      void gate(id);
      early.get(id)?.();
    }
    return { status: 200, headers: {}, body: 'ok' };
  };
  return { transport, started, finished };
}

function request(sandbox: Sandbox, method: string, surface: 'data' | 'management', path: string, body?: unknown): SimRequest {
  const creds = sandbox.credentials();
  const key: Record<string, string> =
    surface === 'management'
      ? { 'x-management-key': creds.management_key }
      : { 'x-service-api-key': creds.teams[0]?.api_keys.sandbox ?? '' };
  return {
    method,
    surface,
    path,
    query: path.endsWith('/attempts') ? { limit: ['1000'] } : {},
    headers: { ...key, 'content-type': 'application/json' },
    rawBody: body === undefined ? new Uint8Array(0) : encoder.encode(JSON.stringify(body)),
  };
}

async function call(sandbox: Sandbox, method: string, surface: 'data' | 'management', path: string, body?: unknown) {
  const res = await sandbox.dispatch(request(sandbox, method, surface, path, body));
  const text = decoder.decode(res.body);
  expect(res.status, text).toBeLessThan(300);
  return text;
}

const OPTIONS: SandboxOptions = { seed: 12, users: 1, usersElsewhere: 0, feed: 'off', clock: 'manual', logger: () => undefined };

it('attempts in flight at once get their own wall-clock reads back after a kill and a restore', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hs-wall-reads-'));
  dirs.push(dir);
  const file = join(dir, 'world.state');
  const sink = stateFileSink(file);
  const crossing = crossingTransport();
  const a = createSandbox({
    ...OPTIONS,
    wallClock: steppingWall(1_767_600_000_000),
    webhookTransport: crossing.transport,
    stateSink: sink,
  });
  await a.ready;
  const creds = a.credentials();
  const team = creds.teams[0]?.team_id ?? '';
  for (const path of ['/late', '/early'])
    await call(a, 'POST', 'management', `/v1/org/${creds.org_id}/team/${team}/sandbox/webhook`, { url: `http://receiver.test${path}` });
  const user = JSON.parse(await call(a, 'POST', 'data', '/v2/user', { client_user_id: 'side-by-side' })) as { user_id: string };
  await call(a, 'POST', 'data', '/v2/link/connect/demo', { user_id: user.user_id, provider: 'oura' });
  await a.advance(0);
  await a.settle();
  // The two endpoints' attempts did cross: they finished in another order than they started.
  expect(crossing.started.length).toBeGreaterThanOrEqual(2);
  expect(crossing.finished).not.toEqual(crossing.started);
  const before = await call(a, 'GET', 'data', '/_sandbox/webhooks/attempts');
  expect(JSON.parse(before).attempts.length).toBe(crossing.started.length);

  // The file as a SIGKILL leaves it (never closed), restored with another wall clock and no receiver.
  const doc = readStateFile(file);
  expect(doc?.version).toBe(3);
  const unreachable: WebhookTransport = () => Promise.reject(new Error('a restored world sent a delivery again'));
  const b = createSandbox({ ...OPTIONS, seed: 99, wallClock: steppingWall(1_900_000_000_000), webhookTransport: unreachable, from: doc });
  await b.ready;
  await b.settle();
  expect(await call(b, 'GET', 'data', '/_sandbox/webhooks/attempts')).toBe(before);
  sink.close();
});

it('reads a version 1 document (one ordered stream of reads) and keeps its version; refuses another, naming it', async () => {
  const a = createSandbox(OPTIONS);
  await call(a, 'POST', 'data', '/v2/user', { client_user_id: 'old-format' });
  // A version 1 document: the build and the inputs, as the log holds them (a version 3 export would carry the state instead).
  const log = JSON.parse(JSON.stringify(worldLogOf(a.world)?.entries ?? [])) as unknown[];
  expect(log.length).toBe(1);
  const v1 = { format: 'health-sandbox-world', version: 1, build: a.exportWorld().build, log };
  const b = createSandbox({ ...OPTIONS, from: v1 });
  await b.ready;
  expect(b.exportWorld().version).toBe(1);
  expect(await call(b, 'GET', 'data', '/v2/user')).toBe(await call(a, 'GET', 'data', '/v2/user'));
  expect(() => createSandbox({ from: { ...v1, version: 4 } })).toThrow(/format version 4; this build reads versions 1, 2 and 3 only/);

  // A version 1 state file is read; a version 3 one refused with its version named.
  const dir = mkdtempSync(join(tmpdir(), 'hs-wall-reads-'));
  dirs.push(dir);
  const file = join(dir, 'world.state');
  const sink = stateFileSink(file);
  sink.write(b.exportWorld());
  sink.close();
  expect(readStateFile(file)?.version).toBe(1);
  const v3 = stateFileSink(file);
  v3.write({ ...b.exportWorld(), version: 4 });
  v3.close();
  expect(() => readStateFile(file)).toThrow(/format version 4; this build reads versions 1, 2 and 3 only/);
});

it('a replay answers each key its own reads in the order it made them, whatever order the keys read in', () => {
  const build = { seed: 1, scenario: null, users: 0, usersElsewhere: 0, limits: true, feed: 'off', world: 'empty', startAt: 0 } as const;
  const live = new WorldLog(build, null);
  const wall = steppingWall(1000);
  const made = ['a', 'b', 'b', undefined, 'a'].map((key) => [key, live.wallRead(wall, key)] as const);
  live.advance(0);
  const entry = live.document().log[0];
  expect(entry).toEqual({ k: 'adv', ms: 0, w: [1028], wk: { a: [1007, 1035], b: [1014, 1021] } });

  // Replayed in another order (attempt b finished first this time): each key gets its own values.
  const replay = new WorldLog(build, live.document().log, 2);
  const other = steppingWall(5000);
  expect([
    replay.wallRead(other, 'b'),
    replay.wallRead(other, 'a'),
    replay.wallRead(other),
    replay.wallRead(other, 'b'),
    replay.wallRead(other, 'a'),
  ]).toEqual([1014, 1007, 1028, 1021, 1035]);
  // Reads the log has no answer for read the wall clock; a version 1 log answers every read from one ordered stream.
  expect(replay.wallRead(other, 'a')).toBe(5007);
  const v1 = new WorldLog(build, [{ k: 'adv', ms: 0, w: made.map(([, v]) => v) }], 1);
  expect([v1.wallRead(other, 'b'), v1.wallRead(other, 'a')]).toEqual([1007, 1014]);
});
