/**
 * Request rules that the route schemas carry (zod `withRules`, `src/engine/schemas.ts`) instead of
 * hand-written checks after parsing: each answers byte for byte what the old check answered (the
 * expected bodies are built with the same catalogue texts and `valueError`), and runs before any
 * domain function (a rule broken on an unknown resource answers the 422, as FastAPI validates
 * before the handler). docs/ENGINE.md "Validation" lists what zod carries and what stays in the
 * domain layer.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError, forbidden, valueError } from '../../src/engine/errors.js';
import { withRules } from '../../src/engine/schemas.js';
import { parseWith } from '../../src/engine/validation.js';
import { DURATION_HELP } from '../../src/engine/duration.js';
import { LABS_ERRORS } from '../../src/state/labs/errors.js';
import { ACCESS_MESSAGES, MANAGEMENT_ERRORS, MANAGEMENT_KEY_MESSAGES } from '../../src/state/management/errors.js';
import { USERS_ERRORS } from '../../src/state/users/errors.js';
import { PIPELINE_ERRORS, WEBHOOKS_ERRORS } from '../../src/state/webhooks/errors.js';
import { headerSyntaxProblem } from '../../src/state/webhooks/webhooks.js';
import { createClient, type CallOptions, type TestClient } from '../support/client.js';

const UNKNOWN = '7d3c1a52-9b1e-4c2f-8a6d-0e5f4b3a2c1d';
const CURSOR = 'Invalid cursor: pass the next_cursor of a previous answer';
const MAX_ADVANCE = `One advance moves the clock at most ${366 * 86400} seconds (366 days); advance in steps`;

interface Case {
  name: string;
  method: string;
  path: (c: TestClient, ids: Ids) => string;
  options: (ids: Ids) => CallOptions;
  surface?: 'management';
  expected: () => unknown;
}

interface Ids {
  org: string;
  team: string;
  user: string;
}

const body = (b: unknown): CallOptions => ({ body: b });
const query = (q: CallOptions['query']): CallOptions => ({ query: q });
const mgmtBody = (b: unknown): CallOptions => ({ body: b, surface: 'management' });
const mgmtQuery = (q: CallOptions['query']): CallOptions => ({ query: q, surface: 'management' });

const CASES: Case[] = [
  // labs: insurance
  {
    name: 'payor search needs a name',
    method: 'GET',
    path: () => '/v3/insurance/search/payor',
    options: () => query({ insurance_name: '  ' }),
    expected: () => valueError(['query'], LABS_ERRORS.payorSearchNeedsName).body,
  },
  {
    name: 'deprecated payor search needs a name',
    method: 'POST',
    path: () => '/v3/insurance/search/payor',
    options: () => body({ provider: 'change_healthcare' }),
    expected: () => valueError(['body'], LABS_ERRORS.payorDeprecatedSearchNeedsName).body,
  },
  {
    name: 'payor provider and id go together',
    method: 'POST',
    path: () => '/v3/payor',
    options: () =>
      body({
        name: 'Acme',
        address: { first_line: '1 Main', country: 'US', zip: '78701', city: 'Austin', state: 'TX' },
        provider_payor_id: 'X1',
      }),
    expected: () => valueError(['body', 'provider'], LABS_ERRORS.payorProviderPair).body,
  },
  // labs: compendium, resend, PSC availability
  {
    name: 'compendium search needs a criterion',
    method: 'POST',
    path: () => '/v3/compendium/search',
    options: () => body({ mode: 'canonical', query: ' ' }),
    expected: () => valueError(['body'], LABS_ERRORS.compendiumNeedsCriteria).body,
  },
  {
    name: 'compendium convert needs a source',
    method: 'POST',
    path: () => '/v3/compendium/convert',
    options: () => body({ target_lab: 'quest', provider_ids: [] }),
    expected: () => valueError(['body'], LABS_ERRORS.convertNeedsSource).body,
  },
  {
    name: 'compendium convert takes one source',
    method: 'POST',
    path: () => '/v3/compendium/convert',
    options: () => body({ target_lab: 'quest', lab_test_id: UNKNOWN, provider_ids: ['1'] }),
    expected: () => valueError(['body'], LABS_ERRORS.convertOneSource).body,
  },
  {
    name: 'resend events needs a selection',
    method: 'POST',
    path: () => '/v3/order/resend_events',
    options: () => body({}),
    expected: () => valueError(['body'], LABS_ERRORS.resendNeedsSelection).body,
  },
  {
    name: 'PSC availability needs a place',
    method: 'POST',
    path: () => '/v3/order/psc/appointment/availability',
    options: () => query({ lab: 'quest' }),
    expected: () => valueError(['query', 'zip_code'], LABS_ERRORS.pscNeedsPlace).body,
  },
  // users
  {
    name: 'ingestion bounds in order (create)',
    method: 'POST',
    path: () => '/v2/user',
    options: () => body({ client_user_id: 'bounds-1', ingestion_start: '2026-02-01', ingestion_end: '2026-01-01' }),
    expected: () => valueError(['body', 'ingestion_start'], USERS_ERRORS.boundsOrder('2026-02-01', '2026-01-01'), '2026-02-01').body,
  },
  {
    name: 'patch: a real time zone',
    method: 'PATCH',
    path: (_c, ids) => `/v2/user/${ids.user}`,
    options: () => body({ fallback_time_zone: 'Mars/Olympus' }),
    expected: () => valueError(['body', 'fallback_time_zone'], USERS_ERRORS.badTimeZone('Mars/Olympus'), 'Mars/Olympus').body,
  },
  {
    name: 'patch: client_user_id not null',
    method: 'PATCH',
    path: (_c, ids) => `/v2/user/${ids.user}`,
    options: () => body({ client_user_id: null }),
    expected: () => valueError(['body', 'client_user_id'], USERS_ERRORS.clientUserIdNull, null).body,
  },
  {
    name: 'patch: client_user_id not personal',
    method: 'PATCH',
    path: (_c, ids) => `/v2/user/${ids.user}`,
    options: () => body({ client_user_id: 'ada@example.com' }),
    expected: () => valueError(['body', 'client_user_id'], USERS_ERRORS.personalData('email'), 'ada@example.com').body,
  },
  {
    name: 'patch: client_user_id not empty',
    method: 'PATCH',
    path: (_c, ids) => `/v2/user/${ids.user}`,
    options: () => body({ client_user_id: '' }),
    expected: () => valueError(['body', 'client_user_id'], USERS_ERRORS.clientUserIdEmpty, '').body,
  },
  {
    name: 'source priorities: a provider of the data type',
    method: 'PATCH',
    path: () => '/v2/team/source/priorities',
    options: () =>
      body([
        { data_type: 'sleep', providers: ['oura'] },
        { data_type: 'sleep', providers: ['oura', 'nope'] },
      ]),
    expected: () => valueError(['body', 1, 'providers', 1], 'nope does not supply sleep', 'nope').body,
  },
  // management
  {
    name: 'EHR dashboard URL names a member',
    method: 'POST',
    path: (_c, ids) => `/v1/org/${ids.org}/ehr_integration/create_dashboard_url`,
    options: () => mgmtBody({ feature: 'x', modality: 'link_out', environment: 'sandbox' }),
    expected: () => valueError(['body', 'member_id'], MANAGEMENT_ERRORS.memberRequired).body,
  },
  {
    name: 'custom credentials: one page',
    method: 'GET',
    path: (_c, ids) => `/v1/org/${ids.org}/team_custom_credentials/sandbox/us`,
    options: () => mgmtQuery({ next_cursor: 'abc' }),
    expected: () => valueError(['query', 'next_cursor'], CURSOR, 'abc').body,
  },
  {
    name: 'team API keys: one page',
    method: 'GET',
    path: (_c, ids) => `/v1/org/${ids.org}/team_api_keys/sandbox/us`,
    options: () => mgmtQuery({ next_cursor: 'abc' }),
    expected: () => valueError(['query', 'next_cursor'], CURSOR, 'abc').body,
  },
  {
    name: 'teams: a cursor of ours',
    method: 'GET',
    path: (_c, ids) => `/v1/org/${ids.org}/team`,
    options: () => mgmtQuery({ next_cursor: 'bm90LWEtY3Vyc29y' }),
    expected: () => valueError(['query', 'next_cursor'], CURSOR, 'bm90LWEtY3Vyc29y').body,
  },
  {
    name: 'members: a member cursor',
    method: 'GET',
    path: (_c, ids) => `/v1/org/${ids.org}/member`,
    options: () => mgmtQuery({ next_cursor: 'dGVhbToz' }),
    expected: () => valueError(['query', 'next_cursor'], CURSOR, 'dGVhbToz').body,
  },
  {
    name: 'invites: an invite cursor',
    method: 'GET',
    path: (_c, ids) => `/v1/org/${ids.org}/invite`,
    options: () => mgmtQuery({ next_cursor: 'dGVhbToz' }),
    expected: () => valueError(['query', 'next_cursor'], CURSOR, 'dGVhbToz').body,
  },
  {
    name: 'EHR members: a member cursor',
    method: 'GET',
    path: (_c, ids) => `/v1/org/${ids.org}/ehr_integration/member`,
    options: () => mgmtQuery({ next_cursor: 'x' }),
    expected: () => valueError(['query', 'next_cursor'], CURSOR, 'x').body,
  },
  {
    name: 'pull preferences: a cursor of ours',
    method: 'GET',
    path: (_c, ids) => `/v1/org/${ids.org}/team_data_pull_preferences/sandbox/us`,
    options: () => mgmtQuery({ next_cursor: 'dGVhbToz' }),
    expected: () => valueError(['query', 'next_cursor'], CURSOR, 'dGVhbToz').body,
  },
  {
    name: 'domain: a real domain name',
    method: 'POST',
    path: (_c, ids) => `/v1/org/${ids.org}/domain`,
    options: () => mgmtBody({ domain: 'not a domain' }),
    expected: () => valueError(['body', 'domain'], MANAGEMENT_ERRORS.invalidDomain, 'not a domain').body,
  },
  {
    name: 'team key needs bindings',
    method: 'POST',
    path: (_c, ids) => `/v1/org/${ids.org}/management_key`,
    options: () => mgmtBody({ label: 'k', role: 'team_admin' }),
    expected: () => valueError(['body', 'team_role_bindings'], MANAGEMENT_KEY_MESSAGES.teamAdminNeedsBindings, null).body,
  },
  {
    name: 'org key takes no bindings',
    method: 'POST',
    path: (_c, ids) => `/v1/org/${ids.org}/management_key`,
    options: (ids) => mgmtBody({ label: 'k', role: 'org_admin', team_role_bindings: [{ team_id: ids.team }] }),
    expected: () => undefined,
  },
  {
    name: 'pull preferences: days in range',
    method: 'POST',
    path: (_c, ids) => `/v1/org/${ids.org}/team_data_pull_preferences/sandbox/us`,
    options: (ids) =>
      mgmtBody({
        team_ids: [ids.team],
        providers: { oura: { default: { historical_days_to_pull: 30 }, resource_overrides: { sleep: { historical_days_to_pull: 9999 } } } },
      }),
    expected: () =>
      valueError(
        ['body', 'providers', 'oura', 'resource_overrides', 'sleep', 'historical_days_to_pull'],
        MANAGEMENT_ERRORS.historicalDaysLimit('oura', 365),
        9999,
      ).body,
  },
  {
    name: 'scope requirements: not in both lists',
    method: 'POST',
    path: (_c, ids) => `/v1/org/${ids.org}/team/${ids.team}/scope_requirements`,
    options: () => mgmtBody({ fitbit: { user_must_grant: ['sleep'], user_may_grant: ['sleep'] } }),
    expected: () => valueError(['body', 'fitbit', 'user_may_grant'], 'Scope sleep is already in user_must_grant.', 'sleep').body,
  },
  {
    name: 'pipelines need a team',
    method: 'POST',
    path: (_c, ids) => `/v1/org/${ids.org}/team_etl_pipelines/sandbox/us`,
    options: () => mgmtBody({ team_ids: [] }),
    expected: () => valueError(['body', 'team_ids'], PIPELINE_ERRORS.noTeams, []).body,
  },
  // control plane: test receivers and the pipelines' NDJSON file
  {
    name: 'receiver: header syntax',
    method: 'PUT',
    path: () => '/_sandbox/receiver/rules',
    options: () => body({ status: 200, headers: { 'bad name': 'x' } }),
    expected: () => valueError(['body', 'headers', 'bad name'], headerSyntaxProblem('bad name', 'x') as string, 'x').body,
  },
  {
    name: 'NDJSON file: a name inside the data directory',
    method: 'PUT',
    path: () => '/_sandbox/pipelines/ndjson',
    options: () => body({ path: '../escape.ndjson' }),
    expected: () => valueError(['body', 'path'], WEBHOOKS_ERRORS.ndjsonBadName, '../escape.ndjson').body,
  },
  // control plane: clock
  {
    name: 'advance: exactly one amount',
    method: 'POST',
    path: () => '/_sandbox/clock/advance',
    options: () => body({ seconds: 1, duration: '1h' }),
    expected: () =>
      valueError(['body'], 'Give exactly one of seconds, duration (90s, 15m, 2h, 3d or ISO 8601 such as P1DT2H) or until (ISO time)').body,
  },
  {
    name: 'advance: a duration',
    method: 'POST',
    path: () => '/_sandbox/clock/advance',
    options: () => body({ duration: 'soon' }),
    expected: () => valueError(['body', 'duration'], `Invalid duration: ${DURATION_HELP}`, 'soon').body,
  },
  {
    name: 'advance: an ISO time',
    method: 'POST',
    path: () => '/_sandbox/clock/advance',
    options: () => body({ until: '2026-02-30T00:00:00Z' }),
    expected: () => valueError(['body', 'until'], 'Invalid ISO time', '2026-02-30T00:00:00Z').body,
  },
  {
    name: 'advance: at most 366 days (seconds)',
    method: 'POST',
    path: () => '/_sandbox/clock/advance',
    options: () => body({ seconds: 366 * 86400 + 1 }),
    expected: () => valueError(['body', 'seconds'], MAX_ADVANCE, 366 * 86400 + 1).body,
  },
  {
    name: 'advance: until not in the past (domain)',
    method: 'POST',
    path: () => '/_sandbox/clock/advance',
    options: () => body({ until: '2000-01-01T00:00:00Z' }),
    expected: () => valueError(['body', 'until'], 'The clock only moves forward', '2000-01-01T00:00:00Z').body,
  },
  {
    name: 'advance: until at most 366 days ahead (domain)',
    method: 'POST',
    path: () => '/_sandbox/clock/advance',
    options: () => body({ until: '2199-01-01T00:00:00Z' }),
    expected: () => valueError(['body', 'until'], MAX_ADVANCE, '2199-01-01T00:00:00Z').body,
  },
  {
    name: 'advance: at most 366 days (duration)',
    method: 'POST',
    path: () => '/_sandbox/clock/advance',
    options: () => body({ duration: '400d' }),
    expected: () => valueError(['body', 'duration'], MAX_ADVANCE, '400d').body,
  },
];

async function idsOf(c: TestClient): Promise<Ids> {
  const users = await c.get('/v2/user', { query: { limit: 1 } });
  return { org: c.orgId, team: c.creds.teams[0]!.team_id, user: users.body.users[0].user_id as string };
}

describe('withRules', () => {
  const schema = withRules(
    z.object({ a: z.string().max(3), b: z.unknown().optional() }),
    (v) => v.a === 'one' && { path: ['a'], message: 'first rule', input: v.a },
    (v) => v.a.length < 2 && { message: 'whole body' },
    (v) => v.a === 'nul' && { path: ['b'], message: 'null input', input: null },
    (v) => v.a === 'obj' && { path: ['b'], message: 'object input', input: v.b },
    (v) => v.a.length > 5 && { path: ['a'], message: 'would also break', input: v.a },
  );
  const failure = (data: unknown): unknown => {
    try {
      parseWith(schema, data, 'body');
    } catch (error) {
      if (error instanceof ApiError) return JSON.stringify(error.body);
      throw error;
    }
    return null;
  };

  it('renders a broken rule exactly like valueError (with, without and with a null or object input)', () => {
    expect(failure({ a: 'one' })).toBe(JSON.stringify(valueError(['body', 'a'], 'first rule', 'one').body));
    expect(failure({ a: 'x' })).toBe(JSON.stringify(valueError(['body'], 'whole body').body));
    expect(failure({ a: 'nul' })).toBe(JSON.stringify(valueError(['body', 'b'], 'null input', null).body));
    expect(failure({ a: 'obj', b: { k: [1] } })).toBe(JSON.stringify(valueError(['body', 'b'], 'object input', { k: [1] }).body));
    expect(failure({ a: 'abc' })).toBeNull();
  });

  it('reports the first broken rule only, and no rule while a field fails its own schema', () => {
    expect(JSON.parse(failure({ a: 'one' }) as string).detail).toHaveLength(1);
    const typed = JSON.parse(failure({ a: 'toolong' }) as string).detail;
    expect(typed.map((i: { type: string }) => i.type)).toEqual(['string_too_long']);
    expect(JSON.parse(failure({}) as string).detail.map((i: { type: string }) => i.type)).toEqual(['missing']);
  });
});

describe('request rules carried by the route schemas', () => {
  const c = createClient('fetch', { seed: 5, users: 2 });

  it('answer byte for byte what the hand-written checks answered', async () => {
    const ids = await idsOf(c);
    const got: unknown[] = [];
    const want: unknown[] = [];
    for (const k of CASES) {
      const res = await c.call(k.method, k.path(c, ids), k.options(ids));
      const expected =
        k.expected() ??
        valueError(['body', 'team_role_bindings'], MANAGEMENT_KEY_MESSAGES.orgAdminCreateNoBindings, [{ team_id: ids.team }]).body;
      got.push({ name: k.name, status: res.status, text: res.text });
      want.push({ name: k.name, status: 422, text: JSON.stringify(expected) });
    }
    expect(got).toEqual(want);
  });

  it('answer only to callers with access: the route access hook runs before the query and body rules', async () => {
    // Every management rule above ran after requireOrg (now the route's access hook): another
    // org's id answers its 403, never the rule's 422, before and after the move.
    const ids = { ...(await idsOf(c)), org: UNKNOWN };
    const wrongOrg = JSON.stringify(forbidden(ACCESS_MESSAGES.wrongOrg).body);
    const cases = CASES.filter((k) => k.options(ids).surface === 'management');
    expect(cases.length).toBeGreaterThanOrEqual(14);
    const got: unknown[] = [];
    for (const k of cases) {
      const res = await c.call(k.method, k.path(c, ids), k.options(ids));
      got.push({ name: k.name, status: res.status, text: res.text });
    }
    expect(got).toEqual(cases.map((k) => ({ name: k.name, status: 403, text: wrongOrg })));
  });

  it('the access hook answers before a query or body that does not parse', async () => {
    const ids = await idsOf(c);
    const otherOrg = await c.call('POST', `/v1/org/${UNKNOWN}/team`, mgmtBody({}));
    expect({ status: otherOrg.status, text: otherOrg.text }).toEqual({
      status: 403,
      text: JSON.stringify(forbidden(ACCESS_MESSAGES.wrongOrg).body),
    });
    const unknownTeam = await c.call('PATCH', `/v1/org/${ids.org}/team/${UNKNOWN}`, mgmtBody({ name: 5 }));
    expect(unknownTeam.status).toBe(404);
    expect(unknownTeam.body).toEqual({ detail: ACCESS_MESSAGES.teamNotFound });
    // With access, the same bodies answer their 422.
    expect((await c.call('POST', `/v1/org/${ids.org}/team`, mgmtBody({}))).status).toBe(422);
    expect((await c.call('PATCH', `/v1/org/${ids.org}/team/${ids.team}`, mgmtBody({ name: 5 }))).status).toBe(422);
  });

  it('keep their place: a rule the schema carries still answers before the lookups it came before', async () => {
    // convertCompendium checked its sources before looking up the lab test: still the 422.
    const both = await c.post('/v3/compendium/convert', { target_lab: 'quest', lab_test_id: UNKNOWN, provider_ids: ['1'] });
    expect(both.text).toBe(JSON.stringify(valueError(['body'], LABS_ERRORS.convertOneSource).body));
    // A type error and a broken rule in one body: only the type error, as before.
    const typed = await c.post('/v3/order/resend_events', { order_ids: ['not-a-uuid'] });
    expect(typed.status).toBe(422);
    expect(typed.body.detail.map((i: { type: string }) => i.type)).toEqual(['uuid_parsing']);
  });
});
