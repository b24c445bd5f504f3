/**
 * Concrete values for every path parameter of the route table, read from (and made in) a small
 * seeded world through the API itself, so tests driven by the route table can call every route
 * with ids that exist. A new route whose parameters are named like the existing ones is covered
 * without edits; an unknown parameter name falls back to a well-formed unknown id.
 */
import { z } from 'zod';
import type { Route } from '../../src/engine/route.js';
import type { TestClient } from './client.js';

const UNKNOWN_UUID = '6f1c1c1e-0000-4000-8000-000000000000';

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

/** Query values that make a route's required query parameters valid. */
const GOOD_QUERY: Readonly<Record<string, string>> = { start_date: '2025-12-20', end_date: '2026-01-04' };

/** The list in an answer: the body itself, or the first of `keys` that holds one. */
export function list(body: any, ...keys: string[]): any[] {
  if (Array.isArray(body)) return body;
  for (const k of keys) if (Array.isArray(body?.[k])) return body[k];
  return [];
}

/** Makes an order, a webhook endpoint, a delivered message, then reads ids for every parameter name. */
export async function worldParams(c: TestClient): Promise<Record<string, string>> {
  const teamId = c.creds.teams[0]?.team_id ?? UNKNOWN_UUID;
  const user = list((await c.get('/v2/user', { query: { limit: 10 } })).body, 'users')[0] ?? {};
  const userId: string = user.user_id ?? UNKNOWN_UUID;
  const provider: string = list((await c.get(`/v2/user/providers/${userId}`)).body, 'providers')[0]?.slug ?? 'oura';
  const labTests = list((await c.get('/v3/lab_tests')).body) as Array<{
    id: string;
    method: string;
    auto_generated: boolean;
    lab?: { id: number };
  }>;
  const walkIn = labTests.find((t) => t.method === 'walk_in_test' && !t.auto_generated) ?? labTests[0];
  const labId = String(list((await c.get('/v3/lab_tests/labs')).body)[0]?.id ?? walkIn?.lab?.id ?? 1);
  const markers = walkIn ? list((await c.get(`/v3/lab_tests/${walkIn.id}/markers`)).body, 'markers') : [];
  const order = walkIn
    ? (await c.post('/v3/order', { user_id: userId, lab_test_id: walkIn.id, patient_details: PATIENT, patient_address: ADDRESS })).body
        ?.order
    : undefined;
  const workout = list((await c.get(`/v2/summary/workouts/${userId}`, { query: { start_date: '2025-12-01' } })).body, 'workouts')[0];
  const key = list((await c.mgmt('GET', `/v1/org/${c.orgId}/management_key`)).body, 'data', 'management_keys')[0];
  await c.put(`/_sandbox/teams/${teamId}/beta_features`, { beta_features: ['lab_accounts'] });
  const account = list((await c.mgmt('GET', `/v1/org/${c.orgId}/lab_account/sandbox/us`)).body, 'data', 'lab_accounts')[0];
  const hook = (
    await c.mgmt('POST', `/v1/org/${c.orgId}/team/${teamId}/sandbox/webhook`, {
      body: { url: `${c.sandbox.world.urls.base}/_sandbox/receiver/params` },
    })
  ).body;
  const created = (await c.post('/v2/user', { client_user_id: 'route-params-user' })).body;
  await c.post('/v2/link/connect/demo', { user_id: created?.user_id, provider: 'oura' });
  await c.advance(60);
  const msg = list((await c.get('/_sandbox/webhooks/messages')).body, 'messages', 'data')[0] ?? {};
  const stream = list((await c.get('/_sandbox/pipelines/streams')).body, 'streams')[0]?.name ?? 'params-stream';
  return {
    org_id: c.orgId,
    team_id: teamId,
    user_id: userId,
    client_user_id: user.client_user_id ?? 'params',
    provider,
    env: 'sandbox',
    environment: 'sandbox',
    region: 'us',
    lab_test_id: walkIn?.id ?? UNKNOWN_UUID,
    lab_id: labId,
    provider_id: markers[0]?.provider_id ?? 'X1',
    order_id: order?.id ?? UNKNOWN_UUID,
    transaction_id: order?.order_transaction?.id ?? order?.transaction_id ?? UNKNOWN_UUID,
    workout_id: workout?.id ?? UNKNOWN_UUID,
    key_id: key?.id ?? UNKNOWN_UUID,
    account_id: account?.id ?? UNKNOWN_UUID,
    webhook_id: hook?.id ?? UNKNOWN_UUID,
    msg_id: msg.msg_id ?? msg.id ?? UNKNOWN_UUID,
    endpoint_id: msg.endpoint_id ?? hook?.id ?? UNKNOWN_UUID,
    name: 'params',
    stream,
  };
}

/** The route's path with its parameters filled in. */
export function pathFor(route: Route, params: Record<string, string>): string {
  return route.path.replace(/:([a-z_]+)/g, (_m, name: string) => encodeURIComponent(params[name] ?? UNKNOWN_UUID));
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
