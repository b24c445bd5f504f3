/**
 * The control client's org, team, EHR, pipeline and meta controls (health-sandbox/testing), run
 * through `startSandbox`'s own client and through `connectSandbox(url)` against one small server
 * (an empty world, manual clock). The schema of each answer is checked against its route in
 * testkit-controls.test.ts; here tsc checks the types and the tests what they answer.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import { ControlError, connectSandbox, startSandbox, type SandboxControl, type StartedSandbox } from '../../src/testing.js';
import type * as T from '../../src/testing.js';
import type * as W from '../../src/wire/schemas.js';

expectTypeOf<Awaited<ReturnType<T.OrgControls['create']>>>().toEqualTypeOf<z.output<typeof W.SandboxOrgCreated>>();
expectTypeOf<Awaited<ReturnType<T.TeamControls['setBetaFeatures']>>>().toEqualTypeOf<z.output<typeof W.BetaFeatures>>();
expectTypeOf<Awaited<ReturnType<T.EhrControls['dashboard']>>>().toEqualTypeOf<z.output<typeof W.EhrDashboardSession>>();
expectTypeOf<Awaited<ReturnType<T.PipelineControls['records']>>>().toEqualTypeOf<z.output<typeof W.PipelineStreamRecords>>();
expectTypeOf<Awaited<ReturnType<SandboxControl['health']>>>().toEqualTypeOf<z.output<typeof W.Health>>();

let server: StartedSandbox;
let remote: SandboxControl;
beforeAll(async () => {
  server = await startSandbox({ world: 'empty', feed: 'off' });
  remote = connectSandbox(server.url);
});
afterAll(() => server?.close());

describe.each([
  ['in process (startSandbox)', () => server as SandboxControl],
  ['remote (connectSandbox)', () => remote],
])('org, team, EHR and pipeline controls, %s', (_name, get) => {
  let c: SandboxControl;
  let creds: T.Credentials;
  /** A management API call with the org's management key. */
  const mgmt = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${creds.management_url}${path}`, {
      method,
      headers: { 'x-management-key': creds.management_key, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json()) as Record<string, any>;
    if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  const teamId = () => creds.teams[0]?.team_id ?? '';

  beforeEach(async () => {
    c = get();
    await c.reset();
    await server.sandbox.ready;
    creds = await c.credentials();
  });

  it("health and the control plane's OpenAPI document", async () => {
    expect(await c.health()).toEqual({ status: 'ok' });
    const doc = await c.openapi();
    expect(doc.openapi).toMatch(/^3\.1/);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/_sandbox/clock', '/_sandbox/labs/lifecycle']));
  });

  it('orgs: list, create, get, setPlan; a bad plan rejects', async () => {
    const listed = (await c.orgs.list()).orgs;
    expect(listed.find((o) => o.id === creds.org_id)?.team_ids).toEqual(creds.teams.map((t) => t.team_id));
    const created = await c.orgs.create({ name: 'Second org', plan: 'grow' });
    expect(created).toMatchObject({ name: 'Second org', plan: 'grow', management_key: expect.any(String) });
    expect(await c.orgs.get(created.org_id)).toMatchObject({ id: created.org_id, plan: 'grow', team_ids: [] });
    expect((await c.orgs.setPlan(created.org_id, 'premium')).plan).toBe('premium');
    expect((await c.orgs.list()).orgs).toHaveLength(listed.length + 1);
    await expect(c.orgs.setPlan(created.org_id, 'gold' as never)).rejects.toMatchObject({ status: 422 });
    await expect(c.orgs.get('00000000-0000-4000-8000-000000000000')).rejects.toBeInstanceOf(ControlError);
  });

  it('orgs: an invite is mailed and accepted', async () => {
    expect(await mgmt('POST', `/v1/org/${creds.org_id}/invite`, { email: 'kit@example.com' })).toEqual({ status: 'invite_created' });
    const mail = (await c.orgs.mail(creds.org_id)).mail;
    expect(mail).toEqual([expect.objectContaining({ to: 'kit@example.com', ref_id: expect.any(String) })]);
    const invites = (await mgmt('GET', `/v1/org/${creds.org_id}/invite?search_query=kit%40example.com`)).invites as Array<{ id: string }>;
    const member = await c.orgs.acceptInvite(creds.org_id, invites[0]?.id ?? '', { name: 'Kit' });
    expect(member).toMatchObject({ name: 'Kit', email: 'kit@example.com' });
    await expect(c.orgs.acceptInvite(creds.org_id, invites[0]?.id ?? '')).rejects.toBeInstanceOf(ControlError);
  });

  it('teams: beta features', async () => {
    const before = await c.teams.betaFeatures(teamId());
    expect(before.team_id).toBe(teamId());
    expect(await c.teams.setBetaFeatures(teamId(), ['zeta_feature', 'lab_accounts'])).toEqual({
      team_id: teamId(),
      beta_features: ['lab_accounts', 'zeta_feature'],
    });
    expect((await c.teams.betaFeatures(teamId())).beta_features).toEqual(['lab_accounts', 'zeta_feature']);
    await expect(c.teams.setBetaFeatures(teamId(), ['Not A Name'])).rejects.toMatchObject({ status: 422 });
  });

  it("ehr: the session a dashboard URL opens; the pipelines' deliveries", async () => {
    const base = `/v1/org/${creds.org_id}/ehr_integration`;
    const member = await mgmt('POST', `${base}/member`, {
      integration_member_id: 'kit-ehr',
      name: 'Dr Kit',
      email: 'dr@example.com',
      team_role_bindings: [{ team_id: teamId() }],
    });
    await mgmt('PUT', `${base}/configuration`, {
      slug: 'kit-ehr',
      modalities: ['feature_embed'],
      origin_configs: [{ origin: 'https://ehr.example.com' }],
    });
    const url = await mgmt('POST', `${base}/create_dashboard_url`, {
      member_id: member.id,
      team_id: teamId(),
      feature: 'lab_orders',
      modality: 'feature_embed',
      environment: 'sandbox',
    });
    const token = decodeURIComponent(new URL(url.url as string).pathname.split('/').pop() ?? '');
    expect(await c.ehr.dashboard(token)).toMatchObject({
      org_id: creds.org_id,
      member_id: member.id,
      team_id: teamId(),
      feature: 'lab_orders',
      modality: 'feature_embed',
      environment: 'sandbox',
    });
    await expect(c.ehr.dashboard('no-such-token')).rejects.toMatchObject({ status: 404 });
    expect(await c.ehr.deliveries(teamId(), 'sandbox')).toEqual({ deliveries: [] });
  });

  it('pipelines: streams, records, clear, clearAll; ndjson needs a data directory', async () => {
    const team = creds.teams[0];
    await mgmt('POST', `/v1/org/${creds.org_id}/team_etl_pipelines/sandbox/${team?.region}`, {
      team_ids: [teamId()],
      preferences: { preferred: 'azure_amqp', enabled: ['azure_amqp'] },
      azure_amqp: {
        connection_string: 'Endpoint=sb://kit.servicebus.windows.net/;SharedAccessKeyName=send;SharedAccessKey=abc123=',
        default_event_hub: 'kit-events',
      },
    });
    const headers = { 'x-vital-api-key': team?.api_keys.sandbox ?? '', 'content-type': 'application/json' };
    const user = (await (
      await fetch(`${c.url}/v2/user`, { method: 'POST', headers, body: JSON.stringify({ client_user_id: 'piped' }) })
    ).json()) as { user_id: string };
    await fetch(`${c.url}/v2/link/connect/demo`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ user_id: user.user_id, provider: 'oura' }),
    });
    await server.sandbox.settle();
    const streams = await c.pipelines.streams();
    expect(streams).toMatchObject({ ndjson_file: null, streams: [{ stream: 'kit-events' }] });
    const records = await c.pipelines.records('kit-events', { team_id: teamId(), limit: 1000 });
    expect(records.stream).toBe('kit-events');
    expect(records.records.map((r) => r.event_type)).toContain('provider.connection.created');
    expect(await c.pipelines.clear('kit-events')).toEqual({ stream: 'kit-events', cleared: records.records.length });
    expect((await c.pipelines.records('kit-events')).records).toEqual([]);
    expect(await c.pipelines.clearAll()).toEqual({ cleared: 0 });
    await expect(c.pipelines.ndjson('kit.ndjson')).rejects.toMatchObject({ status: 409 });
    expect(await c.pipelines.ndjson(null)).toEqual({ ndjson_file: null });
  });
});
