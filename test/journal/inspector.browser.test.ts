/**
 * The inspector (`/_sandbox/ui`) in headless Chromium, served by the CLI's node:http adapter:
 * a user created through the API appears; the page's clock button moves an order's status; a
 * webhook resent from the page shows its new attempt; a failed request shows its body and near
 * miss; a user's page draws the ECG with a text alternative; the views are reachable by keyboard;
 * no console errors and nothing fetched beyond the sandbox. Screenshots of each view go to
 * test/.artifacts/inspector/ (git-ignored); `INSPECTOR_SCREENSHOT=1` also rewrites docs/inspector.png.
 * Debian's /usr/bin/chromium through playwright-core; skipped with one line when it is missing.
 */
import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/index.js';
import { createNodeServer } from '../../src/node.js';
import { CHROMIUM, haveChromium, newChromiumContext } from '../support/chromium.js';

if (!haveChromium) console.warn(`[inspector] ${CHROMIUM} is missing: the inspector browser test is skipped.`);

type Context = import('playwright-core').BrowserContext;
type Page = import('playwright-core').Page;

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const shots = join(root, 'test/.artifacts/inspector');

describe.skipIf(!haveChromium)('the inspector in Chromium', () => {
  let context: Context | undefined;
  let server: Server;
  let sandbox: Sandbox;
  let api = '';
  let key = '';
  let page: Page;
  const outside: string[] = [];
  const problems: string[] = [];

  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${api}${path}`, {
      method,
      headers: { 'x-vital-api-key': key, 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  const shot = (name: string) => page.screenshot({ path: join(shots, `${name}.png`), fullPage: false });
  const open = async (hash: string) => {
    await page.goto(`${api}/_sandbox/ui#${hash}`);
    await page.locator(`#view[data-view="${hash.split('/')[0]}"]`).waitFor();
  };

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    sandbox = createSandbox({ seed: 3, users: 3, usersElsewhere: 0, feed: 'off', logger: () => undefined });
    server = createNodeServer(sandbox);
    const port = await new Promise<number>((done) =>
      server.listen(0, '127.0.0.1', () => done((server.address() as { port: number }).port)),
    );
    api = `http://127.0.0.1:${port}`;
    sandbox.setUrls({ base: api, management: `${api}/management` });
    const creds = sandbox.credentials();
    const team = creds.teams[0]!;
    key = team.api_keys.sandbox;
    // A webhook endpoint on the sandbox's own test receiver: every lab event becomes a message.
    const hook = await call(
      'POST',
      `/management/v1/org/${creds.org_id}/team/${team.team_id}/sandbox/webhook`,
      { url: `${api}/_sandbox/receiver/inspector` },
      {
        'x-management-key': creds.management_key,
      },
    );
    expect(hook.status).toBe(200);
    context = await newChromiumContext({ outside: (url) => outside.push(url) });
    page = await context.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    sandbox?.close();
    await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
  });

  it('/ and /_sandbox point to the inspector; a user created through the API appears', async () => {
    await page.goto(`${api}/`);
    await page.getByRole('link', { name: 'The inspector' }).click();
    await page.locator('#view[data-view="requests"]').waitFor();
    expect(await call('POST', '/v2/user', { client_user_id: 'inspector-newcomer' })).toMatchObject({ status: 200 });
    await open('users');
    await page.getByText('inspector-newcomer').waitFor();
    await shot('users');
  }, 60_000);

  it("a user's page draws an ECG with its classification, heart rate and a text alternative", async () => {
    const users = await call('GET', '/v2/user');
    const first = users.body.users[0].user_id as string;
    await open(`user/${first}`);
    const desc = page.locator('svg.ecg desc');
    await desc.waitFor({ state: 'attached' });
    expect(await desc.textContent()).toMatch(/ECG lead I, .*: \w+, mean heart rate \d+ bpm/);
    expect(await page.locator('svg.ecg polyline').getAttribute('points')).toMatch(/^[\d.]+,[\d.]+ /);
    await page.getByRole('table', { name: 'Connections' }).waitFor();
    await shot('user');
  }, 60_000);

  it("the page's clock button moves an order's status; the webhook resent from the page shows its new attempt", async () => {
    const tests = (await call('GET', '/v3/lab_tests')).body as Array<{ id: string; method: string; auto_generated: boolean }>;
    const testkit = tests.find((t) => t.method === 'testkit' && !t.auto_generated)!;
    const users = await call('GET', '/v2/user');
    const placed = await call('POST', '/v3/order', {
      user_id: users.body.users[0].user_id,
      lab_test_id: testkit.id,
      patient_details: {
        first_name: 'Ada',
        last_name: 'Lovelace',
        dob: '1985-12-09',
        gender: 'female',
        phone_number: '+14155551234',
        email: 'ada@example.com',
      },
      patient_address: {
        receiver_name: 'Ada Lovelace',
        first_line: '1 Main Street',
        city: 'Austin',
        state: 'TX',
        zip: '78701',
        country: 'US',
      },
    });
    expect(placed.status).toBe(200);
    const orderId = placed.body.order.id as string;
    await open(`orders/${orderId}`);
    const status = page.locator('#order-status');
    const before = (await status.textContent()) ?? '';
    expect(before).toContain('ordered');
    await page.getByRole('button', { name: 'Advance the clock 1 hour' }).click();
    await page.locator('#order-status', { hasNotText: before }).waitFor();
    expect(await page.locator('.timeline li').count()).toBeGreaterThan(1);
    await shot('order');

    await sandbox.settle();
    await open('webhooks');
    await page
      .getByRole('table', { name: /Test receivers/ })
      .getByText('inspector', { exact: true })
      .waitFor();
    await shot('webhooks');
    await page.locator('table').nth(1).locator('tbody a').first().click();
    await page.locator('#view[data-view="webhooks"] h2', { hasText: 'Message msg_' }).waitFor();
    const attempts = page.getByRole('table', { name: 'Attempts' }).locator('tbody tr');
    const count = await attempts.count();
    await page
      .getByRole('button', { name: /^Resend to / })
      .first()
      .click();
    await attempts.nth(count).waitFor();
    expect(await attempts.nth(count).textContent()).toContain('manual');
    await shot('message');
  }, 90_000);

  it('a failed request shows its body and near miss', async () => {
    expect((await call('POST', '/v2/usr', { client_user_id: 'typo-in-the-path' })).status).toBe(404);
    await open('requests');
    await shot('requests');
    await page.locator('tr', { hasText: '/v2/usr' }).first().getByRole('link').click();
    await page.getByRole('heading', { name: /Near misses/ }).waitFor();
    expect(await page.getByLabel('Request body').textContent()).toContain('typo-in-the-path');
    expect(await page.getByRole('note').first().textContent()).toContain('POST /v2/user');
    await shot('request');
  }, 60_000);

  it('shows fault rules and snapshots; a rule removed from the page is gone', async () => {
    const rule = await call('POST', '/_sandbox/faults', { match: { path: '/v2/user/*' }, action: { status: 503 }, times: 3 });
    expect(rule.status).toBe(200);
    expect((await call('POST', '/_sandbox/snapshots', { name: 'before-the-outage' })).status).toBe(201);
    await open('faults');
    await page.getByRole('table', { name: 'Snapshots' }).getByText('before-the-outage').waitFor();
    const rules = page.getByRole('table', { name: 'Fault rules' });
    expect(await rules.textContent()).toContain('/v2/user/*');
    await shot('faults');
    await rules.getByRole('button', { name: 'Remove' }).click();
    await rules.getByText('/v2/user/*').waitFor({ state: 'detached' });
    expect((await call('GET', '/_sandbox/faults')).body.faults).toEqual([]);
  }, 60_000);

  it('is usable with the keyboard; teams, events; no console errors, nothing beyond the sandbox', async () => {
    await open('requests');
    let focused = '';
    for (let i = 0; i < 30 && focused !== 'Teams & keys'; i++) {
      await page.keyboard.press('Tab');
      focused = await page.evaluate(() => document.activeElement?.textContent ?? '');
    }
    expect(focused).toBe('Teams & keys');
    await page.keyboard.press('Enter');
    await page.locator('#view[data-view="teams"]').waitFor();
    expect(await page.locator('#view').textContent()).not.toContain(key);
    await shot('teams');
    if (process.env.INSPECTOR_SCREENSHOT === '1') {
      await page.setViewportSize({ width: 1100, height: 640 });
      await open('requests');
      await page.screenshot({ path: join(root, 'docs/inspector.png') });
    }
    await open('events');
    await shot('events');
    expect(problems, problems.join('\n')).toEqual([]);
    expect(outside).toEqual([]);
  }, 60_000);
});
