/**
 * Benchmarks (npm run bench). Figures are reported as ratios against baselines measured in the
 * same run, because these machines are noisy:
 * - each request's cost relative to GET /_sandbox/health (the bare dispatch path);
 * - the same request in a world of 100k users relative to a world of 1k users (should be ~1:
 *   keyed lookups through indexes, no scans);
 * - world build time and heap per user at 1k and 100k users.
 * - `--gets [--users N] [--rounds N] [--ms N]`: every route-table GET in process against GET /v2/user/:id (scripts/bench-gets.ts).
 * - `--http`: GET /v2/user/:id over HTTP through the node:http and express adapters against a bare
 *   node:http server (scripts/bench-http.ts).
 * - `--soak [--seconds N]`: steady writes, RSS after warm-up vs at the end (scripts/bench-soak.ts);
 *   `--soak --mix`: 4 readers, 2 writers, a clock loop advancing 1 h, a 200 and a 500 receiver
 *   (scripts/bench/soak-mix.ts, issue 27).
 * - `--webhooks`: verified deliveries per second, event-to-receipt latency at 500 events/s, and the
 *   feed with one endpoint listening to everything, against fetch one-at-a-time (scripts/bench-webhooks.ts).
 * - `--gen`: the wearable feed's event generation alone, CPU per event cold and warm (scripts/bench-gen.ts).
 * - `--startup`: `import('health-sandbox')` against `import('msw')`, CLI ready against a bare
 *   node:http server's spawn (scripts/bench-startup.ts; needs `npm run build`).
 * - `--advance`: 30 days of the default world delivered to one catch-all endpoint at the default
 *   settings, against a bare node:http client (scripts/bench-advance.ts).
 * - `--msw`: GET /v2/user/:id by fetch through msw's setupServer, the sandbox's handlers against a
 *   trivial handler answering from a Map (scripts/bench-msw.ts).
 * - `--docs`: `/docs` time to interactive in Chromium, the users area's document against the whole
 *   data document (scripts/bench-docs.ts).
 * - `--before <dir>` (with the default run, `--startup` or `--http`): also measures another
 *   checkout (its dist/ for start-up, its src/ for HTTP) in the same rounds: before/after in one run.
 * - `--keyed [--rounds N] [--case <text>] [--gc]`: only the keyed reads, 100k users against 1k (scripts/bench-keyed.ts;
 *   `--gc`: a full collection forced before each round);
 *   `--keyed --slices`: GET /v2/user/:id with the worlds taking turns every 300 requests.
 * The default run does all but the soak and the peers.
 * Usage: npm run bench [-- --quick] [-- --http] [-- --webhooks] [-- --soak] [-- --peers: against Prism and Mockoon] [-- --time: only the clock cases] [-- --slow: also 250 users listening 7 days] [-- --gen: feed generation alone] [-- --orders: only GET /v3/orders at 1k vs 100k orders] [-- --startup] [-- --advance] [-- --msw] [-- --before <dir>] [-- --ecg: the plain ECG voltage list against JSON.stringify] [-- --worlds: a month with a catch-all endpoint and a state file, restores from state against replay]
 */
import { createSandbox, type Sandbox, type SandboxOptions } from '../src/index.js';
import type { SimRequest } from '../src/engine/http-types.js';
import { fx, keyedReads, keyedSlices, prepare, request, someUserId } from './bench-keyed.js';
import { usersOf } from '../src/state/users/users.js';
import { prettyLine, requestLogger } from '../src/adapters/request-log.js';
import { benchHttp } from './bench-http.js';
import { benchSoak } from './bench-soak.js';
import { benchSoakMix } from './bench/soak-mix.js';
import { benchPeers } from './bench-peers.js';
import { benchWebhooks } from './bench-webhooks.js';
import { createEndpoint } from './bench-endpoint.js';
import { benchGeneration } from './bench-gen.js';
import { benchStartup } from './bench-startup.js';
import { benchAdvance } from './bench-advance.js';
import { benchMsw } from './bench-msw.js';
import { benchDocs } from './bench-docs.js';
import { benchEcg } from './bench-ecg.js';
import { benchWorlds } from './bench-worlds.js';
import { worldBuildLine } from './bench-world.js';

