/**
 * Steering the sandbox from the inspector in Chromium (issue 43): fault rules added, edited (a
 * rejected edit changes nothing) and removed; a domain fault; snapshots taken and restored; the
 * clock advanced by a typed duration; reset; a scenario file loaded; a journal entry copied as
 * curl and replayed; the search across kept bodies; paging; the "API requests only" switch; a
 * user's timeline; and the sign-in link of a sandbox protected by an admin token.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { haveChromium } from '../support/chromium.js';
import { type InspectorRig, inspectorRig } from './inspector-browser-support.js';

describe.skipIf(!haveChromium)('steering the sandbox from the inspector', () => {
  let rig: InspectorRig;
  beforeAll(async () => {
    rig = await inspectorRig({ users: 60, requests: { bodies: true } });
  }, 60_000);
  afterAll(() => rig?.close());

  /** A promise opened from outside (Node 20 has no Promise.withResolvers). */
  const gate = () => {
    let open = (): void => undefined;
    const shut = new Promise<void>((done) => {
      open = done;
    });
    return { shut, open };
  };
  const errorShown = async () => ((await rig.page.locator('#error').isHidden()) ? null : await rig.page.locator('#error').textContent());

  it('adds a fault rule, edits it, refuses a bad edit without a change, removes it', async () => {
    const { page } = rig;
    await rig.open('faults');
    await page.locator('#fault-rule').fill(JSON.stringify({ match: { path: '/v2/user/*' }, action: { status: 503 }, times: 2 }));
    await page.getByRole('button', { name: 'Add the rule' }).click();
    const rules = page.getByRole('table', { name: 'Fault rules' });
    await rules.getByText('/v2/user/*').waitFor();
    const [first] = (await rig.call('GET', '/_sandbox/faults')).body.faults;
    expect(first).toMatchObject({ match: { path: '/v2/user/*' }, action: { status: 503 }, remaining: 2 });

    await rules.getByRole('button', { name: 'Edit' }).click();
    await page.getByRole('button', { name: 'Save the rule' }).waitFor();
    expect(JSON.parse(await page.locator('#fault-rule').inputValue())).toEqual({
      match: { path: '/v2/user/*' },
      action: { status: 503 },
      times: 2,
    });
    await page.locator('#fault-rule').fill(JSON.stringify({ match: { path: '/_sandbox/clock' }, action: { status: 500 } }));
    await page.getByRole('button', { name: 'Save the rule' }).click();
    await page.locator('#error', { hasText: '422' }).waitFor();
    expect((await rig.call('GET', '/_sandbox/faults')).body.faults).toEqual([expect.objectContaining({ id: first.id })]);

    await page.locator('#fault-rule').fill(JSON.stringify({ match: { path: '/v2/user/*' }, action: { status: 500 }, times: 1 }));
    await page.getByRole('button', { name: 'Save the rule' }).click();
    await page.getByRole('button', { name: 'Add the rule' }).waitFor();
    const after = (await rig.call('GET', '/_sandbox/faults')).body.faults;
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ action: { status: 500 }, remaining: 1 });
    expect(after[0].id).not.toBe(first.id);
    await rules.getByRole('button', { name: 'Remove' }).click();
    await rules.getByText('/v2/user/*').waitFor({ state: 'detached' });
    expect((await rig.call('GET', '/_sandbox/faults')).body.faults).toEqual([]);
  }, 60_000);

  it('applies a domain fault: a connection error from the page', async () => {
    const { page } = rig;
    const users = (await rig.call('GET', '/v2/user?limit=60')).body.users as Array<{
      user_id: string;
      connected_sources: Array<{ provider: { slug: string } }>;
    }>;
    const connected = users.find((u) => u.connected_sources.length > 0)!;
    const slug = connected.connected_sources[0]!.provider.slug;
    await rig.open('faults');
    await page.locator('#conn-user').fill(connected.user_id);
    await page.locator('#conn-provider').fill(slug);
    await page.getByRole('button', { name: 'Break the connection' }).click();
    await expect
      .poll(async () => (await rig.call('GET', `/v2/user/providers/${connected.user_id}`)).body.providers[0].status)
      .toBe('error');
    expect(await errorShown()).toBeNull();
  }, 60_000);

  it('takes a snapshot, advances the clock by a typed duration, restores the snapshot', async () => {
    const { page } = rig;
    await rig.open('faults');
    const before = (await rig.call('GET', '/_sandbox/clock')).body.now as string;
    await page.locator('#snapshot-name').fill('before-the-week');
    await page.getByRole('button', { name: 'Take a snapshot' }).click();
    await page.getByRole('table', { name: 'Snapshots' }).getByText('before-the-week').waitFor();
    await page.locator('#advance-by').fill('3d');
    await page.getByRole('button', { name: 'Go' }).click();
    await expect.poll(async () => (await rig.call('GET', '/_sandbox/clock')).body.now).not.toBe(before);
    expect(Date.parse((await rig.call('GET', '/_sandbox/clock')).body.now) - Date.parse(before)).toBe(3 * 86_400_000);
    await page.locator('#clock-now', { hasText: new Date(Date.parse(before) + 3 * 86_400_000).toISOString().slice(0, 10) }).waitFor();
    await page.getByRole('button', { name: 'Restore before-the-week' }).click();
    await expect.poll(async () => (await rig.call('GET', '/_sandbox/clock')).body.now).toBe(before);
  }, 60_000);

  it('copies a journal entry as curl, replays it, finds it by a body text; API requests only hides the control plane', async () => {
    const { page } = rig;
    expect((await rig.call('POST', '/v2/user', { client_user_id: 'replayed-one' })).status).toBe(200);
    await rig.call('GET', '/_sandbox/health');
    await rig.open('requests');
    const journal = page.getByRole('table', { name: 'Request journal' });
    expect(await journal.textContent()).not.toContain('/_sandbox/health');
    await page.locator('#api-only').uncheck();
    await journal.getByText('/_sandbox/health').first().waitFor();
    await page.locator('#api-only').check();
    await journal.getByText('/_sandbox/health').waitFor({ state: 'detached' });

    await page.locator('#requests-search').fill('replayed-one');
    await page.locator('#requests-search').press('Enter');
    await journal.getByText('found in request body').waitFor();
    expect(await journal.locator('tbody tr').count()).toBe(1);
    await journal.locator('tbody a').first().click();
    await page.getByRole('heading', { name: 'As curl' }).waitFor();
    const curl = (await page.getByLabel('As curl', { exact: true }).textContent()) ?? '';
    expect(curl).toContain(`curl -X POST '${rig.api}/v2/user'`);
    expect(curl).toContain(`x-vital-api-key: ${rig.sandbox.credentials().teams[0]!.api_keys.sandbox}`);
    expect(curl).toContain('replayed-one');
    const recorded = (await rig.call('GET', '/_sandbox/requests?path=/v2/user&limit=100')).body.recorded as number;
    await page.getByRole('button', { name: /^Replay / }).click();
    await page
      .getByRole('status')
      .filter({ hasText: 'answered 400' })
      .or(page.getByRole('status').filter({ hasText: 'answered 200' }))
      .first()
      .waitFor();
    const newest = (await rig.call('GET', '/_sandbox/requests?limit=1')).body;
    expect(newest.recorded).toBeGreaterThan(recorded);
    expect(newest.requests[0]).toMatchObject({ method: 'POST', path: '/v2/user', team_id: rig.sandbox.credentials().teams[0]!.team_id });
    expect(newest.requests[0].request.body).toContain('replayed-one');
  }, 60_000);

  it('pages through 60 users', async () => {
    const { page } = rig;
    await rig.open('users');
    const pager = page.getByRole('navigation', { name: 'users pages' });
    await pager.getByText(/1-50 of 6\d/).waitFor();
    await pager.getByRole('button', { name: 'Next page of users' }).click();
    await pager.getByText(/51-6\d of 6\d/).waitFor();
    expect(await page.getByRole('table', { name: 'Users' }).locator('tbody tr').count()).toBeLessThanOrEqual(50);
    await pager.getByRole('button', { name: 'Previous page of users' }).click();
    await pager.getByText(/1-50 of/).waitFor();
  }, 60_000);

  it("shows a user's timeline: connections, collapsed pulls, events in time order", async () => {
    const { page } = rig;
    const users = (await rig.call('GET', '/v2/user?limit=60')).body.users as Array<{ user_id: string; connected_sources: unknown[] }>;
    const connected = users.find((u) => u.connected_sources.length > 0)!;
    await rig.open(`user/${connected.user_id}`);
    const items = page.getByRole('list', { name: 'Timeline of the user' }).locator('li');
    await items.first().waitFor();
    const kinds = await items.evaluateAll((lis) => lis.map((li) => li.getAttribute('data-kind')));
    expect(kinds).toContain('connection');
    expect(kinds).toContain('pull');
    const times = await items.locator('time').evaluateAll((ts) => ts.map((t) => Date.parse(t.getAttribute('datetime') ?? '')));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(await items.filter({ hasText: /\d+ pulls: / }).count()).toBeGreaterThan(0);
  }, 60_000);

  it('loads a scenario file, then resets the world', async () => {
    const { page } = rig;
    await rig.open('faults');
    await page.locator('#scenario-file').setInputFiles(fileURLToPath(new URL('../../scenarios/lab-testkit-lost.yaml', import.meta.url)));
    await page.getByRole('button', { name: 'Load the scenario' }).click();
    await expect
      .poll(async () => ((await rig.call('GET', '/v2/user')).body.users as Array<{ client_user_id: string }>).map((u) => u.client_user_id))
      .toEqual(['kit-lost']);
    await rig.open('users');
    await page.getByText('kit-lost').waitFor();
    await rig.open('faults');
    await page.getByRole('button', { name: 'Drop the scenario' }).click();
    await expect.poll(async () => (await rig.call('GET', '/v2/user')).body.total).toBe(60);
    const firstOf = async () => (await rig.call('GET', '/v2/user?limit=1')).body.users[0].client_user_id as string;
    const before = await firstOf();
    // The page's reset is held until the test has looked: the world seen meanwhile is still the old
    // one, whose first user is not 'kit-lost' either, so only the reset's answer says it is done
    // (a wait for "not kit-lost" passed before the reset under load, and the page then rightly
    // showed the new world's users, not the old first user the test looked for).
    const held = gate();
    const reached = gate();
    await page.route('**/_sandbox/reset', async (route) => {
      reached.open();
      await held.shut;
      await route.fallback();
    });
    const answered = page.waitForResponse((r) => r.url() === `${rig.api}/_sandbox/reset` && r.request().method() === 'POST');
    await page.locator('#reset-seed').fill('11');
    await page.getByRole('button', { name: 'Reset the world' }).click();
    await reached.shut;
    expect(await firstOf()).toBe(before);
    held.open();
    expect(await (await answered).json()).toEqual({ status: 'ok', seed: 11 });
    await page.unroute('**/_sandbox/reset');
    // Another seed, other keys: the page (not reloaded) reads them again and the Users tab still answers.
    const first = await firstOf();
    expect(first).not.toBe(before);
    await page.getByRole('link', { name: 'Users', exact: true }).click();
    await page.getByRole('table', { name: 'Users' }).getByText(first).waitFor();
    expect(await errorShown()).toBeNull();
    // Only the answers the tests asked for: the refused rule edit (422) and the replayed duplicate user (400).
    expect(
      rig.problems.filter((p) => !/\b(422|400)\b/.test(p)),
      rig.problems.join('\n'),
    ).toEqual([]);
    expect(rig.outside).toEqual([]);
  }, 60_000);
});

