/**
 * Robustness fuzz over the route table: every route in ROUTES gets a bounded set of hostile or
 * malformed requests (bad path params, malformed and wrong-typed bodies, junk query values,
 * non-JSON content types), with credentials that get past auth (locally, a quarter of the routes
 * whose schemas repeat an earlier route's: see LOCAL_REPEATS).
 *
 * House rule: bad input gets a clear JSON error (4xx, `{"detail": ...}`), never a 500, never
 * HTML, never a stack trace, and a rejected mutation changes nothing (no half-applied change).
 * Failures name the route and the variant.
 * `FUZZ_DEBUG=1` prints the baseline ids, slow or 401/403 answers and status counts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../src/routes.js';
import type { Route } from '../../src/engine/route.js';
import { surfaceOf } from '../../src/engine/router.js';
import { queryObject } from '../../src/engine/validation.js';
import { UNKNOWN_ID } from '../support/route-params.js';
import { baselineOf, destructive, fingerprint, type Baseline } from '../support/route-requests.js';
import {
  baseQuery,
  bodyVariants,
  pathVariants,
  queryVariants,
  semanticCases,
  semanticVariants,
  transportVariants,
  type Variant,
} from '../support/hostile-requests.js';
import { createClient, type AnyAdapter, type CallOptions, type TestClient, type TestResponse } from '../support/client.js';
import { SLOW_TESTS } from '../support/run-size.js';

const DEBUG = Boolean(process.env.FUZZ_DEBUG);
// ---- running ----

/** Concurrent requests per batch for read routes. */
const BATCH = 8;

const requests: Record<AnyAdapter, number> = { express: 0, msw: 0, node: 0, fetch: 0 };
/** Status counts (debug output only). */
const stats = new Map<number, number>();

interface Runner {
  c: TestClient;
  base: Baseline;
  errors: string[];
}

async function newRunner(adapter: AnyAdapter): Promise<Runner> {
  const errors: string[] = [];
  const c = createClient(adapter, {
    users: 3,
    usersElsewhere: 1,
    logger: (message, error) =>
      errors.push(
        `${message}: ${error instanceof Error ? (error.stack ?? error.message).split('\n').slice(0, 4).join(' | ') : String(error)}`,
      ),
  });
  const base = await baselineOf(c);
  // The baseline user's data starts on 2026-01-01: variants that widen the window (a start in
  // year 0000, an open end) then read four days of every series, not the person's whole history.
  const bounded = await c.patch(`/v2/user/${base.params.user_id}`, { ingestion_start: '2026-01-01' });
  if (bounded.status !== 204) throw new Error(`ingestion_start: ${bounded.status} ${bounded.text}`);
  if (DEBUG) console.log('baseline', JSON.stringify(base.params), errors);
  errors.length = 0;
  return { c, base, errors };
}

function pathOf(route: Route, params: Record<string, string>, base: Baseline): string {
  return route.path.replace(/:([a-z_]+)/g, (_m, name: string) => params[name] ?? encodeURIComponent(base.params[name] ?? UNKNOWN_ID));
}

async function send(r: Runner, route: Route, v: Variant): Promise<TestResponse> {
  const options: CallOptions = { surface: surfaceOf(route), query: v.query ?? (route.request.query ? baseQuery(route) : undefined) };
  if (v.raw !== undefined) {
    options.body = v.raw;
    options.headers = { 'content-type': v.contentType ?? 'application/json' };
  } else if (v.body !== undefined) {
    options.body = v.body;
  }
  if (v.headers) options.headers = { ...options.headers, ...v.headers };
  let path = pathOf(route, v.params ?? {}, r.base);
  if (v.rawQuery !== undefined) {
    delete options.query;
    path = `${path}?${v.rawQuery}`;
  }
  requests[r.c.adapter]++;
  return r.c.call(v.method ?? route.method, path, options);
}