if (process.argv.includes('--peers')) {
  // The peers comparison (Prism, Mockoon CLI on the real OpenAPI) runs alone: see bench-peers.ts.
  await benchPeers();
  process.exit(0);
}

const quick = process.argv.includes('--quick');
const ITER = quick ? 300 : 3_000;
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
    const seconds = at > 0 ? Number(process.argv[at + 1]) : 60;
    await (process.argv.includes('--mix') ? benchSoakMix(seconds) : benchSoak(seconds));
    return;
  }
  if (!process.argv.includes('--keyed')) console.log(`\n${await worldBuildLine(quick ? 5 : 15)}`);
  const small = build(1_000);
  const large = build(100_000);
  await prepare(small.sandbox);
  await prepare(large.sandbox);
  console.log(
    `World build: 1k users ${small.ms.toFixed(0)} ms, ${small.heapMb.toFixed(1)} MB; 100k users ${large.ms.toFixed(0)} ms, ${large.heapMb.toFixed(1)} MB`,
  );
  console.log(
    `  per user: 1k ${((small.ms / 1000) * 1000).toFixed(1)} us, 100k ${((large.ms / 100_000) * 1000).toFixed(1)} us (ratio ${(large.ms / 100 / small.ms).toFixed(2)}); heap/user ratio ${(large.heapMb / 100 / Math.max(small.heapMb, 0.001)).toFixed(2)}${global.gc ? '' : ' (run with --expose-gc for exact heap)'}`,
  );
  if (process.argv.includes('--slices')) {
    await keyedSlices(small.sandbox, large.sandbox);
    return;
  }
  const asked = process.argv.indexOf('--rounds');
  const rounds = asked > 0 ? Number(process.argv[asked + 1]) : quick ? 3 : 7;
  const only = process.argv.indexOf('--case');
  await keyedReads(small.sandbox, large.sandbox, {
    rounds,
    iterations: ITER,
    ...(only > 0 ? { only: process.argv[only + 1] as string } : {}),
    gcEachRound: process.argv.includes('--gc'),
  });
  if (process.argv.includes('--keyed')) return;
  await browserBundleSize();
}

/** Gzip size of a browser bundle of the core and the msw entry (esbuild, minified, code splitting). */
async function browserBundleSize(): Promise<void> {
  const { bundleBrowser, MINIMAL_PAGE } = await import('../test/browser/bundle.js');
  const b = await bundleBrowser(MINIMAL_PAGE);
  const kb = (n: number): string => `${(n / 1024).toFixed(1)} KiB`;
  const lazy = [...b.chunks.values()].reduce((n, c) => n + c.length, 0);
  console.log(
    `\nBrowser bundle (health-sandbox + health-sandbox/msw, esbuild --minify): initial ${kb(b.gzipBytes)} gzip (${kb(b.bytes)} raw), lazy chunks ${kb(lazy)} raw`,
  );
  console.log(`  Node built-ins reached: ${b.nodeBuiltins.join(', ') || 'none'} (the PDF writer is the package's own, no library)`);
}

// ---------------------------------------------------------------------------------------------
// GET /v3/orders at 100k orders: the same requests against a team environment holding 1k and
// 100k orders (created over 180 days; 2% with results, a share of them critical), as a ratio.

