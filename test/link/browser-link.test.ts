/**
 * The Link widget in headless Chromium (Debian's /usr/bin/chromium through playwright-core):
 * token -> widget page -> provider -> consent or password + MFA -> redirect -> connection ->
 * `provider.connection.created` delivered to a webhook endpoint. Skips, saying so, without
 * /usr/bin/chromium (never downloads a browser). Network: 127.0.0.1 only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, haveChromium, newChromiumContext } from '../support/chromium.js';
import { startServer, type RunningServer } from '../support/server.js';

if (!haveChromium) console.warn(`[browser-link] ${CHROMIUM} is missing: the Link widget browser test is skipped.`);

type Context = import('playwright-core').BrowserContext;
let server: RunningServer;
let context: Context;
let apiKey: string;

const api = async (method: string, path: string, body?: unknown, surface: 'data' | 'management' = 'data') => {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (surface === 'data') headers['x-vital-api-key'] = apiKey;
  else headers['x-vital-org-key'] = server.sandbox.credentials().management_key;
  const res = await fetch(`${surface === 'data' ? server.baseUrl : server.managementUrl}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
};

describe.skipIf(!haveChromium)('Link widget in headless Chromium', () => {
  beforeAll(async () => {
    server = await startServer({ seed: 9, users: 1, usersElsewhere: 0 });
    const creds = server.sandbox.credentials();
    apiKey = creds.teams[0]?.api_keys.sandbox ?? '';
    context = await newChromiumContext();
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    await server?.close();
  });

  async function userWithToken(clientUserId: string, extra: Record<string, unknown>) {
    const user = (await api('POST', '/v2/user', { client_user_id: clientUserId })).body;
    const token = await api('POST', '/v2/link/token', { user_id: user.user_id, redirect_url: `${server.baseUrl}/link/done`, ...extra });
    expect(token.status).toBe(200);
    return { userId: user.user_id as string, url: token.body.link_web_url as string };
  }

  it('connects an OAuth provider: widget, consent Allow, redirect, connection, webhook', async () => {
    const team = server.sandbox.credentials().teams[0]?.team_id ?? '';
    const receiver = `${server.baseUrl}/_sandbox/receiver/link-browser`;
    const endpoint = await api(
      'POST',
      `/v1/org/${server.sandbox.credentials().org_id}/team/${team}/sandbox/webhook`,
      { url: receiver, filter_types: ['provider.connection.created'] },
      'management',
    );
    expect(endpoint.status).toBe(200);

    const { userId, url } = await userWithToken('browser-oauth', { filter_on_providers: ['oura', 'peloton'] });
    expect(url.startsWith(`${server.baseUrl}/link?`)).toBe(true);
    const page = await context.newPage();
    await page.goto(url);
    expect(await page.locator('#providers button').allTextContents()).toEqual(['Oura', 'Peloton']);
    await page.click('#provider-oura');
    await page.waitForURL(/\/link\/oauth\/authorize\?/);
    expect(await page.title()).toBe('Authorize Oura');
    await page.click('#allow');
    await page.waitForURL(/\/link\/done\?state=success$/);
    expect(await page.textContent('h1')).toBe('Connected');
    await page.close();

    const user = await api('GET', `/v2/user/${userId}`);
    expect(user.body.connected_sources.map((s: { provider: { slug: string } }) => s.provider.slug)).toEqual(['oura']);
    await server.sandbox.settle();
    const got = (await fetch(receiver)).json() as Promise<{ deliveries: Array<{ verified: boolean; event_type: string; body: string }> }>;
    const deliveries = (await got).deliveries.filter((d) => d.event_type === 'provider.connection.created');
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]?.verified).toBe(true);
    expect(JSON.parse(deliveries[0]?.body ?? '{}')).toMatchObject({ user_id: userId, data: { provider: { slug: 'oura' } } });
  }, 60_000);

  it('connects a password provider through its MFA step, after showing a wrong-password error', async () => {
    const { userId, url } = await userWithToken('browser-password', { provider: 'peloton' });
    const page = await context.newPage();
    await page.goto(url);
    await page.fill('#username', 'rider');
    await page.fill('#password', 'wrong');
    await page.click('#connect');
    await expectText(page, '#error', 'The provider rejected the credentials.');
    await page.fill('#password', 'sandbox-mfa-sms');
    await page.click('#connect');
    await expectText(page, '#mfa-hint', 'Enter the code sent to +1 *** *** **42');
    await page.fill('#mfa-code', '123456');
    await page.click('#submit-mfa');
    await page.waitForURL(/\/link\/done\?state=success$/);
    await page.close();
    const user = await api('GET', `/v2/user/${userId}`);
    expect(user.body.connected_sources.map((s: { provider: { slug: string } }) => s.provider.slug)).toEqual(['peloton']);
  }, 60_000);

  it("honours the team's scope requirements on the consent page: leaving a required scope out fails, an optional one makes its resources unavailable", async () => {
    const creds = server.sandbox.credentials();
    const req = await api(
      'POST',
      `/v1/org/${creds.org_id}/team/${creds.teams[0]?.team_id}/scope_requirements`,
      { oura: { user_must_grant: ['daily'], user_may_grant: ['heartrate'] } },
      'management',
    );
    expect(req.status).toBe(200);
    const refused = await userWithToken('browser-scopes-1', { provider: 'oura' });
    const page = await context.newPage();
    await page.goto(refused.url);
    await page.waitForURL(/\/link\/oauth\/authorize\?/);
    expect(await page.textContent('#scopes')).toContain('daily (required by the app)');
    await page.uncheck('input[name=scope][value=daily]');
    await page.click('#allow');
    await page.waitForURL(/\/link\/done\?state=error&error_type=required_scopes_not_granted/);
    expect((await api('GET', `/v2/user/providers/${refused.userId}`)).body.providers).toEqual([]);

    const partial = await userWithToken('browser-scopes-2', { provider: 'oura' });
    await page.goto(partial.url);
    await page.waitForURL(/\/link\/oauth\/authorize\?/);
    await page.uncheck('input[name=scope][value=heartrate]');
    await page.click('#allow');
    await page.waitForURL(/\/link\/done\?state=success$/);
    await page.close();
    const [oura] = (await api('GET', `/v2/user/providers/${partial.userId}`)).body.providers;
    expect(oura.resource_availability.heartrate).toEqual({
      status: 'unavailable',
      scope_requirements: { user_granted: { required: [], optional: [] }, user_denied: { required: [], optional: ['heartrate'] } },
    });
    expect(oura.resource_availability.activity.status).toBe('available');
    await api('POST', `/v1/org/${creds.org_id}/team/${creds.teams[0]?.team_id}/scope_requirements`, { oura: null }, 'management');
  }, 60_000);
});

async function expectText(page: import('playwright-core').Page, selector: string, text: string): Promise<void> {
  await page.waitForFunction(([s, t]) => document.querySelector(s as string)?.textContent === t, [selector, text]);
}
