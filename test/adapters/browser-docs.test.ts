/**
 * `/docs` in a real browser: the CLI's node:http server serves the page and Swagger UI's files
 * (from swagger-ui-dist, no CDN); Chromium renders the data interface's document, the page is
 * authorised with a team API key, and "try it" on `GET /v2/user` gets the sandbox's answer. The
 * management and control-plane documents are one selection away. Under msw there are no assets:
 * `/docs/assets/*` says so. Debian's /usr/bin/chromium through playwright-core; skipped with one
 * line when it is missing.
 */
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/index.js';
import { createNodeServer } from '../../src/node.js';
import { SANDBOX_ERRORS } from '../../src/state/sandbox/errors.js';
import { CHROMIUM, haveChromium, newChromiumContext } from '../support/chromium.js';
import { createClient } from '../support/client.js';

if (!haveChromium) console.warn(`[browser-docs] ${CHROMIUM} is missing: the /docs browser test is skipped.`);

/**
 * The page lists every document by area first and shows the data interface's `users` area: Swagger
 * UI parses that 34 KB document in a fraction of a second (the whole 450 KB data document took 6 to
 * 7 s of Chromium's CPU; its time to interactive is a row of `npm run bench -- --docs`, not an
 * assertion here). The whole documents stay one selection away: CI (`HEALTH_SANDBOX_SLOW_TESTS=1`)
 * also renders the whole data document. The sandbox has no admin token (with one, the control
 * document itself needs the bearer, which the page does not send when it fetches a document), so
 * any bearer the page authorises with is accepted.
 */
const FULL = process.env.HEALTH_SANDBOX_SLOW_TESTS === '1';

type Context = import('playwright-core').BrowserContext;

describe.skipIf(!haveChromium)('/docs in Chromium', () => {
  let context: Context | undefined;
  let server: Server;
  let sandbox: Sandbox;
  let api = '';
  const outside: string[] = [];

  beforeAll(async () => {
    sandbox = createSandbox({
      seed: 3,
      users: 2,
      usersElsewhere: 0,
      feed: 'off',
      logger: () => undefined,
    });
    server = createNodeServer(sandbox);
    const port = await new Promise<number>((done) =>
      server.listen(0, '127.0.0.1', () => done((server.address() as { port: number }).port)),
    );
    api = `http://127.0.0.1:${port}`;
    sandbox.setUrls({ base: api, management: `${api}/management` });
    // Only the sandbox is reachable; anything else the page asks for (a CDN) is recorded and refused.
    context = await newChromiumContext({ outside: (url) => outside.push(url) });
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    sandbox?.close();
    await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
  });

  /**
   * Opens `/docs<query>`, waits for the block of `operationId` (under `tag`), authorises with `bearer`, runs the
   * operation's "try it" (the page opens operations in "try it out" mode: Execute is there at once)
   * and answers the page and the JSON body the page shows, after a 200.
   */
  async function tryIt(query: string, tag: string, operationId: string, bearer: string) {
    const page = await context!.newPage();
    const documents: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('openapi.json')) documents.push(request.url().slice(api.length));
    });
    const response = await page.goto(`${api}/docs${query}`);
    expect(response?.status()).toBe(200);
    // Swagger UI's ids keep the operation id's dots, escaped: `operations-<tag>-users\.list`.
    const operation = page.locator(`id=operations-${tag}-${operationId.replace(/\./g, '\\.')}`);
    await operation.waitFor({ timeout: 30_000 });
    await page.locator('.btn.authorize').first().click();
    await page.locator('.auth-container input').first().fill(bearer);
    await page.locator('.auth-btn-wrapper .btn.modal-btn.auth.authorize').first().click();
    await page.locator('.btn-done, .close-modal').first().click();
    await operation.locator('.opblock-summary').click();
    await operation.locator('.execute').click();
    const status = operation.locator('.live-responses-table tbody .response-col_status').first();
    await status.waitFor({ timeout: 30_000 });
    expect((await status.textContent())?.trim()).toBe('200');
    const body = await operation.locator('.live-responses-table tbody .response-col_description pre').first().textContent();
    return { page, documents, body: JSON.parse(body ?? '{}') as Record<string, unknown> };
  }

  it('renders the data interface\'s users area first (its own document, not the whole one); "try it" calls the sandbox', async () => {
    const { page, documents, body } = await tryIt('', 'users', 'users.list', sandbox.credentials().teams[0]!.api_keys.sandbox);
    expect(body.users).toHaveLength(2);
    expect(documents).toEqual(['/openapi.json?area=users']);
    // Another area is one selection away, and loads only its own document.
    await page.locator('.topbar select').selectOption({ label: 'Management interface: webhooks' });
    await page.locator('id=operations-webhooks-webhooks\\.list').waitFor({ timeout: 30_000 });
    expect(documents).toEqual(['/openapi.json?area=users', '/management/openapi.json?area=webhooks']);
    expect(outside).toEqual([]);
    await page.close();
  }, 120_000);

  it('renders the control plane first with ?doc=control, authorised; "try it" calls the sandbox', async () => {
    const { page, documents, body } = await tryIt('?doc=control', 'sandbox', 'sandbox.wearables.feed.get', 'any-bearer');
    expect(body).toHaveProperty('mode');
    expect(documents).toEqual(['/_sandbox/openapi.json?area=sandbox']);
    expect(outside).toEqual([]);
    await page.close();
  }, 120_000);

  it.skipIf(!FULL)(
    'renders the whole data document too',
    async () => {
      const page = await context!.newPage();
      const whole = page.waitForResponse((r) => r.url() === `${api}/openapi.json`, { timeout: 30_000 });
      await page.goto(`${api}/docs`);
      await page.locator('id=operations-users-users\\.list').waitFor({ timeout: 30_000 });
      await page.locator('.topbar select').selectOption({ label: 'Data interface, all areas' });
      expect((await whole).status()).toBe(200);
      await page.locator('id=operations-users-users\\.list').waitFor({ timeout: 60_000 });
      await page.close();
    },
    120_000,
  );
});

describe('/docs without Node (msw)', () => {
  it('serves the page, but its assets answer 404 naming the reason', async () => {
    const c = createClient('msw', { seed: 3, users: 1 });
    const page = await c.get('/docs');
    expect(page.status).toBe(200);
    expect(page.text).toContain('/openapi.json');
    const asset = await c.get('/docs/assets/swagger-ui.css');
    expect(asset.status).toBe(404);
    expect(asset.body).toEqual({ detail: SANDBOX_ERRORS.noAssets });
    const express = createClient('express', { seed: 3, users: 1 });
    const css = await express.get('/docs/assets/swagger-ui.css');
    expect(css.status).toBe(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect((await express.get('/docs/assets/package.json')).status).toBe(404);
  });
});
