/**
 * Worlds II (issue 47): the usual first setup (one webhook endpoint taking every event, a state
 * file) over 30 simulated days: deliveries made, the state file's size, whether snapshots and
 * exports answer 2xx, and what a restart on the file costs, against a replay of the same world's
 * every input (how worlds were restored before: version 2). `npm run bench -- --worlds [--quick]`.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readStateFile, stateFileSink } from '../src/adapters/state-file.js';
import type { SimRequest } from '../src/engine/http-types.js';
import { type WorldDocument, worldLogOf } from '../src/engine/persist.js';
import { createSandbox, type Sandbox } from '../src/sandbox.js';
import type { WebhookTransport } from '../src/state/webhooks/transport.js';

const encoder = new TextEncoder();
const DAY = 86_400;

function request(sandbox: Sandbox, method: string, surface: 'data' | 'management', path: string, body?: unknown): SimRequest {
  const creds = sandbox.credentials();
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (surface === 'data') headers['x-vital-api-key'] = creds.teams[0]?.api_keys.sandbox ?? '';
  else headers['x-management-key'] = creds.management_key;
  return {
    method,
    surface,
    path,
    query: {},
    headers,
    rawBody: body === undefined ? new Uint8Array() : encoder.encode(JSON.stringify(body)),
  };
}

/** A receiver that takes every event at once. */
const takesAll: WebhookTransport = async () => ({ status: 200, headers: { 'content-type': 'application/json' }, body: '{"ok":true}' });

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function ready(from: WorldDocument, file?: string): Promise<{ ms: number; sandbox: Sandbox }> {
  const t = performance.now();
  const sandbox = createSandbox({
    from,
    webhookTransport: takesAll,
    logger: () => undefined,
    ...(file ? { stateSink: stateFileSink(file) } : {}),
  });
  await sandbox.ready;
  return { ms: performance.now() - t, sandbox };
}

/**
 * The same setup over `days`, restored both ways in the same run: from its state (version 3) and
 * by replaying its build and every input (version 2, how worlds were restored before issue 47).
 */
async function baseline(days: number): Promise<void> {
  const sandbox = createSandbox({ clock: 'manual', webhookTransport: takesAll, logger: () => undefined });
  await sandbox.ready;
  const log = worldLogOf(sandbox.world);
  if (!log) throw new Error('no world log');
  // Every input kept (no checkpoint), as before.
  log.limit = Number.POSITIVE_INFINITY;
  log.byteLimit = Number.POSITIVE_INFINITY;
  const creds = sandbox.credentials();
  const team = creds.teams[0]?.team_id ?? '';
  await sandbox.dispatch(
    request(sandbox, 'POST', 'management', `/v1/org/${creds.org_id}/team/${team}/sandbox/webhook`, {
      url: 'https://receiver.example/hooks',
    }),
  );
  await sandbox.dispatch(request(sandbox, 'POST', 'data', '/_sandbox/clock/advance', { seconds: days * DAY }));
  await sandbox.settle();
  const replayed: WorldDocument = { format: 'health-sandbox-world', version: 2, build: log.build, log: [...log.entries] };
  const state = JSON.parse(JSON.stringify(sandbox.exportWorld())) as WorldDocument;
  const v2 = await ready(JSON.parse(JSON.stringify(replayed)));
  const v3 = await ready(state);
  console.log(
    `${days} days restored: from its state ${v3.ms.toFixed(0)} ms, by replaying its ${replayed.log.length} inputs ${v2.ms.toFixed(0)} ms (${(v2.ms / v3.ms).toFixed(1)}x); documents ${mb(JSON.stringify(state).length)} and ${mb(JSON.stringify(replayed).length)}`,
  );
  for (const s of [sandbox, v2.sandbox, v3.sandbox]) s.close();
}

/** Starts the CLI on a state file and answers the ms until its start line (the world restored, the port bound). */
function cliReady(file: string): Promise<number> {
  const t = performance.now();
  const child = spawn(process.execPath, ['dist/cli.js', '--state-file', file, '--port', '0', '--json', '--clock', 'manual'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.stdout.once('data', () => {
      const ms = performance.now() - t;
      child.once('exit', () => resolve(ms));
      child.kill('SIGTERM');
    });
    child.once('error', reject);
  });
}

