/**
 * Requests derived from the route table, shared by the robustness, fuzz and parity tests: keys and
 * types read from each route's zod schemas, plausible bodies, and a baseline world whose ids fill
 * path parameters.
 */
import type { z } from 'zod';
import type { Route } from '../../src/engine/route.js';
import type { World } from '../../src/engine/world.js';
import { ADDRESS, PATIENT } from './lab-helpers.js';
import type { TestClient } from './client.js';
import { jsonSchemaOf } from '../../scripts/conformance/writes.js';

export const UNKNOWN_UUID = '7d3c1a52-9b1e-4c2f-8a6d-0e5f4b3a2c1d';

function nested(depth: number): unknown {
  let v: unknown = { a: [1, 'x', null] };
  for (let i = 0; i < depth; i++) v = i % 2 === 0 ? [v, { k: v === null ? 0 : 'x' }] : { deep: v, n: i };
  return v;
}
export const DEEP = nested(60);

// ---- deriving keys and types from the zod schemas ----

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
}

export const toJson = (schema: z.ZodType): JsonSchema => jsonSchemaOf(schema) as JsonSchema;

/** The properties of an (optionally nullable / union-wrapped) object schema. */
export function propertiesOf(js: JsonSchema): Record<string, JsonSchema> {
  if (js.properties) return js.properties;
  for (const alt of [...(js.anyOf ?? []), ...(js.oneOf ?? []), ...(js.allOf ?? [])]) {
    const p = propertiesOf(alt);
    if (Object.keys(p).length > 0) return p;
  }
  return {};
}

function typesOf(js: JsonSchema): Set<string> {
  const out = new Set<string>();
  if (typeof js.type === 'string') out.add(js.type);
  else if (Array.isArray(js.type)) for (const t of js.type) out.add(t);
  if (js.enum) for (const v of js.enum) out.add(v === null ? 'null' : typeof v);
  if (js.const !== undefined) out.add(js.const === null ? 'null' : typeof js.const);
  for (const alt of [...(js.anyOf ?? []), ...(js.oneOf ?? [])]) for (const t of typesOf(alt)) out.add(t);
  return out;
}

/** A value of a type the field does not take (scalar fields get a different scalar). */
export function wrongScalar(js: JsonSchema): unknown {
  const t = typesOf(js);
  if (t.has('object')) return ['not', 'an', 'object'];
  if (t.has('array')) return { not: 'a list' };
  if (t.has('string')) return t.has('number') || t.has('integer') ? true : 12345;
  if (t.has('number') || t.has('integer')) return 'abc';
  if (t.has('boolean')) return 'maybe';
  return { unexpected: [1, 2, 3] };
}

/** A structured value where the field wants something else (objects/arrays get their inner junk). */
export function wrongStructured(js: JsonSchema): unknown {
  const t = typesOf(js);
  if (t.has('array')) return [{ x: 1 }, null, 'x', -1, [[]]];
  if (t.has('object')) return { unknown_key: [1], nested: { a: null } };
  return { unexpected: [1, 2, 3] };
}

type Flavor = 'edge' | 'minimal';

/**
 * A body that passes (or nearly passes) the schema, with edge-case contents, so handlers run
 * past validation: `edge` fills every property with awkward but well-typed values (strings
 * like `constructor`, bounds, unknown ids); `minimal` sends required properties only, empty.
 */
