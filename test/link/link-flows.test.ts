/** Link: tokens, provider list, OAuth consent, password + MFA, e-mail, manual connects, codes. */
import { expect, it } from 'vitest';
import { LINK_ERROR_TEXTS, LINK_ERRORS } from '../../src/state/link/errors.js';
import { SANDBOX_MFA_CODE, SANDBOX_PASSWORD } from '../../src/fixtures/link/credentials.js';
import { createClient, forEachAdapter, type TestClient } from '../support/client.js';
import { oasValidator } from '../support/openapi.js';

const oas = oasValidator('data');

async function setup(adapter: 'express' | 'msw', tokenBody: Record<string, unknown> = {}) {
  const c = createClient(adapter, { seed: 4, users: 2 });
  const user = (await c.post('/v2/user', { client_user_id: 'link-user' })).body;
  const res = await c.post('/v2/link/token', { user_id: user.user_id, ...tokenBody });
  expect(res.status).toBe(200);
  oas?.expectValid('LinkTokenExchangeResponse', res.body);
  return { c, userId: user.user_id as string, token: res.body.link_token as string, url: res.body.link_web_url as string };
}

const withToken = (token: string) => ({ headers: { 'x-vital-link-token': token }, anonymous: true });
const connected = async (c: TestClient, userId: string) =>
  (await c.get(`/v2/user/${userId}`)).body.connected_sources.map((s: { provider: { slug: string } }) => s.provider.slug);
const createdEvents = async (c: TestClient, userId: string) =>
  (await c.get('/_sandbox/events', { query: { event_type: 'provider.connection.created', user_id: userId } })).body.events;

