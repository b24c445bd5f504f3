/**
 * Every GET of the route table against `GET /v2/user/:id` (`npm run bench -- --gets`), in
 * process: each route's valid request (the route-table tests' request,
 * test/support/valid-requests.ts, its precondition arranged first) sent through
 * `Sandbox.dispatch` over and over, its cost per request (wall time, one thread, nothing else in
 * flight) divided by the cost of `GET /v2/user/:id` measured in the same round. Rounds interleave
 * the routes; each route's figure is its median over the rounds. Prints the slowest ten and how
 * many routes are past 2x (issue 45: "every route-table GET within 2x of that one's cost").
 *
 * `--users <n>`: users in the world (default 100; the route-table tests use 1), `--rounds <n>`
 * (default 3), `--ms <n>`: the time each route is sent for in a round (default 60), `--only <text>`:
 * only the routes whose label contains the text (and the baseline; for `node --cpu-prof`),
 * `--all`: every route's row, not only the slowest ten.
 *
 * Each row also gives the route's cost over HTTP per kilobyte of its answer against the
 * baseline's (`x us/KB`): a route past 2x whose cost per kilobyte is at most the baseline's
 * costs what its answer's size costs (the world document, the OpenAPI documents, the ECG lists),
 * not more per byte than a user record; one past 2x and past 1x per kilobyte costs more than its
 * size explains (issue 45).
 */
import { Agent, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Route } from '../src/engine/route.js';
import type { SimRequest } from '../src/engine/http-types.js';
import { surfaceOf } from '../src/engine/router.js';
import { createNodeServer, stopServer } from '../src/adapters/node-http.js';
import { ROUTES } from '../src/routes.js';
import { type CallOptions, createClient, requestParts } from '../test/support/client.js';
import { queryFor } from '../test/support/route-params.js';
import { fixedWall, refusedDelivery } from '../test/support/route-requests.js';
import { routeIds, validRequest } from '../test/support/valid-requests.js';

const BASELINE = 'GET /v2/user/:id';
/** The baseline's route (the table spells its parameter `:user_id`). */
const BASELINE_ID = 'users.get';

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  const value = at > 0 ? Number(process.argv[at + 1]) : Number.NaN;
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

/** The SimRequest an adapter would hand the engine for a test client's call. */
function simRequest(route: Route, path: string, options: CallOptions, keys: { apiKey: string; managementKey: string }): SimRequest {
  const { headers } = requestParts(path, options, keys);
  const query: Record<string, string[]> = {};
  for (const [key, value] of Object.entries(options.query ?? {})) query[key] = (Array.isArray(value) ? value : [value]).map(String);
  return { method: 'GET', surface: surfaceOf(route), path, query, headers, rawBody: new Uint8Array(0) };
}

const label = (route: Route) => `${route.method} ${route.path}${surfaceOf(route) === 'management' ? ' (management)' : ''}`;

