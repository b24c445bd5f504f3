/**
 * Robustness fuzz over the route table: every route in ROUTES gets a bounded set of hostile or
 * malformed requests (bad path params, malformed and wrong-typed bodies, junk query values,
 * non-JSON content types), with credentials that get past auth, on both adapters.
 *
 * House rule: bad input gets a clear JSON error (4xx, `{"detail": ...}`), never a 500, never
 * HTML, never a stack trace, and a rejected mutation changes nothing (no half-applied change).
 * Failures name the route and the variant.
 * `FUZZ_DEBUG=1` prints the baseline ids, slow or 401/403 answers and status counts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../src/routes.js';
import type { Route } from '../src/engine/route.js';
import { surfaceOf } from '../src/engine/router.js';
import { queryObject } from '../src/engine/validation.js';
import { ADDRESS, PATIENT } from './lab-helpers.js';
import { baselineOf, DEEP, destructive, fingerprint, GOOD_QUERY, plausible, propertiesOf, toJson, UNKNOWN_UUID, wrongScalar, wrongStructured, type Baseline, type JsonSchema } from './support/route-requests.js';
import { createClient, type AnyAdapter, type CallOptions, type TestClient, type TestResponse } from './support/client.js';

const DEBUG = Boolean(process.env.FUZZ_DEBUG);
/** Garbage path segments, already URL-encoded as they go on the wire. */
const BAD_SEGMENTS: ReadonlyArray<[string, string]> = [
  ['unknown-uuid', UNKNOWN_UUID],
  ['x', 'x'],
  ['nul', '%00'],
  ['300-chars', 'a'.repeat(300)],
  ['dotdot', '..%2F..'],
  ['bad-escape', '%ZZ'],
  ['constructor', 'constructor'],
  ['__proto__', '__proto__'],
];
const QUERY_JUNK: ReadonlyArray<[string, string | string[]]> = [
  ['abc', 'abc'],
  ['-1', '-1'],
  ['huge-int', '99999999999999999999'],
  ['1e309', '1e309'],
  ['empty', ''],
  ['repeated', ['abc', '-1']],
  ['constructor', 'constructor'],
  ['__proto__', '__proto__'],
];



// ---- variants ----

interface Variant {
  name: string;
  params?: Record<string, string>;
  query?: CallOptions['query'];
  /** JSON value, or raw text with `raw`. */
  body?: unknown;
  raw?: string;
  contentType?: string;
  /** Extra request headers. */
  headers?: Record<string, string>;
  /** Another method than the route's. */
  method?: string;
  /** A raw query string appended as is (not URL-encoded by the client). */
  rawQuery?: string;
}

/** Transport-level oddities every route gets. */
function transportVariants(route: Route): Variant[] {
  const hasBody = route.request.body !== undefined;
  return [
    { name: 'OPTIONS method', method: 'OPTIONS' },
    { name: 'malformed query string', rawQuery: '%ZZ=%E0%A4&a=%00&&=&b[=1&%5B%5D=x' },
    { name: 'content-type with odd charset', raw: hasBody ? '{}' : '', contentType: 'application/json; charset=latin1' },
    { name: 'content-encoding gzip, not gzipped', raw: '{"a":1}', headers: { 'content-encoding': 'gzip' } },
    { name: 'content-encoding unknown', raw: '{"a":1}', headers: { 'content-encoding': 'x-fuzz' } },
    { name: 'odd accept and long header', headers: { accept: 'text/html', 'x-fuzz': 'h'.repeat(8000) } },
  ];
}

