/**
 * Issue 15: team scope requirements in the Link flows (OAuth consent, bulk import) and in the
 * connection's `resource_availability`.
 */
import { expect, it } from 'vitest';
import { createClient, forEachAdapter, type TestClient } from '../support/client.js';
import { oasValidator } from '../support/openapi.js';

const oas = oasValidator('data');
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

async function requireScopes(c: TestClient, team: number, body: Record<string, unknown>) {
  const res = await c.mgmt('POST', `/v1/org/${c.orgId}/team/${c.creds.teams[team]?.team_id}/scope_requirements`, { body });
  expect(res.status, res.text).toBe(200);
}

let sessions = 0;

async function oauthSession(c: TestClient, provider: string, options: { headers?: Record<string, string> } = {}) {
  const user = (await c.post('/v2/user', { client_user_id: `scopes-${provider}-${++sessions}` }, options)).body.user_id as string;
  const token = (await c.post('/v2/link/token', { user_id: user, redirect_url: 'https://app.example/done' }, options)).body
    .link_token as string;
  const source = await c.get(`/v2/link/provider/oauth/${provider}`, { anonymous: true, headers: { 'x-vital-link-token': token } });
  expect(source.status).toBe(200);
  const decide = (form: string | undefined) =>
    c.post('/link/oauth/decide', form, {
      query: { provider, state: token, decision: 'allow' },
      redirect: 'manual',
      anonymous: true,
      headers: form === undefined ? {} : FORM,
    });
  const outcome = (res: { headers: Record<string, string | undefined> }) =>
    Object.fromEntries(new URL(res.headers['location'] as string).searchParams);
  return {
    user,
    token,
    consent: () => c.get('/link/oauth/authorize', { query: { provider, state: token }, anonymous: true }),
    decide,
    outcome,
  };
}

const providersOf = async (c: TestClient, userId: string, options: { headers?: Record<string, string> } = {}) =>
  (await c.get(`/v2/user/providers/${userId}`, options)).body.providers;

forEachAdapter('team scope requirements in Link', (adapter) => {
  it('the OAuth consent fails with required_scopes_not_granted when a required scope is left out, and connects otherwise', async () => {
    const c = createClient(adapter, { seed: 8, users: 0, usersElsewhere: 0 });
    await requireScopes(c, 0, { oura: { user_must_grant: ['daily'], user_may_grant: ['heartrate'] } });
    const s = await oauthSession(c, 'oura');
    const page = await s.consent();
    expect(page.text).toContain('value="daily" checked> daily (required by the app)');
    expect(page.text).toContain('value="heartrate" checked> heartrate<');

    const refused = await s.decide('scopes_shown=1&scope=heartrate&scope=personal');
    expect(refused.status).toBe(303);
    expect(s.outcome(refused)).toMatchObject({ state: 'error', error_type: 'required_scopes_not_granted' });
    expect(await providersOf(c, s.user)).toEqual([]);

    // The token is still usable: granting the required scope (but not the optional heartrate) connects.
    const ok = await s.decide('scopes_shown=1&scope=daily&scope=personal');
    expect(s.outcome(ok)).toEqual({ state: 'success' });
    const [oura] = await providersOf(c, s.user);
    oas?.expectValid('ClientFacingProviderWithStatus', oura);
    expect(oura.resource_availability.activity).toEqual({
      status: 'available',
      scope_requirements: { user_granted: { required: ['daily'], optional: [] }, user_denied: { required: [], optional: [] } },
    });
    expect(oura.resource_availability.heartrate).toEqual({
      status: 'unavailable',
      scope_requirements: { user_granted: { required: [], optional: [] }, user_denied: { required: [], optional: ['heartrate'] } },
    });
    expect(oura.resource_availability.workouts).toEqual({
      status: 'unavailable',
      scope_requirements: { user_granted: { required: [], optional: [] }, user_denied: { required: ['workout'], optional: [] } },
    });
    const created = (await c.get('/_sandbox/events', { query: { event_type: 'provider.connection.created', user_id: s.user } })).body
      .events[0].envelope.data;
    expect(created.resource_availability).toEqual(oura.resource_availability);
    // Denied resources deliver no data: no heartrate pulls.
    const pulled = (await c.get('/v2/introspect/historical_pull', { query: { user_id: s.user } })).body.data[0].provider.oura;
    expect(Object.keys(pulled.pulled)).not.toContain('heartrate');
    expect(pulled.not_pulled).toContain('heartrate');

    // A decision without the consent form grants everything; with the form and nothing checked, nothing.
    const all = await oauthSession(c, 'oura');
    expect(all.outcome(await all.decide(undefined))).toEqual({ state: 'success' });
    expect((await providersOf(c, all.user))[0].resource_availability.heartrate.status).toBe('available');
    const none = await oauthSession(c, 'oura');
    expect(none.outcome(await none.decide('scopes_shown=1'))).toMatchObject({ error_type: 'required_scopes_not_granted' });
  });

  it('requirements are per team, apply only to the provider named, and bulk import checks oauth_scopes', async () => {
    const c = createClient(adapter, { seed: 8, users: 0, usersElsewhere: 0 });
    await requireScopes(c, 0, { fitbit: { user_must_grant: ['sleep', 'heartrate'], user_may_grant: [] } });
    const other = { headers: { 'x-service-api-key': c.creds.teams[1]?.api_keys.sandbox as string } };
    // Another team has no requirement: the same partial grant connects there.
    const elsewhere = await oauthSession(c, 'fitbit', other);
    expect(elsewhere.outcome(await elsewhere.decide('scopes_shown=1&scope=sleep'))).toEqual({ state: 'success' });
    // Oura carries no requirement in this team.
    const oura = await oauthSession(c, 'oura');
    expect(oura.outcome(await oura.decide('scopes_shown=1&scope=daily'))).toEqual({ state: 'success' });

    const users: string[] = [];
    for (const name of ['bi-a', 'bi-b', 'bi-c']) users.push((await c.post('/v2/user', { client_user_id: name })).body.user_id);
    const recipe = (userId: string, scopes: string[] | null) => ({
      user_id: userId,
      access_token: 'a',
      refresh_token: 'r',
      provider_id: 'p',
      expires_at: 1_800_000_000,
      oauth_scopes: scopes,
    });
    const res = await c.post('/v2/link/bulk_import', {
      provider: 'fitbit',
      wait_for_completion: true,
      connections: [
        recipe(users[0] as string, ['sleep']),
        recipe(users[1] as string, ['sleep', 'heartrate']),
        recipe(users[2] as string, null),
      ],
    });
    expect(res.body).toEqual({ user_ids_imported: [users[1], users[2]], user_ids_failed: [users[0]] });
    const [partial] = await providersOf(c, users[1] as string);
    expect(partial.resource_availability.sleep.status).toBe('available');
    expect(partial.resource_availability.activity).toEqual({
      status: 'unavailable',
      scope_requirements: { user_granted: { required: [], optional: [] }, user_denied: { required: ['activity'], optional: [] } },
    });
    const [full] = await providersOf(c, users[2] as string);
    expect(full.resource_availability.activity.status).toBe('available');
  });
});