/** A default world's snapshot restored (per user), from its state. */
async function restorePerUser(users: number): Promise<void> {
  const sandbox = createSandbox({ users, limits: false, feed: 'off', logger: () => undefined });
  await sandbox.ready;
  await sandbox.dispatch(request(sandbox, 'POST', 'data', '/v2/user', { client_user_id: 'one-more' }));
  sandbox.snapshot('base');
  const times: number[] = [];
  for (let i = 0; i < 7; i++) {
    const t = performance.now();
    await sandbox.restore('base');
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const median = times[3] ?? 0;
  console.log(
    `restore a ${users}-user world's snapshot (its state): median ${median.toFixed(1)} ms, ${((median * 1000) / users).toFixed(0)} us per user`,
  );
  sandbox.close();
}

export async function benchWorlds(quick: boolean): Promise<void> {
  await restorePerUser(quick ? 200 : 1000);
  const days = quick ? 3 : 30;
  const dir = mkdtempSync(join(tmpdir(), 'hs-bench-worlds-'));
  const file = join(dir, 'world.state');
  try {
    const sink = stateFileSink(file);
    const sandbox = createSandbox({ clock: 'manual', webhookTransport: takesAll, stateSink: sink, logger: () => undefined });
    await sandbox.ready;
    const creds = sandbox.credentials();
    const team = creds.teams[0]?.team_id ?? '';
    const hook = await sandbox.dispatch(
      request(sandbox, 'POST', 'management', `/v1/org/${creds.org_id}/team/${team}/sandbox/webhook`, {
        url: 'https://receiver.example/hooks',
      }),
    );
    if (hook.status >= 300) throw new Error(`endpoint: ${hook.status}`);
    let biggest = 0;
    const t = performance.now();
    // One advance of the whole month (the file's size sampled while it runs), as the user did.
    const sampler = setInterval(() => {
      biggest = Math.max(biggest, statSync(file).size);
    }, 50);
    const res = await sandbox.dispatch(request(sandbox, 'POST', 'data', '/_sandbox/clock/advance', { seconds: days * DAY }));
    clearInterval(sampler);
    if (res.status !== 200) throw new Error(`advance: ${res.status}`);
    await new Promise((r) => setTimeout(r, 1)); // the state file's compaction runs after the answer
    biggest = Math.max(biggest, statSync(file).size);
    const caused = JSON.parse(new TextDecoder().decode(res.body)).caused as { deliveries: number };
    const advanced = performance.now() - t;
    await sandbox.settle();
    const snapshot = await sandbox.dispatch(request(sandbox, 'POST', 'data', '/_sandbox/snapshots', { name: 'month' }));
    const exported = await sandbox.dispatch(request(sandbox, 'GET', 'data', '/_sandbox/world'));
    const size = statSync(file).size;
    console.log(
      `${days} days with one endpoint taking every event: advanced in ${(advanced / 1000).toFixed(1)} s; snapshot ${snapshot.status}, export ${exported.status} (${mb(exported.body.length)}); ${caused.deliveries} deliveries`,
    );
    console.log(`state file: ${mb(size)} at the end, at most ${mb(biggest)} while the advance ran (goal under 50 MB)`);
    sink.close();
    sandbox.close();

    const t0 = performance.now();
    const doc = readStateFile(file) as WorldDocument;
    const read = performance.now() - t0;
    const restart = await ready(doc);
    console.log(
      `restart on the state file: read in ${read.toFixed(0)} ms, healthy ${(read + restart.ms).toFixed(0)} ms after the start (goal within 5000 ms); inputs after its state: ${doc.log.length}`,
    );
    restart.sandbox.close();
    console.log(`the CLI on the state file (node dist/cli.js --state-file, --json): ready in ${(await cliReady(file)).toFixed(0)} ms`);
    await baseline(Math.min(days, 3));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1]?.endsWith('bench-worlds.ts')) void benchWorlds(process.argv.includes('--quick'));
