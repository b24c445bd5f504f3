/**
 * Issue 15: access tokens minted by the management API's `create_api_access_token` are a data-API
 * credential for their team environment (`Authorization: Bearer <token>`); expired, revoked
 * (team deleted) and unknown tokens answer exactly like a bad API key.
 */
import { expect, it } from 'vitest';
import { createClient, forEachAdapter, type TestClient } from '../support/client.js';
import { QUIET } from '../support/webhooks-support.js';

const teamPath = (c: TestClient, i: number) => `/v1/org/${c.orgId}/team/${c.creds.teams[i]?.team_id}`;

async function mint(c: TestClient, team: number, env: 'sandbox' | 'production'): Promise<string> {
  const res = await c.mgmt('POST', `${teamPath(c, team)}/create_api_access_token`, { body: { env } });
  expect(res.status, res.text).toBe(200);
  return res.body.access_token as string;
}

const bearer = (token: string) => ({ anonymous: true, headers: { authorization: `Bearer ${token}` } });

forEachAdapter('data API access tokens', (adapter) => {
  it("act for their team environment: reads and writes land where that environment's API key sees them", async () => {
    const c = createClient(adapter, QUIET);
    const token = await mint(c, 0, 'production');
    const production = c.creds.teams[0]?.api_keys.production as string;
    const viaToken = await c.get('/v2/user', bearer(token));
    expect(viaToken.status, viaToken.text).toBe(200);
    const viaKey = await c.get('/v2/user', { headers: { 'x-service-api-key': production } });
    expect(viaToken.text).toBe(viaKey.text);

    const created = await c.post('/v2/user', { client_user_id: 'via-token' }, bearer(token));
    expect(created.status, created.text).toBe(200);
    const id = created.body.user_id as string;
    expect((await c.get(`/v2/user/${id}`, { headers: { 'x-service-api-key': production } })).status).toBe(200);
    // The same team's sandbox environment and another team do not see it.
    expect((await c.get(`/v2/user/${id}`)).status).toBe(404);
    const other = await mint(c, 1, 'production');
    const fromOther = await c.get(`/v2/user/${id}`, bearer(other));
    const unknown = await c.get('/v2/user/00000000-0000-4000-8000-000000000000', bearer(other));
    expect(fromOther.status).toBe(404);
    expect(fromOther.text).toBe(unknown.text);
    // A sandbox token acts for the sandbox environment.
    const sandboxToken = await mint(c, 0, 'sandbox');
    expect((await c.get('/v2/user', bearer(sandboxToken))).text).toBe((await c.get('/v2/user')).text);
  });

  it('expired, revoked and unknown tokens answer like a bad API key; tokens do not open the management API', async () => {
    const c = createClient(adapter, QUIET);
    const badKey = await c.get('/v2/user', { headers: { 'x-service-api-key': 'sk_us_not_a_key' } });
    expect(badKey.status).toBe(401);
    const like = (res: { status: number; text: string }) =>
      expect({ status: res.status, text: res.text }).toEqual({ status: 401, text: badKey.text });

    like(await c.get('/v2/user', bearer('vat_us_made_up')));
    expect((await c.get('/v2/user', { anonymous: true, headers: { authorization: 'Bearer' } })).status).toBe(401);

    const token = await mint(c, 0, 'sandbox');
    expect((await c.get('/v2/user', bearer(token))).status).toBe(200);
    await c.advance(3599);
    expect((await c.get('/v2/user', bearer(token))).status).toBe(200);
    await c.advance(1);
    like(await c.get('/v2/user', bearer(token)));

    const doomed = await mint(c, 1, 'sandbox');
    expect((await c.get('/v2/user', bearer(doomed))).status).toBe(200);
    expect((await c.mgmt('DELETE', teamPath(c, 1))).status).toBe(200);
    like(await c.get('/v2/user', bearer(doomed)));

    const fresh = await mint(c, 0, 'sandbox');
    const mgmt = await c.mgmt('GET', `/v1/org/${c.orgId}/team`, bearer(fresh));
    expect(mgmt.status).toBe(401);
    // An API key header wins over a bearer token.
    expect((await c.get('/v2/user', { headers: { authorization: 'Bearer vat_us_made_up' } })).status).toBe(200);
  });
});
