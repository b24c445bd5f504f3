/**
 * Requests that succeed for the routes the real service's documents do not have (the control
 * plane `/_sandbox/*`, the Link widget pages, the user portal), and for the route-table run's own
 * needs (a user of its own to delete), keyed by route id: the pieces the generic builder (a body
 * from the route's zod schema, `scripts/conformance/writes.ts`) cannot guess. The conformance
 * report's OVERRIDES and ARRANGE (`METHOD /path` keys) cover the documented operations; an entry
 * here wins over them.
 */
import { configureEhr, ehrMember } from '../../scripts/conformance/arrange.js';
import type { Override } from '../../scripts/conformance/overrides.js';
import type { TestClient } from './client.js';

type Ids = Record<string, string>;

/** A fresh link token of the world's first user (a Link flow consumes its token). */
async function linkToken(c: TestClient, ids: Ids): Promise<string> {
  return String((await c.post('/v2/link/token', { user_id: ids['user_id'] })).body?.link_token ?? '');
}

/** A fresh link token with an OAuth connect of oura started on it (its consent page exists). */
async function oauthStarted(c: TestClient, ids: Ids): Promise<string> {
  const token = await linkToken(c, ids);
  await c.get('/v2/link/provider/oauth/oura', { headers: { 'x-vital-link-token': token } });
  return token;
}

/** The path segments of a URL the sandbox answered (after its base). */
function segments(url: unknown): string[] {
  return new URL(String(url ?? 'http://x/')).pathname.split('/').filter((s) => s !== '');
}

export const ROUTE_OVERRIDES: Record<string, (ids: Ids, serial: number, c: TestClient) => Override | Promise<Override>> = {
  // Keeps the org on the plan that may use org management (the routes after it need it).
  'sandbox.orgs.plan': () => ({ body: { plan: 'premium' } }),
  'sandbox.clock.advance': () => ({ body: { seconds: 60 } }),
  // A fault rule on a path no other request of the run takes (it must not fault the rest).
  'sandbox.faults.add': () => ({ body: { match: { path: '/v2/route-table-fault' }, action: { status: 418 }, times: 1 } }),
  'sandbox.faults.remove': async (_ids, n, c) => {
    const rule = await c.post('/_sandbox/faults', { match: { path: `/v2/route-table-fault-${n}` }, action: { drop: true } });
    return { params: { fault_id: String(rule.body?.id) } };
  },
  'sandbox.faults.order': () => ({ body: { fault: 'requisition_failed' } }),
  'sandbox.faults.outage': () => ({ body: { duration: '1h' } }),
  'sandbox.receiver.configure': () => ({ body: { status: 200 } }),
  // A destination the rules refuse: the certification's answer times and signature timestamps are wall-clock (adapters-parity lists it in NO_SUCCESS).
  'sandbox.receivers.certify': () => ({ body: { url: 'http://169.254.169.254/latest', secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' } }),
  'sandbox.snapshots.create': (_ids, n) => ({ body: { name: `route-snapshot-${n}` } }),
  // A snapshot of the world as it is: restoring it changes nothing the routes after it rely on.
  'sandbox.snapshots.restore': async (_ids, n, c) => {
    await c.post('/_sandbox/snapshots', { name: `route-restore-${n}` });
    return { params: { name: `route-restore-${n}` } };
  },
  'sandbox.snapshots.delete': async (_ids, n, c) => {
    await c.post('/_sandbox/snapshots', { name: `route-drop-${n}` });
    return { params: { name: `route-drop-${n}` } };
  },
  // The world as it is, put back.
  'sandbox.world.put': async (_ids, _n, c) => ({ body: (await c.get('/_sandbox/world')).body }),
  'sandbox.webhooks.recover': () => ({ body: { since: '2026-01-05T08:00:00Z' } }),
  'sandbox.orgs.invite.accept': async (_ids, n, c) => {
    const email = `route-invitee-${n}@example.com`;
    await c.mgmt('POST', `/v1/org/${c.orgId}/invite`, { body: { email } });
    const invites = (await c.mgmt('GET', `/v1/org/${c.orgId}/invite`)).body;
    const invite = (Array.isArray(invites) ? invites : (invites?.data ?? invites?.invites ?? [])).find(
      (i: { email?: string }) => i.email === email,
    );
    return { params: { invite_id: String(invite?.id ?? '') }, body: { name: `Invitee ${n}` } };
  },
  // A user without connections: the forced outcome applies to its next connection.
  'sandbox.historical_pulls.force': async (_ids, n, c) => {
    const user = (await c.post('/v2/user', { client_user_id: `route-pull-${n}` })).body;
    return { params: { user_id: String(user?.user_id ?? ''), provider: 'oura' }, body: { outcome: 'success' } };
  },
  'sandbox.ehr_dashboard.get': async (_ids, n, c) => {
    await configureEhr(c);
    const member = await ehrMember(c, n);
    const made = (
      await c.mgmt('POST', `/v1/org/${c.orgId}/ehr_integration/create_dashboard_url`, {
        body: { member_id: member, feature: 'lab_results', modality: 'feature_embed', environment: 'sandbox' },
      })
    ).body;
    return { params: { token: segments(made?.url ?? made?.dashboard_url).at(-1) ?? '' } };
  },
  // The 14-day link: a 10-minute launch link would expire behind a later arrangement's clock advance.
  // The 14-day link: a 10-minute launch link would expire behind an arrangement's clock advance.
  'users.portal_page': async (ids, _n, c) => {
    const made = (await c.post(`/v2/user/${ids['user_id']}/create_portal_url`, { context: 'communications' })).body;
    const [, team_id = '', environment = '', code = ''] = segments(made?.url);
    return { params: { team_id, environment, code } };
  },
  // The run's users are read by later routes: delete one of its own.
  'users.delete': async (_ids, n, c) => ({
    params: { user_id: String((await c.post('/v2/user', { client_user_id: `route-delete-${n}` })).body?.user_id ?? '') },
  }),
  'team.link_config': async (ids, _n, c) => ({ headers: { 'x-vital-link-token': await linkToken(c, ids) } }),
  'link.state': async (ids, _n, c) => ({ headers: { 'x-vital-link-token': await linkToken(c, ids) } }),
  'link.token_is_valid': async (ids, _n, c) => ({ body: { token: await linkToken(c, ids) } }),
  'link.auth_password': async (ids, _n, c) => ({
    headers: { 'x-vital-link-token': await linkToken(c, ids) },
    body: { provider: 'beurer_api', auth_type: 'password', username: 'route', password: 'route' },
  }),
  'link.auth_email': async (ids, _n, c) => ({
    headers: { 'x-vital-link-token': await linkToken(c, ids) },
    body: { provider: 'freestyle_libre', auth_type: 'email', email: 'route@example.com' },
  }),
  'link.widget': async (ids, _n, c) => ({ query: { token: await linkToken(c, ids) } }),
  'link.oauth_authorize': async (ids, _n, c) => ({ query: { provider: 'oura', state: await oauthStarted(c, ids) } }),
  'link.oauth_decide': async (ids, _n, c) => ({
    query: { provider: 'oura', state: await oauthStarted(c, ids), decision: 'allow' },
    body: undefined,
  }),
  'link.done': () => ({ query: { state: 'success' } }),
  'link.close': async (ids, _n, c) => ({ headers: { 'x-vital-link-token': await linkToken(c, ids) } }),
};
