/**
 * Applies a checked scenario to a fresh world through the sandbox's own route table: the same
 * domain functions, validation and events as any client request (teams through the management
 * API, users through `/v2/user`, connections through the demo link, lab orders through
 * `/v3/order`, webhooks through the management API, and the control plane for what only it
 * steers). The caller builds a fresh world first and restores the previous one if this throws,
 * so a scenario that fails loads nothing.
 */
import type { Credentials } from '../engine/credentials.js';
import type { SimRequest, SimResponse } from '../engine/http-types.js';
import { fullStatus, type LowStatus } from '../state/labs/order-lifecycle.js';
import { ScenarioError, pathZip, startStatus } from './parse.js';
import type { Scenario } from './schema.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

type Dispatch = (request: SimRequest) => Promise<SimResponse>;

interface TeamRef {
  team_id: string;
  api_key: string;
}

/** Where scenario phlebotomy patients live: a served zip code (the real sandbox serves 85004 and 54650 only). */
const PHOENIX = { first_line: '1 West Lincoln Street', city: 'Phoenix', state: 'AZ', zip: '85004' };
/** Statuses a phlebotomy order reaches without an appointment. */
const BEFORE_BOOKING: ReadonlySet<LowStatus> = new Set<LowStatus>(['requisition_created', 'appointment_pending', 'cancelled']);

type Call = (
  at: string,
  method: string,
  path: string,
  options?: { body?: unknown; headers?: Record<string, string>; surface?: 'data' | 'management' },
) => Promise<Record<string, unknown>>;

/** Books the first phlebotomy slot at the scenario's patient address for an order. */
async function bookPhlebotomy(call: Call, at: string, headers: Record<string, string>, orderId: string): Promise<void> {
  const address = { first_line: PHOENIX.first_line, city: PHOENIX.city, state: PHOENIX.state, zip_code: PHOENIX.zip };
  const found = await call(at, 'POST', '/v3/order/phlebotomy/appointment/availability', { headers, body: address });
  const days = (found.slots ?? []) as Array<{ slots: Array<{ booking_key?: string }> }>;
  const booking_key = days.flatMap((d) => d.slots).find((x) => x.booking_key)?.booking_key;
  if (!booking_key) throw new ScenarioError([`${at}: no phlebotomy slot to book`]);
  await call(at, 'POST', `/v3/order/${orderId}/phlebotomy/appointment/book`, { headers, body: { booking_key } });
}

const RESULT_NAMES: Record<string, string> = { normal: 'Normal', abnormal: 'Abnormal', critical: 'Critical', missing: 'Missing' };

function detailOf(body: unknown): string {
  if (body && typeof body === 'object' && 'detail' in body) {
    const d = (body as { detail: unknown }).detail;
    if (d && typeof d === 'object' && 'error_message' in d) return String((d as { error_message: unknown }).error_message);
    if (typeof d === 'string') return d;
    if (Array.isArray(d)) return d.map((x: { loc?: unknown[]; msg?: string }) => `${(x.loc ?? []).join('.')}: ${x.msg ?? ''}`).join('; ');
    return JSON.stringify(d);
  }
  return JSON.stringify(body);
}

/** What every step of a scenario's application shares: the caller, the credentials, the teams by name. */
interface Applying {
  scenario: Scenario;
  call: Call;
  credentials: () => Credentials;
  orgId: string;
  /** The management key's headers. */
  mgmt: Record<string, string>;
  /** The first team's name (a user or order without `team` is in it). */
  firstTeam: string;
  /** The team of a `team:` field (`at` names the field in errors); the first team when it is absent. */
  teamOf(at: string, name: string | undefined): TeamRef;
}

/** A `Call` through the sandbox's own dispatch: a refused request throws the scenario error naming `at`. */
function callerOf(dispatch: Dispatch): Call {
  return async (at, method, path, options = {}) => {
    const [pathname = path, search = ''] = path.split('?');
    const query: Record<string, string[]> = {};
    for (const [k, v] of new URLSearchParams(search)) (query[k] ??= []).push(v);
    const res = await dispatch({
      method,
      surface: options.surface ?? 'data',
      path: pathname,
      query,
      headers: { 'content-type': 'application/json', ...options.headers },
      rawBody: options.body === undefined ? new Uint8Array(0) : encoder.encode(JSON.stringify(options.body)),
    });
    const text = decoder.decode(res.body);
    const parsed: unknown = text === '' ? null : JSON.parse(text);
    if (res.status >= 300) throw new ScenarioError([`${at}: the sandbox refused it (${res.status}): ${detailOf(parsed)}`]);
    return (parsed ?? {}) as Record<string, unknown>;
  };
}

