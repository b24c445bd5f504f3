/**
 * Preconditions for the success answer of operations the generic request (and its override)
 * reaches only on an error answer in the seeded world: an MFA challenge pending on a link token,
 * a sleep and a device the sandbox handed out, recorded demographics, a registrable testkit, an
 * order in the state where its labels / ABN / draw exist, a scheduled order, an EHR configuration
 * and integration-managed member, a team with an integration id, a second org member. Each is
 * arranged through the public API or the control plane after the plain request was checked on
 * its error answer; the function answers the request pieces of the success call.
 */
import { ROUTES } from '../../src/routes.js';
import type { TestClient } from '../../test/support/client.js';
import type { Override } from './overrides.js';
import { requestBody } from './writes.js';
import { PATIENT, ADDRESS, list } from '../../test/support/route-params.js';

type Ids = Record<string, string>;
type Json = Record<string, any>;

const EHR = (c: TestClient) => `/v1/org/${c.orgId}/ehr_integration`;

/** A body built from the route's own request schema, as the generic builder does. */
function builtBody(method: string, path: string, ids: Ids, serial: number): Json {
  const route = ROUTES.find((r) => r.method === method && r.path === path);
  return (route ? requestBody(route, ids, serial).body : {}) as Json;
}

/** Sets the org's EHR configuration (both modalities), answers nothing. */
export async function configureEhr(c: TestClient): Promise<void> {
  await c.mgmt('PUT', `${EHR(c)}/configuration`, {
    body: { slug: 'conformance', modalities: ['feature_embed', 'link_out'], origin_configs: [{ origin: 'https://ehr.example.com' }] },
  });
}

/** Creates an integration-managed member; answers its id. */
export async function ehrMember(c: TestClient, serial: number): Promise<string> {
  const res = await c.mgmt('POST', `${EHR(c)}/member`, {
    body: { integration_member_id: `conformance-member-${serial}`, name: `Conformance ${serial}`, email: `ehr-${serial}@example.com` },
  });
  return String(res.body?.id ?? '');
}

/** Places a walk-in order with extra fields; answers its id. */
async function placeOrder(c: TestClient, ids: Ids, extra: Json, patient: Json = {}): Promise<string> {
  const res = await c.post('/v3/order', {
    user_id: ids['user_id'],
    lab_test_id: ids['lab_test_id'],
    patient_details: { ...PATIENT, ...patient },
    patient_address: ADDRESS,
    ...extra,
  });
  return String(res.body?.order?.id ?? '');
}