async function benchOrders(): Promise<void> {
  const { buildOrder } = await import('../src/state/labs/lab-order-factory.js');
  const { labTestsOf, standardTest } = await import('../src/state/labs/lab-tests.js');
  const { buildPath } = await import('../src/state/labs/order-lifecycle.js');
  const { refreshSummary } = await import('../src/state/labs/order-results.js');
  const { ordersOf } = await import('../src/state/labs/order-store.js');
  const { stableUuid } = await import('../src/engine/ids.js');
  const withOrders = (n: number): Sandbox => {
    const sandbox = createSandbox({ seed: 1, users: 100, logger: () => undefined });
    const world = sandbox.world;
    const team = [...world.tenancy.teams.values()][0];
    if (!team) throw new Error('no team');
    const partition = world.tenancy.partition(team, 'sandbox');
    const store = ordersOf({ world, partition });
    const users = usersOf(partition, world).all();
    const test = standardTest(labTestsOf(partition, world), 'walk_in_test');
    const now = world.clock.now();
    for (let k = 0; k < n; k++) {
      const user = users[k % users.length];
      if (!user) throw new Error('no user');
      const at = now - ((k * 7919) % (180 * 86_400)) * 1000;
      const withResults = k % 50 === 0;
      const order = buildOrder(store, {
        seed: 1,
        id: stableUuid(1, 'bench_order', k),
        team_id: team.id,
        user_id: user.user_id,
        client_user_id: user.client_user_id,
        lab_test: test,
        at,
        details_id: stableUuid(1, 'bench_details', k),
        shipment_id: null,
        transaction_id: stableUuid(1, 'bench_tx', k),
        patient_details: null,
        patient_address: null,
        fate: 'happy',
        flags: { interpretation: withResults && k % 150 === 0 ? 'critical' : 'normal', result_types: null, has_missing_results: false },
      });
      if (withResults) {
        const path = buildPath('walk_in_test', 'happy', false);
        for (let i = 1; i < path.length; i++)
          order.events.push({ id: store.nextEventId(), at: at + i * 3_600_000, status: path[i]?.status ?? 'ordered' });
        order.pathIndex = path.length - 1;
      }
      refreshSummary(world, store, order);
      store.add(order);
    }
    return sandbox;
  };
  const small = withOrders(1_000);
  const large = withOrders(100_000);
  const day = new Date(small.world.clock.now() - 30 * 86_400_000).toISOString().slice(0, 10);
  const cases: Array<[string, Record<string, string[]>]> = [
    ['GET /v3/orders?size=50', { size: ['50'] }],
    ['GET /v3/orders?page=3&size=50&order_direction=asc', { page: ['3'], size: ['50'], order_direction: ['asc'] }],
    // Filtered cases ask for 5 orders, so that both worlds answer pages of the same size.
    ['GET /v3/orders?start_date=<day>&end_date=<day>&size=5', { start_date: [day], end_date: [day], size: ['5'] }],
    ['GET /v3/orders?status=completed&size=5', { status: ['completed'], size: ['5'] }],
    ['GET /v3/orders?is_critical=true&size=5', { is_critical: ['true'], size: ['5'] }],
  ];
  // Both worlds have the same 100 users (seed 1): one user holds 10 orders in one, 1,000 in the other.
  const userId = someUserId(large, 7);
  cases.push(
    ['GET /v3/orders?status=completed&page=3&size=5', { status: ['completed'], page: ['3'], size: ['5'] }],
    ['GET /v3/orders?status=completed&status=ordered&page=3&size=5', { status: ['completed', 'ordered'], page: ['3'], size: ['5'] }],
    ['GET /v3/orders?status=completed&order_direction=asc&size=5', { status: ['completed'], order_direction: ['asc'], size: ['5'] }],
    ['GET /v3/orders?status=completed&start_date=<30d>&size=5', { status: ['completed'], start_date: [day], size: ['5'] }],
    ['GET /v3/orders?is_critical=true&end_date=<30d>&size=5', { is_critical: ['true'], end_date: [day], size: ['5'] }],
    ['GET /v3/orders?is_critical=false&size=5', { is_critical: ['false'], size: ['5'] }],
    ['GET /v3/orders?user_id=<id>&size=5', { user_id: [userId], size: ['5'] }],
  );
  // CPU time (process.cpuUsage), not wall time: the machine is shared. Both worlds in the same run.
  console.log(`\nGET /v3/orders: a team environment with 1k orders vs 100k orders (CPU us/op)`);
  console.log(`${'case'.padEnd(62)} ${'1k orders'.padStart(10)} ${'100k orders'.padStart(12)} ${'100k / 1k'.padStart(10)}`);
  for (const [name, query] of cases) {
    let t1 = Infinity;
    let t2 = Infinity;
    for (let round = 0; round < 3; round++) {
      t1 = Math.min(t1, await cpuTime(small, () => request(small, 'GET', '/v3/orders', query), Math.ceil(ITER / 10)));
      t2 = Math.min(t2, await cpuTime(large, () => request(large, 'GET', '/v3/orders', query), Math.ceil(ITER / 10)));
    }
    console.log(
      `${name.padEnd(62)} ${(t1 / 1000).toFixed(1).padStart(10)} ${(t2 / 1000).toFixed(1).padStart(12)} ${(t2 / t1).toFixed(2).padStart(10)}`,
    );
  }
}

