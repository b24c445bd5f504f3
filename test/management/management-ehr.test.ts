/** The EHR integration and team EHR pipelines through the management interface (issue 15), on both adapters. */
import { expect, it } from 'vitest';
import { MANAGEMENT_ERRORS } from '../../src/state/management/errors.js';
import { DASHBOARD_URL_TTL_S } from '../../src/state/management/ehr.js';
import { createClient, forEachAdapter } from '../support/client.js';
import { oasValidator } from '../support/openapi.js';
import { getOrder, lows, newOrder, SMALL } from '../support/lab-helpers.js';

const mg = oasValidator('management');
const schema = (name: string, value: unknown) => mg?.expectValid(name, value);

forEachAdapter('management EHR integration', (adapter) => {
  it('configuration, integration-managed members, dashboard URLs', async () => {
    const c = createClient(adapter, SMALL);
    const base = `/v1/org/${c.orgId}/ehr_integration`;
    const team = c.creds.teams[0]?.team_id as string;
    expect((await c.mgmt('GET', `${base}/configuration`)).status).toBe(404);

    const member = await c.mgmt('POST', `${base}/member`, {
      body: { integration_member_id: 'ehr-1', name: 'Dr Who', email: 'who@example.com', team_role_bindings: [{ team_id: team }] },
    });
    expect(member.status, member.text).toBe(200);
    schema('IntegrationManagedMember', member.body);
    const id = member.body.id;
    const dup = await c.mgmt('POST', `${base}/member`, { body: { integration_member_id: 'ehr-1', name: 'X', email: 'x@example.com' } });
    expect(dup.status).toBe(409);
    schema('IntegrationMemberIDConflictResponse', dup.body);
    expect(dup.body.member_id).toBe(id);
    const stranger = '00000000-0000-4000-8000-000000000001';
    expect(
      (
        await c.mgmt('POST', `${base}/member`, {
          body: { integration_member_id: 'ehr-2', name: 'X', email: 'x', team_role_bindings: [{ team_id: stranger }] },
        })
      ).status,
    ).toBe(422);

    const resolved = await c.mgmt('POST', `${base}/resolve_member`, { body: { integration_member_id: 'ehr-1' } });
    expect(resolved.body).toEqual(member.body);
    expect((await c.mgmt('POST', `${base}/resolve_member`, { body: { integration_member_id: 'nope' } })).status).toBe(404);
    const list = await c.mgmt('GET', `${base}/member`);
    schema('ListIntegrationManagedMembersResponse', list.body);
    expect(list.body).toEqual({ data: [member.body], next_cursor: null });
    const patched = await c.mgmt('PATCH', `${base}/member/${id}`, { body: { name: 'Dr Who II', email: null } });
    expect(patched.body).toMatchObject({ name: 'Dr Who II', email: 'who@example.com' });
    expect((await c.mgmt('GET', `${base}/member/${id}`)).body.name).toBe('Dr Who II');

    // Dashboard URL: needs the configuration with the modality.
    const dash = { member_id: id, team_id: team, feature: 'lab_orders', modality: 'link_out', environment: 'sandbox' };
    const early = await c.mgmt('POST', `${base}/create_dashboard_url`, { body: dash });
    expect(early.status).toBe(400);
    expect(early.body.detail).toBe(MANAGEMENT_ERRORS.ehrNotConfigured);
    const config = await c.mgmt('PUT', `${base}/configuration`, {
      body: { slug: 'acme', modalities: ['feature_embed'], origin_configs: [{ origin: 'https://ehr.example.com' }] },
    });
    expect(config.status, config.text).toBe(200);
    schema('EhrIntegrationConfig', config.body);
    expect((await c.mgmt('GET', `${base}/configuration`)).body).toEqual(config.body);
    expect((await c.mgmt('PUT', `${base}/configuration`, { body: { slug: 'ab', modalities: [], origin_configs: [] } })).status).toBe(422);
    expect((await c.mgmt('POST', `${base}/create_dashboard_url`, { body: dash })).body.detail).toBe(
      MANAGEMENT_ERRORS.modalityNotEnabled('link_out'),
    );

    const url = await c.mgmt('POST', `${base}/create_dashboard_url`, {
      body: { ...dash, member_id: null, integration_member_id: 'ehr-1', modality: 'feature_embed' },
    });
    expect(url.status, url.text).toBe(200);
    schema('CreateDashboardURLResponse', url.body);
    expect(url.body.expires_in).toBe(DASHBOARD_URL_TTL_S);
    const session = await c.get(new URL(url.body.url).pathname);
    expect(session.status, session.text).toBe(200);
    expect(session.body).toMatchObject({
      org_id: c.orgId,
      member_id: id,
      team_id: team,
      feature: 'lab_orders',
      modality: 'feature_embed',
      environment: 'sandbox',
    });
    await c.advance(DASHBOARD_URL_TTL_S);
    expect((await c.get(new URL(url.body.url).pathname)).status).toBe(404);
    expect(
      (await c.mgmt('POST', `${base}/create_dashboard_url`, { body: { ...dash, member_id: null, modality: 'feature_embed' } })).status,
    ).toBe(422);

    expect((await c.mgmt('DELETE', `${base}/member/${id}`)).status).toBe(200);
    expect((await c.mgmt('GET', `${base}/member/${id}`)).status).toBe(404);
  });

  it('team EHR pipelines: upsert, get, delete; lab results reach the destination as they complete', async () => {
    const c = createClient(adapter, { seed: 25, ...SMALL });
    const [us, eu] = [c.creds.teams[0]?.team_id as string, c.creds.teams[1]?.team_id as string];
    const base = `/v1/org/${c.orgId}/team_ehr_pipelines/sandbox/us`;
    const body = {
      team_ids: [us],
      ehr_type: 'fhir',
      base_url: 'https://fhir.example.com/r4',
      authentication: { type: 'client_credentials', client_id: 'id', client_secret: 's3cret', token_url: 'https://fhir.example.com/token' },
    };
    const up = await c.mgmt('POST', base, { body });
    expect(up.status, up.text).toBe(200);
    for (const p of up.body) schema('TeamEHRPipeline', p);
    expect(up.body[0]).toMatchObject({ team_id: us, type: 'native', ehr_type: 'fhir' });
    expect(up.body[0].authentication.client_secret).not.toBe('s3cret');
    expect((await c.mgmt('POST', base, { body: { ...body, team_ids: [eu] } })).status).toBe(400);
    expect(
      (await c.mgmt('POST', base, { body: { ...body, authentication: { type: 'google_iam', service_account_email: 'a', audience: 'x' } } }))
        .status,
    ).toBe(422);
    const got = await c.mgmt('GET', base, { query: { team_id: us } });
    schema('TeamEHRPipelineResponse', got.body);
    expect(got.body.data).toHaveLength(1);

    const order = await newOrder(c, 'testkit');
    expect((await c.post(`/v3/order/${order.id}/test`)).status).toBe(200);
    expect(lows(await getOrder(c, order.id)).at(-1)).toBe('completed');
    const deliveries = (await c.get(`/_sandbox/ehr_pipelines/${us}/sandbox`)).body.deliveries;
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({
      order_id: order.id,
      result_status: 'final',
      ehr_type: 'fhir',
      payload: { resourceType: 'DiagnosticReport', id: order.id, status: 'final' },
    });

    expect((await c.mgmt('DELETE', base, { query: { team_id: [us], ehr_type: 'fhir' } })).status).toBe(200);
    expect((await c.mgmt('GET', base)).body.data).toEqual([]);
    const second = await newOrder(c, 'testkit');
    await c.post(`/v3/order/${second.id}/test`);
    expect((await c.get(`/_sandbox/ehr_pipelines/${us}/sandbox`)).body.deliveries).toHaveLength(1);
  });
});
