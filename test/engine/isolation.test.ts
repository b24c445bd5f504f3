/**
 * Isolation matrix (issue 11) over EVERY route of the route table and every credential kind, in
 * one small world (two teams of one org, a second org, every environment):
 *
 * - a caller's request carrying another tenant's ids (in the path or the body) answers exactly
 *   like the same request carrying unknown ids: same status, same body byte for byte once each id
 *   is masked; and never a success. Victims: team A's key -> team B; team A's production key ->
 *   team A's sandbox; team B's key -> team A; the org management key -> the second org; a
 *   management key bound to team A -> team B (a 403 "not bound" is also accepted, the management
 *   area's documented answer for a sibling team the key's org owns); an unbound team-scoped
 *   management key -> team A and team B; a link token of team A -> team B.
 * - no credential, a bad key and an API access token (accepted nowhere: the data API takes API
 *   keys only) are refused on every team and management route, the same way whatever ids the
 *   request carries.
 * - the control plane, with an admin token configured, refuses every other credential on every
 *   control route, identically, and changes nothing.
 * Counts of the comparisons are asserted, so a route-table change that empties the matrix fails.
 */
import { expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/index.js';
import type { SimRequest } from '../../src/engine/http-types.js';
import type { Route } from '../../src/engine/route.js';
import { surfaceOf } from '../../src/engine/router.js';
import { ROUTES } from '../../src/routes.js';
import { issueTeamKeys, managementKeyValue, newTeam } from '../../src/fixtures/management/tenancy.js';
import { stableUuid } from '../../src/engine/ids.js';
import { AUTH_MESSAGES } from '../../src/engine/auth.js';
import { GOOD_QUERY, UNKNOWN_ID } from '../support/route-params.js';
import { fingerprint, plausible, propertiesOf, toJson, type JsonSchema } from '../support/route-requests.js';
import { ADDRESS, PATIENT } from '../support/lab-helpers.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
type Ids = Record<string, string>;
type Headers = Record<string, string>;

/** One request as a tenant sends it. */
interface TenantRequest {
  surface: 'data' | 'management';
  method: string;
  path: string;
  headers: Headers;
  body?: unknown;
  query?: Record<string, string[]>;
}

async function call(s: Sandbox, { surface, method, path, headers, body, query = {} }: TenantRequest) {
  const res = await s.dispatch({
    method,
    surface,
    path,
    query,
    headers: { 'content-type': 'application/json', ...headers },
    rawBody: body === undefined ? new Uint8Array(0) : encoder.encode(JSON.stringify(body)),
  });
  const text = decoder.decode(res.body);
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, text, json };
}

const list = (body: any, ...keys: string[]): any[] => {
  if (Array.isArray(body)) return body;
  for (const k of keys) if (Array.isArray(body?.[k])) return body[k];
  return [];
};

/** Ids a tenant owns, read and made through the API with its own credentials. */
interface Tenant {
  apiKey: string;
  orgId: string;
  mgmtKey: string;
  teamId: string;
  environment: 'sandbox' | 'production';
  tag: string;
}