export function plausible(
  js: JsonSchema & Record<string, unknown>,
  key: string,
  flavor: Flavor,
  ids: Record<string, string>,
  depth = 0,
): unknown {
  if (depth > 6) return null;
  const alts = (js.anyOf ?? js.oneOf ?? []) as Array<JsonSchema & Record<string, unknown>>;
  if (alts.length > 0) {
    const pick = alts.find((a) => a.type !== 'null') ?? alts[0];
    return pick ? plausible(pick, key, flavor, ids, depth + 1) : null;
  }
  if (js.enum && js.enum.length > 0) return flavor === 'edge' ? js.enum[js.enum.length - 1] : js.enum[0];
  if (js.const !== undefined) return js.const;
  const type = Array.isArray(js.type) ? js.type.find((t) => t !== 'null') : js.type;
  switch (type) {
    case 'string': {
      if (js.format === 'uuid') return ids[key] ?? (key.endsWith('user_id') ? ids.user_id : undefined) ?? UNKNOWN_UUID;
      if (js.format === 'date') return flavor === 'edge' ? '2024-02-29' : '2026-01-05';
      if (js.format === 'date-time') return flavor === 'edge' ? '1970-01-01T00:00:00Z' : '2026-01-05T09:00:00Z';
      if (js.format === 'email') return 'fuzz@example.com';
      if (js.format === 'uri' || /url/.test(key)) return flavor === 'edge' ? 'https://[::1]:0/a?b#c' : 'https://example.com/';
      const min = typeof js.minLength === 'number' ? js.minLength : 0;
      return flavor === 'edge' ? 'constructor'.padEnd(min, 'x') : 'x'.repeat(min);
    }
    case 'integer':
    case 'number': {
      const max = typeof js.maximum === 'number' && js.maximum < Number.MAX_SAFE_INTEGER ? js.maximum : undefined;
      const min = typeof js.minimum === 'number' && js.minimum > Number.MIN_SAFE_INTEGER ? js.minimum : undefined;
      return flavor === 'edge' ? (max ?? 2_147_483_647) : (min ?? 0);
    }
    case 'boolean':
      return flavor === 'edge';
    case 'array': {
      if (flavor === 'minimal') return [];
      const items = (js.items ?? {}) as JsonSchema & Record<string, unknown>;
      return [plausible(items, key, flavor, ids, depth + 1), plausible(items, key, flavor, ids, depth + 1)];
    }
    case 'object': {
      const props = (js.properties ?? {}) as Record<string, JsonSchema & Record<string, unknown>>;
      const required = new Set((js.required ?? []) as string[]);
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(props))
        if (flavor === 'edge' || required.has(k)) out[k] = plausible(v, k, flavor, ids, depth + 1);
      if (Object.keys(props).length === 0 && flavor === 'edge') Object.assign(out, { constructor: 'x', toString: 'y', 'x-fuzz': 'z' });
      return out;
    }
    default:
      return flavor === 'edge' ? { constructor: [1] } : null;
  }
}

// ---- the world a variant runs against ----

export interface Baseline {
  params: Record<string, string>;
}

export const GOOD_QUERY: Record<string, string> = {
  start_date: '2026-01-02',
  end_date: '2026-01-04',
};