function problems(route: Route, v: Variant, res: TestResponse, logged: string[], changed: boolean): string[] {
  const where = `${route.method} ${route.path} (${route.id}) [${v.name}]`;
  const out: string[] = [];
  const snippet = res.text.slice(0, 200);
  if (res.status >= 500) out.push(`${where}: status ${res.status} ${snippet}${logged.length ? ` -- logged: ${logged.join(' || ')}` : ''}`);
  if (res.status >= 400) {
    if (!/application\/json/.test(res.headers['content-type'] ?? ''))
      out.push(`${where}: ${res.status} with content-type ${res.headers['content-type']}`);
    if (res.body === null || typeof res.body !== 'object' || !('detail' in res.body))
      out.push(`${where}: ${res.status} without a JSON detail: ${snippet}`);
  }
  const text = (res.headers['content-type'] ?? '').startsWith('application/pdf') ? '' : res.text;
  if (text.includes('    at ') || text.includes('.ts:')) out.push(`${where}: stack trace in response: ${snippet}`);
  // HTML only where the route declares an HTML page (the docs page answers one whatever the input).
  const page = res.status < 300 && route.responses[res.status]?.contentType === 'text/html';
  if (/<html/i.test(text) && !page) out.push(`${where}: HTML in response: ${snippet}`);
  if (changed) out.push(`${where}: ${res.status} but state changed (half-applied change)`);
  if (res.status < 500 && logged.length > 0) out.push(`${where}: ${res.status} but the engine logged: ${logged.join(' || ')}`);
  return out;
}

/** One variant, alone: its problems, attributed exactly (logged errors, state change, time). */
async function runOne(r: Runner, route: Route, v: Variant): Promise<string[]> {
  const world = r.c.sandbox.world;
  // Deliveries still in flight from earlier requests would change the state under this one.
  if (route.method !== 'GET') await r.c.sandbox.settle();
  const before = route.method === 'GET' ? '' : fingerprint(world);
  r.errors.length = 0;
  const res = await send(r, route, v);
  if (DEBUG) {
    stats.set(res.status, (stats.get(res.status) ?? 0) + 1);
    if (res.status === 401 || res.status === 403) console.log('DEBUG', res.status, route.id, v.name, res.text.slice(0, 150));
  }
  const changed = route.method !== 'GET' && res.status >= 400 && (r.c.sandbox.world !== world || fingerprint(world) !== before);
  const out = problems(route, v, res, [...r.errors], changed);
  return out;
}

/**
 * Reads (GET) run in small concurrent batches; a batch with any problem, logged error or slow
 * answer is run again one by one so every problem is attributed to its variant. Writes run one
 * by one (the half-applied check compares state around each request).
 */
async function runVariants(r: Runner, route: Route, variants: Variant[]): Promise<string[]> {
  if (route.method !== 'GET') {
    const out: string[] = [];
    for (const v of variants) out.push(...(await runOne(r, route, v)));
    return out;
  }
  const out: string[] = [];
  for (let i = 0; i < variants.length; i += BATCH) {
    const batch = variants.slice(i, i + BATCH);
    r.errors.length = 0;
    const responses = await Promise.all(batch.map((v) => send(r, route, v)));
    const bad = responses.some((res, j) => problems(route, batch[j] as Variant, res, [], false).length > 0);
    if (bad || r.errors.length > 0) for (const v of batch) out.push(...(await runOne(r, route, v)));
    else if (DEBUG) for (const res of responses) stats.set(res.status, (stats.get(res.status) ?? 0) + 1);
  }
  return out;
}

/**
 * Routes whose request schemas (the same objects) an earlier route already had fuzzed in full,
 * e.g. the ~65 timeseries routes: for them, path and query junk that the shared schema rejects
 * (an identical 422 that never reaches this route's handler) and the route-independent transport
 * oddities are left out; everything that gets past validation still runs.
 */
const REPEATS = (() => {
  const ids = new Map<object, number>();
  const idOf = (o: object | undefined) => {
    if (!o) return 0;
    if (!ids.has(o)) ids.set(o, ids.size + 1);
    return ids.get(o) as number;
  };
  const seen = new Set<string>();
  const out = new Set<Route>();
  for (const route of ROUTES) {
    const { params, query, body } = route.request;
    const sig = `${route.method} ${route.auth} ${idOf(params)} ${idOf(query)} ${idOf(body)}`;
    if (seen.has(sig)) out.add(route);
    seen.add(sig);
  }
  return out;
})();

/**
 * The REPEATS routes a local run fuzzes: one in four (32 of 128, mostly the table-driven timeseries
 * routes, whose handlers are shared); all of them in CI (HEALTH_SANDBOX_SLOW_TESTS=1). The other
 * 96 were about a sixth of this file's CPU.
 */
const LOCAL_REPEATS = new Set([...REPEATS].filter((_, i) => SLOW_TESTS || i % 4 === 0));

