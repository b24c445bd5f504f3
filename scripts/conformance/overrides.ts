/**
 * What the generic request builder (`writes.ts`) cannot guess: per-operation bodies, queries and
 * path values that make the operation succeed in the seeded world, and the extra world state the
 * live check points at (a lab report parsing job, an unmatched-result run, a continuous query).
 * Writes on an order get a fresh order of their own, so a cancellation does not spoil the rest.
 */
import { ROUTES } from '../../src/routes.js';
import type { TestClient } from '../../test/support/client.js';
import { requestBody } from './writes.js';
import { PATIENT, ADDRESS, list } from '../../test/support/route-params.js';

export interface Override {
  body?: unknown;
  query?: Record<string, string>;
  params?: Record<string, string>;
  headers?: Record<string, string>;
}

type Ids = Record<string, string>;

/** At-home phlebotomy is served in zip 85004 (and 54650) only. */
const PHOENIX = { first_line: '1 West Lincoln Street', city: 'Phoenix', state: 'AZ', zip_code: '85004' };
const QUERY = {
  select: [{ group_key: '*' }, { func: 'mean', arg: { sleep: 'score' } }],
  group_by: [{ date_trunc: { unit: 'day' }, arg: { index: 'sleep' } }],
};

/** Per operation (`METHOD /doc/path`): the pieces of the request the generic builder gets wrong. */
export const OVERRIDES: Record<string, (ids: Ids, serial: number, c: TestClient) => Override | Promise<Override>> = {
  'POST /v2/link/code/create': (ids) => ({ query: { user_id: ids['user_id'] ?? '' } }),
  'PATCH /v2/user/{user_id}': () => ({ body: { fallback_time_zone: 'Europe/London' } }),
  'POST /v3/compendium/search': () => ({ body: { query: 'glucose' } }),
  'POST /v3/compendium/convert': (ids) => ({ body: { lab_test_id: ids['lab_test_id'] } }),
  'POST /v3/order': (ids) => ({
    body: { user_id: ids['user_id'], lab_test_id: ids['lab_test_id'], patient_details: PATIENT, patient_address: ADDRESS },
  }),
  'GET /v3/order/area/info': () => ({ query: { zip_code: '78701' } }),
  'GET /v3/order/{order_id}/labels/pdf': () => ({ query: { collection_date: '2026-01-05' } }),
  'GET /v3/insurance/search/payor': () => ({ query: { insurance_name: 'aetna' } }),
  'POST /v3/insurance/search/payor': () => ({ body: { insurance_name: 'aetna' } }),
  'GET /v3/insurance/search/diagnosis': () => ({ query: { diagnosis_query: 'diabetes' } }),
  'POST /v3/order/resend_events': (ids) => ({ body: { order_ids: [ids['order_id']] } }),
  'POST /v1/org/{org_id}/team/{team_id}/{environment}/continuous_query': (_ids, n) => ({
    body: { slug: `conformance-${n}`, title: 'Conformance', query: QUERY, scheduling_preferences: { minimum_gap_duration_second: 86_400 } },
  }),
  'POST /v1/org/{org_id}/team/{team_id}/{environment}/validate_continuous_query': () => ({ body: { query: QUERY } }),
  'POST /v1/org/{org_id}/domain': (_ids, n) => ({ body: { domain: `conformance${n}.example.com` } }),
  'GET /v2/link/providers': (ids) => ({ headers: { 'x-vital-link-token': ids['link_token'] ?? '' } }),
  'GET /v2/link/provider/oauth/{oauth_provider}': (ids) => ({
    params: { provider: 'oura' },
    headers: { 'x-vital-link-token': ids['link_token'] ?? '' },
  }),
  'POST /v2/link/provider/password/{provider}': (ids) => ({
    params: { provider: 'beurer_api' },
    headers: { 'x-vital-link-token': ids['link_token'] ?? '' },
  }),
  // A token of its own (the shared one may be consumed by then): no MFA step is pending on it.
  'POST /v2/link/provider/password/{provider}/complete_mfa': async (ids, _n, c) => {
    const token = (await c.post('/v2/link/token', { user_id: ids['user_id'] })).body?.link_token;
    return { params: { provider: 'beurer_api' }, headers: { 'x-vital-link-token': String(token ?? '') } };
  },
  'POST /v2/link/provider/email/{provider}': (ids) => ({
    params: { provider: 'freestyle_libre' },
    headers: { 'x-vital-link-token': ids['link_token'] ?? '' },
  }),
  'GET /v3/order/psc/info': (ids) => ({ query: { zip_code: '78701', lab_id: ids['lab_id'] ?? '' } }),
  'POST /v3/order/psc/appointment/availability': () => ({
    query: { lab: 'quest', zip_code: '78701', start_date: '2026-01-08' },
    body: undefined,
  }),
  'GET /v3/order/{order_id}/psc/appointment': async (ids, _n, c) => {
    await bookPsc(c, ids);
    return {};
  },
  'POST /v3/order/{order_id}/psc/appointment/book': async (ids, _n, c) => {
    const slots = await c.post('/v3/order/psc/appointment/availability', undefined, { query: { lab: 'quest', zip_code: '78701' } });
    return { body: { booking_key: firstOf(slots.body, 'booking_key') } };
  },
  'POST /v3/order/{order_id}/phlebotomy/appointment/book': async (_ids, _n, c) => {
    const slots = await c.post('/v3/order/phlebotomy/appointment/availability', PHOENIX);
    return { body: { booking_key: firstOf(slots.body, 'booking_key') } };
  },
  'POST /v3/order/{order_id}/phlebotomy/appointment/request': () => ({ body: { address: PHOENIX } }),
  'PATCH /v3/order/{order_id}/phlebotomy/appointment/reschedule': async (ids, _n, c) => ({
    body: { booking_key: await bookPhlebotomy(c, ids) },
  }),
  'PATCH /v3/order/{order_id}/phlebotomy/appointment/cancel': async (ids, _n, c) => {
    await bookPhlebotomy(c, ids);
    const reasons = (await c.get('/v3/order/phlebotomy/appointment/cancellation-reasons')).body;
    return { body: { cancellation_reason_id: firstOf(reasons, 'id') } };
  },
  'GET /v3/order/{order_id}/phlebotomy/appointment': async (ids, _n, c) => {
    await bookPhlebotomy(c, ids);
    return {};
  },
  'PATCH /v3/order/{order_id}/psc/appointment/reschedule': async (ids, _n, c) => ({ body: { booking_key: await bookPsc(c, ids) } }),
  'PATCH /v3/order/{order_id}/psc/appointment/cancel': async (ids, _n, c) => {
    await bookPsc(c, ids);
    const reasons = (await c.get('/v3/order/psc/appointment/cancellation-reasons')).body;
    return { body: { cancellationReasonId: firstOf(reasons, 'id') } };
  },
  'POST /v3/lab_tests': (ids) => ({ body: { provider_ids: [ids['provider_id']], method: 'walk_in_test' } }),
  'GET /v3/lab_test/{lab_test_id}/collection_instruction_pdf': (ids) => ({ params: { lab_test_id: ids['lab_test_id:testkit'] ?? '' } }),
  'GET /v3/lab_tests/{lab_id}/markers/{provider_id}': async (ids, _n, c) => {
    const test = (await c.get(`/v3/lab_tests/${ids['lab_test_id']}`)).body;
    return { params: { lab_id: String(test?.lab?.id ?? ids['lab_id']) } };
  },
  'GET /v2/user/{user_id}/insurance/latest': async (ids, n, c) => {
    const payors = await c.get('/v3/insurance/search/payor', { query: { insurance_name: 'aetna' } });
    const route = ROUTES.find((r) => r.method === 'POST' && r.path === '/v2/user/:user_id/insurance');
    const built = route ? requestBody(route, ids, n).body : {};
    await c.post(`/v2/user/${ids['user_id']}/insurance`, { ...(built as object), payor_code: firstOf(payors.body, 'payor_code') });
    return {};
  },
  'POST /v3/unmatched_result/{raw_result_id}/resolve': async (_ids, n, c) => {
    const run = (
      await c.post(
        '/v3/unmatched_result_test',
        { case: 'no_match', order_source: 'managed' },
        { headers: { 'x-idempotency-key': `conformance-run-${n}` } },
      )
    ).body;
    await c.advance(60);
    const raw = (await c.get(`/v3/unmatched_result_test/${run?.run_id}`)).body?.raw_result_id;
    return { params: { raw_result_id: raw ?? '' } };
  },
  'DELETE /v1/org/{org_id}/invite/{invite_id}': async (_ids, n, c) => {
    await c.mgmt('POST', `/v1/org/${c.orgId}/invite`, { body: { email: `invitee-${n}@example.com` } });
    const invites = list((await c.mgmt('GET', `/v1/org/${c.orgId}/invite`)).body, 'data', 'invites');
    const invite = invites.find((i) => firstOf(i, 'email') === `invitee-${n}@example.com`) ?? invites[0];
    return { params: { invite_id: invite?.id ?? '' } };
  },
  'POST /v2/link/connect/demo': async (_ids, n, c) => {
    const user = (await c.post('/v2/user', { client_user_id: `conformance-demo-${n}` })).body;
    return { body: { user_id: user?.user_id, provider: 'oura' } };
  },
  'POST /v2/user/undo_delete': async (_ids, n, c) => {
    const user = (await c.post('/v2/user', { client_user_id: `conformance-undo-${n}` })).body;
    await c.delete(`/v2/user/${user?.user_id}`);
    return { query: { user_id: user?.user_id }, body: undefined };
  },
  'POST /v2/user/{user_id}/insurance': async (_ids, _n, c) => {
    const payors = await c.get('/v3/insurance/search/payor', { query: { insurance_name: 'aetna' } });
    return { body: { payor_code: firstOf(payors.body, 'payor_code') } };
  },
  'POST /v3/order/testkit': (ids) => ({ body: { lab_test_id: ids['lab_test_id:testkit'] } }),
  'POST /v1/org/{org_id}/team_etl_pipelines/{env}/{region}': (ids) => ({
    body: { team_ids: [ids['team_id']], preferences: { preferred: 'svix', enabled: ['svix'] } },
  }),
  'DELETE /v1/org/{org_id}/team_api_keys/{env}/{region}': () => ({ query: { api_key_id: '6f1c1c1e-0000-4000-8000-000000000001' } }),
  'DELETE /v1/org/{org_id}/team_custom_credentials/{env}/{region}': () => ({
    query: { credential_id: '6f1c1c1e-0000-4000-8000-000000000002' },
  }),
  'DELETE /v1/org/{org_id}/team_ehr_pipelines/{environment}/{region}': () => ({ query: { ehr_type: 'fhir' } }),
  'POST /v1/org/{org_id}/team_custom_credentials/{env}/{region}': () => ({
    body: { client_id: 'conformance-client', client_secret: 'conformance-secret' },
  }),
};