describe.skipIf(!haveChromium)('a sandbox protected by an admin token', () => {
  const TOKEN = 'browser-admin-token-0123456789';
  let rig: InspectorRig;
  beforeAll(async () => {
    rig = await inspectorRig({ users: 2, adminToken: TOKEN });
  }, 60_000);
  afterAll(() => rig?.close());

  it('opens in a browser after the sign-in link, with an HttpOnly SameSite=Strict cookie', async () => {
    const { page } = rig;
    const refused = await page.goto(`${rig.api}/_sandbox/ui`);
    expect(refused?.status()).toBe(401);
    await page.goto(`${rig.api}/_sandbox/ui?token=${TOKEN}`);
    expect(page.url()).toBe(`${rig.api}/_sandbox/ui`);
    await page.locator('#view[data-view="requests"]').waitFor();
    const [cookie] = await rig.context.cookies();
    expect(cookie).toMatchObject({ name: 'health_sandbox_admin', httpOnly: true, sameSite: 'Strict', path: '/_sandbox' });
    expect(cookie!.value).not.toContain(TOKEN);
    await rig.open('users');
    await page.getByRole('table', { name: 'Users' }).locator('tbody tr').first().waitFor();
    await page.getByRole('button', { name: 'Advance the clock 1 hour' }).click();
    await expect.poll(async () => (await rig.call('GET', '/_sandbox/clock')).body.now).toBe('2026-01-05T10:00:00.000Z');
    expect(
      rig.problems.filter((p) => !p.includes('401')),
      rig.problems.join('\n'),
    ).toEqual([]);
  }, 60_000);
});