async function tenantIds(s: Sandbox, { apiKey, orgId, mgmtKey, teamId, environment, tag }: Tenant): Promise<Ids> {
  const data = (method: string, path: string, body?: unknown, query?: Record<string, string[]>) =>
    call(s, { surface: 'data', method, path, headers: { 'x-service-api-key': apiKey }, body, query });
  const mgmt = (method: string, path: string, body?: unknown) =>
    call(s, { surface: 'management', method, path, headers: { 'x-management-key': mgmtKey }, body });
  let user = list((await data('GET', '/v2/user', undefined, { limit: ['5'] })).json, 'users')[0];
  if (!user) user = (await data('POST', '/v2/user', { client_user_id: `iso-${tag}` })).json;
  const userId: string = user.user_id;
  await data('POST', '/v2/link/connect/demo', { user_id: userId, provider: 'oura' });
  const tests = list((await data('GET', '/v3/lab_tests')).json) as Array<{ id: string; method: string; auto_generated: boolean }>;
  const walkIn = tests.find((t) => t.method === 'walk_in_test' && !t.auto_generated) ?? tests[0];
  const order = walkIn
    ? (await data('POST', '/v3/order', { user_id: userId, lab_test_id: walkIn.id, patient_details: PATIENT, patient_address: ADDRESS }))
        .json?.order
    : undefined;
  const workout = list(
    (await data('GET', `/v2/summary/workouts/${userId}`, undefined, { start_date: ['2025-12-01'] })).json,
    'workouts',
  )[0];
  const sleep = list((await data('GET', `/v2/summary/sleep/${userId}`, undefined, { start_date: ['2025-12-01'] })).json, 'sleep')[0];
  const device = list((await data('GET', `/v2/user/${userId}/device`)).json, 'devices')[0];
  const hook = (await mgmt('POST', `/v1/org/${orgId}/team/${teamId}/${environment}/webhook`, { url: `https://example.com/iso-${tag}` }))
    .json;
  const query = (
    await mgmt('POST', `/v1/org/${orgId}/team/${teamId}/${environment}/continuous_query`, {
      slug: `iso-${tag}`,
      title: `Iso ${tag}`,
      query: {
        group_by: [{ arg: { index: 'sleep' }, date_trunc: { unit: 'month', value: 1 } }],
        select: [{ group_key: '*' }, { arg: { value_macro: 'sleep_score', version: 'automatic' }, func: 'mean' }],
      },
    })
  ).json;
  const key = list((await mgmt('GET', `/v1/org/${orgId}/management_key`)).json, 'data', 'management_keys')[0];
  await mgmt('POST', `/v1/org/${orgId}/invite`, { email: `iso-${tag}@example.com` });
  const invite = list((await mgmt('GET', `/v1/org/${orgId}/invite`)).json, 'invites', 'data')[0];
  const member = list((await mgmt('GET', `/v1/org/${orgId}/member`)).json, 'members', 'data')[0];
  const domain = (await mgmt('POST', `/v1/org/${orgId}/domain`, { domain: `iso-${tag}.example.com` })).json;
  const ids: Ids = {
    org_id: orgId,
    team_id: teamId,
    user_id: userId,
    client_user_id: user.client_user_id,
    order_id: order?.id,
    transaction_id: order?.order_transaction?.id ?? order?.transaction_id,
    workout_id: workout?.id,
    sleep_id: sleep?.id,
    device_id: device?.id,
    webhook_id: hook?.id,
    query_id: query?.id,
    key_id: key?.id,
    invite_id: invite?.id,
    member_id: member?.id ?? member?.member_id,
    domain_id: domain?.id ?? domain?.domain?.id,
  };
  return Object.fromEntries(Object.entries(ids).filter(([, v]) => typeof v === 'string' && v.length > 0)) as Ids;
}

/** An unknown id shaped like `value` (a uuid stays a uuid). */
function unknownLike(value: string): string {
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-/i.test(value)) return UNKNOWN_ID;
  return value.replace(/[0-9a-zA-Z]/g, (ch) => (/[0-9]/.test(ch) ? '7' : 'q'));
}

function queryOf(route: Route): Record<string, string[]> {
  if (!route.request.query) return {};
  const keys = Object.keys(propertiesOf(toJson(route.request.query)));
  return Object.fromEntries(keys.filter((k) => k in GOOD_QUERY).map((k) => [k, [GOOD_QUERY[k] as string]]));
}

const FIXED: Ids = { env: 'sandbox', environment: 'sandbox', region: 'us', provider: 'oura', name: 'iso', stream: 'iso', code: 'iso' };

/** The route's request with `ids` in its path and body; which of `owned` it carried. */
function build(route: Route, ids: Ids, headers: Headers): { req: SimRequest; carried: string[] } {
  const carried = new Set<string>();
  const pick = (n: string): string => {
    if (n in ids) carried.add(n);
    return ids[n] ?? FIXED[n] ?? UNKNOWN_ID;
  };
  const path = route.path.replace(/:([a-z_]+)/g, (_m, n: string) => encodeURIComponent(pick(n)));
  let body: unknown;
  if (route.request.body) {
    const js = toJson(route.request.body) as JsonSchema & Record<string, unknown>;
    body = plausible(js, 'body', 'minimal', ids);
    const text = JSON.stringify(body) ?? '';
    for (const [n, v] of Object.entries(ids)) if (text.includes(v)) carried.add(n);
  }
  return {
    req: {
      method: route.method,
      surface: surfaceOf(route),
      path,
      query: queryOf(route),
      headers: { 'content-type': 'application/json', ...headers },
      rawBody: body === undefined ? new Uint8Array(0) : encoder.encode(JSON.stringify(body)),
    },
    carried: [...carried],
  };
}

