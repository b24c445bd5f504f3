/** Users: demographics, insurance, metrics, refresh, devices, sign-in tokens, portal links. */
import { expect, it } from 'vitest';
import { platformPayors } from '../../src/fixtures/labs/payors.js';
import { USERS_ERRORS } from '../../src/state/users/errors.js';
import { createClient, forEachAdapter } from '../support/client.js';
import { oasValidator } from '../support/openapi.js';

const oas = oasValidator('data');
const address = { first_line: '1 Market St', country: 'US', zip: '94105', city: 'San Francisco', state: 'CA' };
const info = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
  phone_number: '+14155550100',
  gender: 'female',
  dob: '1990-12-10',
  address,
};

async function setup(adapter: 'express' | 'msw') {
  const c = createClient(adapter, { seed: 8, users: 3, usersElsewhere: 0 });
  const user = (await c.post('/v2/user', { client_user_id: 'extras-1' })).body;
  return { c, userId: user.user_id as string };
}

forEachAdapter('users: demographics, insurance and more', (adapter) => {
  it('records and answers demographics; 404 before any; 422 for a bad e-mail', async () => {
    const { c, userId } = await setup(adapter);
    expect((await c.get(`/v2/user/${userId}/info/latest`)).body).toEqual({ detail: USERS_ERRORS.noDemographics });
    const patched = await c.patch(`/v2/user/${userId}/info`, { ...info, race: 'other' });
    expect(patched.status).toBe(200);
    oas?.expectValid('UserInfo', patched.body);
    const latest = await c.get(`/v2/user/${userId}/info/latest`);
    expect(latest.body).toEqual(patched.body);
    expect(latest.body).toMatchObject({ first_name: 'Ada', race: 'other', address: { second_line: '' } });
    expect((await c.patch(`/v2/user/${userId}/info`, { ...info, email: 'nope' })).status).toBe(422);
    expect((await c.patch('/v2/user/00000000-0000-4000-8000-000000000000/info', info)).status).toBe(404);
  });

  it('records insurances against known payors and answers the latest primary or secondary', async () => {
    const { c, userId } = await setup(adapter);
    const payor = platformPayors()[0];
    const insured = { ...info, gender: 'female', address };
    const body = { payor_code: payor?.payor_code, member_id: 'M-1', relationship: 'Self', insured };
    const first = await c.post(`/v2/user/${userId}/insurance`, body);
    expect(first.status).toBe(200);
    oas?.expectValid('ClientFacingInsurance', first.body);
    expect(first.body.company.name).toBe(payor?.name);
    await c.post(`/v2/user/${userId}/insurance`, { ...body, member_id: 'M-2', is_primary: false });
    expect((await c.get(`/v2/user/${userId}/insurance/latest`)).body.member_id).toBe('M-1');
    expect((await c.get(`/v2/user/${userId}/insurance/latest`, { query: { is_primary: false } })).body.member_id).toBe('M-2');
    const unknown = await c.post(`/v2/user/${userId}/insurance`, { ...body, payor_code: 'NOPE' });
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail[0].msg).toBe(`Value error, ${USERS_ERRORS.unknownPayor('NOPE')}`);
  });

  it('GET /v2/user/metrics is the metrics route (static beats :user_id) and counts users and connections', async () => {
    const { c, userId } = await setup(adapter);
    await c.post('/v2/link/connect/demo', { user_id: userId, provider: 'oura' });
    const metrics = await c.get('/v2/user/metrics');
    expect(metrics.status).toBe(200);
    oas?.expectValid('MetricsResult', metrics.body);
    expect(metrics.body).toMatchObject({ team_id: c.creds.teams[0]?.team_id, number_of_users: 4 });
    expect(metrics.body.number_of_connected_sources).toBeGreaterThanOrEqual(1);
  });

  it('refresh: 400 without sources, 202 while pulling, 200 after, 429 past 8 an hour', async () => {
    const { c, userId } = await setup(adapter);
    const none = await c.post(`/v2/user/refresh/${userId}`);
    expect(none.status).toBe(400);
    oas?.expectValid('UserRefreshErrorResponse', none.body);
    expect(none.body.error).toBe(USERS_ERRORS.refreshNoSources);
    await c.post('/v2/link/connect/demo', { user_id: userId, provider: 'fitbit' });
    const pulling = await c.post(`/v2/user/refresh/${userId}`);
    expect(pulling.status).toBe(202);
    oas?.expectValid('UserRefreshSuccessResponse', pulling.body);
    expect(pulling.body.in_progress_sources).toEqual(['fitbit']);
    await c.advance(3600);
    const done = await c.post(`/v2/user/refresh/${userId}`);
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ success: true, refreshed_sources: ['fitbit'], in_progress_sources: [] });
    for (let i = 0; i < 7; i++) expect((await c.post(`/v2/user/refresh/${userId}`)).status).toBe(200);
    const limited = await c.post(`/v2/user/refresh/${userId}`);
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ detail: USERS_ERRORS.refreshRateLimited });
    expect(Number(limited.headers['retry-after'])).toBe(3600);
    expect((await c.post(`/v2/user/refresh/${userId}`, undefined, { query: { timeout: 4 } })).status).toBe(422);
    await c.advance(3600);
    expect((await c.post(`/v2/user/refresh/${userId}`)).status).toBe(200);
  });

  it('lists devices (one per connection), answers one, and 404s an unknown one', async () => {
    const { c, userId } = await setup(adapter);
    expect((await c.get(`/v2/user/${userId}/device`)).body).toEqual([]);
    await c.post('/v2/link/connect/demo', { user_id: userId, provider: 'oura' });
    const list = await c.get(`/v2/user/${userId}/device`);
    expect(list.body).toHaveLength(1);
    oas?.expectValid('ClientFacingDevice', list.body[0]);
    expect(list.body[0]).toMatchObject({ provider: 'oura', source_type: 'ring', user_id: userId });
    expect((await c.get(`/v2/user/${userId}/device/${list.body[0].id}`)).body).toEqual(list.body[0]);
    const raw = await c.get(`/v2/summary/devices/${userId}/raw`);
    oas?.expectValid('RawDevicesResponse', raw.body);
    expect(raw.body.devices.map((d: { id: string; source: { slug: string } }) => [d.id, d.source.slug])).toEqual([
      [list.body[0].id, 'oura'],
    ]);
    expect((await c.get(`/v2/summary/devices/${userId}/raw`, { query: { provider: 'fitbit' } })).body).toEqual({ devices: [] });
    expect((await c.get(`/v2/user/${userId}/device/00000000-0000-4000-8000-000000000000`)).body).toEqual({
      detail: USERS_ERRORS.deviceNotFound,
    });
  });

  it('issues sign-in tokens and portal URLs whose page opens until it expires', async () => {
    const { c, userId } = await setup(adapter);
    const token = await c.post(`/v2/user/${userId}/sign_in_token`);
    oas?.expectValid('UserSignInTokenResponse', token.body);
    const portal = await c.post(`/v2/user/${userId}/create_portal_url`, { context: 'launch' });
    expect(portal.status).toBe(200);
    oas?.expectValid('CreateUserPortalURLResponse', portal.body);
    expect(portal.body.expires_in).toBe(600);
    const path = new URL(portal.body.url).pathname;
    const open = await c.get(path, { anonymous: true });
    expect(open.status).toBe(200);
    expect(open.text).toContain('Signed in as extras-1');
    await c.advance(601);
    expect((await c.get(path, { anonymous: true })).body).toEqual({ detail: USERS_ERRORS.portalLinkExpired });
    expect((await c.post(`/v2/user/${userId}/create_portal_url`, { context: 'other' })).status).toBe(422);
  });
});
