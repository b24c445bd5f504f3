/**
 * The hostile and malformed requests `test/route-table/robustness.test.ts` sends to every route of the route
 * table: transport oddities, wrong bodies, junk query values and path segments (per route, from
 * its schemas), and valid-looking requests each area must refuse (semantic cases).
 */
import type { Route } from '../../src/engine/route.js';
import { ADDRESS, PATIENT } from './lab-helpers.js';
import { GOOD_QUERY, UNKNOWN_ID } from './route-params.js';
import { DEEP, plausible, propertiesOf, toJson, wrongScalar, wrongStructured, type Baseline, type JsonSchema } from './route-requests.js';
import type { CallOptions } from './client.js';

/** Garbage path segments, already URL-encoded as they go on the wire. */
const BAD_SEGMENTS: ReadonlyArray<[string, string]> = [
  ['unknown-uuid', UNKNOWN_ID],
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

export interface Variant {
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
export function transportVariants(route: Route): Variant[] {
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

export function bodyVariants(route: Route, base: Baseline): Variant[] {
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

export function queryVariants(route: Route): Variant[] {
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
export function baseQuery(route: Route): Record<string, string> {
  const schema = route.request.query;
  if (!schema) return {};
  const keys = Object.keys(propertiesOf(toJson(schema)));
  return Object.fromEntries(keys.filter((k) => k in QUERY).map((k) => [k, QUERY[k] as string]));
}

export function pathVariants(route: Route): Variant[] {
  const names = route.path
    .split('/')
    .filter((s) => s.startsWith(':'))
    .map((s) => s.slice(1));
  const out: Variant[] = [];
  for (const name of names)
    for (const [label, value] of BAD_SEGMENTS) out.push({ name: `path :${name}=${label}`, params: { [name]: value } });
  return out;
}

/** Valid-looking but semantically wrong requests, per area. */
export function semanticVariants(route: Route): Variant[] {
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
  if (q.includes('cursor'))
    out.push(
      { name: 'cursor not base64', query: { ...baseQuery(route), cursor: '!!!@@@' } },
      { name: 'cursor far future', query: { ...baseQuery(route), cursor: Buffer.from('t:99999999999999999999999').toString('base64url') } },
    );
  if (q.includes('page'))
    out.push(
      { name: 'page 0', query: { page: '0' } },
      { name: 'size 0', query: { size: '0' } },
      { name: 'size huge', query: { size: '1000000' } },
    );
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
    out.push({
      name: 'ingestion_end before ingestion_start',
      body: { client_user_id: 'fuzz-semantic', ingestion_start: '2026-01-04', ingestion_end: '2025-01-01' },
    });
  }
  if (b.includes('start_at') && b.includes('end_at'))
    out.push({ name: 'end_at before start_at', body: { start_at: '2026-01-04T00:00:00Z', end_at: '2025-01-01T00:00:00Z' } });
  if (b.includes('since')) out.push({ name: 'until before since', body: { since: '2026-01-04T00:00:00Z', until: '2025-01-01T00:00:00Z' } });
  if (b.includes('seconds'))
    out.push({ name: 'seconds negative', body: { seconds: -60 } }, { name: 'seconds huge', body: { seconds: 1e300 } });
  if (b.includes('duration')) out.push({ name: 'duration junk', body: { duration: 'PT-5H' } });
  if (b.includes('until') && !b.includes('since')) out.push({ name: 'until in the past', body: { until: '2000-01-01T00:00:00Z' } });
  if (b.includes('url'))
    out.push({ name: 'url not a URL', body: { url: 'not a url' } }, { name: 'url javascript:', body: { url: 'javascript:alert(1)' } });
  if (b.includes('fallback_time_zone'))
    out.push({ name: 'time zone unknown', body: { client_user_id: 'fuzz-tz', fallback_time_zone: 'Mars/Olympus' } });
  if (b.includes('user_id')) out.push({ name: 'body user_id unknown', body: { user_id: UNKNOWN_ID } });
  if (b.includes('rate_limit')) out.push({ name: 'rate_limit negative', body: { url: 'https://example.com/x', rate_limit: -1 } });
  if (b.includes('status')) out.push({ name: 'status 999', body: { status: 999 } }, { name: 'status 0', body: { status: 0 } });
  if (b.includes('headers'))
    out.push({ name: 'headers values not strings', body: { headers: { 'x-a': { b: 1 }, '': 'x', 'bad header': 'v\r\nx: y' } } });
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
export function semanticCases(base: Baseline): SemanticCase[] {
  const p = base.params;
  const u = p.user_id as string;
  const order = { user_id: u, lab_test_id: p.lab_test_id, patient_details: PATIENT, patient_address: ADDRESS };
  const hooks = `/v1/org/${p.org_id}/team/${p.team_id}/sandbox/webhook`;
  const m = 'management' as const;
  return [
    {
      area: 'users',
      name: 'birth date 2025-02-30',
      method: 'POST',
      path: '/v2/user',
      body: { client_user_id: 'sem-1', fallback_birth_date: '2025-02-30' },
    },
    {
      area: 'users',
      name: 'ingestion_end before ingestion_start',
      method: 'POST',
      path: '/v2/user',
      body: { client_user_id: 'sem-2', ingestion_start: '2026-01-04', ingestion_end: '2025-01-01' },
    },
    {
      area: 'users',
      name: 'unknown time zone',
      method: 'POST',
      path: '/v2/user',
      body: { client_user_id: 'sem-3', fallback_time_zone: 'Mars/Olympus' },
    },
    { area: 'users', name: 'client_user_id is an e-mail', method: 'POST', path: '/v2/user', body: { client_user_id: 'grace@example.com' } },
    {
      area: 'users',
      name: 'patch: unknown time zone',
      method: 'PATCH',
      path: `/v2/user/${u}`,
      body: { fallback_time_zone: 'Mars/Olympus' },
    },
    {
      area: 'users',
      name: 'patch: birth date 2025-02-30',
      method: 'PATCH',
      path: `/v2/user/${u}`,
      body: { fallback_birth_date: '2025-02-30' },
    },
    {
      area: 'users',
      name: 'patch: ingestion_end before ingestion_start',
      method: 'PATCH',
      path: `/v2/user/${u}`,
      body: { ingestion_start: '2026-01-04', ingestion_end: '2025-01-01' },
    },
    { area: 'users', name: 'patch: empty client_user_id', method: 'PATCH', path: `/v2/user/${u}`, body: { client_user_id: '' } },
    { area: 'users', name: 'undo delete of a live user', method: 'POST', path: '/v2/user/undo_delete', query: { user_id: u } },
    {
      area: 'wearables',
      name: 'demo connection for an unknown user',
      method: 'POST',
      path: '/v2/link/connect/demo',
      body: { user_id: UNKNOWN_ID, provider: 'oura' },
    },
    {
      area: 'wearables',
      name: 'summary: end before start',
      method: 'GET',
      path: `/v2/summary/sleep/${u}`,
      query: { start_date: '2026-01-04', end_date: '2026-01-01' },
    },
    {
      area: 'wearables',
      name: 'summary: start 2025-02-30',
      method: 'GET',
      path: `/v2/summary/activity/${u}`,
      query: { start_date: '2025-02-30' },
    },
    {
      area: 'wearables',
      name: 'timeseries: end before start',
      method: 'GET',
      path: `/v2/timeseries/${u}/heartrate`,
      query: { start_date: '2026-01-04', end_date: '2026-01-01' },
    },
    {
      area: 'wearables',
      name: 'timeseries: unknown provider',
      method: 'GET',
      path: `/v2/timeseries/${u}/steps/grouped`,
      query: { start_date: '2026-01-01', provider: 'garmin_v9' },
    },
    {
      area: 'wearables',
      name: 'force a pull of an unknown provider',
      method: 'POST',
      path: `/_sandbox/historical_pulls/${u}/garmin_v9`,
      body: { outcome: 'success' },
    },
    {
      area: 'wearables',
      name: 'pull finishing in negative seconds',
      method: 'POST',
      path: `/_sandbox/historical_pulls/${u}/${p.provider}`,
      body: { outcome: 'success', finish_in_seconds: -5 },
    },
    {
      area: 'labs',
      name: 'order: patient born 2025-02-30',
      method: 'POST',
      path: '/v3/order',
      body: { ...order, patient_details: { ...PATIENT, dob: '2025-02-30' } },
    },
    {
      area: 'labs',
      name: 'order: activate_by 2025-02-30',
      method: 'POST',
      path: '/v3/order',
      body: { ...order, activate_by: '2025-02-30' },
    },
    { area: 'labs', name: 'order: unknown lab test', method: 'POST', path: '/v3/order', body: { ...order, lab_test_id: UNKNOWN_ID } },
    { area: 'labs', name: 'order: unknown user', method: 'POST', path: '/v3/order', body: { ...order, user_id: UNKNOWN_ID } },
    {
      area: 'labs',
      name: 'order: zip not a zip',
      method: 'POST',
      path: '/v3/order',
      body: { ...order, patient_address: { ...ADDRESS, zip: 'ABCDE' } },
    },
    {
      area: 'labs',
      name: 'update: activate_by 2025-02-30',
      method: 'PATCH',
      path: `/v3/order/${p.order_id}`,
      body: { activate_by: '2025-02-30' },
    },
    { area: 'labs', name: 'orders: page 0', method: 'GET', path: '/v3/orders', query: { page: 0 } },
    { area: 'labs', name: 'markers: size 0', method: 'GET', path: '/v3/lab_tests/markers', query: { size: 0 } },
    { area: 'labs', name: 'simulate: negative delay', method: 'POST', path: `/v3/order/${p.order_id}/test`, query: { delay: -10 } },
    { area: 'labs', name: 'result of an order without results', method: 'GET', path: `/v3/order/${p.order_id}/result` },
    {
      area: 'management',
      name: 'team in region mars',
      method: 'POST',
      path: `/v1/org/${p.org_id}/team`,
      surface: m,
      body: { name: 'Sem', region: 'mars' },
    },
    {
      area: 'management',
      name: 'team with an unknown environment',
      method: 'GET',
      path: `/v1/org/${p.org_id}/team/${p.team_id}`,
      surface: m,
      query: { include_environment: 'staging' },
    },
    {
      area: 'management',
      name: 'key bound to an unknown team',
      method: 'POST',
      path: `/v1/org/${p.org_id}/management_key`,
      surface: m,
      body: { label: 'sem', role: 'team_admin', team_role_bindings: [{ team_id: UNKNOWN_ID }] },
    },
    {
      area: 'management',
      name: 'team API key for an unknown team',
      method: 'POST',
      path: `/v1/org/${p.org_id}/team_api_keys/sandbox/us`,
      surface: m,
      body: { label: 'sem', team_id: UNKNOWN_ID },
    },
    { area: 'management', name: 'webhook with a non-URL', method: 'POST', path: hooks, surface: m, body: { url: 'not a url' } },
    {
      area: 'management',
      name: 'webhook with a negative rate limit',
      method: 'POST',
      path: hooks,
      surface: m,
      body: { url: 'https://example.com/a', rate_limit: -1 },
    },
    {
      area: 'management',
      name: 'pipeline for an unknown team',
      method: 'POST',
      path: `/v1/org/${p.org_id}/team_etl_pipelines/sandbox/us`,
      surface: m,
      body: { team_ids: [UNKNOWN_ID], event_type_prefixes: [] },
    },
    {
      area: 'control',
      name: 'advance until the past',
      method: 'POST',
      path: '/_sandbox/clock/advance',
      body: { until: '2000-01-01T00:00:00Z' },
    },
    {
      area: 'control',
      name: 'advance until 2026-02-30',
      method: 'POST',
      path: '/_sandbox/clock/advance',
      body: { until: '2026-02-30T00:00:00Z' },
    },
    {
      area: 'wearables',
      name: 'summary: start 2025-11-31 as a date-time',
      method: 'GET',
      path: `/v2/summary/body/${u}`,
      query: { start_date: '2025-11-31T00:00:00Z' },
    },
    {
      area: 'wearables',
      name: 'timeseries: end 2025-12-32 as a date-time',
      method: 'GET',
      path: `/v2/timeseries/${u}/steps`,
      query: { start_date: '2025-12-20', end_date: '2025-12-32T00:00:00Z' },
    },
    {
      area: 'labs',
      name: 'resend events: start_at 2025-11-31',
      method: 'POST',
      path: '/v3/order/resend_events',
      body: { start_at: '2025-11-31T00:00:00Z' },
    },
    { area: 'control', name: 'advance a year-long duration', method: 'POST', path: '/_sandbox/clock/advance', body: { duration: 'P1Y' } },
    { area: 'control', name: 'advance 10 years', method: 'POST', path: '/_sandbox/clock/advance', body: { duration: 'P520W' } },
    { area: 'control', name: 'advance 1e300 seconds', method: 'POST', path: '/_sandbox/clock/advance', body: { seconds: 1e300 } },
    { area: 'control', name: 'reset with a fractional seed', method: 'POST', path: '/_sandbox/reset', body: { seed: 1.5 } },
    { area: 'control', name: 'receiver answering status 99', method: 'PUT', path: '/_sandbox/receiver/sem', body: { status: 99 } },
    {
      area: 'control',
      name: 'recover until before since',
      method: 'POST',
      path: `/_sandbox/webhooks/endpoints/${p.webhook_id}/recover`,
      body: { since: '2026-01-04T00:00:00Z', until: '2025-01-01T00:00:00Z' },
    },
  ];
}