/**
 * Teams: configures seeded ones by name, creates the others through org management (the seeded
 * org is on premium, which it needs); the plan changes only when the scenario sets `plan`.
 * Answers the teams by name.
 */
async function applyTeams(scenario: Scenario, call: Call, credentials: () => Credentials): Promise<Map<string, TeamRef>> {
  const creds = credentials();
  const mgmt = { 'x-management-key': creds.management_key };
  const teams = new Map<string, TeamRef>(creds.teams.map((t) => [t.name, { team_id: t.team_id, api_key: t.api_keys.sandbox }]));
  for (const [i, t] of scenario.teams.entries()) {
    const at = `teams[${i}]`;
    let ref = teams.get(t.name);
    if (!ref) {
      const created = await call(at, 'POST', `/v1/org/${creds.org_id}/team`, {
        surface: 'management',
        headers: mgmt,
        body: { name: t.name, region: t.region ?? 'us' },
      });
      const id = created.id as string;
      const key = (credentials().teams.find((x) => x.team_id === id)?.api_keys.sandbox ?? '') as string;
      ref = { team_id: id, api_key: key };
      teams.set(t.name, ref);
    }
    if (t.event_type_prefixes) {
      const env = { event_type_prefixes: t.event_type_prefixes };
      await call(`${at}.event_type_prefixes`, 'PATCH', `/v1/org/${creds.org_id}/team/${ref.team_id}`, {
        surface: 'management',
        headers: mgmt,
        body: { sandbox: env, production: env },
      });
    }
    if (t.beta_features)
      await call(`${at}.beta_features`, 'PUT', `/_sandbox/teams/${ref.team_id}/beta_features`, {
        body: { beta_features: t.beta_features },
      });
    if (t.labs?.progression)
      await call(`${at}.labs`, 'PUT', `/_sandbox/teams/${ref.team_id}/labs`, { body: { progression: t.labs.progression } });
    if (t.data_revisions !== undefined)
      await call(`${at}.data_revisions`, 'POST', '/_sandbox/wearables/feed', {
        body: { revision_rate: t.data_revisions, team_id: ref.team_id },
      });
    if (t.health_sdk)
      await call(`${at}.health_sdk`, 'POST', '/_sandbox/wearables/health-sdk', { body: { ...t.health_sdk, team_id: ref.team_id } });
  }
  if (scenario.plan) await call('plan', 'PUT', `/_sandbox/orgs/${creds.org_id}/plan`, { body: { plan: scenario.plan } });
  return teams;
}

type LabTest = { id: string; method: string; auto_generated: boolean };

/** Every order's lab test, checked before any user, endpoint or order exists: the lab test id by order path (`users[i].lab_orders[j]`). */
async function resolveLabTests(a: Applying): Promise<Map<string, string>> {
  const labTests = new Map<string, LabTest[]>();
  const testIds = new Map<string, string>();
  for (const [i, u] of a.scenario.users.entries()) {
    const ref = a.teamOf(`users[${i}]`, u.team);
    for (const [j, o] of u.lab_orders.entries()) {
      const oat = `users[${i}].lab_orders[${j}]`;
      let tests = labTests.get(ref.team_id);
      if (!tests) {
        tests = (await a.call(oat, 'GET', '/v3/lab_tests', { headers: { 'x-vital-api-key': ref.api_key } })) as unknown as LabTest[];
        labTests.set(ref.team_id, tests);
      }
      const team = u.team ?? a.firstTeam;
      if (o.lab_test !== undefined) {
        const test = tests.find((t) => t.id === o.lab_test);
        if (!test)
          throw new ScenarioError([
            `${oat}.lab_test: team "${team}" has no lab test "${o.lab_test}" (its tests: ${tests.map((t) => `${t.id} (${t.method})`).join(', ') || 'none'})`,
          ]);
        if (test.method !== o.method)
          throw new ScenarioError([
            `${oat}.lab_test: "${o.lab_test}" is a ${test.method} test, not ${o.method}: set method: ${test.method}`,
          ]);
        testIds.set(oat, test.id);
      } else {
        const test = tests.find((t) => t.method === o.method && !t.auto_generated);
        if (!test) throw new ScenarioError([`${oat}.method: team "${team}" has no ${o.method} lab test`]);
        testIds.set(oat, test.id);
      }
    }
  }
  return testIds;
}