function bodyVariants(route: Route, base: Baseline): Variant[] {
  const schema = route.request.body;
  if (!schema) {
    return [{ name: 'unexpected text/plain body', raw: 'hello=1&x', contentType: 'text/plain' }];
  }
  const props = propertiesOf(toJson(schema));
  const keys = Object.keys(props);
  const out: Variant[] = [
    { name: 'no body' },
    { name: 'body {}', body: {} },
    { name: 'body []', body: [] },
    { name: 'body "str"', raw: '"str"' },
    { name: 'body 123', raw: '123' },
    { name: 'body null', raw: 'null' },
    { name: 'invalid JSON', raw: '{"a":' },
    { name: 'deeply nested junk', body: DEEP },
    { name: 'text/plain body', raw: 'a=1&b=2', contentType: 'text/plain' },
    { name: 'form body', raw: 'client_user_id=x&seconds=5', contentType: 'application/x-www-form-urlencoded' },
    { name: 'JSON as text/plain', raw: '{}', contentType: 'text/plain' },
  ];
  const js = toJson(schema) as JsonSchema & Record<string, unknown>;
  out.push(
    { name: 'plausible body, edge values', body: plausible(js, '', 'edge', base.params) },
    { name: 'plausible body, minimal', body: plausible(js, '', 'minimal', base.params) },
  );
  if (keys.length > 0) {
    out.push(
      { name: 'every key "constructor"', body: Object.fromEntries(keys.map((k) => [k, 'constructor'])) },
      { name: 'every key NUL and lone surrogate', body: Object.fromEntries(keys.map((k) => [k, '\u0000\ud800'])) },
      { name: 'every key wrong scalar type', body: Object.fromEntries(keys.map((k) => [k, wrongScalar(props[k] as JsonSchema)])) },
      { name: 'every key wrong structure', body: Object.fromEntries(keys.map((k) => [k, wrongStructured(props[k] as JsonSchema)])) },
      { name: 'every key null', body: Object.fromEntries(keys.map((k) => [k, null])) },
      { name: 'every key deep junk', body: Object.fromEntries(keys.map((k) => [k, DEEP])) },
      { name: 'every key huge number', body: Object.fromEntries(keys.map((k) => [k, 1e308])) },
      { name: 'every key long string', body: Object.fromEntries(keys.map((k) => [k, 'z'.repeat(5000)])) },
    );
  }
  return out;
}

function queryVariants(route: Route): Variant[] {
  const schema = route.request.query;
  if (!schema) return [{ name: 'unexpected query', query: { junk: 'abc', 'x[]': ['1', '2'] } }];
  const keys = Object.keys(propertiesOf(toJson(schema)));
  const base = baseQuery(route);
  const out: Variant[] = [];
  for (const key of keys) {
    for (const [label, value] of QUERY_JUNK) out.push({ name: `query ${key}=${label}`, query: { ...base, [key]: value } });
  }
  out.push({ name: 'every query key junk', query: Object.fromEntries(keys.map((k) => [k, 'abc'])) });
  out.push({ name: 'every query key as array[]', query: Object.fromEntries(keys.map((k) => [`${k}[]`, ['x', '']])) });
  return out;
}

/**
 * The route-table window narrowed to one day: what is checked is how bad input is answered, not
 * how many days of samples a valid one reads (generation only ever sees parsed, valid values).
 * The wearable reads answer every variant that gets past validation with a day of data (the
 * baseline user's ECG session of 2026-01-03 is read by the variants that widen the window).
 */
const QUERY: Record<string, string> = { ...GOOD_QUERY, start_date: '2026-01-04', end_date: '2026-01-04' };

/** Valid values for the query keys a route requires, so junk in one key reaches the handler. */
function baseQuery(route: Route): Record<string, string> {
  const schema = route.request.query;
  if (!schema) return {};
  const keys = Object.keys(propertiesOf(toJson(schema)));
  return Object.fromEntries(keys.filter((k) => k in QUERY).map((k) => [k, QUERY[k] as string]));
}

function pathVariants(route: Route): Variant[] {
  const names = route.path.split('/').filter((s) => s.startsWith(':')).map((s) => s.slice(1));
  const out: Variant[] = [];
  for (const name of names) for (const [label, value] of BAD_SEGMENTS) out.push({ name: `path :${name}=${label}`, params: { [name]: value } });
  return out;
}

