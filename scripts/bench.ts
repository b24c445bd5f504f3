/**
 * Benchmarks (npm run bench). Figures are reported as ratios against baselines measured in the
 * same run, because these machines are noisy:
 * - each request's cost relative to GET /_sandbox/health (the bare dispatch path);
 * - the same request in a world of 100k users relative to a world of 1k users (should be ~1:
 *   keyed lookups through indexes, no scans);
 * - world build time and heap per user at 1k and 100k users.
 * Usage: npm run bench [-- --quick]
 */
import { createSandbox, type Sandbox } from '../src/index.js';
import type { SimRequest } from '../src/http-types.js';
import { usersOf } from '../src/state/users.js';

const quick = process.argv.includes('--quick');
const ITER = quick ? 2_000 : 20_000;
const encoder = new TextEncoder();

interface Case {
  name: string;
  make(sandbox: Sandbox, i: number): SimRequest;
}

function request(sandbox: Sandbox, method: string, path: string, query: Record<string, string[]> = {}, body?: unknown): SimRequest {
  return {
    method,
    surface: 'data',
    path,
    query,
    headers: { 'x-service-api-key': sandbox.credentials().teams[0]?.api_keys.sandbox ?? '' },
    rawBody: body === undefined ? new Uint8Array(0) : encoder.encode(JSON.stringify(body)),
  };
}

function someUserId(sandbox: Sandbox, i: number): string {
  const team = [...sandbox.world.tenancy.teams.values()][0];
  if (!team) throw new Error('no team');
  const all = usersOf(sandbox.world.tenancy.partition(team, 'sandbox'), sandbox.world).all();
  return all[(i * 7919) % all.length]?.user_id ?? '';
}

const CASES: Case[] = [
  { name: 'GET /v2/user/:id', make: (s, i) => request(s, 'GET', `/v2/user/${someUserId(s, i)}`) },
  { name: 'GET /v2/user/resolve/:cid', make: (s) => request(s, 'GET', '/v2/user/resolve/bench-missing') },
  { name: 'GET /v2/user?offset=mid&limit=100', make: (s) => request(s, 'GET', '/v2/user', { offset: [String(Math.floor(s.options.users / 2))], limit: ['100'] }) },
  { name: 'POST /v2/user', make: (s, i) => request(s, 'POST', '/v2/user', {}, { client_user_id: `bench-${i}` }) },
];

async function time(sandbox: Sandbox, make: (i: number) => SimRequest, iterations: number): Promise<number> {
  const reqs = Array.from({ length: Math.min(iterations, 1000) }, (_, i) => make(i));
  for (let i = 0; i < Math.min(500, iterations); i++) await sandbox.dispatch(reqs[i % reqs.length] as SimRequest);
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) await sandbox.dispatch(reqs[i % reqs.length] as SimRequest);
  return Number(process.hrtime.bigint() - start) / iterations;
}

function build(users: number): { sandbox: Sandbox; ms: number; heapMb: number } {
  global.gc?.();
  const before = process.memoryUsage().heapUsed;
  const start = process.hrtime.bigint();
  const sandbox = createSandbox({ seed: 1, users, logger: () => undefined });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  global.gc?.();
  const heapMb = (process.memoryUsage().heapUsed - before) / 1e6;
  return { sandbox, ms, heapMb };
}

async function main(): Promise<void> {
  const small = build(1_000);
  const large = build(100_000);
  console.log(`World build: 1k users ${small.ms.toFixed(0)} ms, ${small.heapMb.toFixed(1)} MB; 100k users ${large.ms.toFixed(0)} ms, ${large.heapMb.toFixed(1)} MB`);
  console.log(`  per user: 1k ${((small.ms / 1000) * 1000).toFixed(1)} us, 100k ${((large.ms / 100_000) * 1000).toFixed(1)} us (ratio ${(large.ms / 100 / small.ms).toFixed(2)}); heap/user ratio ${(large.heapMb / 100 / Math.max(small.heapMb, 0.001)).toFixed(2)}${global.gc ? '' : ' (run with --expose-gc for exact heap)'}`);
  const baseSmall = await time(small.sandbox, () => ({ method: 'GET', surface: 'data', path: '/_sandbox/health', query: {}, headers: {}, rawBody: new Uint8Array(0) }), ITER);
  const baseLarge = await time(large.sandbox, () => ({ method: 'GET', surface: 'data', path: '/_sandbox/health', query: {}, headers: {}, rawBody: new Uint8Array(0) }), ITER);
  console.log(`\nBaseline GET /_sandbox/health: ${(baseSmall / 1000).toFixed(1)} us/op (1k world), ${(baseLarge / 1000).toFixed(1)} us/op (100k world)\n`);
  console.log(`${'case'.padEnd(40)} ${'x baseline (1k)'.padStart(16)} ${'x baseline (100k)'.padStart(18)} ${'100k / 1k'.padStart(10)}`);
  for (const c of CASES) {
    const t1 = await time(small.sandbox, (i) => c.make(small.sandbox, i), ITER);
    const t2 = await time(large.sandbox, (i) => c.make(large.sandbox, i), ITER);
    console.log(`${c.name.padEnd(40)} ${(t1 / baseSmall).toFixed(2).padStart(16)} ${(t2 / baseLarge).toFixed(2).padStart(18)} ${(t2 / baseLarge / (t1 / baseSmall)).toFixed(2).padStart(10)}`);
  }
}

void main();
