/**
 * Signing a browser in to a sandbox with an admin token (issue 43), on the express and msw
 * adapters: `GET /_sandbox/ui?token=<token>` sets an HttpOnly, SameSite=Strict cookie (holding a
 * hash, not the token) and redirects to `/_sandbox/ui`; the control plane accepts the cookie on a
 * same-origin request only (no other `Sec-Fetch-Site`, no other `Origin`); a wrong token signs
 * nobody in; the Bearer header works as before. The browser side: inspector-steer.browser.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { CONTROL_COOKIE, controlCookieValue } from '../../src/engine/control-cookie.js';
import { createClient, forEachAdapter } from '../support/client.js';

const TOKEN = 'inspector-admin-token-0123456789';

forEachAdapter('the inspector sign-in', (adapter) => {
  // A client per test: msw keeps the cookies a response sets, per origin, as a browser does.
  const fresh = () => createClient(adapter, { seed: 3, users: 1, usersElsewhere: 0, feed: 'off', adminToken: TOKEN });
  const cookie = `${CONTROL_COOKIE}=${controlCookieValue(TOKEN)}`;

  it('?token= sets an HttpOnly, SameSite=Strict cookie scoped to /_sandbox and redirects to /_sandbox/ui', async () => {
    const c = fresh();
    const res = await c.get('/_sandbox/ui', { query: { token: TOKEN }, anonymous: true, redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers['location']).toBe('/_sandbox/ui');
    const set = String(res.headers['set-cookie'] ?? '');
    expect(set).toContain(cookie);
    expect(set).toMatch(/; HttpOnly/);
    expect(set).toMatch(/; SameSite=Strict/);
    expect(set).toMatch(/; Path=\/_sandbox/);
    expect(set).not.toContain(TOKEN);
  });

  it('a wrong token signs nobody in; no token and no cookie is refused as before', async () => {
    const c = fresh();
    const wrong = await c.get('/_sandbox/ui', { query: { token: 'nope' }, anonymous: true, redirect: 'manual' });
    expect(wrong.status).toBe(401);
    expect(wrong.headers['set-cookie']).toBeUndefined();
    expect((await c.get('/_sandbox/clock', { anonymous: true })).status).toBe(401);
    expect((await c.get('/_sandbox/clock', { anonymous: true, headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
  });

  it('the cookie opens the page and the control plane on a same-origin request', async () => {
    const c = fresh();
    const page = await c.get('/_sandbox/ui', { anonymous: true, headers: { cookie, 'sec-fetch-site': 'none' } });
    expect(page.status).toBe(200);
    expect(page.text).toContain('<script>');
    // No favicon request (a browser would put its 404 in the journal).
    expect(page.text).toContain('<link rel="icon" href="data:,">');
    expect(page.headers['content-security-policy']).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'/);
    const same = await c.get('/_sandbox/clock', { anonymous: true, headers: { cookie, 'sec-fetch-site': 'same-origin' } });
    expect(same.status).toBe(200);
    const post = await c.post(
      '/_sandbox/clock/advance',
      { seconds: 60 },
      { anonymous: true, headers: { cookie, 'sec-fetch-site': 'same-origin' } },
    );
    expect(post.status).toBe(200);
    // Several cookies of that name (paths): one right one is enough.
    expect((await c.get('/_sandbox/clock', { anonymous: true, headers: { cookie: `${CONTROL_COOKIE}=old; ${cookie}` } })).status).toBe(200);
  });

  it('the cookie is refused on a cross-site or cross-origin request, and a wrong cookie is refused', async () => {
    const c = fresh();
    for (const site of ['cross-site', 'same-site']) {
      const res = await c.get('/_sandbox/clock', { anonymous: true, headers: { cookie, 'sec-fetch-site': site } });
      expect(res.status, site).toBe(401);
    }
    // Another origin: the guard refuses it on a network adapter (403), the cookie check elsewhere (401).
    const other = await c.get('/_sandbox/clock', { anonymous: true, headers: { cookie, origin: 'http://127.0.0.1:1' } });
    expect([401, 403]).toContain(other.status);
    expect((await c.get('/_sandbox/clock', { anonymous: true, headers: { cookie: `${CONTROL_COOKIE}=${TOKEN}` } })).status).toBe(401);
    expect((await c.get('/_sandbox/clock', { anonymous: true, headers: { cookie: `other=1; ${cookie}x` } })).status).toBe(401);
  });
});

describe('the cookie value', () => {
  it('is a hash of the token, not the token', () => {
    expect(controlCookieValue(TOKEN)).toMatch(/^[0-9a-f]{64}$/);
    expect(controlCookieValue(TOKEN)).not.toBe(controlCookieValue(`${TOKEN}x`));
  });
});