forEachAdapter('link tokens and connects', (adapter) => {
  it('issues a token with a widget URL on the sandbox, refuses unknown users and providers', async () => {
    const { c, url, token } = await setup(adapter, { redirect_url: 'https://app.example/done', filter_on_providers: ['oura', 'peloton'] });
    expect(url).toMatch(/\/link\?token=.+&env=sandbox&region=(us|eu)$/);
    const widget = await c.get('/link', { query: { token }, anonymous: true });
    expect(widget.status).toBe(200);
    expect(widget.headers['content-type']).toMatch(/^text\/html/);
    await c.advance(3600);
    const expired = await c.get('/link', { query: { token }, anonymous: true, redirect: 'manual' });
    expect(expired.status).toBe(307);
    expect(new URL(expired.headers['location'] as string).searchParams.get('error_type')).toBe('token_expired');
    expect(new URL(url).searchParams.get('token')).toBe(token);
    const unknown = await c.post('/v2/link/token', { user_id: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ detail: LINK_ERRORS.userNotFound });
    expect((await c.post('/v2/link/token', { user_id: 'nope' })).status).toBe(422);
    expect((await c.post('/v2/link/token', { user_id: '00000000-0000-4000-8000-000000000000', provider: 'nokia' })).status).toBe(422);
  });

  it("lists the token's providers (filter honoured) and expires the token after 60 minutes of sandbox time", async () => {
    const { c, token } = await setup(adapter, { filter_on_providers: ['oura', 'peloton', 'freestyle_libre'] });
    const list = await c.get('/v2/link/providers', withToken(token));
    expect(list.status).toBe(200);
    expect(list.body.map((p: { slug: string }) => p.slug).sort()).toEqual(['freestyle_libre', 'oura', 'peloton']);
    for (const p of list.body) oas?.expectValid('SourceLink', p);
    expect((await c.post('/v2/link/token/isValid', { token })).body).toEqual({ success: true });
    expect((await c.get('/v2/link/state', withToken(token))).body).toMatchObject({ state: 'active' });
    expect((await c.get('/v2/link/providers', { anonymous: true })).status).toBe(422);
    await c.advance(3600);
    const expired = await c.get('/v2/link/providers', withToken(token));
    expect(expired.status).toBe(400);
    expect(expired.body).toEqual({ detail: { error_type: 'token_expired', error_message: LINK_ERROR_TEXTS.token_expired } });
    expect((await c.post('/v2/link/token/isValid', { token })).body.detail.error_type).toBe('token_expired');
    expect((await c.get('/v2/link/state', withToken(token))).body.state).toBe('expired');
    expect((await c.get('/v2/link/providers', withToken('not-a-token'))).body.detail.error_type).toBe('invalid_token');
    const page = await c.get('/link', { query: { token: 'not-a-token' }, anonymous: true });
    expect(page.status).toBe(400);
    expect(page.body).toEqual({ detail: { error_type: 'invalid_token', error_message: LINK_ERROR_TEXTS.invalid_token } });
    expect((await c.get('/link/oauth/authorize', { query: { provider: 'oura', state: token }, anonymous: true })).body).toEqual({
      detail: LINK_ERRORS.sessionNotFound,
    });
  });

  it('connects an OAuth provider through the consent page: Allow creates the connection, emits the event and consumes the token', async () => {
    const { c, token, userId } = await setup(adapter, { redirect_url: 'https://app.example/done?x=1' });
    const early = await c.post('/link/oauth/decide', undefined, {
      query: { provider: 'garmin', state: token, decision: 'allow' },
      redirect: 'manual',
    });
    expect(early.status).toBe(303);
    expect(early.headers['location']).toBe(
      `https://app.example/done?x=1&${new URLSearchParams({ state: 'error', error_type: 'token_not_validated', error: LINK_ERROR_TEXTS.token_not_validated })}`,
    );
    const source = await c.get('/v2/link/provider/oauth/garmin', withToken(token));
    expect(source.status).toBe(200);
    oas?.expectValid('Source', source.body);
    const authorize = new URL(source.body.oauth_url);
    expect(authorize.pathname).toMatch(/\/link\/oauth\/authorize$/);
    const consent = await c.get('/link/oauth/authorize', { query: Object.fromEntries(authorize.searchParams), anonymous: true });
    expect(consent.status).toBe(200);
    expect(consent.headers['content-type']).toMatch(/^text\/html/);
    expect(consent.text).toContain('Allow');
    const allow = await c.post('/link/oauth/decide', undefined, {
      query: { provider: 'garmin', state: token, decision: 'allow' },
      redirect: 'manual',
    });
    expect(allow.status).toBe(303);
    expect(allow.headers['location']).toBe('https://app.example/done?x=1&state=success');
    expect(await connected(c, userId)).toEqual(['garmin']);
    expect(await createdEvents(c, userId)).toHaveLength(1);
    const again = await c.get('/v2/link/provider/oauth/oura', withToken(token));
    expect(again.body.detail.error_type).toBe('token_consumed');
    expect((await c.get('/v2/link/provider/oauth/peloton', withToken(token))).status).toBe(400);
  });

  it('Deny ends with user_cancelled and connects nothing', async () => {
    const { c, token, userId } = await setup(adapter, { redirect_url: 'https://app.example/cb' });
    await c.get('/v2/link/provider/oauth/oura', withToken(token));
    const deny = await c.post('/link/oauth/decide', undefined, {
      query: { provider: 'oura', state: token, decision: 'deny' },
      redirect: 'manual',
    });
    expect(new URL(deny.headers['location'] as string).searchParams.get('error_type')).toBe('user_cancelled');
    expect(await connected(c, userId)).toEqual([]);
  });

  it('connects a password provider, with an MFA step and each forced error', async () => {
    const { c, token, userId } = await setup(adapter);
    const wrong = await c.post('/v2/link/provider/password/peloton', { username: 'u', password: 'nope' }, withToken(token));
    expect(wrong.status).toBe(200);
    expect(wrong.body).toMatchObject({
      state: 'error',
      error_type: 'provider_credential_error',
      error: LINK_ERROR_TEXTS.provider_credential_error,
      connected: false,
    });
    oas?.expectValid('ProviderLinkResponse', wrong.body);
    const expired = await c.post(
      '/v2/link/provider/password/abbott_libreview',
      { username: 'u', password: 'provider_password_expired' },
      withToken(token),
    );
    expect(expired.body.error_type).toBe('provider_password_expired');
    const mfa = await c.post('/v2/link/provider/password/peloton', { username: 'u', password: 'sandbox-mfa-sms' }, withToken(token));
    expect(mfa.body).toMatchObject({ state: 'pending_provider_mfa', provider_mfa: { method: 'sms' } });
    oas?.expectValid('ProviderLinkResponse', mfa.body);
    const bad = await c.post('/v2/link/provider/password/peloton/complete_mfa', { mfa_code: '000000' }, withToken(token));
    expect(bad.body.error_type).toBe('incorrect_mfa_code');
    expect(await connected(c, userId)).toEqual([]);
    const ok = await c.post('/v2/link/provider/password/peloton/complete_mfa', { mfa_code: SANDBOX_MFA_CODE }, withToken(token));
    expect(ok.body).toMatchObject({ state: 'success', connected: true, provider: 'peloton' });
    oas?.expectValid('ProviderLinkResponse', ok.body);
    expect(await connected(c, userId)).toEqual(['peloton']);
    expect((await c.post('/v2/link/provider/password/oura', { username: 'u', password: SANDBOX_PASSWORD }, withToken(token))).body).toEqual(
      { detail: LINK_ERRORS.notPassword('oura') },
    );
    expect(
      (await c.post('/v2/link/provider/password/zwift', { username: 'u', password: SANDBOX_PASSWORD }, withToken(token))).body.error_type,
    ).toBe('token_consumed');
  });

  it('duplicate_connection fails a connect only when the team rejects duplicate connections', async () => {
    const { c, token, userId } = await setup(adapter);
    const team = c.sandbox.world.tenancy.teams.get(c.creds.teams[0]?.team_id ?? '');
    if (!team) throw new Error('team missing');
    team.settings.sandbox.reject_duplicate_connection = true;
    const refused = await c.post('/v2/link/provider/password/zwift', { username: 'u', password: 'duplicate_connection' }, withToken(token));
    expect(refused.body).toMatchObject({ state: 'error', error_type: 'duplicate_connection' });
    team.settings.sandbox.reject_duplicate_connection = false;
    const allowed = await c.post('/v2/link/provider/password/zwift', { username: 'u', password: 'duplicate_connection' }, withToken(token));
    expect(allowed.body).toMatchObject({ state: 'success' });
    expect(await connected(c, userId)).toEqual(['zwift']);
  });

  it('connects an e-mail provider (unsupported region refused) and a manual provider', async () => {
    const { c, token, userId } = await setup(adapter);
    const region = await c.post('/v2/link/provider/email/freestyle_libre', { email: 'a@example.com', region: 'gb' }, withToken(token));
    expect(region.body).toMatchObject({ state: 'error', error_type: 'unsupported_region' });
    const ok = await c.post('/v2/link/provider/email/freestyle_libre', { email: 'a@example.com', region: 'us' }, withToken(token));
    expect(ok.body).toMatchObject({ state: 'success', connected: true });
    const manual = await c.post('/v2/link/provider/manual/apple_health_kit', { user_id: userId });
    expect(manual.body).toEqual({ success: true });
    expect((await c.post('/v2/link/provider/manual/oura', { user_id: userId })).body).toEqual({ detail: LINK_ERRORS.notManual('oura') });
    expect((await connected(c, userId)).sort()).toEqual(['apple_health_kit', 'freestyle_libre']);
  });

  it('creates link codes for the mobile SDK', async () => {
    const { c, userId } = await setup(adapter);
    const code = await c.post('/v2/link/code/create', undefined, { query: { user_id: userId } });
    expect(code.status).toBe(200);
    // The schema's patterns use escapes a unicode-mode validator refuses: checked by hand.
    expect(code.body.code).toMatch(/^sk(eu|us)[\da-f]{8}$/);
    expect(Number.isNaN(Date.parse(code.body.expires_at))).toBe(false);
    expect(code.body.exchange_url).toBe(`tryvital://tryvital?code=${code.body.code}`);
    expect(
      (await c.post('/v2/link/code/create', undefined, { query: { user_id: userId, expires_at: '2020-01-01T00:00:00Z' } })).status,
    ).toBe(422);
  });
});
