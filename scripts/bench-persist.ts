/**
 * Worlds that last (issue 30): what a restore costs, and what the state file adds to each
 * accepted write. `npx tsx scripts/bench-persist.ts [--quick]`; BENCHMARKS.md "Worlds that last".
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stateFileSink } from '../src/adapters/state-file.js';
import type { SimRequest } from '../src/engine/http-types.js';
import { createSandbox, type Sandbox, type SandboxOptions } from '../src/sandbox.js';
import { timed, worldBuildLine } from './bench-world.js';

const quick = process.argv.includes('--quick');
const encoder = new TextEncoder();

function post(sandbox: Sandbox, path: string, body: unknown): SimRequest {
  const key = sandbox.credentials().teams[0]?.api_keys.sandbox ?? '';
  return {
    method: 'POST',
    surface: 'data',
    path,
    query: {},
    headers: { 'x-service-api-key': key, 'content-type': 'application/json' },
    rawBody: encoder.encode(JSON.stringify(body)),
  };
}

const perUser = (ms: number, users: number): string => `${((ms * 1000) / Math.max(1, users)).toFixed(0)} us per user`;

async function restoreCost(users: number, rounds: number): Promise<void> {
  const sandbox = createSandbox({ users, limits: users <= 50, feed: 'off' });
  await sandbox.ready;
  sandbox.snapshot('base');
  await sandbox.restore('base'); // warm
  const { min, median } = await timed(rounds, () => sandbox.restore('base'));
  console.log(
    `restore a ${users}-user world's snapshot: fastest ${min.toFixed(2)} ms (${perUser(min, users)}), median ${median.toFixed(2)} ms (${perUser(median, users)})`,
  );
}

async function replayCost(writes: number, rounds: number): Promise<void> {
  const sandbox = createSandbox({ feed: 'off', limits: false });
  await sandbox.ready;
  sandbox.snapshot('before');
  for (let i = 0; i < writes; i++) await sandbox.dispatch(post(sandbox, '/v2/user', { client_user_id: `replay-${i}` }));
  sandbox.snapshot('after');
  const base = await timed(rounds, () => sandbox.restore('before'));
  const { min, median } = await timed(rounds, () => sandbox.restore('after'));
  console.log(
    `restore after ${writes} accepted writes: fastest ${min.toFixed(1)} ms, median ${median.toFixed(1)} ms (replay: ${(((min - base.min) * 1000) / writes).toFixed(0)} us per input, fastest)`,
  );
}

async function writeCost(options: SandboxOptions, label: string, writes: number): Promise<void> {
  const sandbox = createSandbox({ feed: 'off', limits: false, ...options });
  await sandbox.ready;
  for (let i = 0; i < 20; i++) await sandbox.dispatch(post(sandbox, '/v2/user', { client_user_id: `warm-${i}` }));
  const t = performance.now();
  for (let i = 0; i < writes; i++) await sandbox.dispatch(post(sandbox, '/v2/user', { client_user_id: `write-${i}` }));
  const us = ((performance.now() - t) * 1000) / writes;
  console.log(`POST /v2/user, ${label}: ${us.toFixed(0)} us per accepted write (mean)`);
}

async function main(): Promise<void> {
  console.log(await worldBuildLine(quick ? 5 : 15));
  await restoreCost(0, quick ? 5 : 40);
  await restoreCost(25, quick ? 5 : 40);
  await restoreCost(250, quick ? 3 : 15);
  await replayCost(quick ? 100 : 1000, quick ? 2 : 5);
  const writes = quick ? 100 : 1000;
  await writeCost({}, 'state file off (in-memory log only)', writes);
  const dir = mkdtempSync(join(tmpdir(), 'hs-bench-state-'));
  const sink = stateFileSink(join(dir, 'world.state'));
  try {
    await writeCost({ stateSink: sink }, 'state file on (append + fsync before the answer)', writes);
  } finally {
    sink.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