function mask(text: string, values: string[]): string {
  let out = text;
  for (const v of [...values].sort((a, b) => b.length - a.length)) if (v.length >= 4) out = out.split(v).join('<id>');
  return out;
}

it("another tenant's ids answer exactly like unknown ids on every route, for every credential kind", async () => {
  const s = createSandbox({ seed: 4, users: 1, usersElsewhere: 1, feed: 'off', limits: false, logger: () => undefined });
  const creds = s.credentials();
  const [a, b] = creds.teams;
  if (!a || !b) throw new Error('two teams expected');
  const orgId = creds.org_id;
  const org = creds.management_key;
  // A second org with one team and its own management key.
  const w = s.world;
  const created = new Date(w.clock.now()).toISOString();
  const orgC = w.tenancy.addOrg({
    id: stableUuid(w.seed, 'iso-org', 1),
    name: 'Other Org',
    plan: 'premium',
    created_at: created,
    expires_at: null,
  });
  const teamC = w.tenancy.addTeam(
    newTeam({ id: stableUuid(w.seed, 'iso-team', 1), org_id: orgC.id, name: 'Other Team', region: 'us', created_on: created }),
  );
  const [keyC] = issueTeamKeys(w, teamC, created, [w.seed, 'iso-team', 1]);
  const mgmtC = w.tenancy.addManagementKey({
    id: stableUuid(w.seed, 'iso-mk', 1),
    org_id: orgC.id,
    label: 'other',
    key: managementKeyValue(w.seed, 'iso-mk', 1),
    role: 'org_admin',
    team_ids: null,
    created_at: created,
    creator: { type: 'vital_staff' },
  });
  const newKey = async (bindings: Array<{ team_id: string }>) => {
    const res = await call(s, {
      surface: 'management',
      method: 'POST',
      path: `/v1/org/${orgId}/management_key`,
      headers: { 'x-management-key': org },
      body: { label: `iso-${bindings.length}`, role: 'team_admin', team_role_bindings: bindings },
    });
    expect(res.status, res.text).toBeLessThan(300);
    return res.json.key as string;
  };
  const bound = await newKey([{ team_id: a.team_id }]);
  // An unbound team-scoped key: bound to a team that is then deleted (the binding goes with it).
  const doomed = await call(s, {
    surface: 'management',
    method: 'POST',
    path: `/v1/org/${orgId}/team`,
    headers: { 'x-management-key': org },
    body: { name: 'Doomed Team', region: 'us' },
  });
  expect(doomed.status, doomed.text).toBeLessThan(300);
  const unbound = await newKey([{ team_id: doomed.json.id }]);
  expect(
    (
      await call(s, {
        surface: 'management',
        method: 'DELETE',
        path: `/v1/org/${orgId}/team/${doomed.json.id}`,
        headers: { 'x-management-key': org },
      })
    ).status,
  ).toBeLessThan(300);
  expect(w.tenancy.managementKeysBySecret.get(unbound)?.team_ids ?? []).toEqual([]);
  const aSandbox = await tenantIds(s, {
    apiKey: a.api_keys.sandbox,
    orgId,
    mgmtKey: org,
    teamId: a.team_id,
    environment: 'sandbox',
    tag: 'a',
  });
  const link = await call(s, {
    surface: 'data',
    method: 'POST',
    path: '/v2/link/token',
    headers: { 'x-service-api-key': a.api_keys.sandbox },
    body: { user_id: aSandbox.user_id, provider: 'oura' },
  });
  const linkToken: string = link.json?.link_token ?? 'missing-link-token';
  const access = await call(s, {
    surface: 'management',
    method: 'POST',
    path: `/v1/org/${orgId}/team/${a.team_id}/create_api_access_token`,
    headers: { 'x-management-key': org },
    body: { environment: 'sandbox' },
  });
  const accessToken: string = access.json?.access_token ?? 'vat_us_missing';

  const ids = {
    aSandbox,
    aProduction: await tenantIds(s, {
      apiKey: a.api_keys.production,
      orgId,
      mgmtKey: org,
      teamId: a.team_id,
      environment: 'production',
      tag: 'ap',
    }),
    bSandbox: await tenantIds(s, { apiKey: b.api_keys.sandbox, orgId, mgmtKey: org, teamId: b.team_id, environment: 'sandbox', tag: 'b' }),
    cSandbox: await tenantIds(s, {
      apiKey: keyC?.value ?? '',
      orgId: orgC.id,
      mgmtKey: mgmtC.key,
      teamId: teamC.id,
      environment: 'sandbox',
      tag: 'c',
    }),
  };

  interface Caller {
    label: string;
    headers: Headers;
    own: Ids;
    victims: Ids[];
    /** Surfaces whose routes it may be served on. */
    serves: Array<Route['auth']>;
    /** A 403 for the victim is an accepted answer (management: a sibling team the key is not bound to). */
    forbiddenOk?: boolean;
  }
  const callers: Caller[] = [
    {
      label: 'team A sandbox key',
      headers: { 'x-service-api-key': a.api_keys.sandbox },
      own: ids.aSandbox,
      victims: [ids.bSandbox, ids.cSandbox],
      serves: ['team'],
    },
    {
      label: 'team A production key',
      headers: { 'x-service-api-key': a.api_keys.production },
      own: ids.aProduction,
      victims: [ids.aSandbox],
      serves: ['team'],
    },
    {
      label: "other team's key (B)",
      headers: { 'x-service-api-key': b.api_keys.sandbox },
      own: ids.bSandbox,
      victims: [ids.aSandbox],
      serves: ['team'],
    },
    {
      label: 'org management key',
      headers: { 'x-management-key': org },
      own: ids.aSandbox,
      victims: [ids.cSandbox],
      serves: ['management'],
    },
    {
      label: 'management key bound to team A',
      headers: { 'x-management-key': bound },
      own: ids.aSandbox,
      victims: [ids.bSandbox, ids.cSandbox],
      serves: ['management'],
      forbiddenOk: true,
    },
    {
      label: 'team-scoped management key, unbound',
      headers: { 'x-management-key': unbound },
      own: { org_id: orgId },
      victims: [ids.aSandbox, ids.bSandbox],
      serves: [],
      forbiddenOk: true,
    },
    {
      label: 'link token of team A',
      headers: { 'x-vital-link-token': linkToken },
      own: ids.aSandbox,
      victims: [ids.bSandbox],
      serves: ['none'],
    },
    {
      label: 'API access token (Bearer)',
      headers: { authorization: `Bearer ${accessToken}` },
      own: ids.aSandbox,
      victims: [ids.bSandbox],
      serves: ['none'],
    },
    {
      label: 'API access token as an API key',
      headers: { 'x-vital-api-key': accessToken },
      own: ids.aSandbox,
      victims: [ids.bSandbox],
      serves: ['none'],
    },
    { label: 'no credential', headers: {}, own: ids.aSandbox, victims: [ids.bSandbox], serves: ['none'] },
    {
      label: 'bad key',
      headers: { 'x-service-api-key': 'sk_us_0000000000000000', 'x-management-key': 'sk_bad' },
      own: ids.aSandbox,
      victims: [ids.bSandbox],
      serves: ['none'],
    },
  ];

  const leaks: string[] = [];
  let compared = 0;
  let refusedChecked = 0;
  const routesCompared = new Set<string>();
  const tenantRoutes = ROUTES.filter((r) => r.auth === 'team' || r.auth === 'management' || r.auth === 'none');
  for (const caller of callers) {
    for (const route of tenantRoutes) {
      for (const victim of caller.victims) {
        // Substitute the names whose value differs between the caller's world and the victim's.
        const owned = Object.keys(victim).filter((n) => victim[n] !== caller.own[n]);
        const theirIds: Ids = { ...caller.own };
        const unknownIds: Ids = { ...caller.own };
        for (const n of owned) {
          theirIds[n] = victim[n] as string;
          unknownIds[n] = unknownLike(victim[n] as string);
        }
        const theirs = build(route, theirIds, caller.headers);
        const carried = theirs.carried.filter((n) => owned.includes(n));
        if (carried.length === 0) continue;
        const unknown = build(route, unknownIds, caller.headers);
        const before = fingerprint(w);
        const t = await s.dispatch(theirs.req);
        const u = await s.dispatch(unknown.req);
        compared++;
        routesCompared.add(route.id);
        const tm = mask(
          decoder.decode(t.body),
          carried.map((n) => theirIds[n] as string),
        );
        const um = mask(
          decoder.decode(u.body),
          carried.map((n) => unknownIds[n] as string),
        );
        const where = `${route.method} ${route.path} [${caller.label}] carrying ${carried.join(',')}`;
        if (t.status < 300) leaks.push(`${where}: another tenant's ids answered ${t.status} ${tm.slice(0, 160)}`);
        const forbidden = caller.forbiddenOk && t.status === 403;
        if (!forbidden && (t.status !== u.status || tm !== um))
          leaks.push(`${where}: theirs ${t.status} ${tm.slice(0, 160)} | unknown ${u.status} ${um.slice(0, 160)}`);
        // A refused request changes nothing (ids minted, events, jobs).
        if (t.status >= 400 && u.status >= 400 && fingerprint(w) !== before) leaks.push(`${where}: a refused request changed the world`);
      }
      // Credentials that serve nothing on this surface are refused, whatever the ids.
      if (route.auth !== 'none' && !caller.serves.includes(route.auth) && caller.label !== 'team-scoped management key, unbound') {
        const { req } = build(route, caller.own, caller.headers);
        const res = await s.dispatch(req);
        refusedChecked++;
        if (res.status !== 401 && res.status !== 403)
          leaks.push(`${route.method} ${route.path} [${caller.label}]: not refused (${res.status})`);
      }
    }
  }
  if (process.env.ISO_DEBUG) console.log(JSON.stringify(ids), compared, refusedChecked, routesCompared.size);
  expect(leaks).toEqual([]);
  // Every team and management route that takes an id of a tenant was compared.
  const withTenantIds = tenantRoutes.filter(
    (r) =>
      r.auth !== 'none' &&
      /:(user_id|client_user_id|order_id|transaction_id|team_id|webhook_id|query_id|org_id|key_id|invite_id|member_id|domain_id|workout_id|sleep_id|device_id)\b/.test(
        r.path,
      ),
  );
  for (const r of withTenantIds) expect(routesCompared.has(r.id), `${r.method} ${r.path} compared`).toBe(true);
  expect(compared).toBeGreaterThan(500);
  expect(refusedChecked).toBeGreaterThan(1000);
  s.close();
});

