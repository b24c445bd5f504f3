/** Management interface: org and teams (spec 2.7, 4.9; api-facts A.13), on both adapters. */
import { VitalClient } from '@tryvital/vital-node';
import { describe, expect, it } from 'vitest';
import { createClient, forEachAdapter, type TestClient } from '../support/client.js';
import { oasValidator } from '../support/openapi.js';
import { startServer } from '../support/server.js';
import { ACCESS_MESSAGES } from '../../src/state/management/errors.js';

/** The smallest world these tests need: the org, its teams, keys and lab accounts, no users (the default world builds 25 per team). */
const SMALL = { world: 'empty' } as const;

const mg = oasValidator('management');
const data = oasValidator('data');

function expectSchema(which: typeof mg, name: string, value: unknown): void {
  if (which) which.expectValid(name, value);
}

async function createTeam(c: TestClient, body: Record<string, unknown>) {
  const res = await c.mgmt('POST', `/v1/org/${c.orgId}/team`, { body });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

async function sandboxKeyOf(c: TestClient, teamId: string, region = 'us', env = 'sandbox'): Promise<string> {
  const res = await c.mgmt('GET', `/v1/org/${c.orgId}/team_api_keys/${env}/${region}`, { query: { team_id: teamId } });
  expect(res.status).toBe(200);
  return res.body.api_keys[0].value;
}

forEachAdapter('management org', (adapter) => {
  it('gets and renames the org; validates the name', async () => {
    const c = createClient(adapter, SMALL);
    const got = await c.mgmt('GET', `/v1/org/${c.orgId}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({ id: c.orgId, name: 'Sandbox Org', expires_at: null });
    expectSchema(mg, 'ClientFacingOrg', got.body);

    const patched = await c.mgmt('PATCH', `/v1/org/${c.orgId}`, { body: { name: 'Acme Health (QA)' } });
    expect(patched.status).toBe(200);
    expect(patched.body.name).toBe('Acme Health (QA)');
    expect((await c.mgmt('GET', `/v1/org/${c.orgId}`)).body.name).toBe('Acme Health (QA)');

    const bad = await c.mgmt('PATCH', `/v1/org/${c.orgId}`, { body: { name: 'no <html>' } });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0]).toMatchObject({ type: 'string_pattern_mismatch', loc: ['body', 'name'] });
    const missing = await c.mgmt('PATCH', `/v1/org/${c.orgId}`, { body: {} });
    expect(missing.status).toBe(422);
    expect(missing.body.detail[0]).toMatchObject({ type: 'missing', loc: ['body', 'name'] });
    expect((await c.mgmt('GET', `/v1/org/${c.orgId}`)).body.name).toBe('Acme Health (QA)');
  });

  it("refuses another org's id and a malformed org id", async () => {
    const c = createClient(adapter, SMALL);
    const other = await c.mgmt('GET', '/v1/org/00000000-0000-4000-8000-000000000000');
    expect(other.status).toBe(403);
    expect(typeof other.body.detail).toBe('string');
    const malformed = await c.mgmt('GET', '/v1/org/not-a-uuid');
    expect(malformed.status).toBe(422);
    expect(malformed.body.detail[0]).toMatchObject({ type: 'uuid_parsing', loc: ['path', 'org_id'] });
  });
});

forEachAdapter('management teams', (adapter) => {
  it('creates a team with the reference defaults and working keys in both environments', async () => {
    const c = createClient(adapter, SMALL);
    const team = await createTeam(c, { name: 'Run 42', region: 'us', brand_information: { company_name: 'Acme' } });
    expectSchema(mg, 'ClientFacingOrgTeam', team);
    expect(team).toMatchObject({ name: 'Run 42', region: 'us', integration_team_id: null, environments: ['production', 'sandbox'] });
    expect(team.created_on).toBe('2026-01-05T09:00:00.000Z');
    for (const env of ['sandbox', 'production']) {
      expect(team[env]).toEqual({
        lab_tests_patient_sms_communication_enabled: true,
        lab_tests_patient_email_communication_enabled: true,
        critical_result_notification_email: null,
        brand_information: {
          company_name: 'Acme',
          company_website: '',
          support_email: 'help@tryvital.io',
          support_contact: '',
          company_address: '',
          brand_color: '',
        },
        logo_url: null,
        reject_duplicate_connection: false,
        sdk_per_device_activity_timeseries: false,
        partial_webhooks_enabled: false,
        minor_ordering_enabled: false,
      });
    }
    for (const env of ['sandbox', 'production'] as const) {
      const key = await sandboxKeyOf(c, team.id, 'us', env);
      expect(key).toMatch(env === 'sandbox' ? /^sk_us_[A-Za-z0-9]{32}$/ : /^pk_us_[A-Za-z0-9]{32}$/);
      const users = await c.get('/v2/user', { headers: { 'x-service-api-key': key } });
      expect(users.status).toBe(200);
      expect(users.body.users).toEqual([]);
    }
    const eu = await createTeam(c, { name: 'Run EU', region: 'eu' });
    expect(await sandboxKeyOf(c, eu.id, 'eu')).toMatch(/^sk_eu_/);
  });

  it("keeps teams apart: a user created with one team's key is invisible to another", async () => {
    const c = createClient(adapter, SMALL);
    const a = await createTeam(c, { name: 'Suite A', region: 'us' });
    const b = await createTeam(c, { name: 'Suite B', region: 'us' });
    const keyA = await sandboxKeyOf(c, a.id);
    const keyB = await sandboxKeyOf(c, b.id);
    const created = await c.post('/v2/user', { client_user_id: 'shared-name' }, { headers: { 'x-service-api-key': keyA } });
    expect(created.status).toBe(200);
    const fromB = await c.get(`/v2/user/${created.body.user_id}`, { headers: { 'x-service-api-key': keyB } });
    expect(fromB.status).toBe(404);
    const createdB = await c.post('/v2/user', { client_user_id: 'shared-name' }, { headers: { 'x-service-api-key': keyB } });
    expect(createdB.status).toBe(200);
    expect(createdB.body.user_id).not.toBe(created.body.user_id);
  });

  it('takes settings, id, integration_team_id and event_type_prefixes on create', async () => {
    const c = createClient(adapter, SMALL);
    const id = '11111111-2222-4333-8444-555555555555';
    const team = await createTeam(c, {
      id,
      name: "Ünïcode, team/1: O'Brien & Co_-|",
      region: 'eu',
      integration_team_id: 'ext-1',
      lab_tests_patient_sms_communication_enabled: false,
      critical_result_notification_email: 'alerts@example.com',
      logo_url: 'https://example.com/logo.png',
      reject_duplicate_connection: true,
      sdk_per_device_activity_timeseries: true,
      partial_webhooks_enabled: true,
      minor_ordering_enabled: true,
      event_type_prefixes: ['labtest.'],
      brand_information: { company_name: 'Acme', support_email: 'care@acme.test', brand_color: '#ff0000', support_contact: null },
    });
    expect(team.id).toBe(id);
    expect(team.integration_team_id).toBe('ext-1');
    expect(team.sandbox).toMatchObject({
      lab_tests_patient_sms_communication_enabled: false,
      lab_tests_patient_email_communication_enabled: true,
      critical_result_notification_email: 'alerts@example.com',
      logo_url: 'https://example.com/logo.png',
      reject_duplicate_connection: true,
      sdk_per_device_activity_timeseries: true,
      partial_webhooks_enabled: true,
      minor_ordering_enabled: true,
      brand_information: {
        company_name: 'Acme',
        company_website: '',
        support_email: 'care@acme.test',
        support_contact: null,
        company_address: '',
        brand_color: '#ff0000',
      },
    });
    expect(team.production).toEqual(team.sandbox);
    expect(team.sandbox).not.toHaveProperty('event_type_prefixes');
    expectSchema(mg, 'ClientFacingOrgTeam', team);
    expect(c.sandbox.world.tenancy.teams.get(id)?.settings.sandbox.event_type_prefixes).toEqual(['labtest.']);

    const dupId = await c.mgmt('POST', `/v1/org/${c.orgId}/team`, { body: { id, name: 'x', region: 'us' } });
    expect(dupId.status).toBe(409);
    expect(dupId.body.team_id).toBe(id);
    const dupIntegration = await c.mgmt('POST', `/v1/org/${c.orgId}/team`, {
      body: { name: 'y', region: 'us', integration_team_id: 'ext-1' },
    });
    expect(dupIntegration.status).toBe(409);
    expect(dupIntegration.body.team_id).toBe(id);
    expectSchema(mg, 'IntegrationTeamIDConflictResponse', dupIntegration.body);
    expect((await c.mgmt('GET', `/v1/org/${c.orgId}/team`)).body.teams).toHaveLength(3);
  });

  it('answers 422 for bad create bodies and creates nothing', async () => {
    const c = createClient(adapter, SMALL);
    // A missing enum field should read `missing` like pydantic; the shared validation.ts renders
    // it as `enum` today, so that case checks the location only (reported to the coordinator).
    const cases: Array<[Record<string, unknown>, string | null, Array<string | number>]> = [
      [{ region: 'us' }, 'missing', ['body', 'name']],
      [{ name: 'ok' }, null, ['body', 'region']],
      [{ name: 'ok', region: 'asia' }, 'enum', ['body', 'region']],
      [{ name: 'semi;colon', region: 'us' }, 'string_pattern_mismatch', ['body', 'name']],
      [{ name: 'x'.repeat(81), region: 'us' }, 'string_pattern_mismatch', ['body', 'name']],
      [
        { name: 'ok', region: 'us', critical_result_notification_email: 'nope' },
        'value_error',
        ['body', 'critical_result_notification_email'],
      ],
      [{ name: 'ok', region: 'us', logo_url: 'not a url' }, 'url_parsing', ['body', 'logo_url']],
      [{ name: 'ok', region: 'us', brand_information: { company_website: 'x' } }, 'missing', ['body', 'brand_information', 'company_name']],
      [{ name: 'ok', region: 'us', id: 'abc' }, 'uuid_parsing', ['body', 'id']],
      [{ name: 'ok', region: 'us', integration_team_id: 'i'.repeat(257) }, 'string_too_long', ['body', 'integration_team_id']],
    ];
    for (const [body, type, loc] of cases) {
      const res = await c.mgmt('POST', `/v1/org/${c.orgId}/team`, { body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      if (type === null) expect(res.body.detail.map((d: { loc: unknown }) => d.loc)).toContainEqual(loc);
      else expect(res.body.detail.map((d: { type: string; loc: unknown }) => [d.type, d.loc])).toContainEqual([type, loc]);
    }
    const notJson = await c.mgmt('POST', `/v1/org/${c.orgId}/team`, { body: '{"name":', headers: { 'content-type': 'application/json' } });
    expect(notJson.status).toBe(422);
    expect((await c.mgmt('GET', `/v1/org/${c.orgId}/team`)).body.teams).toHaveLength(2);
  });

  it('lists with filters and a cursor', async () => {
    const c = createClient(adapter, SMALL);
    const created: string[] = [];
    for (let i = 0; i < 52; i++) created.push((await createTeam(c, { name: `Batch ${i}`, region: i % 2 === 0 ? 'us' : 'eu' })).id);
    const first = await c.mgmt('GET', `/v1/org/${c.orgId}/team`);
    expect(first.status).toBe(200);
    expectSchema(mg, 'ClientFacingOrgTeamListResponse', first.body);
    expect(first.body.teams).toHaveLength(50);
    expect(first.body.next_cursor).toEqual(expect.any(String));
    const second = await c.mgmt('GET', `/v1/org/${c.orgId}/team`, { query: { next_cursor: first.body.next_cursor } });
    expect(second.body.teams).toHaveLength(4);
    expect(second.body.next_cursor).toBeNull();
    const ids = [...first.body.teams, ...second.body.teams].map((t: { id: string }) => t.id);
    expect(new Set(ids).size).toBe(54);
    expect(ids.slice(2)).toEqual(created);

    const eu = await c.mgmt('GET', `/v1/org/${c.orgId}/team`, { query: { region: 'eu' } });
    expect(eu.body.teams.every((t: { region: string }) => t.region === 'eu')).toBe(true);
    expect(eu.body.teams).toHaveLength(27);
    const both = await c.mgmt('GET', `/v1/org/${c.orgId}/team`, { query: { region: ['eu', 'us'] } });
    expect(both.body.teams).toHaveLength(50);
    const search = await c.mgmt('GET', `/v1/org/${c.orgId}/team`, { query: { search_query: 'batch 1' } });
    expect(search.body.teams.map((t: { name: string }) => t.name).sort()).toEqual(
      ['Batch 1', ...Array.from({ length: 10 }, (_, i) => `Batch 1${i}`)].sort(),
    );
    const one = await c.mgmt('GET', `/v1/org/${c.orgId}/team`, { query: { team_id: created[3] as string } });
    expect(one.body.teams.map((t: { id: string }) => t.id)).toEqual([created[3]]);

    const badCursor = await c.mgmt('GET', `/v1/org/${c.orgId}/team`, { query: { next_cursor: 'garbage' } });
    expect(badCursor.status).toBe(422);
    const badRegion = await c.mgmt('GET', `/v1/org/${c.orgId}/team`, { query: { region: 'mars' } });
    expect(badRegion.status).toBe(422);
    const badSearch = await c.mgmt('GET', `/v1/org/${c.orgId}/team`, { query: { search_query: 'a;b' } });
    expect(badSearch.status).toBe(422);
  });

  it('gets a team (spec 4.9) with include_environment', async () => {
    const c = createClient(adapter, SMALL);
    const teamId = c.creds.teams[0]?.team_id as string;
    const got = await c.mgmt('GET', `/v1/org/${c.orgId}/team/${teamId}`);
    expect(got.status).toBe(200);
    expectSchema(mg, 'ClientFacingOrgTeam', got.body);
    expect(got.body).toMatchObject({ id: teamId, name: 'Sandbox Team US', region: 'us' });
    expect(got.body.sandbox).not.toBeNull();
    expect(got.body.production).not.toBeNull();
    const onlySandbox = await c.mgmt('GET', `/v1/org/${c.orgId}/team/${teamId}`, { query: { include_environment: 'sandbox' } });
    expect(onlySandbox.body.sandbox).not.toBeNull();
    expect(onlySandbox.body.production).toBeNull();
    expectSchema(mg, 'ClientFacingOrgTeam', onlySandbox.body);
    const bad = await c.mgmt('GET', `/v1/org/${c.orgId}/team/${teamId}`, { query: { include_environment: 'staging' } });
    expect(bad.status).toBe(422);
    const unknown = await c.mgmt('GET', `/v1/org/${c.orgId}/team/00000000-0000-4000-8000-000000000001`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ detail: ACCESS_MESSAGES.teamNotFound });
  });

  it('updates per-environment settings and brand information; enforces the logo_url rule', async () => {
    const c = createClient(adapter, SMALL);
    const team = await createTeam(c, { name: 'Patchable', region: 'us' });
    const path = `/v1/org/${c.orgId}/team/${team.id}`;

    const noLogo = await c.mgmt('PATCH', path, { body: { name: 'Renamed', sandbox: { brand_information: { company_name: 'Acme' } } } });
    expect(noLogo.status).toBe(422);
    expect(noLogo.body.detail[0]).toMatchObject({ type: 'value_error', loc: ['body', 'sandbox', 'logo_url'] });
    expect((await c.mgmt('GET', path)).body.name).toBe('Patchable');

    const firstBrandNoName = await c.mgmt('PATCH', path, { body: { production: { brand_information: { brand_color: '#000' } } } });
    expect(firstBrandNoName.status).toBe(422);
    expect(firstBrandNoName.body.detail[0].loc).toEqual(['body', 'production', 'brand_information', 'company_name']);

    const ok = await c.mgmt('PATCH', path, {
      body: {
        name: 'Renamed',
        integration_team_id: 'suite-7',
        sandbox: {
          brand_information: { company_name: 'Acme', support_email: 'help@acme.test' },
          logo_url: 'https://acme.test/logo.png',
          partial_webhooks_enabled: true,
          lab_tests_patient_email_communication_enabled: false,
          critical_result_notification_email: 'doc@acme.test',
          patient_experience: true,
        },
      },
    });
    expect(ok.status, ok.text).toBe(200);
    expectSchema(mg, 'ClientFacingOrgTeam', ok.body);
    expect(ok.body.name).toBe('Renamed');
    expect(ok.body.integration_team_id).toBe('suite-7');
    expect(ok.body.sandbox).toMatchObject({
      brand_information: {
        company_name: 'Acme',
        company_website: '',
        support_email: 'help@acme.test',
        support_contact: '',
        company_address: '',
        brand_color: '',
      },
      logo_url: 'https://acme.test/logo.png',
      partial_webhooks_enabled: true,
      lab_tests_patient_email_communication_enabled: false,
      critical_result_notification_email: 'doc@acme.test',
    });
    expect(ok.body.production.partial_webhooks_enabled).toBe(false);
    expect(ok.body.production.brand_information).toBeNull();

    // Null keeps a value; a later brand change merges into the stored one.
    const merge = await c.mgmt('PATCH', path, {
      body: { name: null, sandbox: { brand_information: { brand_color: '#123456', company_name: null }, logo_url: null } },
    });
    expect(merge.status).toBe(200);
    expect(merge.body.name).toBe('Renamed');
    expect(merge.body.sandbox.brand_information).toMatchObject({
      company_name: 'Acme',
      brand_color: '#123456',
      support_email: 'help@acme.test',
    });
    expect(merge.body.sandbox.logo_url).toBe('https://acme.test/logo.png');

    const got = await c.mgmt('GET', path);
    expect(got.body).toEqual(merge.body);
    const resolved = await c.mgmt('POST', `/v1/org/${c.orgId}/resolve_team`, { body: { integration_team_id: 'suite-7' } });
    expect(resolved.status).toBe(200);
    expect(resolved.body).toEqual(got.body);
    expectSchema(mg, 'ResolveTeamResponse', resolved.body);

    const badEmail = await c.mgmt('PATCH', path, { body: { production: { critical_result_notification_email: 'x' } } });
    expect(badEmail.status).toBe(422);
  });

  it('refuses a taken integration_team_id on update (409 {team_id}) and resolves by it', async () => {
    const c = createClient(adapter, SMALL);
    const a = await createTeam(c, { name: 'A', region: 'us', integration_team_id: 'run-a' });
    const b = await createTeam(c, { name: 'B', region: 'eu' });
    const clash = await c.mgmt('PATCH', `/v1/org/${c.orgId}/team/${b.id}`, { body: { name: 'B2', integration_team_id: 'run-a' } });
    expect(clash.status).toBe(409);
    expect(clash.body.team_id).toBe(a.id);
    expect((await c.mgmt('GET', `/v1/org/${c.orgId}/team/${b.id}`)).body.name).toBe('B');
    const same = await c.mgmt('PATCH', `/v1/org/${c.orgId}/team/${a.id}`, { body: { integration_team_id: 'run-a' } });
    expect(same.status).toBe(200);
    const moved = await c.mgmt('PATCH', `/v1/org/${c.orgId}/team/${a.id}`, { body: { integration_team_id: 'run-a2' } });
    expect(moved.status).toBe(200);
    expect((await c.mgmt('POST', `/v1/org/${c.orgId}/resolve_team`, { body: { integration_team_id: 'run-a' } })).status).toBe(404);
    expect((await c.mgmt('POST', `/v1/org/${c.orgId}/resolve_team`, { body: { integration_team_id: 'run-a2' } })).body.id).toBe(a.id);
    const missing = await c.mgmt('POST', `/v1/org/${c.orgId}/resolve_team`, { body: {} });
    expect(missing.status).toBe(422);
  });

  it('deletes a team: its keys stop at once and its data becomes unreachable', async () => {
    const c = createClient(adapter, SMALL);
    const team = await createTeam(c, { name: 'Doomed', region: 'us', integration_team_id: 'doomed' });
    const key = await sandboxKeyOf(c, team.id);
    const user = await c.post('/v2/user', { client_user_id: 'u1' }, { headers: { 'x-service-api-key': key } });
    expect(user.status).toBe(200);
    const del = await c.mgmt('DELETE', `/v1/org/${c.orgId}/team/${team.id}`);
    expect(del.status).toBe(200);
    expect(del.body).toBeNull();
    const after = await c.get(`/v2/user/${user.body.user_id}`, { headers: { 'x-service-api-key': key } });
    expect(after.status).toBe(401);
    expect((await c.mgmt('GET', `/v1/org/${c.orgId}/team/${team.id}`)).status).toBe(404);
    expect((await c.mgmt('DELETE', `/v1/org/${c.orgId}/team/${team.id}`)).status).toBe(404);
    expect((await c.mgmt('POST', `/v1/org/${c.orgId}/resolve_team`, { body: { integration_team_id: 'doomed' } })).status).toBe(404);
    expect((await c.mgmt('GET', `/v1/org/${c.orgId}/team`)).body.teams.map((t: { id: string }) => t.id)).not.toContain(team.id);
    // The id is never reused, and the integration id is free again.
    const reuse = await c.mgmt('POST', `/v1/org/${c.orgId}/team`, { body: { id: team.id, name: 'Again', region: 'us' } });
    expect(reuse.status).toBe(409);
    expect(
      (await c.mgmt('POST', `/v1/org/${c.orgId}/team`, { body: { name: 'Again', region: 'us', integration_team_id: 'doomed' } })).status,
    ).toBe(200);
    // Data of other teams is untouched.
    expect((await c.get('/v2/user')).status).toBe(200);
  });
});

forEachAdapter('data-side team', (adapter) => {
  it("GET /v2/team/:team_id shows the caller's team consistent with the management view", async () => {
    const c = createClient(adapter, SMALL);
    const team = await createTeam(c, {
      name: 'Consistent',
      region: 'us',
      critical_result_notification_email: 'a@b.test',
      logo_url: 'https://x.test/l.png',
    });
    await c.mgmt('PATCH', `/v1/org/${c.orgId}/team/${team.id}`, {
      body: {
        production: {
          lab_tests_patient_sms_communication_enabled: false,
          lab_tests_patient_email_communication_enabled: false,
          minor_ordering_enabled: true,
        },
      },
    });
    const sandboxKey = await sandboxKeyOf(c, team.id, 'us', 'sandbox');
    const productionKey = await sandboxKeyOf(c, team.id, 'us', 'production');
    const sb = await c.get(`/v2/team/${team.id}`, { headers: { 'x-service-api-key': sandboxKey } });
    expect(sb.status).toBe(200);
    expectSchema(data, 'ClientFacingTeam', sb.body);
    expect(sb.body).toMatchObject({
      id: team.id,
      org_id: c.orgId,
      name: 'Consistent',
      lab_tests_patient_sms_communication_enabled: true,
      lab_tests_patient_email_communication_enabled: true,
      lab_tests_patient_communication_enabled: true,
      testkits_texts_enabled: true,
      critical_result_notification_email: 'a@b.test',
      logo_url: 'https://x.test/l.png',
    });
    expect(sb.body.api_keys.map((k: { value: string }) => k.value)).toEqual([sandboxKey]);
    const prod = await c.get(`/v2/team/${team.id}`, { headers: { 'x-service-api-key': productionKey } });
    expect(prod.body).toMatchObject({ lab_tests_patient_communication_enabled: false, lab_tests_patient_sms_communication_enabled: false });
    expect(prod.body.configuration.minor_ordering_enabled).toBe(true);
    expectSchema(data, 'ClientFacingTeam', prod.body);

    const other = await c.get(`/v2/team/${c.creds.teams[0]?.team_id}`, { headers: { 'x-service-api-key': sandboxKey } });
    expect(other.status).toBe(403);
    expect(typeof other.body.detail).toBe('string');
    const mgmtKey = await c.get(`/v2/team/${team.id}`, { headers: { 'x-service-api-key': '', 'x-management-key': c.managementKey } });
    expect(mgmtKey.status).toBe(401);
    const noKey = await c.get(`/v2/team/${team.id}`, { anonymous: true });
    expect(noKey.status).toBe(401);
    // The management surface does not serve the data-side team read.
    expect((await c.mgmt('GET', `/v2/team/${team.id}`)).status).toBe(404);
  });
});

describe('official SDK reads the team', () => {
  it('client.team.get parses the answer', async () => {
    const server = await startServer({ seed: 9 });
    try {
      const creds = server.sandbox.credentials();
      const team = creds.teams[0];
      const client = new VitalClient({ apiKey: team?.api_keys.sandbox ?? '', baseUrl: server.baseUrl, maxRetries: 0 });
      const got = await client.team.get(team?.team_id ?? '');
      expect(got.id).toBe(team?.team_id);
      expect(got.orgId).toBe(creds.org_id);
      expect(got.labTestsPatientCommunicationEnabled).toBe(true);
      expect(got.configuration?.libreview).toBeDefined();
    } finally {
      await server.close();
    }
  });
});
