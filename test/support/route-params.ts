/**
 * The one route-parameter builder: concrete values for every path parameter of the route table,
 * read from (and made in) a small seeded world through the API itself, so the tests driven by the
 * route table (adapter parity, wire answers, determinism, robustness, fuzz, isolation) and the
 * conformance report call every route with ids that exist.
 *
 * A new route whose parameters are named like the existing ones is covered without edits. A new
 * parameter name is added once, as one line of `PARAM_VALUES` (how to read it from `SeededWorld`);
 * a name missing from the table gets `UNKNOWN_ID`, a well-formed id that exists nowhere.
 */
import { z } from 'zod';
import type { Route } from '../../src/engine/route.js';
import type { TestClient } from './client.js';

/** A well-formed UUID (v4) that no seeded or created entity has: the "unknown id" of every test. */
export const UNKNOWN_ID = '7d3c1a52-9b1e-4c2f-8a6d-0e5f4b3a2c1d';

/** The patient and address of every order the route-table requests and the conformance report place. */
export const PATIENT = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  dob: '1985-12-10',
  gender: 'female',
  phone_number: '+14155551234',
  email: 'ada@example.com',
};
export const ADDRESS = {
  receiver_name: 'Ada Lovelace',
  first_line: '1 Main Street',
  city: 'Austin',
  state: 'TX',
  zip: '78701',
  country: 'US',
};

/** Query values that make a route's required query parameters valid: a three-day window inside the seeded history. */
export const GOOD_QUERY: Readonly<Record<string, string>> = { start_date: '2026-01-02', end_date: '2026-01-04' };

/** An answer of the API, read loosely before its checks. */
type Loose = any;

/** The list in an answer: the body itself, or the first of `keys` that holds one. */
export function list(body: Loose, ...keys: string[]): Loose[] {
  if (Array.isArray(body)) return body;
  for (const k of keys) if (Array.isArray(body?.[k])) return body[k];
  return [];
}

/** What `gatherWorld` read and made: the records the parameter values come from. */
export interface SeededWorld {
  orgId: string;
  teamId?: string;
  user: Loose;
  provider?: string;
  walkIn?: { id: string; lab?: { id: number } };
  labId?: string;
  marker: Loose;
  order: Loose;
  workout: Loose;
  key: Loose;
  account: Loose;
  hook: Loose;
  msg: Loose;
  stream?: string;
  run: Loose;
  rawResultId?: string;
  job: Loose;
}

type ParamValue = (w: SeededWorld) => string | number | undefined;

/** Every path parameter name of the route table, and where its value comes from. One line per name. */
export const PARAM_VALUES: Readonly<Record<string, ParamValue>> = {
  org_id: (w) => w.orgId,
  team_id: (w) => w.teamId,
  user_id: (w) => w.user?.user_id,
  client_user_id: (w) => w.user?.client_user_id,
  provider: (w) => w.provider ?? 'oura',
  env: () => 'sandbox',
  environment: () => 'sandbox',
  region: () => 'us',
  lab_test_id: (w) => w.walkIn?.id,
  lab_id: (w) => w.labId ?? w.walkIn?.lab?.id ?? 1,
  provider_id: (w) => w.marker?.provider_id ?? 'X1',
  order_id: (w) => w.order?.id,
  sample_id: (w) => w.order?.sample_id,
  transaction_id: (w) => w.order?.order_transaction?.id ?? w.order?.transaction_id,
  workout_id: (w) => w.workout?.id,
  key_id: (w) => w.key?.id,
  account_id: (w) => w.account?.id,
  webhook_id: (w) => w.hook?.id,
  msg_id: (w) => w.msg?.msg_id ?? w.msg?.id,
  endpoint_id: (w) => w.msg?.endpoint_id ?? w.hook?.id,
  name: () => 'params',
  stream: (w) => w.stream ?? 'params-stream',
  run_id: (w) => w.run?.run_id,
  raw_result_id: (w) => w.rawResultId,
  job_id: (w) => w.job?.id,
  query_id_or_slug: (w) => (w.run ? 'params-query' : undefined),
};

export interface GatherOptions {
  /** Where the world's webhook endpoint points (default: the sandbox's own test receiver). */
  hookUrl?: string;
  /** Also start an unmatched-result run, a lab report parsing job and a continuous query (robustness). */
  jobs?: boolean;
}

/** Starts the background work `jobs` asks for (it finishes during the advance of `gatherWorld`). */
async function startJobs(c: TestClient, teamId: string | undefined, userId: string | undefined) {
  const run = (
    await c.post('/v3/unmatched_result_test', { case: 'no_match', order_source: 'managed' }, { headers: { 'x-idempotency-key': 'params' } })
  ).body;
  const boundary = 'params-boundary';
  const upload = new TextEncoder().encode(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="r.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.7 params\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="user_id"\r\n\r\n${userId}\r\n--${boundary}--\r\n`,
  );
  const job = (
    await c.post('/lab_report/v1/parser/job', upload, { headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } })
  ).body;
  await c.mgmt('POST', `/v1/org/${c.orgId}/team/${teamId}/sandbox/continuous_query`, {
    body: {
      slug: 'params-query',
      title: 'Params',
      query: {
        select: [{ group_key: '*' }, { func: 'mean', arg: { sleep: 'score' } }],
        group_by: [{ date_trunc: { unit: 'day' }, arg: { index: 'sleep' } }],
      },
      scheduling_preferences: { minimum_gap_duration_second: 86_400 },
    },
  });
  return { run, job };
}