/** Webhook endpoints (and their test receivers' answers); applied before the users, so endpoints hear the users' events. */
async function applyWebhooks(a: Applying): Promise<void> {
  for (const [i, w] of a.scenario.webhooks.entries()) {
    const at = `webhooks[${i}]`;
    const ref = a.teamOf(at, w.team);
    const url = w.url ?? `${a.credentials().base_url}/_sandbox/receiver/${w.receiver}`;
    if (w.receiver && w.answers) {
      await a.call(`${at}.answers`, 'PUT', `/_sandbox/receiver/${w.receiver}`, {
        body: {
          status: w.answers.status,
          retry_after: w.answers.retry_after ?? null,
          ...(w.answers.times === undefined ? {} : { times: w.answers.times }),
        },
      });
    }
    await a.call(at, 'POST', `/v1/org/${a.orgId}/team/${ref.team_id}/sandbox/webhook`, {
      surface: 'management',
      headers: a.mgmt,
      body: { url, filter_types: w.filter_types ?? null },
    });
  }
}

type ScenarioUser = Scenario['users'][number];

/** A user's connections: a historical pull first when asked (or when the user must have ECG readings), then the demo link, then any error state. */
async function connectUser(a: Applying, at: string, u: ScenarioUser, userId: string, key: Record<string, string>): Promise<void> {
  for (const [j, c] of u.connections.entries()) {
    const cat = `${at}.connections[${j}]`;
    const pull = c.historical_pull ?? (u.ecg?.length ? { outcome: 'success' as const } : undefined);
    if (pull) {
      const body = u.ecg?.length && pull.outcome === 'success' ? { ...pull, finish_in_seconds: 0 } : pull;
      await a.call(`${cat}.historical_pull`, 'POST', `/_sandbox/historical_pulls/${userId}/${c.provider}`, { body });
    }
    await a.call(cat, 'POST', '/v2/link/connect/demo', { headers: key, body: { user_id: userId, provider: c.provider } });
    if (c.state === 'error') {
      await a.call(`${cat}.state`, 'POST', `/_sandbox/connections/${userId}/${c.provider}/error`, {
        body: { error_type: c.error?.type ?? 'token_refresh_failed', message: c.error?.message },
      });
    }
  }
}

/** The ECG classifications a user must have are in the last 60 days of readings (else a scenario error suggesting another seed). */
async function checkEcg(a: Applying, at: string, u: ScenarioUser, userId: string, key: Record<string, string>): Promise<void> {
  if (!u.ecg || u.ecg.length === 0) return;
  const now = Date.parse(String((await a.call(`${at}.ecg`, 'GET', '/_sandbox/clock')).now));
  const day = (t: number) => new Date(t).toISOString().slice(0, 10);
  const got = await a.call(
    `${at}.ecg`,
    'GET',
    `/v2/summary/electrocardiogram/${userId}?start_date=${day(now - 60 * 86400_000)}&end_date=${day(now)}`,
    { headers: key },
  );
  const seen = new Set(((got.electrocardiogram ?? []) as Array<{ classification: string | null }>).map((e) => e.classification));
  const missing = u.ecg.filter((c) => !seen.has(c));
  if (missing.length > 0)
    throw new ScenarioError([
      `${at}.ecg: no ${missing.join(', ')} reading in the last 60 days for this user (seen: ${[...seen].join(', ') || 'none'}); try another seed or client_user_id`,
    ]);
}

/** One lab order of a user: placed, moved to its start status as the real sandbox would, then any fault. */
interface OrderStep {
  at: string;
  order: ScenarioUser['lab_orders'][number];
  user: ScenarioUser;
  userId: string;
  testId: string;
  key: Record<string, string>;
}