export async function benchGets(): Promise<void> {
  const users = option('--users', 100);
  const rounds = option('--rounds', 3);
  const ms = option('--ms', 60);
  const c = createClient('fetch', {
    seed: 6,
    users,
    usersElsewhere: 1,
    feed: 'off',
    wallClock: fixedWall,
    webhookTransport: refusedDelivery,
  });
  const ids = await routeIds(c);
  const keys = { apiKey: c.apiKey, managementKey: c.managementKey };
  const requests = new Map<Route, SimRequest>();
  const sizes = new Map<Route, number>();
  const refused: string[] = [];
  let serial = 0;
  for (const route of ROUTES) {
    if (route.method !== 'GET') continue;
    const { path, options } = await validRequest(c, route, ids, serial++, queryFor(route));
    const req = simRequest(route, path, options, keys);
    const res = await c.sandbox.dispatch({ ...req });
    await c.sandbox.settle();
    if (res.status >= 400) refused.push(`${label(route)} (${res.status})`);
    else {
      requests.set(route, req);
      sizes.set(route, res.body.byteLength);
    }
  }
  const baseline = [...requests.keys()].find((r) => r.id === BASELINE_ID);
  if (!baseline) throw new Error(`${BASELINE}: no valid request (${refused.join(', ')})`);

  // The same requests over HTTP: the CLI's server (the node:http adapter) on 127.0.0.1, one
  // keep-alive connection from a node:http client in this process, one request at a time.
  const server = createNodeServer(c.sandbox);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const port = (server.address() as AddressInfo).port;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const target = (req: SimRequest) => {
    const search = new URLSearchParams();
    for (const [key, values] of Object.entries(req.query)) for (const v of values) search.append(key, v);
    const q = search.toString();
    const prefix = req.surface === 'management' ? '/management' : '';
    return { path: `${prefix}${req.path}${q ? `?${q}` : ''}`, headers: req.headers };
  };
  const get = (to: { path: string; headers: Record<string, string> }) =>
    new Promise<void>((done, fail) => {
      request({ agent, host: '127.0.0.1', port, path: to.path, headers: to.headers }, (res) => {
        res.resume();
        res.on('end', () => ((res.statusCode ?? 500) >= 400 ? fail(new Error(`${to.path}: ${res.statusCode}`)) : done()));
      })
        .on('error', fail)
        .end();
    });
  /** Microseconds per request over HTTP (client and server in this process: their CPU together). */
  async function httpCost(route: Route, spanMs: number): Promise<number> {
    const to = target(requests.get(route) as SimRequest);
    let n = 0;
    const start = performance.now();
    let now = start;
    while (now - start < spanMs) {
      for (let i = 0; i < 4; i++) await get(to);
      n += 4;
      now = performance.now();
    }
    return ((now - start) * 1000) / n;
  }

  /** Microseconds per request: the route sent one after the other for `ms` (a fresh request object each time, as from an adapter). */
  async function cost(route: Route, spanMs: number): Promise<number> {
    const req = requests.get(route) as SimRequest;
    let n = 0;
    const start = performance.now();
    let now = start;
    while (now - start < spanMs) {
      for (let i = 0; i < 8; i++) await c.sandbox.dispatch({ ...req });
      n += 8;
      now = performance.now();
    }
    return ((now - start) * 1000) / n;
  }

  const figures = new Map<Route, number[]>();
  const overHttp = new Map<Route, number[]>();
  const onlyAt = process.argv.indexOf('--only');
  const only = onlyAt > 0 ? (process.argv[onlyAt + 1] ?? '') : '';
  const routes = [...requests.keys()].filter((r) => r === baseline || label(r).includes(only));
  for (const route of routes) await cost(route, 10); // warm-up: every route compiled once
  for (const route of routes) await httpCost(route, 10);
  await c.sandbox.settle();
  const push = (into: Map<Route, number[]>, route: Route, ratio: number) => into.set(route, [...(into.get(route) ?? []), ratio]);
  let baseUs = 0;
  let baseHttpUs = 0;
  for (let round = 0; round < rounds; round++) {
    const base = await cost(baseline, ms);
    const baseHttp = await httpCost(baseline, ms);
    baseUs += base / rounds;
    baseHttpUs += baseHttp / rounds;
    for (const route of routes) {
      push(figures, route, (await cost(route, ms)) / base);
      push(overHttp, route, (await httpCost(route, ms)) / baseHttp);
    }
    await c.sandbox.settle();
  }
  agent.destroy();
  await new Promise<void>((done) => stopServer(server, done));
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
  const ranked = routes
    .map((route) => ({ route, ratio: median(figures.get(route) ?? []), http: median(overHttp.get(route) ?? []) }))
    .sort((a, b) => b.http - a.http);
  /** Microseconds over HTTP per kilobyte of the answer (a kilobyte at least: an empty answer costs its request). */
  const perKb = (us: number, route: Route) => us / Math.max(1, (sizes.get(route) ?? 0) / 1024);
  const baseKbUs = perKb(baseHttpUs, baseline);
  /** The route's cost per kilobyte over HTTP against the baseline's. */
  const kbRatio = (route: Route, http: number) => perKb(http * baseHttpUs, route) / baseKbUs;
  const row = ({ route, ratio, http }: { route: Route; ratio: number; http: number }) =>
    `${label(route).padEnd(72)} ${http.toFixed(2).padStart(10)} ${(http * baseHttpUs).toFixed(0).padStart(9)} ${ratio.toFixed(2).padStart(11)} ${(ratio * baseUs).toFixed(1).padStart(9)} ${String(sizes.get(route)).padStart(10)} ${perKb(
      http * baseHttpUs,
      route,
    )
      .toFixed(1)
      .padStart(8)} ${kbRatio(route, http).toFixed(3).padStart(8)}`;
  console.log(
    `\nEvery route-table GET against ${BASELINE} (${baseHttpUs.toFixed(0)} us over HTTP, ${baseUs.toFixed(1)} us in process), ${users} users, median of ${rounds} rounds x ${ms} ms per route and way`,
  );
  console.log(
    '  over HTTP: the node:http adapter on 127.0.0.1, one keep-alive connection, client in this process; in process: Sandbox.dispatch',
  );
  console.log(
    `${'route (slowest ten over HTTP)'.padEnd(72)} ${'x HTTP'.padStart(10)} ${'us HTTP'.padStart(9)} ${'x in proc'.padStart(11)} ${'us proc'.padStart(9)} ${'bytes'.padStart(10)} ${'us/KB'.padStart(8)} ${'x us/KB'.padStart(8)}`,
  );
  for (const r of ranked.slice(0, process.argv.includes('--all') ? ranked.length : 10)) console.log(row(r));
  const over = ranked.filter((r) => r.http > 2);
  const overProc = ranked.filter((r) => r.ratio > 2);
  const bySize = over.filter((r) => kbRatio(r.route, r.http) <= 1);
  console.log(`${routes.length} GET routes timed; ${over.length} past 2x over HTTP, ${overProc.length} past 2x in process`);
  console.log(
    `  of the ${over.length} past 2x over HTTP: ${bySize.length} at most the baseline's ${baseKbUs.toFixed(1)} us per KB (past 2x by their answer's size), ${over.length - bySize.length} past it`,
  );
  console.log("past 2x over HTTP with an answer under 10 KB (cost not from the answer's size):");
  for (const r of over) if ((sizes.get(r.route) ?? 0) < 10 * 1024) console.log(row(r));
  if (refused.length) console.log(`not timed (their valid request was refused here): ${refused.join(', ')}`);
  c.sandbox.close();
}