/** Makes an order, a webhook endpoint, a delivered message (and the `jobs`), and reads the records ids come from. */
async function gatherWorld(c: TestClient, options: GatherOptions = {}): Promise<SeededWorld> {
  const teamId = c.creds.teams[0]?.team_id;
  const user = list((await c.get('/v2/user', { query: { limit: 10 } })).body, 'users')[0];
  const userId: string | undefined = user?.user_id;
  const provider = list((await c.get(`/v2/user/providers/${userId ?? UNKNOWN_ID}`)).body, 'providers')[0]?.slug;
  const labTests = list((await c.get('/v3/lab_tests')).body) as Array<{ id: string; method: string; auto_generated: boolean }>;
  const walkIn = labTests.find((t) => t.method === 'walk_in_test' && !t.auto_generated) ?? labTests[0];
  const labId = list((await c.get('/v3/lab_tests/labs')).body)[0]?.id;
  const marker = walkIn ? list((await c.get(`/v3/lab_tests/${walkIn.id}/markers`)).body, 'markers')[0] : undefined;
  const order = walkIn
    ? (await c.post('/v3/order', { user_id: userId, lab_test_id: walkIn.id, patient_details: PATIENT, patient_address: ADDRESS })).body
        ?.order
    : undefined;
  // The last two weeks first (a month of workouts costs more to generate), then the month.
  const workoutsIn = async (start: string) =>
    list((await c.get(`/v2/summary/workouts/${userId}`, { query: { start_date: start } })).body, 'workouts')[0];
  const workout = (await workoutsIn('2025-12-22')) ?? (await workoutsIn('2025-12-01'));
  const key = list((await c.mgmt('GET', `/v1/org/${c.orgId}/management_key`)).body, 'data', 'management_keys')[0];
  await c.put(`/_sandbox/teams/${teamId}/beta_features`, { beta_features: ['lab_accounts'] });
  const account = list((await c.mgmt('GET', `/v1/org/${c.orgId}/lab_account/sandbox/us`)).body, 'data', 'lab_accounts')[0];
  const hookUrl = options.hookUrl ?? `${c.sandbox.world.urls.base}/_sandbox/receiver/params`;
  const hook = (await c.mgmt('POST', `/v1/org/${c.orgId}/team/${teamId}/sandbox/webhook`, { body: { url: hookUrl } })).body;
  const jobs = options.jobs ? await startJobs(c, teamId, userId) : undefined;
  // Something to deliver, so there are messages and attempts to point at.
  const created = (await c.post('/v2/user', { client_user_id: 'route-params-user' })).body;
  await c.post('/v2/link/connect/demo', { user_id: created?.user_id, provider: 'oura' });
  await c.advance(60);
  const msg = list((await c.get('/_sandbox/webhooks/messages')).body, 'messages', 'data')[0];
  const rawResultId = jobs ? (await c.get(`/v3/unmatched_result_test/${jobs.run?.run_id}`)).body?.raw_result_id : undefined;
  const stream = list((await c.get('/_sandbox/pipelines/streams')).body, 'streams')[0]?.name;
  return {
    orgId: c.orgId,
    teamId,
    user,
    provider,
    walkIn,
    labId: labId === undefined ? undefined : String(labId),
    marker,
    order,
    workout,
    key,
    account,
    hook,
    msg,
    stream,
    run: jobs?.run,
    rawResultId,
    job: jobs?.job,
  };
}

/** The value of every parameter name of `PARAM_VALUES` in `world` (`UNKNOWN_ID` where it has none). */
function paramsOf(world: SeededWorld): Record<string, string> {
  return Object.fromEntries(Object.entries(PARAM_VALUES).map(([name, value]) => [name, String(value(world) ?? UNKNOWN_ID)]));
}

/** Gathers the world and reads every parameter's value from it. */
export async function routeParams(c: TestClient, options: GatherOptions = {}): Promise<Record<string, string>> {
  return paramsOf(await gatherWorld(c, options));
}

/** The route's path with its parameters filled in (`UNKNOWN_ID` for a name without a value). */
export function pathFor(route: Route, params: Record<string, string>): string {
  return route.path.replace(/:([a-z_]+)/g, (_m, name: string) => encodeURIComponent(params[name] ?? UNKNOWN_ID));
}

/** Query keys per query schema, read once (a test sends each route's query several times). */
const queryKeys = new WeakMap<z.ZodType, string[]>();

/** The GOOD_QUERY values of the query keys the route declares. */
export function queryFor(route: Route): Record<string, string> {
  const schema = route.request.query;
  if (!schema) return {};
  let keys = queryKeys.get(schema);
  if (!keys) {
    const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, unknown> };
    keys = Object.keys(json.properties ?? {});
    queryKeys.set(schema, keys);
  }
  return Object.fromEntries(keys.filter((k) => k in GOOD_QUERY).map((k) => [k, GOOD_QUERY[k] as string]));
}