/** Like `time`, in CPU nanoseconds (user + system) per request. */
async function cpuTime(sandbox: Sandbox, make: (i: number) => SimRequest, iterations: number): Promise<number> {
  const reqs = Array.from({ length: Math.min(iterations, 1000) }, (_, i) => make(i));
  for (let i = 0; i < Math.min(500, iterations); i++) await sandbox.dispatch(reqs[i % reqs.length] as SimRequest);
  const start = process.cpuUsage();
  for (let i = 0; i < iterations; i++) await sandbox.dispatch(reqs[i % reqs.length] as SimRequest);
  const used = process.cpuUsage(start);
  return ((used.user + used.system) * 1000) / iterations;
}
/**
 * Time costs what it simulates (issue 17): how long advancing the clock takes, and the heap it
 * leaves behind, by world and by what listens. `npm run bench -- --time` runs only these.
 */
async function advanceCase(name: string, options: SandboxOptions, duration: string, setup?: (s: Sandbox) => Promise<void>): Promise<void> {
  global.gc?.();
  const sandbox = createSandbox({ seed: 1, logger: () => undefined, ...options });
  if (setup) await setup(sandbox);
  global.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const seqBefore = sandbox.world.events.emitted;
  const start = process.hrtime.bigint();
  await sandbox.advance(duration);
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  global.gc?.();
  const heapMb = (process.memoryUsage().heapUsed - heapBefore) / 1e6;
  const events = sandbox.world.events.emitted - seqBefore;
  const rate = events > 0 ? `, ${Math.round(events / (ms / 1000)).toLocaleString('en')} events/s` : '';
  console.log(
    `${name.padEnd(58)} ${`${ms.toFixed(ms < 10 ? 2 : 0)} ms`.padStart(10)} ${`${heapMb >= 0 ? '+' : ''}${heapMb.toFixed(1)} MB`.padStart(10)} ${String(events).padStart(8)} events${rate}`,
  );
  sandbox.close();
}