/** Valid-looking but semantically wrong requests, per area. */
function semanticVariants(route: Route): Variant[] {
  const q = route.request.query ? Object.keys(propertiesOf(toJson(route.request.query))) : [];
  const out: Variant[] = [];
  if (q.includes('start_date')) {
    const base = baseQuery(route);
    out.push(
      { name: 'end_date before start_date', query: { ...base, start_date: '2026-01-04', end_date: '2025-12-01' } },
      { name: 'start_date 2025-02-30', query: { ...base, start_date: '2025-02-30' } },
      { name: 'end_date 2025-13-01', query: { ...base, end_date: '2025-13-01' } },
      { name: 'start_date year 0000', query: { ...base, start_date: '0000-01-01' } },
      { name: 'start_date far future', query: { ...base, start_date: '9999-12-31', end_date: '9999-12-31' } },
      { name: 'start_date with bad offset', query: { ...base, start_date: '2026-01-01T25:61:00+99:99' } },
    );
  }
  if (q.includes('cursor')) out.push({ name: 'cursor not base64', query: { ...baseQuery(route), cursor: '!!!@@@' } }, { name: 'cursor far future', query: { ...baseQuery(route), cursor: Buffer.from('t:99999999999999999999999').toString('base64url') } });
  if (q.includes('page')) out.push({ name: 'page 0', query: { page: '0' } }, { name: 'size 0', query: { size: '0' } }, { name: 'size huge', query: { size: '1000000' } });
  if (q.includes('limit')) out.push({ name: 'limit 0', query: { limit: '0' } }, { name: 'limit huge', query: { limit: '1000000000' } });
  if (q.includes('after')) out.push({ name: 'after negative', query: { after: '-5' } });
  if (q.includes('delay')) out.push({ name: 'delay negative', query: { delay: '-10' } });
  if (q.includes('offset')) out.push({ name: 'offset past end', query: { offset: '100000' } });
  const b = route.request.body ? Object.keys(propertiesOf(toJson(route.request.body))) : [];
  const dated = b.filter((k) => /(^|_)(date|start|end|at|since|until|dob)$|_start$|_end$|activate_by/.test(k));
  if (dated.length > 0) {
    out.push({ name: 'body dates 2025-02-30', body: Object.fromEntries(dated.map((k) => [k, '2025-02-30'])) });
    out.push({ name: 'body dates not dates', body: Object.fromEntries(dated.map((k) => [k, 'yesterday'])) });
  }
  if (b.includes('ingestion_start') && b.includes('ingestion_end')) {
    out.push({ name: 'ingestion_end before ingestion_start', body: { client_user_id: 'fuzz-semantic', ingestion_start: '2026-01-04', ingestion_end: '2025-01-01' } });
  }
  if (b.includes('start_at') && b.includes('end_at')) out.push({ name: 'end_at before start_at', body: { start_at: '2026-01-04T00:00:00Z', end_at: '2025-01-01T00:00:00Z' } });
  if (b.includes('since')) out.push({ name: 'until before since', body: { since: '2026-01-04T00:00:00Z', until: '2025-01-01T00:00:00Z' } });
  if (b.includes('seconds')) out.push({ name: 'seconds negative', body: { seconds: -60 } }, { name: 'seconds huge', body: { seconds: 1e300 } });
  if (b.includes('duration')) out.push({ name: 'duration junk', body: { duration: 'PT-5H' } });
  if (b.includes('until') && !b.includes('since')) out.push({ name: 'until in the past', body: { until: '2000-01-01T00:00:00Z' } });
  if (b.includes('url')) out.push({ name: 'url not a URL', body: { url: 'not a url' } }, { name: 'url javascript:', body: { url: 'javascript:alert(1)' } });
  if (b.includes('fallback_time_zone')) out.push({ name: 'time zone unknown', body: { client_user_id: 'fuzz-tz', fallback_time_zone: 'Mars/Olympus' } });
  if (b.includes('user_id')) out.push({ name: 'body user_id unknown', body: { user_id: UNKNOWN_UUID } });
  if (b.includes('rate_limit')) out.push({ name: 'rate_limit negative', body: { url: 'https://example.com/x', rate_limit: -1 } });
  if (b.includes('status')) out.push({ name: 'status 999', body: { status: 999 } }, { name: 'status 0', body: { status: 0 } });
  if (b.includes('headers')) out.push({ name: 'headers values not strings', body: { headers: { 'x-a': { b: 1 }, '': 'x', 'bad header': 'v\r\nx: y' } } });
  return out;
}