/** The first value of `key` anywhere in a JSON answer (depth first). */
function firstOf(body: unknown, key: string): unknown {
  if (Array.isArray(body)) {
    for (const v of body) {
      const found = firstOf(v, key);
      if (found !== undefined) return found;
    }
  } else if (body && typeof body === 'object') {
    if (key in body) return (body as Record<string, unknown>)[key];
    for (const v of Object.values(body)) {
      const found = firstOf(v, key);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** Books an at-home phlebotomy appointment on `ids.order_id`; answers a second, free booking key. */
async function bookPhlebotomy(c: TestClient, ids: Ids): Promise<unknown> {
  const slots = (await c.post('/v3/order/phlebotomy/appointment/availability', PHOENIX)).body;
  const keys = allOf(slots, 'booking_key');
  await c.post(`/v3/order/${ids['order_id']}/phlebotomy/appointment/book`, { booking_key: keys[0] });
  return keys[1];
}

/** Books a PSC appointment on `ids.order_id`; answers a second, free booking key. */
async function bookPsc(c: TestClient, ids: Ids): Promise<unknown> {
  const slots = (await c.post('/v3/order/psc/appointment/availability', undefined, { query: { lab: 'quest', zip_code: '78701' } })).body;
  const keys = allOf(slots, 'booking_key');
  await c.post(`/v3/order/${ids['order_id']}/psc/appointment/book`, { booking_key: keys[0] });
  return keys[1];
}

function allOf(body: unknown, key: string, out: unknown[] = []): unknown[] {
  if (Array.isArray(body)) for (const v of body) allOf(v, key, out);
  else if (body && typeof body === 'object') for (const [k, v] of Object.entries(body)) k === key ? out.push(v) : allOf(v, key, out);
  return out;
}

/** Ids beyond `routeParams` (test/support/route-params.ts): a parsing job, an unmatched-result run and its raw result, a continuous query. */
export async function extraParams(c: TestClient, ids: Ids): Promise<Ids> {
  const run = (
    await c.post(
      '/v3/unmatched_result_test',
      { case: 'no_match', order_source: 'managed' },
      { headers: { 'x-idempotency-key': 'conformance-run' } },
    )
  ).body;
  const boundary = 'conformance-boundary';
  const upload =
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="r.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.7 conformance\r\n` +
    `--${boundary}\r\nContent-Disposition: form-data; name="user_id"\r\n\r\n${ids['user_id']}\r\n--${boundary}--\r\n`;
  const job = (
    await c.post('/lab_report/v1/parser/job', upload, { headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } })
  ).body;
  const query = (
    await c.mgmt('POST', `/v1/org/${c.orgId}/team/${ids['team_id']}/sandbox/continuous_query`, {
      body: {
        slug: 'conformance-query',
        title: 'Conformance',
        query: QUERY,
        scheduling_preferences: { minimum_gap_duration_second: 86_400 },
      },
    })
  ).body;
  const domain = (await c.mgmt('POST', `/v1/org/${c.orgId}/domain`, { body: { domain: 'conformance.example.com' } })).body;
  // Two days: the runs finish, the continuous query runs, the walk-in order has its results.
  await c.advance(2 * 86_400 + 600);
  const rawResultId = (await c.get(`/v3/unmatched_result_test/${run?.run_id}`)).body?.raw_result_id;
  const out: Ids = { query_id_or_slug: 'conformance-query' };
  const members = list((await c.mgmt('GET', `/v1/org/${c.orgId}/member`)).body, 'data', 'members');
  const invites = list((await c.mgmt('GET', `/v1/org/${c.orgId}/invite`)).body, 'data', 'invites');
  const tests = list((await c.get('/v3/lab_tests')).body) as Array<{ id: string; method: string; auto_generated: boolean }>;
  for (const method of ['at_home_phlebotomy', 'testkit', 'on_site_collection']) {
    const t = tests.find((x) => x.method === method && !x.auto_generated);
    if (t) out[`lab_test_id:${method}`] = t.id;
  }
  const token = (await c.post('/v2/link/token', { user_id: ids['user_id'] })).body?.link_token;
  if (token) out['link_token'] = token;
  if (run?.run_id) out['run_id'] = run.run_id;
  if (rawResultId) out['raw_result_id'] = rawResultId;
  if (job?.id) out['job_id'] = job.id;
  if (query?.id) out['query_id'] = query.id;
  if (domain?.id) out['domain_id'] = domain.id;
  if (members[0]?.id) out['member_id'] = members[0].id;
  if (invites[0]?.id) out['invite_id'] = invites[0].id;
  return out;
}

/** The collection method an operation on `:order_id` needs (walk-in unless the path says otherwise). */
export function methodFor(path: string): string | undefined {
  if (path.includes('/phlebotomy/')) return 'at_home_phlebotomy';
  if (path.includes('/draw_completed') || path.includes('/labels/pdf')) return 'on_site_collection';
  if (path.includes('/collection_instruction_pdf')) return 'testkit';
  if (path.includes('/psc/')) return 'walk_in_test';
  return undefined;
}

/** A fresh order (of the method the operation needs), so each write sees an order it may change. */
export async function freshOrder(c: TestClient, ids: Ids, method?: string): Promise<string | undefined> {
  const labTestId = (method ? ids[`lab_test_id:${method}`] : undefined) ?? ids['lab_test_id'];
  const address =
    method === 'at_home_phlebotomy'
      ? { ...ADDRESS, first_line: '1 West Lincoln Street', city: 'Phoenix', state: 'AZ', zip: '85004' }
      : ADDRESS;
  const res = await c.post('/v3/order', {
    user_id: ids['user_id'],
    lab_test_id: labTestId,
    patient_details: PATIENT,
    patient_address: address,
  });
  return res.body?.order?.id;
}
