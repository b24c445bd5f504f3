/**
 * The real `useVitalLink` hook (`@tryvital/vital-link`, bundled with React by esbuild from
 * node_modules) in headless Chromium against the sandbox's launcher: the app page lives on its
 * own origin (a second server on 127.0.0.1, as a dev server would serve it), the hook's script URL
 * `https://link.tryvital.io/initialize.js` is routed to the sandbox's `/link/initialize.js`, and the
 * widget runs in the launcher's iframe on the sandbox's origin (127.0.0.1). OAuth, password with
 * MFA, Close and unusable tokens each end in the hook's callback. No sleeps: every wait is on a
 * page event or `waitForFunction`. Skips, saying so, without /usr/bin/chromium.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { LINK_ERROR_TEXTS } from '../../src/state/link/errors.js';
import { SANDBOX_MFA_CODE } from '../../src/fixtures/link/credentials.js';
import { CHROMIUM, haveChromium, newChromiumContext } from '../support/chromium.js';
import { startServer, type RunningServer } from '../support/server.js';
import { type AppServer, appSource, loadApp, nthCallback, openLink as openIn, REAL_SCRIPT, serveApp } from './launcher-app.js';

if (!haveChromium) console.warn(`[link launcher] ${CHROMIUM} is missing: the useVitalLink browser test is skipped.`);

let server: RunningServer;
let app: AppServer;
let context: BrowserContext;
let page: Page;
let apiKey: string;
const outside: string[] = [];

async function api(method: string, path: string, body?: unknown, headers: Record<string, string> = { 'x-vital-api-key': apiKey }) {
  const res = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await res.json()) as any;
}

const openLink = (token: string) => openIn(page, token);
const nextCallback = (count: number) => nthCallback(page, count);

async function tokenFor(clientUserId: string, extra: Record<string, unknown> = {}): Promise<{ userId: string; token: string }> {
  const user = await api('POST', '/v2/user', { client_user_id: clientUserId });
  const made = await api('POST', '/v2/link/token', { user_id: user.user_id, ...extra });
  return { userId: user.user_id, token: made.link_token };
}

const providersOf = async (userId: string) =>
  (await api('GET', `/v2/user/${userId}`)).connected_sources.map((s: { provider: { slug: string } }) => s.provider.slug);
const stateOf = async (token: string) => (await api('GET', '/v2/link/state', undefined, { 'x-vital-link-token': token })).state;

describe.skipIf(!haveChromium)('useVitalLink (real hook) against the sandbox launcher in Chromium', () => {
  beforeAll(async () => {
    server = await startServer({ seed: 11, users: 1, usersElsewhere: 0 });
    apiKey = server.sandbox.credentials().teams[0]?.api_keys.sandbox ?? '';
    app = await serveApp(appSource());
    context = await newChromiumContext({ outside: (url) => outside.push(url) });
    page = await context.newPage();
    page.setDefaultTimeout(15_000);
    // The hook's script URL pointed at the sandbox's launcher.
    await page.route(REAL_SCRIPT, async (route) => {
      const script = await fetch(`${server.baseUrl}/link/initialize.js`);
      await route.fulfill({ status: script.status, contentType: 'application/javascript', body: await script.text() });
    });
    await loadApp(page, app.origin);
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    await server?.close();
    await app?.close();
  });

  it('connects an OAuth provider through the consent page: onSuccess with the outcome, the connection made', async () => {
    const { userId, token } = await tokenFor('react-oauth', { filter_on_providers: ['oura', 'peloton'] });
    const frame = await openLink(token);
    await frame.locator('#provider-peloton').waitFor();
    expect(await frame.locator('#providers button').allTextContents()).toEqual(['Oura', 'Peloton']);
    await frame.locator('#provider-oura').click();
    await frame.locator('#consent-sandbox').waitFor();
    expect(await frame.locator('#consent-sandbox').textContent()).toContain('Sandbox only');
    await frame.locator('#allow').click();
    expect(await nextCallback(1)).toEqual({ callback: 'onSuccess', metadata: { state: 'success' } });
    expect(await providersOf(userId)).toEqual(['oura']);
    expect(await stateOf(token)).toBe('consumed');
  }, 60_000);

  it('connects a password provider through its MFA step, the sandbox codes shown on the widget', async () => {
    const { userId, token } = await tokenFor('react-password', { provider: 'peloton' });
    const frame = await openLink(token);
    await frame.locator('#password-hints').waitFor();
    expect(await frame.locator('#password-hints').textContent()).toMatch(/^Sandbox only: password sandbox connects/);
    await frame.locator('#username').fill('rider');
    await frame.locator('#password').fill('sandbox-mfa-sms');
    await frame.locator('#connect').click();
    await frame.locator('#mfa-code').waitFor();
    expect(await frame.locator('#mfa-hint').textContent()).toBe('Enter the code sent to +1 *** *** **42');
    expect(await frame.locator('#mfa-sandbox').textContent()).toContain(`the code is ${SANDBOX_MFA_CODE}`);
    await frame.locator('#mfa-code').fill(SANDBOX_MFA_CODE);
    await frame.locator('#submit-mfa').click();
    expect(await nextCallback(2)).toEqual({ callback: 'onSuccess', metadata: { state: 'success' } });
    expect(await providersOf(userId)).toEqual(['peloton']);
  }, 60_000);

  it("Close reports onExit and ends the token's session; messages from another origin are ignored", async () => {
    const { userId, token } = await tokenFor('react-close');
    const frame = await openLink(token);
    await frame.locator('#close').waitFor();
    // A message in the launcher's format from the app's own origin (not the sandbox's): ignored.
    // This listener was added after the launcher's, so it runs after the launcher saw the message.
    await page.evaluate(
      () =>
        new Promise<void>((done) => {
          const seen = (event: MessageEvent) => {
            window.removeEventListener('message', seen);
            done();
          };
          window.addEventListener('message', seen);
          window.postMessage({ source: 'health-sandbox-link', event: 'success', metadata: { state: 'success' } }, '*');
        }),
    );
    expect(await page.evaluate(() => (window as any).linkEvents.length)).toBe(2);
    await frame.locator('#close').click();
    expect(await nextCallback(3)).toEqual({
      callback: 'onExit',
      metadata: { state: 'error', error_type: 'user_cancelled', error: LINK_ERROR_TEXTS.user_cancelled },
    });
    expect(await stateOf(token)).toBe('closed');
    expect(await providersOf(userId)).toEqual([]);
  }, 60_000);

  it('reports onError for an unknown token and for an expired one', async () => {
    await openLink('not-a-token');
    expect(await nextCallback(4)).toEqual({
      callback: 'onError',
      metadata: { state: 'error', error_type: 'invalid_token', error: LINK_ERROR_TEXTS.invalid_token },
    });
    const { token } = await tokenFor('react-expired');
    await server.sandbox.advance('1h');
    await openLink(token);
    expect(await nextCallback(5)).toEqual({
      callback: 'onError',
      metadata: { state: 'error', error_type: 'token_expired', error: LINK_ERROR_TEXTS.token_expired },
    });
    expect(outside).toEqual([]);
  }, 60_000);
});
