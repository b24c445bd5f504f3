/**
 * Seeded fuzz over the route table (issue 11): fast-check builds hostile requests for every route
 * in ROUTES (bad path segments, junk and unknown query keys, random JSON, deep nesting, odd
 * content types and encodings, missing, foreign and wrong-kind credentials, other methods) and
 * sends them through the engine. Every answer must be below 500 and JSON whenever it is an error;
 * every rejected request must leave the world's digest (minted ids, events, pending jobs)
 * unchanged. The first requests are one per route (each drawn from the same arbitrary with the
 * route fixed), the rest over every route at random. `FUZZ_RUNS` sets the number of requests
 * (default 5000 under `HEALTH_SANDBOX_SLOW_TESTS=1`, as CI runs it, 1000 otherwise), `FUZZ_SEED`
 * replays a run.
 * Adapters are proven byte-identical by the parity test, so this runs in-process, without HTTP.
 */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { createSandbox } from '../../src/index.js';
import type { SimRequest } from '../../src/engine/http-types.js';
import type { Route } from '../../src/engine/route.js';
import { surfaceOf } from '../../src/engine/router.js';
import { ROUTES } from '../../src/routes.js';
import { GOOD_QUERY, UNKNOWN_ID } from '../support/route-params.js';
import { fingerprint, propertiesOf, toJson } from '../support/route-requests.js';
import { runCount } from '../support/run-size.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? runCount(5000, 1000));
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const encoder = new TextEncoder();
const decoder = new TextDecoder();

const sandbox = createSandbox({ seed: 5, users: 3, usersElsewhere: 1, feed: 'off', logger: () => undefined });
const creds = sandbox.credentials();
const team = creds.teams[0];
const other = creds.teams[1];
const ids: Record<string, string> = {
  org_id: creds.org_id,
  team_id: team?.team_id ?? UNKNOWN_ID,
  env: 'sandbox',
  environment: 'sandbox',
  region: 'us',
  provider: 'oura',
};

const segment = fc.oneof(
  fc.constantFrom(
    UNKNOWN_ID,
    'x',
    '%00',
    '..%2F..',
    '%ZZ',
    'constructor',
    '__proto__',
    'a'.repeat(300),
    '-1',
    '0',
    '1e309',
    other?.team_id ?? 'x',
  ),
  fc.string({ maxLength: 40 }).map((s) => encodeURIComponent(s)),
);

const scalar = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.constantFrom(
    '',
    'abc',
    '-1',
    '0',
    '99999999999999999999',
    '1e309',
    'true',
    'null',
    '2026-13-45',
    'constructor',
    '__proto__',
    '2026-01-05',
  ),
);

function deep(depth: number): string {
  return `${'[{"a":'.repeat(depth)}1${'}]'.repeat(depth)}`;
}

const body = fc.oneof(
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => ({ raw: JSON.stringify(v) ?? 'null', type: 'application/json' })) },
  { weight: 1, arbitrary: fc.string({ maxLength: 60 }).map((s) => ({ raw: s, type: 'application/json' })) },
  { weight: 1, arbitrary: fc.integer({ min: 65, max: 5000 }).map((d) => ({ raw: deep(d), type: 'application/json' })) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom(
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/json; charset=latin1',
        '',
      )
      .map((type) => ({ raw: '{"a":1}', type })),
  },
  { weight: 1, arbitrary: fc.constant({ raw: '', type: '' }) },
);

type Auth = 'good' | 'none' | 'other-team' | 'wrong-kind' | 'junk';
const auth = fc.constantFrom<Auth>('good', 'good', 'good', 'none', 'other-team', 'wrong-kind', 'junk');

function authHeaders(route: Route, kind: Auth): Record<string, string> {
  const management = route.auth === 'management';
  switch (kind) {
    case 'good':
      return management ? { 'x-management-key': creds.management_key } : { 'x-service-api-key': team?.api_keys.sandbox ?? '' };
    case 'none':
      return {};
    case 'other-team':
      return management ? { 'x-management-key': creds.management_key } : { 'x-service-api-key': other?.api_keys.sandbox ?? '' };
    case 'wrong-kind':
      return management ? { 'x-management-key': team?.api_keys.sandbox ?? '' } : { 'x-service-api-key': creds.management_key };
    case 'junk':
      return { 'x-service-api-key': 'sk_us_junk', 'x-management-key': 'junk', authorization: 'Bearer junk' };
  }
}