/** A local HTTP receiver on 127.0.0.1 that answers 204 and counts what it got. */
async function localReceiver(): Promise<{ url: string; count: () => number; close: () => Promise<void> }> {
  const { createServer } = await import('node:http');
  let n = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      n++;
      res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/hook`, count: () => n, close: () => new Promise((done) => server.close(() => done())) };
}

async function timeCases(): Promise<void> {
  console.log(`\nAdvancing the clock (time costs what it simulates)\n${'case'.padEnd(58)} ${'wall'.padStart(10)} ${'heap'.padStart(10)}`);
  await advanceCase('empty world, 30 days', { world: 'empty' }, '30d');
  await advanceCase('default world (25 users), nobody listening, 30 days', {}, '30d');
  await advanceCase('10-user demo world, nobody listening, 30 days', { users: 10 }, '30d');
  await advanceCase('250 users, nobody listening, 7 days', { users: 250 }, '7d');
  await advanceCase('default world, feed on (journal only), 3 days', { feed: 'on' }, '3d');
  await benchGeneration(quick);
  const receiver = await localReceiver();
  try {
    const before = receiver.count();
    const start = process.hrtime.bigint();
    await advanceCase('default world, one endpoint listening to everything, 1 day', {}, '1d', (s) => createEndpoint(s, receiver.url));
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    const got = receiver.count() - before;
    console.log(
      `${'  delivered to the 127.0.0.1 receiver'.padEnd(58)} ${String(got).padStart(8)} deliveries, ${Math.round(got / seconds).toLocaleString('en')} deliveries/s (signed, POSTed, recorded)`,
    );
    if (process.argv.includes('--slow')) {
      await advanceCase('250 users, one endpoint listening to everything, 7 days', { users: 250 }, '7d', (s) =>
        createEndpoint(s, receiver.url),
      );
    }
  } finally {
    await receiver.close();
  }
}

/**
 * What the request journal and the terminal log cost on the request path (issue 29: under 10%):
 * the same requests on sandboxes with the journal off (size 0), on (default 1000), on with every
 * body kept, and on with the pretty log written to a sink that discards it. The 404 row is issue
 * 45's measure (within 1.5x of the journal off: near misses are worked out only when read). Each
 * case runs JOURNAL_ROUNDS rounds of every variant (the first variant of a round turning), each
 * round about JOURNAL_ROUND_MS long after a full collection; a figure is the median round's CPU
 * time, its ratio the median of the rounds' own ratios (a variant against the journal off of its
 * round: the load of a shared machine drifts between rounds), by CPU time and by wall time (wall
 * time counts the waits for a core another process holds). `--journal` runs only these. A round
 * lasts 100 ms: in 25 ms a round of the journal on held one young-generation collection or none,
 * and the ratios swung between 1.25x and 1.55x from that alone.
 */
const JOURNAL_ROUNDS = quick ? 5 : 15;
const JOURNAL_ROUND_MS = quick ? 5 : 100;
const median = (xs: readonly number[]): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

/**
 * ns per request of `iterations` requests dispatched one after the other, by the process's CPU
 * time (user + system: what the requests cost, apart from the time another process had the core)
 * and by wall time; after a full collection and 500 requests of warm-up, as `time()`.
 */
async function timeCpu(sandbox: Sandbox, make: (i: number) => SimRequest, iterations: number): Promise<{ cpu: number; wall: number }> {
  const reqs = Array.from({ length: Math.min(iterations, 1000) }, (_, i) => make(i));
  global.gc?.();
  for (let i = 0; i < Math.min(500, iterations); i++) await sandbox.dispatch(reqs[i % reqs.length] as SimRequest);
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) await sandbox.dispatch(reqs[i % reqs.length] as SimRequest);
  const wall = Number(process.hrtime.bigint() - start) / iterations;
  const used = process.cpuUsage(cpu);
  return { cpu: ((used.user + used.system) * 1000) / iterations, wall };
}

async function benchJournal(): Promise<void> {
  const sink = { bytes: 0 };
  const variants: Array<[string, SandboxOptions, boolean]> = [
    ['journal off (--request-log-size 0)', { requests: { size: 0 } }, false],
    ['journal on (default)', {}, false],
    ['journal on, every body kept', { requests: { bodies: true } }, false],
    ['journal on + pretty log', {}, true],
  ];
  const sandboxes = variants.map(([, options, log]) => {
    const sandbox = createSandbox({ seed: 1, users: 1000, logger: () => undefined, ...options });
    if (log) sandbox.requests.subscribe(requestLogger('pretty', (line) => (sink.bytes += line.length)) ?? (() => undefined));
    return sandbox;
  });
  for (const s of sandboxes) await prepare(s);
  const cases: Array<[string, (s: Sandbox, i: number) => SimRequest]> = [
    ['GET /v2/user/:id', (s, i) => request(s, 'GET', `/v2/user/${someUserId(s, i)}`)],
    ['GET /v3/order/:id', (s) => request(s, 'GET', `/v3/order/${fx(s).orderId}`)],
    ['GET /v2/usr (404, near misses)', (s) => request(s, 'GET', '/v2/usr')],
  ];
  console.log(`
Request journal and terminal log: cost on the request path (CPU us/op, the process's user + system time, median of ${JOURNAL_ROUNDS} interleaved rounds of about ${JOURNAL_ROUND_MS} ms each; ratio to journal off: the median of the rounds' ratios, by CPU and by wall time)`);
  console.log(`${'case'.padEnd(34)} ${variants.map(([name]) => name.padStart(38)).join('')}`);
  for (const [name, make] of cases) {
    // Requests per round for each variant: a round of a few ms is one young-generation collection's noise.
    const counts: number[] = [];
    for (const s of sandboxes) {
      const probe = await timeCpu(s, (i) => make(s, i), 500);
      counts.push(Math.min(200_000, Math.max(ITER, Math.round((JOURNAL_ROUND_MS * 1e6) / probe.wall))));
    }
    const cpu = variants.map((): number[] => []);
    const cpuRatios = variants.map((): number[] => []);
    const wallRatios = variants.map((): number[] => []);
    for (let round = 0; round < JOURNAL_ROUNDS; round++) {
      const got: Array<{ cpu: number; wall: number }> = [];
      // Each round starts with another variant, so none always pays for the garbage of the same one (timeCpu also collects first).
      for (let k = 0; k < sandboxes.length; k++) {
        const v = (round + k) % sandboxes.length;
        const s = sandboxes[v] as Sandbox;
        got[v] = await timeCpu(s, (i) => make(s, i), counts[v] as number);
      }
      const off = got[0] as { cpu: number; wall: number };
      got.forEach((t, v) => {
        cpu[v]?.push(t.cpu);
        cpuRatios[v]?.push(t.cpu / off.cpu);
        wallRatios[v]?.push(t.wall / off.wall);
      });
    }
    const cells = cpu.map(
      (t, v) =>
        `${(median(t) / 1000).toFixed(1)} (x${median(cpuRatios[v] as number[]).toFixed(2)}; wall x${median(wallRatios[v] as number[]).toFixed(2)})`,
    );
    console.log(`${name.padEnd(34)} ${cells.map((c) => c.padStart(38)).join('')}`);
  }
  // The cost itself, apart from the noise of whole requests: one observe() call, and one pretty line.
  const journal = (sandboxes[1] as Sandbox).requests;
  const req = request(sandboxes[1] as Sandbox, 'GET', '/v2/user');
  const res = { status: 200, headers: { 'content-type': 'application/json' }, body: new Uint8Array(100) };
  const exchange = { teamId: 't', environment: 'sandbox' };
  const n = 200_000;
  let start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) journal.observe(req, res, exchange);
  const record = Number(process.hrtime.bigint() - start) / n;
  // A 404 no route matched (its body kept, near misses left for a read), as dispatch hands it over.
  const missReq = request(sandboxes[1] as Sandbox, 'GET', '/v2/usr');
  const miss = { status: 404, headers: { 'content-type': 'application/json' }, body: new TextEncoder().encode('{"detail":"Not Found"}') };
  start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) journal.observe(missReq, miss, {});
  const recordMiss = Number(process.hrtime.bigint() - start) / n;
  const last = journal.newestFirst().next().value;
  start = process.hrtime.bigint();
  for (let i = 0; i < n / 10; i++) sink.bytes += last ? prettyLine(last).length : 0;
  const line = Number(process.hrtime.bigint() - start) / (n / 10);
  console.log(
    `recording one request: ${(record / 1000).toFixed(2)} us; one 404: ${(recordMiss / 1000).toFixed(2)} us; formatting its pretty line: ${(line / 1000).toFixed(2)} us`,
  );
}

if (process.argv.includes('--orders')) void benchOrders();
else if (process.argv.includes('--journal')) void benchJournal();
else if (process.argv.includes('--gen')) void benchGeneration(quick);
else if (process.argv.includes('--time')) void timeCases();
else if (process.argv.includes('--gets')) void import('./bench-gets.js').then((m) => m.benchGets());
else if (process.argv.includes('--http')) void benchHttp(quick);
else if (process.argv.includes('--webhooks')) void benchWebhooks(quick);
else if (process.argv.includes('--soak') || process.argv.includes('--keyed')) void main();
else if (process.argv.includes('--startup')) void benchStartup(quick);
else if (process.argv.includes('--advance')) void benchAdvance(quick);
else if (process.argv.includes('--msw')) void benchMsw(quick);
else if (process.argv.includes('--docs')) void benchDocs(quick);
else if (process.argv.includes('--ecg')) void benchEcg(quick);
else if (process.argv.includes('--worlds')) void benchWorlds(quick);
else
  void benchStartup(quick)
    .then(main)
    .then(benchOrders)
    .then(timeCases)
    .then(() => benchHttp(quick))
    .then(() => benchMsw(quick))
    .then(() => benchWebhooks(quick))
    .then(benchJournal)
    .then(() => benchAdvance(quick))
    .then(() => benchDocs(quick));