/** Whether the route's own schemas let the variant's path and query through to the handler. */
function passesSchemas(route: Route, v: Variant, base: Baseline): boolean {
  const { params, query } = route.request;
  if (v.params && params) {
    const values: Record<string, string> = { ...base.params };
    try {
      for (const [k, val] of Object.entries(v.params)) values[k] = decodeURIComponent(val);
    } catch {
      return false;
    }
    if (!params.safeParse(values).success) return false;
  }
  if (v.query && query) {
    const multi: Record<string, string[]> = {};
    for (const [k, val] of Object.entries(v.query)) multi[k] = Array.isArray(val) ? val.map(String) : [String(val)];
    if (!query.safeParse(queryObject(query, multi)).success) return false;
  }
  return true;
}

async function fuzzRoute(r: Runner, route: Route): Promise<string[]> {
  let variants = [
    ...pathVariants(route),
    ...bodyVariants(route, r.base),
    ...queryVariants(route),
    ...semanticVariants(route),
    ...transportVariants(route),
  ];
  if (REPEATS.has(route)) {
    const transport = new Set(transportVariants(route).map((v) => v.name));
    variants = variants.filter(
      (v) =>
        !transport.has(v.name) &&
        ((!v.params && !v.query) || v.name.startsWith('end_date') || v.name.startsWith('start_date') || passesSchemas(route, v, r.base)),
    );
  }
  return runVariants(r, route, variants);
}

/**
 * Routes that read or replay the world's whole input log, each on a world of its own: on the shared
 * world that log holds the thousands of requests fuzzed before (a restore replays them; the world
 * document carries them, on every variant).
 */
const OWN_WORLD = new Set(['sandbox.snapshots.restore', 'sandbox.world.get']);

/**
 * One transport by default, the msw adapter's request handling called in process (`fetch`: msw's
 * own interception costs about 2 ms a request, and this file sends thousands): the route-table
 * parity test proves every adapter, that one included, answers a valid and an
 * invalid request of every route byte-identically, so hostile input needs no second pass.
 * ROBUSTNESS_ADAPTERS=all runs it on every adapter.
 */
const ROBUSTNESS_ADAPTERS: readonly AnyAdapter[] = process.env['ROBUSTNESS_ADAPTERS'] === 'all' ? ['express', 'msw', 'fetch'] : ['fetch'];

for (const adapter of ROBUSTNESS_ADAPTERS)
  describe(`robustness: every route survives hostile input [${adapter}]`, () => {
    let shared: Runner;
    beforeAll(async () => {
      shared = await newRunner(adapter);
    });

    for (const route of ROUTES) {
      it.runIf(!REPEATS.has(route) || LOCAL_REPEATS.has(route))(`${route.method} ${route.path} (${route.id})`, async () => {
        const r = destructive(route) || OWN_WORLD.has(route.id) ? await newRunner(adapter) : shared;
        const failures = await fuzzRoute(r, route);
        expect(failures, failures.join('\n')).toEqual([]);
      });
    }

    it('semantically wrong requests, per area, are refused cleanly and change nothing', async () => {
      const r = await newRunner(adapter);
      const failures: string[] = [];
      for (const sc of semanticCases(r.base)) {
        const world = r.c.sandbox.world;
        const before = fingerprint(world);
        r.errors.length = 0;
        requests[adapter]++;
        const res = await r.c.call(sc.method, sc.path, { surface: sc.surface, body: sc.body, query: sc.query });
        const changed = res.status >= 400 && (r.c.sandbox.world !== world || fingerprint(world) !== before);
        const route = { method: sc.method, path: sc.path, id: sc.area } as Route;
        failures.push(...problems(route, { name: sc.name }, res, [...r.errors], changed));
        if (res.status < 400 || res.status >= 500)
          failures.push(
            `${sc.area} ${sc.method} ${sc.path} [${sc.name}]: expected a 4xx refusal, got ${res.status} ${res.text.slice(0, 200)}`,
          );
      }
      expect(failures, failures.join('\n')).toEqual([]);
    });

    it('sent a bounded number of requests', () => {
      if (DEBUG) console.log('STATS', adapter, requests[adapter], JSON.stringify([...stats].sort()));
      expect(requests[adapter]).toBeGreaterThan(ROUTES.length * 10);
      expect(requests[adapter]).toBeLessThan(ROUTES.length * 60);
    });
  });