// ---- semantically wrong, valid-looking requests ----

interface SemanticCase {
  area: string;
  name: string;
  method: string;
  path: string;
  surface?: 'data' | 'management';
  body?: unknown;
  query?: CallOptions['query'];
}

/** Valid-looking requests a careful server must refuse (4xx), per area. */
function semanticCases(r: Runner): SemanticCase[] {
  const p = r.base.params;
  const u = p.user_id as string;
  const order = { user_id: u, lab_test_id: p.lab_test_id, patient_details: PATIENT, patient_address: ADDRESS };
  const hooks = `/v1/org/${p.org_id}/team/${p.team_id}/sandbox/webhook`;
  const m = 'management' as const;
  return [
    { area: 'users', name: 'birth date 2025-02-30', method: 'POST', path: '/v2/user', body: { client_user_id: 'sem-1', fallback_birth_date: '2025-02-30' } },
    { area: 'users', name: 'ingestion_end before ingestion_start', method: 'POST', path: '/v2/user', body: { client_user_id: 'sem-2', ingestion_start: '2026-01-04', ingestion_end: '2025-01-01' } },
    { area: 'users', name: 'unknown time zone', method: 'POST', path: '/v2/user', body: { client_user_id: 'sem-3', fallback_time_zone: 'Mars/Olympus' } },
    { area: 'users', name: 'client_user_id is an e-mail', method: 'POST', path: '/v2/user', body: { client_user_id: 'grace@example.com' } },
    { area: 'users', name: 'patch: unknown time zone', method: 'PATCH', path: `/v2/user/${u}`, body: { fallback_time_zone: 'Mars/Olympus' } },
    { area: 'users', name: 'patch: birth date 2025-02-30', method: 'PATCH', path: `/v2/user/${u}`, body: { fallback_birth_date: '2025-02-30' } },
    { area: 'users', name: 'patch: ingestion_end before ingestion_start', method: 'PATCH', path: `/v2/user/${u}`, body: { ingestion_start: '2026-01-04', ingestion_end: '2025-01-01' } },
    { area: 'users', name: 'patch: empty client_user_id', method: 'PATCH', path: `/v2/user/${u}`, body: { client_user_id: '' } },
    { area: 'users', name: 'undo delete of a live user', method: 'POST', path: '/v2/user/undo_delete', query: { user_id: u } },
    { area: 'wearables', name: 'demo connection for an unknown user', method: 'POST', path: '/v2/link/connect/demo', body: { user_id: UNKNOWN_UUID, provider: 'oura' } },
    { area: 'wearables', name: 'summary: end before start', method: 'GET', path: `/v2/summary/sleep/${u}`, query: { start_date: '2026-01-04', end_date: '2026-01-01' } },
    { area: 'wearables', name: 'summary: start 2025-02-30', method: 'GET', path: `/v2/summary/activity/${u}`, query: { start_date: '2025-02-30' } },
    { area: 'wearables', name: 'timeseries: end before start', method: 'GET', path: `/v2/timeseries/${u}/heartrate`, query: { start_date: '2026-01-04', end_date: '2026-01-01' } },
    { area: 'wearables', name: 'timeseries: unknown provider', method: 'GET', path: `/v2/timeseries/${u}/steps/grouped`, query: { start_date: '2026-01-01', provider: 'garmin_v9' } },
    { area: 'wearables', name: 'force a pull of an unknown provider', method: 'POST', path: `/_sandbox/historical_pulls/${u}/garmin_v9`, body: { outcome: 'success' } },
    { area: 'wearables', name: 'pull finishing in negative seconds', method: 'POST', path: `/_sandbox/historical_pulls/${u}/${p.provider}`, body: { outcome: 'success', finish_in_seconds: -5 } },
    { area: 'labs', name: 'order: patient born 2025-02-30', method: 'POST', path: '/v3/order', body: { ...order, patient_details: { ...PATIENT, dob: '2025-02-30' } } },
    { area: 'labs', name: 'order: activate_by 2025-02-30', method: 'POST', path: '/v3/order', body: { ...order, activate_by: '2025-02-30' } },
    { area: 'labs', name: 'order: unknown lab test', method: 'POST', path: '/v3/order', body: { ...order, lab_test_id: UNKNOWN_UUID } },
    { area: 'labs', name: 'order: unknown user', method: 'POST', path: '/v3/order', body: { ...order, user_id: UNKNOWN_UUID } },
    { area: 'labs', name: 'order: zip not a zip', method: 'POST', path: '/v3/order', body: { ...order, patient_address: { ...ADDRESS, zip: 'ABCDE' } } },
    { area: 'labs', name: 'update: activate_by 2025-02-30', method: 'PATCH', path: `/v3/order/${p.order_id}`, body: { activate_by: '2025-02-30' } },
    { area: 'labs', name: 'orders: page 0', method: 'GET', path: '/v3/orders', query: { page: 0 } },
    { area: 'labs', name: 'markers: size 0', method: 'GET', path: '/v3/lab_tests/markers', query: { size: 0 } },
    { area: 'labs', name: 'simulate: negative delay', method: 'POST', path: `/v3/order/${p.order_id}/test`, query: { delay: -10 } },
    { area: 'labs', name: 'result of an order without results', method: 'GET', path: `/v3/order/${p.order_id}/result` },
    { area: 'management', name: 'team in region mars', method: 'POST', path: `/v1/org/${p.org_id}/team`, surface: m, body: { name: 'Sem', region: 'mars' } },
    { area: 'management', name: 'team with an unknown environment', method: 'GET', path: `/v1/org/${p.org_id}/team/${p.team_id}`, surface: m, query: { include_environment: 'staging' } },
    { area: 'management', name: 'key bound to an unknown team', method: 'POST', path: `/v1/org/${p.org_id}/management_key`, surface: m, body: { label: 'sem', role: 'team_admin', team_role_bindings: [{ team_id: UNKNOWN_UUID }] } },
    { area: 'management', name: 'team API key for an unknown team', method: 'POST', path: `/v1/org/${p.org_id}/team_api_keys/sandbox/us`, surface: m, body: { label: 'sem', team_id: UNKNOWN_UUID } },
    { area: 'management', name: 'webhook with a non-URL', method: 'POST', path: hooks, surface: m, body: { url: 'not a url' } },
    { area: 'management', name: 'webhook with a negative rate limit', method: 'POST', path: hooks, surface: m, body: { url: 'https://example.com/a', rate_limit: -1 } },
    { area: 'management', name: 'pipeline for an unknown team', method: 'POST', path: `/v1/org/${p.org_id}/team_etl_pipelines/sandbox/us`, surface: m, body: { team_ids: [UNKNOWN_UUID], event_type_prefixes: [] } },
    { area: 'control', name: 'advance until the past', method: 'POST', path: '/_sandbox/clock/advance', body: { until: '2000-01-01T00:00:00Z' } },
    { area: 'control', name: 'advance until 2026-02-30', method: 'POST', path: '/_sandbox/clock/advance', body: { until: '2026-02-30T00:00:00Z' } },
    { area: 'wearables', name: 'summary: start 2025-11-31 as a date-time', method: 'GET', path: `/v2/summary/body/${u}`, query: { start_date: '2025-11-31T00:00:00Z' } },
    { area: 'wearables', name: 'timeseries: end 2025-12-32 as a date-time', method: 'GET', path: `/v2/timeseries/${u}/steps`, query: { start_date: '2025-12-20', end_date: '2025-12-32T00:00:00Z' } },
    { area: 'labs', name: 'resend events: start_at 2025-11-31', method: 'POST', path: '/v3/order/resend_events', body: { start_at: '2025-11-31T00:00:00Z' } },
    { area: 'control', name: 'advance a year-long duration', method: 'POST', path: '/_sandbox/clock/advance', body: { duration: 'P1Y' } },
    { area: 'control', name: 'advance 10 years', method: 'POST', path: '/_sandbox/clock/advance', body: { duration: 'P520W' } },
    { area: 'control', name: 'advance 1e300 seconds', method: 'POST', path: '/_sandbox/clock/advance', body: { seconds: 1e300 } },
    { area: 'control', name: 'reset with a fractional seed', method: 'POST', path: '/_sandbox/reset', body: { seed: 1.5 } },
    { area: 'control', name: 'receiver answering status 99', method: 'PUT', path: '/_sandbox/receiver/sem', body: { status: 99 } },
    { area: 'control', name: 'recover until before since', method: 'POST', path: `/_sandbox/webhooks/endpoints/${p.webhook_id}/recover`, body: { since: '2026-01-04T00:00:00Z', until: '2025-01-01T00:00:00Z' } },
  ];
}

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
    logger: (message, error) => errors.push(`${message}: ${error instanceof Error ? (error.stack ?? error.message).split('\n').slice(0, 4).join(' | ') : String(error)}`),
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
  return route.path.replace(/:([a-z_]+)/g, (_m, name: string) => params[name] ?? encodeURIComponent(base.params[name] ?? UNKNOWN_UUID));
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
    if (!/application\/json/.test(res.headers['content-type'] ?? '')) out.push(`${where}: ${res.status} with content-type ${res.headers['content-type']}`);
    if (res.body === null || typeof res.body !== 'object' || !('detail' in res.body)) out.push(`${where}: ${res.status} without a JSON detail: ${snippet}`);
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
  let variants = [...pathVariants(route), ...bodyVariants(route, r.base), ...queryVariants(route), ...semanticVariants(route), ...transportVariants(route)];
  if (REPEATS.has(route)) {
    const transport = new Set(transportVariants(route).map((v) => v.name));
    variants = variants.filter((v) => !transport.has(v.name) && ((!v.params && !v.query) || v.name.startsWith('end_date') || v.name.startsWith('start_date') || passesSchemas(route, v, r.base)));
  }
  return runVariants(r, route, variants);
}

