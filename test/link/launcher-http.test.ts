/**
 * The Link launcher over HTTP on both adapters: the script at `/link/initialize.js`, the widget
 * opened by it (`opener=`), Close (the token's session ends), flows that end on the done page
 * reporting to the opener, and the sandbox-only hints. The browser side is `launcher-react.test.ts`.
 */
import { expect, it } from 'vitest';
import { LINK_ERROR_TEXTS } from '../../src/state/link/errors.js';
import { SANDBOX_HINTS } from '../../src/fixtures/link/credentials.js';
import { LINK_MESSAGE_SOURCE } from '../../src/handlers/link/launcher-script.js';
import { createClient, forEachAdapter, type TestClient } from '../support/client.js';

const APP = 'http://app.example.test:5173';
const withToken = (token: string) => ({ headers: { 'x-vital-link-token': token }, anonymous: true });

async function setup(adapter: 'express' | 'msw', tokenBody: Record<string, unknown> = {}) {
  const c = createClient(adapter, { seed: 4, users: 1 });
  const user = (await c.post('/v2/user', { client_user_id: 'launcher-user' })).body;
  const token = (await c.post('/v2/link/token', { user_id: user.user_id, ...tokenBody })).body.link_token as string;
  return { c, token };
}

/** The outcome a reporting page posts (its embedded JSON). */
function reported(html: string): unknown {
  const m = /<script type="application\/json" id="outcome">(.*?)<\/script>/.exec(html);
  return m ? JSON.parse(m[1] ?? 'null') : null;
}

const state = async (c: TestClient, token: string) => (await c.get('/v2/link/state', withToken(token))).body;

forEachAdapter('Link launcher over HTTP', (adapter) => {
  it('serves the launcher script: JavaScript defining window.Vital, pointing at this sandbox', async () => {
    const { c } = await setup(adapter);
    const res = await c.get('/link/initialize.js', { anonymous: true });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(res.text).toContain('window.Vital = {');
    expect(res.text).toContain(JSON.stringify(c.sandbox.credentials().base_url));
    expect(res.text).toContain(JSON.stringify(LINK_MESSAGE_SOURCE));
    expect(res.text).toBe((await c.get('/link/initialize.js', { anonymous: true })).text);
  });

  it("Close ends the token's session: state closed, every later use invalid_token, a second close refused", async () => {
    const { c, token } = await setup(adapter);
    expect((await state(c, token)).state).toBe('active');
    const closed = await c.post('/link/close', undefined, withToken(token));
    expect(closed.status).toBe(200);
    expect(closed.body.state).toBe('closed');
    expect((await state(c, token)).state).toBe('closed');
    const again = await c.post('/link/close', undefined, withToken(token));
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ detail: { error_type: 'invalid_token', error_message: LINK_ERROR_TEXTS.invalid_token } });
    expect((await c.get('/v2/link/providers', withToken(token))).body.detail.error_type).toBe('invalid_token');
    const password = await c.post('/v2/link/provider/password/peloton', { username: 'u', password: 'sandbox' }, withToken(token));
    expect(password.body).toMatchObject({ state: 'error', error_type: 'invalid_token' });
    expect((await c.post('/link/close', undefined, { anonymous: true })).status).toBe(422);
  });

  it('opened by the launcher, an unusable token answers a page that reports the error to the opener (no redirect)', async () => {
    const { c, token } = await setup(adapter, { redirect_url: 'https://app.example/done' });
    await c.advance(3600);
    const expired = await c.get('/link', { query: { token, opener: APP }, anonymous: true, redirect: 'manual' });
    expect(expired.status).toBe(200);
    expect(expired.headers['content-type']).toMatch(/^text\/html/);
    expect(reported(expired.text)).toEqual({
      opener: APP,
      event: 'error',
      metadata: { state: 'error', error_type: 'token_expired', error: LINK_ERROR_TEXTS.token_expired },
    });
    const unknown = await c.get('/link', { query: { token: 'not-a-token', opener: APP }, anonymous: true });
    expect(reported(unknown.text)).toMatchObject({ metadata: { error_type: 'invalid_token' } });
    expect((await c.get('/link', { query: { token, opener: 'javascript:alert(1)' }, anonymous: true })).status).toBe(422);
  });

  it('a token of another environment is not found by that widget', async () => {
    const { c, token } = await setup(adapter);
    const page = await c.get('/link', { query: { token, env: 'production', opener: APP }, anonymous: true });
    expect(reported(page.text)).toMatchObject({ metadata: { error_type: 'invalid_token' } });
    expect((await c.get('/link', { query: { token, env: 'sandbox' }, anonymous: true })).status).toBe(200);
  });

  it('a launched OAuth flow carries the opener to the done page, which reports the outcome there', async () => {
    const { c, token } = await setup(adapter, { redirect_url: 'https://app.example/done' });
    await c.get('/v2/link/provider/oauth/oura', withToken(token));
    const consent = await c.get('/link/oauth/authorize', { query: { provider: 'oura', state: token, opener: APP }, anonymous: true });
    expect(consent.text).toContain(`opener=${encodeURIComponent(APP)}`);
    expect(consent.text).toContain('Sandbox only:');
    const decided = await c.post('/link/oauth/decide', undefined, {
      query: { provider: 'oura', state: token, decision: 'allow', opener: APP },
      anonymous: true,
      redirect: 'manual',
    });
    expect(decided.status).toBe(303);
    const done = new URL(decided.headers['location'] as string);
    expect(`${done.origin}${done.pathname}`).toBe(`${c.sandbox.credentials().base_url}/link/done`);
    expect(Object.fromEntries(done.searchParams)).toEqual({ state: 'success', opener: APP });
    const page = await c.get(`/link/done${done.search}`, { anonymous: true });
    expect(reported(page.text)).toEqual({ opener: APP, event: 'success', metadata: { state: 'success' } });
    expect((await state(c, token)).state).toBe('consumed');
  });

  it('shows the sandbox credentials on the widget, marked sandbox-only', async () => {
    const { c, token } = await setup(adapter);
    const page = await c.get('/link', { query: { token }, anonymous: true });
    expect(page.text).toContain(`password <code>${SANDBOX_HINTS.password}</code> connects`);
    expect(page.text).toContain(`the code is <code>${SANDBOX_HINTS.mfa_code}</code>`);
    for (const p of SANDBOX_HINTS.mfa_passwords) expect(page.text).toContain(`<code>${p}</code>`);
    expect(page.text.match(/class="sandbox-only/g)).toHaveLength(3);
  });
});
