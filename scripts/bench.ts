/**
 * Benchmarks (npm run bench). Figures are reported as ratios against baselines measured in the
 * same run, because these machines are noisy:
 * - each request's cost relative to GET /_sandbox/health (the bare dispatch path);
 * - the same request in a world of 100k users relative to a world of 1k users (should be ~1:
 *   keyed lookups through indexes, no scans);
 * - world build time and heap per user at 1k and 100k users.
 * - `--http`: GET /v2/user/:id over HTTP through the node:http and express adapters against a bare
 *   node:http server (scripts/bench-http.ts).
 * - `--soak [--seconds N]`: steady writes, RSS after warm-up vs at the end (scripts/bench-soak.ts).
 * Usage: npm run bench [-- --quick] [-- --http] [-- --soak]
 */
import { createSandbox, type Sandbox } from '../src/index.js';
import type { SimRequest } from '../src/engine/http-types.js';
import { usersOf } from '../src/state/users/users.js';
import { benchHttp } from './bench-http.js';
import { benchSoak } from './bench-soak.js';

const quick = process.argv.includes('--quick');
const ITER = quick ? 300 : 3_000;
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

/** Ids the cases need, read once per sandbox through the API itself. */
const fixtures = new WeakMap<Sandbox, { orderId: string; firstUser: string }>();

async function prepare(sandbox: Sandbox): Promise<void> {
  const res = await sandbox.dispatch(request(sandbox, 'GET', '/v3/orders', { size: ['1'] }));
  const body = JSON.parse(Buffer.from(res.body).toString('utf8')) as { orders: Array<{ id: string }> };
  fixtures.set(sandbox, { orderId: body.orders[0]?.id ?? '', firstUser: someUserId(sandbox, 0) });
}

function fx(sandbox: Sandbox): { orderId: string; firstUser: string } {
  const f = fixtures.get(sandbox);
  if (!f) throw new Error('prepare() first');
  return f;
}

let created = 0;

const CASES: Case[] = [
  { name: 'GET /v2/user/:id', make: (s, i) => request(s, 'GET', `/v2/user/${someUserId(s, i)}`) },
  { name: 'GET /v2/user/resolve/:cid', make: (s) => request(s, 'GET', '/v2/user/resolve/bench-missing') },
  { name: 'GET /v2/user?offset=mid&limit=100', make: (s) => request(s, 'GET', '/v2/user', { offset: [String(Math.floor(s.options.users / 2))], limit: ['100'] }) },
  { name: 'GET /v2/user/providers/:id', make: (s) => request(s, 'GET', `/v2/user/providers/${fx(s).firstUser}`) },
  { name: 'GET /v2/timeseries/:id/heartrate (1 day)', make: (s) => request(s, 'GET', `/v2/timeseries/${fx(s).firstUser}/heartrate`, { start_date: ['2026-01-03'], end_date: ['2026-01-03'] }) },
  { name: 'GET /v2/summary/sleep/:id (7 days)', make: (s) => request(s, 'GET', `/v2/summary/sleep/${fx(s).firstUser}`, { start_date: ['2025-12-28'], end_date: ['2026-01-03'] }) },
  { name: 'GET /v3/order/:id', make: (s) => request(s, 'GET', `/v3/order/${fx(s).orderId}`) },
  { name: 'GET /v3/orders?size=50', make: (s) => request(s, 'GET', '/v3/orders', { size: ['50'] }) },
  { name: 'GET /v3/insurance/search/payor?insurance_name=aetna', make: (s) => request(s, 'GET', '/v3/insurance/search/payor', { insurance_name: ['aetna'] }) },
  { name: 'POST /v2/user', make: (s) => request(s, 'POST', '/v2/user', {}, { client_user_id: `bench-${++created}` }) },
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
  if (process.argv.includes('--soak')) {
    const at = process.argv.indexOf('--seconds');
    await benchSoak(at > 0 ? Number(process.argv[at + 1]) : 60);
    return;
  }
  if (process.argv.includes('--http')) {
    await benchHttp(quick);
    return;
  }
  const small = build(1_000);
  const large = build(100_000);
  await prepare(small.sandbox);
  await prepare(large.sandbox);
  console.log(`World build: 1k users ${small.ms.toFixed(0)} ms, ${small.heapMb.toFixed(1)} MB; 100k users ${large.ms.toFixed(0)} ms, ${large.heapMb.toFixed(1)} MB`);
  console.log(`  per user: 1k ${((small.ms / 1000) * 1000).toFixed(1)} us, 100k ${((large.ms / 100_000) * 1000).toFixed(1)} us (ratio ${(large.ms / 100 / small.ms).toFixed(2)}); heap/user ratio ${(large.heapMb / 100 / Math.max(small.heapMb, 0.001)).toFixed(2)}${global.gc ? '' : ' (run with --expose-gc for exact heap)'}`);
  const health = (): SimRequest => ({ method: 'GET', surface: 'data', path: '/_sandbox/health', query: {}, headers: {}, rawBody: new Uint8Array(0) });
  // Interleave the two worlds and keep the best of three rounds: the machines are noisy.
  const best = async (make: (s: Sandbox, i: number) => SimRequest): Promise<[number, number]> => {
    let t1 = Infinity;
    let t2 = Infinity;
    for (let round = 0; round < 3; round++) {
      t1 = Math.min(t1, await time(small.sandbox, (i) => make(small.sandbox, i), ITER));
      t2 = Math.min(t2, await time(large.sandbox, (i) => make(large.sandbox, i), ITER));
    }
    return [t1, t2];
  };
  const [baseSmall, baseLarge] = await best(() => health());
  console.log(`\nBaseline GET /_sandbox/health: ${(baseSmall / 1000).toFixed(1)} us/op (1k world), ${(baseLarge / 1000).toFixed(1)} us/op (100k world)\n`);
  console.log(`${'case'.padEnd(52)} ${'x baseline (1k)'.padStart(16)} ${'x baseline (100k)'.padStart(18)} ${'100k / 1k'.padStart(10)}`);
  for (const c of CASES) {
    const [t1, t2] = await best(c.make);
    console.log(`${c.name.padEnd(52)} ${(t1 / baseSmall).toFixed(2).padStart(16)} ${(t2 / baseLarge).toFixed(2).padStart(18)} ${(t2 / t1).toFixed(2).padStart(10)}`);
  }
}

void main();