/**
 * One transport by default, the msw adapter's request handling called in process (`fetch`: msw's
 * own interception costs about 2 ms a request, and this file sends thousands): the route-table
 * parity test proves every adapter, that one included, answers a valid and an
 * invalid request of every route byte-identically, so hostile input needs no second pass.
 * ROBUSTNESS_ADAPTERS=all runs it on every adapter.
 */
const ROBUSTNESS_ADAPTERS: readonly AnyAdapter[] = process.env['ROBUSTNESS_ADAPTERS'] === 'all' ? ['express', 'msw', 'fetch'] : ['fetch'];

for (const adapter of ROBUSTNESS_ADAPTERS) describe(`robustness: every route survives hostile input [${adapter}]`, () => {
  let shared: Runner;
  beforeAll(async () => {
    shared = await newRunner(adapter);
  });

  for (const route of ROUTES) {
    it(`${route.method} ${route.path} (${route.id})`, async () => {
      const r = destructive(route) ? await newRunner(adapter) : shared;
      const failures = await fuzzRoute(r, route);
      expect(failures, failures.join('\n')).toEqual([]);
    });
  }

  it('semantically wrong requests, per area, are refused cleanly and change nothing', async () => {
    const r = await newRunner(adapter);
    const failures: string[] = [];
    for (const sc of semanticCases(r)) {
      const world = r.c.sandbox.world;
      const before = fingerprint(world);
      r.errors.length = 0;
      requests[adapter]++;
      const res = await r.c.call(sc.method, sc.path, { surface: sc.surface, body: sc.body, query: sc.query });
      const changed = res.status >= 400 && (r.c.sandbox.world !== world || fingerprint(world) !== before);
      const route = { method: sc.method, path: sc.path, id: sc.area } as Route;
      failures.push(...problems(route, { name: sc.name }, res, [...r.errors], changed));
      if (res.status < 400 || res.status >= 500) failures.push(`${sc.area} ${sc.method} ${sc.path} [${sc.name}]: expected a 4xx refusal, got ${res.status} ${res.text.slice(0, 200)}`);
    }
    expect(failures, failures.join('\n')).toEqual([]);
  });

  it('sent a bounded number of requests', () => {
    if (DEBUG) console.log('STATS', adapter, requests[adapter], JSON.stringify([...stats].sort()));
    expect(requests[adapter]).toBeGreaterThan(ROUTES.length * 10);
    expect(requests[adapter]).toBeLessThan(ROUTES.length * 60);
  });
});