/** Per operation (`METHOD /doc/path`): arranges the world, answers the success request's pieces. */
export const ARRANGE: Record<string, (ids: Ids, serial: number, c: TestClient) => Promise<Override>> = {
  // A fresh link token whose password connect asked for an MFA code (docs/simulated/link.md).
  'POST /v2/link/provider/password/{provider}/complete_mfa': async (ids, _n, c) => {
    const token = String((await c.post('/v2/link/token', { user_id: ids['user_id'] })).body?.link_token ?? '');
    const headers = { 'x-vital-link-token': token };
    await c.post('/v2/link/provider/password/beurer_api', { username: 'conformance', password: 'sandbox-mfa-sms' }, { headers });
    return { params: { provider: 'beurer_api' }, headers, body: { mfa_code: '123456' } };
  },
  // A sleep id the sandbox handed out in the sleep summaries.
  'GET /v2/timeseries/sleep/{sleep_id}/stream': async (ids, _n, c) => {
    const sleeps = list(
      (await c.get(`/v2/summary/sleep/${ids['user_id']}`, { query: { start_date: '2025-12-20', end_date: '2026-01-04' } })).body,
      'sleep',
    );
    return { params: { sleep_id: String(sleeps[0]?.id ?? '') } };
  },
  'GET /v2/user/{user_id}/info/latest': async (ids, n, c) => {
    await c.patch(`/v2/user/${ids['user_id']}/info`, builtBody('PATCH', '/v2/user/:user_id/info', ids, n));
    return {};
  },
  'GET /v2/user/{user_id}/device/{device_id}': async (ids, _n, c) => {
    const devices = list((await c.get(`/v2/user/${ids['user_id']}/device`)).body, 'devices');
    return { params: { device_id: String(devices[0]?.id ?? '') } };
  },
  // An unregistered testkit, delivered to the point where it awaits its registration.
  'POST /v3/order/testkit/register': async (ids, _n, c) => {
    const kit = (
      await c.post('/v3/order/testkit', {
        user_id: ids['user_id'],
        lab_test_id: ids['lab_test_id:testkit'],
        shipping_details: { ...ADDRESS, phone_number: '+14155551234' },
      })
    ).body?.order;
    await c.post(`/v3/order/${kit?.id}/test`, undefined, { query: { final_status: 'received.testkit.awaiting_registration' } });
    return { body: { sample_id: kit?.sample_id, user_id: ids['user_id'], patient_details: PATIENT, patient_address: ADDRESS } };
  },
  // The on-site order of the error check, once its requisition exists (ten minutes on).
  'GET /v3/order/{order_id}/labels/pdf': async (_ids, _n, c) => {
    await c.advance(600);
    return {};
  },
  // An order billed to insurance for a patient of Medicare age has an ABN (docs/simulated/labs.md).
  'GET /v3/order/{order_id}/abn_pdf': async (ids, _n, c) => ({
    params: {
      order_id: await placeOrder(
        c,
        ids,
        { billing_type: 'commercial_insurance', health_insurance: { payor_code: 'MEDICARE', member_id: 'M123' } },
        { dob: '1950-02-01' },
      ),
    },
  }),
  // A scheduled order (activate_by), rescheduled to a later day.
  'PATCH /v3/order/{order_id}': async (ids, _n, c) => ({
    params: { order_id: await placeOrder(c, ids, { activate_by: '2026-02-01' }) },
    body: { activate_by: '2026-02-02' },
  }),
  'POST /v3/order/import': async (ids, n) => ({
    body: {
      order_set: { lab_test_ids: [ids['lab_test_id']] },
      collection_method: 'walk_in_test',
      billing_type: 'client_bill',
      sample_id: `CONF-${n}`,
    },
  }),
  // The on-site order of the error check, once its requisition exists and it waits for the draw.
  'PATCH /v3/order/{order_id}/draw_completed': async (_ids, _n, c) => {
    await c.advance(600);
    return {};
  },
  'POST /v1/org/{org_id}/ehr_integration/create_dashboard_url': async (_ids, n, c) => {
    await configureEhr(c);
    return {
      body: {
        member_id: await ehrMember(c, n),
        integration_member_id: null,
        team_id: null,
        integration_team_id: null,
        feature: 'lab_results',
        modality: 'feature_embed',
        environment: 'sandbox',
      },
    };
  },
  'POST /v1/org/{org_id}/resolve_team': async (ids, n, c) => {
    await c.mgmt('PATCH', `/v1/org/${c.orgId}/team/${ids['team_id']}`, { body: { integration_team_id: `conformance-team-${n}` } });
    return { body: { integration_team_id: `conformance-team-${n}` } };
  },
  'GET /v1/org/{org_id}/ehr_integration/member/{member_id}': async (_ids, n, c) => ({ params: { member_id: await ehrMember(c, n) } }),
  'PATCH /v1/org/{org_id}/ehr_integration/member/{member_id}': async (_ids, n, c) => ({ params: { member_id: await ehrMember(c, n) } }),
  'DELETE /v1/org/{org_id}/ehr_integration/member/{member_id}': async (_ids, n, c) => ({ params: { member_id: await ehrMember(c, n) } }),
  'GET /v1/org/{org_id}/ehr_integration/configuration': async (_ids, _n, c) => {
    await configureEhr(c);
    return {};
  },
  // A second owner (an invite accepted through the control plane), so the org keeps one.
  'DELETE /v1/org/{org_id}/member/{member_id}': async (_ids, n, c) => {
    const email = `member-${n}@example.com`;
    const invite = (await c.mgmt('POST', `/v1/org/${c.orgId}/invite`, { body: { email } })).body;
    const inviteId =
      invite?.id ?? list((await c.mgmt('GET', `/v1/org/${c.orgId}/invite`)).body, 'data', 'invites').find((i) => i.email === email)?.id;
    const member = (await c.post(`/_sandbox/orgs/${c.orgId}/invites/${inviteId}/accept`, { name: `Member ${n}` })).body;
    return { params: { member_id: String(member?.id ?? '') } };
  },
};