it('with an admin token, the control plane refuses every other credential on every control route, identically, changing nothing', async () => {
  const s = createSandbox({ seed: 4, users: 1, usersElsewhere: 1, feed: 'off', adminToken: 'iso-admin', logger: () => undefined });
  const creds = s.credentials();
  const a = creds.teams[0];
  if (!a) throw new Error('a team');
  const kinds: Array<[string, Headers]> = [
    ['no credential', {}],
    ['team API key', { 'x-service-api-key': a.api_keys.sandbox }],
    ['org management key', { 'x-management-key': creds.management_key }],
    ['API key as a Bearer token', { authorization: `Bearer ${a.api_keys.sandbox}` }],
    ['wrong admin token', { authorization: 'Bearer not-the-token' }],
  ];
  const before = fingerprint(s.world);
  let checked = 0;
  const problems: string[] = [];
  const missing = JSON.stringify({ detail: AUTH_MESSAGES.missingControlToken });
  const invalid = JSON.stringify({ detail: AUTH_MESSAGES.invalidControlToken });
  for (const route of ROUTES.filter((r) => r.auth === 'control')) {
    for (const [label, headers] of kinds) {
      const { req } = build(route, { org_id: creds.org_id, team_id: a.team_id }, headers);
      const res = await s.dispatch(req);
      checked++;
      // The same two answers on every route: no Bearer token, or a Bearer token that is not the admin one.
      const expected = headers.authorization ? invalid : missing;
      const got = decoder.decode(res.body);
      if (res.status !== 401 || got !== expected)
        problems.push(`${route.method} ${route.path} [${label}]: ${res.status} ${got.slice(0, 160)}`);
    }
  }
  expect(problems).toEqual([]);
  expect(fingerprint(s.world)).toBe(before);
  expect(checked).toBeGreaterThan(150);
  s.close();
});