async function placeOrder(a: Applying, { at: oat, order: o, user: u, userId, testId, key }: OrderStep): Promise<void> {
  const zip = pathZip(o.path, o.method).zip ?? '78701';
  const lastName = o.patient?.last_name ?? (o.result ? RESULT_NAMES[o.result] : undefined) ?? 'Hopper';
  const patient = {
    first_name: o.patient?.first_name ?? 'Grace',
    last_name: o.result && o.patient?.last_name ? `${o.patient.last_name}-${RESULT_NAMES[o.result]}` : lastName,
    dob: o.patient?.dob ?? u.birth_date ?? '1985-12-09',
    gender: o.patient?.gender ?? 'female',
    phone_number: '+14155551234',
    email: `${u.client_user_id.replace(/[^A-Za-z0-9._-]/g, '') || 'patient'}@example.com`,
  };
  const home = o.method === 'at_home_phlebotomy' ? PHOENIX : { first_line: '1 Main Street', city: 'Austin', state: 'TX', zip };
  const address = { receiver_name: `${patient.first_name} ${patient.last_name}`, ...home, country: 'US' };
  const placed = await a.call(oat, 'POST', '/v3/order', {
    headers: key,
    body: { user_id: userId, lab_test_id: testId, patient_details: patient, patient_address: address },
  });
  const orderId = (placed.order as { id?: string } | undefined)?.id ?? '';
  const start = startStatus(o).low;
  if (start !== null && start !== 'ordered') {
    const simulate = (low: LowStatus) =>
      a.call(`${oat}.status`, 'POST', `/v3/order/${orderId}/test?final_status=${encodeURIComponent(fullStatus(o.method, low))}`, {
        headers: key,
      });
    // As the real sandbox: a first simulation may stop at the requisition, and a phlebotomy order needs a booking to go on.
    if (start !== 'cancelled') await simulate('requisition_created');
    if (o.method === 'at_home_phlebotomy' && !BEFORE_BOOKING.has(start)) await bookPhlebotomy(a.call, `${oat}.status`, key, orderId);
    if (start !== 'requisition_created') await simulate(start);
  }
  if (o.fault) await a.call(`${oat}.fault`, 'POST', `/_sandbox/orders/${orderId}/fault`, { body: { fault: o.fault } });
}

/** Users (with their connections, ECG check and lab orders), in order. */
async function applyUsers(a: Applying, testIds: Map<string, string>): Promise<void> {
  for (const [i, u] of a.scenario.users.entries()) {
    const at = `users[${i}]`;
    const key = { 'x-service-api-key': a.teamOf(at, u.team).api_key };
    const created = await a.call(at, 'POST', '/v2/user', {
      headers: key,
      body: { client_user_id: u.client_user_id, fallback_time_zone: u.time_zone ?? null, fallback_birth_date: u.birth_date ?? null },
    });
    const userId = created.user_id as string;
    await connectUser(a, at, u, userId, key);
    await checkEcg(a, at, u, userId, key);
    for (const [j, order] of u.lab_orders.entries()) {
      const oat = `${at}.lab_orders[${j}]`;
      await placeOrder(a, { at: oat, order, user: u, userId, testId: testIds.get(oat) as string, key });
    }
  }
}

/**
 * Applies a checked scenario, in this order: teams and plan, the lab tests of every order
 * (checked before anything else exists), webhook endpoints, users, provider outages, HTTP faults,
 * webhook delivery faults.
 */
export async function applyScenario(scenario: Scenario, dispatch: Dispatch, credentials: () => Credentials): Promise<void> {
  const call = callerOf(dispatch);
  const creds = credentials();
  const first = creds.teams[0];
  if (!first) throw new ScenarioError(['(file): the world has no team']);
  const firstRef: TeamRef = { team_id: first.team_id, api_key: first.api_keys.sandbox };
  const teams = await applyTeams(scenario, call, credentials);
  const a: Applying = {
    scenario,
    call,
    credentials,
    orgId: creds.org_id,
    mgmt: { 'x-management-key': creds.management_key },
    firstTeam: first.name,
    teamOf(at, name) {
      if (name === undefined) return firstRef;
      const ref = teams.get(name);
      if (!ref)
        throw new ScenarioError([
          `${at}.team: unknown team "${name}" (declare it under teams, or use ${[...teams.keys()].map((n) => `"${n}"`).join(', ')})`,
        ]);
      return ref;
    },
  };
  const testIds = await resolveLabTests(a);
  await applyWebhooks(a);
  await applyUsers(a, testIds);

  if (scenario.data_revisions !== undefined)
    await call('data_revisions', 'POST', '/_sandbox/wearables/feed', { body: { revision_rate: scenario.data_revisions } });
  if (scenario.health_sdk) await call('health_sdk', 'POST', '/_sandbox/wearables/health-sdk', { body: scenario.health_sdk });
  for (const [i, o] of scenario.provider_outages.entries())
    await call(`provider_outages[${i}]`, 'POST', `/_sandbox/providers/${o.provider}/outage`, { body: { duration: o.duration } });

  // HTTP faults last: nothing the scenario itself does is faulted (it is applied without them anyway).
  for (const [i, f] of scenario.faults.entries()) {
    const { team, ...rule } = f;
    const match = team === undefined ? rule.match : { ...rule.match, team_id: a.teamOf(`faults[${i}]`, team).team_id };
    await call(`faults[${i}]`, 'POST', '/_sandbox/faults', { body: { ...rule, match } });
  }
  for (const [i, f] of scenario.webhook_faults.entries())
    await call(`webhook_faults[${i}]`, 'POST', '/_sandbox/faults/webhooks', { body: f });
}