function queryKeys(route: Route): string[] {
  return route.request.query ? Object.keys(propertiesOf(toJson(route.request.query))) : [];
}

const requestTo = (routes: fc.Arbitrary<Route>) =>
  fc
    .record({
      route: routes,
      segments: fc.array(fc.option(segment, { nil: undefined }), { maxLength: 4 }),
      query: fc.array(fc.tuple(fc.nat(20), scalar), { maxLength: 4 }),
      extraQuery: fc.dictionary(fc.string({ maxLength: 8 }), scalar, { maxKeys: 2 }),
      body,
      auth,
      method: fc.option(fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'TRACE'), { freq: 8, nil: undefined }),
      encoding: fc.option(fc.constantFrom('gzip', 'x-fuzz', 'identity'), { freq: 12, nil: undefined }),
    })
    .map(({ route, segments, query, extraQuery, body: b, auth: a, method, encoding }): { route: Route; req: SimRequest } => {
      let i = 0;
      const path = route.path.replace(/:([a-z_]+)/g, (_m, name: string) => segments[i++] ?? encodeURIComponent(ids[name] ?? UNKNOWN_ID));
      const keys = queryKeys(route);
      const q: Record<string, string[]> = {};
      for (const k of keys) if (k in GOOD_QUERY) q[k] = [GOOD_QUERY[k] as string];
      for (const [n, v] of query) if (keys.length > 0) q[keys[n % keys.length] as string] = [v];
      for (const [k, v] of Object.entries(extraQuery)) q[k] = [v];
      const headers: Record<string, string> = authHeaders(route, a);
      if (b.type !== '') headers['content-type'] = b.type;
      if (encoding) headers['content-encoding'] = encoding;
      const req: SimRequest = {
        method: method ?? route.method,
        surface: surfaceOf(route),
        path,
        query: q,
        headers,
        rawBody: encoder.encode(b.raw),
      };
      return { route, req };
    });

const request = requestTo(fc.constantFrom(...ROUTES));
/** One hostile request per route first (fast-check counts examples in `numRuns`). */
const perRoute = ROUTES.map(
  (route, i) => fc.sample(requestTo(fc.constant(route)), { seed: SEED + i, numRuns: 1 }) as [{ route: Route; req: SimRequest }],
);

it(`${RUNS} hostile requests over every route: no 5xx, errors in JSON, rejections change nothing`, async () => {
  const problems: string[] = [];
  const seen = new Set<string>();
  let sent = 0;
  await fc.assert(
    fc.asyncProperty(request, async ({ route, req }) => {
      const world = sandbox.world;
      const before = fingerprint(world);
      const res = await sandbox.dispatch(req);
      sent++;
      seen.add(route.id);
      const where = `${req.method} ${req.surface} ${req.path} (${route.id})`;
      if (res.status >= 500) problems.push(`${where}: ${res.status} ${decoder.decode(res.body).slice(0, 200)}`);
      if (res.status >= 400) {
        if (res.headers['content-type'] !== 'application/json') problems.push(`${where}: ${res.status} as ${res.headers['content-type']}`);
        else if (req.method !== 'HEAD') {
          const parsed = JSON.parse(decoder.decode(res.body)) as unknown;
          if (parsed === null || typeof parsed !== 'object' || !('detail' in parsed))
            problems.push(`${where}: ${res.status} without detail`);
        }
        if (sandbox.world !== world || fingerprint(world) !== before)
          problems.push(`${where}: rejected with ${res.status} but the world changed`);
      }
      return problems.length === 0;
    }),
    { numRuns: RUNS, seed: SEED, endOnFailure: true, examples: RUNS >= perRoute.length ? perRoute : [] },
  );
  expect(problems).toEqual([]);
  expect(sent).toBe(RUNS);
  // Every route was sent at least one hostile request (the examples, then a uniform pick).
  expect(ROUTES.filter((r) => !seen.has(r.id)).map((r) => r.id)).toEqual([]);
}, 120_000);