/** `hookUrl`: where the baseline's webhook endpoint points (parity uses a refused loopback port). */
export async function baselineOf(c: TestClient, hookUrl = 'https://example.com/fuzz-hook'): Promise<Baseline> {
  const teamId = c.creds.teams[0]?.team_id ?? UNKNOWN_UUID;
  const users = await c.get('/v2/user', { query: { limit: 10 } });
  const user = users.body?.users?.[0] ?? {};
  const userId: string = user.user_id ?? UNKNOWN_UUID;
  const providers = await c.get(`/v2/user/providers/${userId}`);
  const provider: string = providers.body?.providers?.[0]?.slug ?? 'oura';
  const tests = await c.get('/v3/lab_tests');
  const labTests = (Array.isArray(tests.body) ? tests.body : []) as Array<{
    id: string;
    method: string;
    auto_generated: boolean;
    lab?: { id: number };
  }>;
  const walkIn = labTests.find((t) => t.method === 'walk_in_test' && !t.auto_generated) ?? labTests[0];
  const labs = await c.get('/v3/lab_tests/labs');
  const labId = String((Array.isArray(labs.body) ? labs.body[0]?.id : undefined) ?? walkIn?.lab?.id ?? 1);
  const markers = walkIn ? await c.get(`/v3/lab_tests/${walkIn.id}/markers`) : undefined;
  const providerId: string = markers?.body?.markers?.[0]?.provider_id ?? 'X1';
  const order = walkIn
    ? await c.post('/v3/order', { user_id: userId, lab_test_id: walkIn.id, patient_details: PATIENT, patient_address: ADDRESS })
    : undefined;
  const orderId: string = order?.body?.order?.id ?? UNKNOWN_UUID;
  const transactionId: string = order?.body?.order?.order_transaction?.id ?? order?.body?.order?.transaction_id ?? UNKNOWN_UUID;
  // The last two weeks first (a month of workouts costs more to generate), then the month.
  const workoutsIn = async (start: string): Promise<string | undefined> =>
    (await c.get(`/v2/summary/workouts/${userId}`, { query: { start_date: start } })).body?.workouts?.[0]?.id;
  const workoutId: string = (await workoutsIn('2025-12-22')) ?? (await workoutsIn('2025-12-01')) ?? UNKNOWN_UUID;
  const keys = await c.mgmt('GET', `/v1/org/${c.orgId}/management_key`);
  const keyId: string = keys.body?.data?.[0]?.id ?? keys.body?.management_keys?.[0]?.id ?? keys.body?.[0]?.id ?? UNKNOWN_UUID;
  await c.put(`/_sandbox/teams/${teamId}/beta_features`, { beta_features: ['lab_accounts'] });
  const accounts = await c.mgmt('GET', `/v1/org/${c.orgId}/lab_account/sandbox/us`);
  const accountId: string = accounts.body?.data?.[0]?.id ?? accounts.body?.lab_accounts?.[0]?.id ?? UNKNOWN_UUID;
  const hook = await c.mgmt('POST', `/v1/org/${c.orgId}/team/${teamId}/sandbox/webhook`, { body: { url: hookUrl } });
  const webhookId: string = hook.body?.id ?? UNKNOWN_UUID;
  // An unmatched-result test run and a lab report parsing job (both finish during the advance below).
  const run = await c.post(
    '/v3/unmatched_result_test',
    { case: 'no_match', order_source: 'managed' },
    { headers: { 'x-idempotency-key': 'fuzz-baseline' } },
  );
  const runId: string = run.body?.run_id ?? UNKNOWN_UUID;
  const boundary = 'fuzz-baseline-boundary';
  const upload = new TextEncoder().encode(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="r.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.7 fuzz\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="user_id"\r\n\r\n${userId}\r\n--${boundary}--\r\n`,
  );
  const job = await c.post('/lab_report/v1/parser/job', upload, {
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  });
  const jobId: string = job.body?.id ?? UNKNOWN_UUID;
  // A continuous query (daily runs) for the aggregate result-table and task-history reads.
  await c.mgmt('POST', `/v1/org/${c.orgId}/team/${teamId}/sandbox/continuous_query`, {
    body: {
      slug: 'fuzz-query',
      title: 'Fuzz',
      query: {
        select: [{ group_key: '*' }, { func: 'mean', arg: { sleep: 'score' } }],
        group_by: [{ date_trunc: { unit: 'day' }, arg: { index: 'sleep' } }],
      },
      scheduling_preferences: { minimum_gap_duration_second: 86_400 },
    },
  });
  // Something to deliver, so there are messages and attempts to point at.
  const created = await c.post('/v2/user', { client_user_id: 'fuzz-baseline-user' });
  await c.post('/v2/link/connect/demo', { user_id: created.body?.user_id, provider: 'oura' });
  await c.advance(60);
  const messages = await c.get('/_sandbox/webhooks/messages');
  const msg = (messages.body?.messages ?? messages.body?.data ?? (Array.isArray(messages.body) ? messages.body : []))[0] ?? {};
  const rawResultId: string = (await c.get(`/v3/unmatched_result_test/${runId}`)).body?.raw_result_id ?? UNKNOWN_UUID;
  const streams = await c.get('/_sandbox/pipelines/streams');
  const stream: string = (streams.body?.streams ?? (Array.isArray(streams.body) ? streams.body : []))[0]?.name ?? 'fuzz-stream';
  return {
    params: {
      org_id: c.orgId,
      team_id: teamId,
      user_id: userId,
      client_user_id: user.client_user_id ?? 'fuzz',
      provider,
      env: 'sandbox',
      environment: 'sandbox',
      region: 'us',
      lab_test_id: walkIn?.id ?? UNKNOWN_UUID,
      lab_id: labId,
      provider_id: providerId,
      order_id: orderId,
      transaction_id: transactionId,
      workout_id: workoutId,
      key_id: keyId,
      account_id: accountId,
      webhook_id: webhookId,
      msg_id: msg.msg_id ?? msg.id ?? UNKNOWN_UUID,
      endpoint_id: msg.endpoint_id ?? webhookId,
      name: 'fuzz-receiver',
      stream,
      run_id: runId,
      raw_result_id: rawResultId,
      job_id: jobId,
      query_id_or_slug: 'fuzz-query',
    },
  };
}

/** Routes whose good-parameter variants would wreck the shared world: each runs on its own sandbox. */
export function destructive(route: Route): boolean {
  if (route.method === 'DELETE' || route.id === 'sandbox.reset') return true;
  // Updates of keys, teams, orgs, plans and beta flags could lock the shared world out.
  return (route.method === 'PATCH' || route.method === 'PUT') && route.auth !== 'team';
}

/** A cheap fingerprint of what a request can create: minted ids, events, pending jobs, the world itself. */
export function fingerprint(world: World): string {
  const counters = (world.ids as unknown as { counters: Map<string, number> }).counters;
  return JSON.stringify([[...counters], world.events.size, world.events.dropped, world.scheduler.pending()]);
}
