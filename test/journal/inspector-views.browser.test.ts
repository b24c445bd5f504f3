/**
 * Every view of the inspector, on three worlds (the default world, an empty one, and a scenario's),
 * in Chromium: each tab of the page's navigation and the first item each list links to (a
 * request, a user, a lab order, a webhook message) draws with no page error, no console error, no
 * error shown and nothing fetched beyond the sandbox. The default world's lab orders include a
 * test-kit order with `patient_details: null` (the Lab orders tab used to crash on it).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TABS, VIEWS } from '../../src/inspector/views.js';
import { haveChromium } from '../support/chromium.js';
import { type InspectorRig, inspectorRig } from './inspector-browser-support.js';

const scenario = (name: string) => readFileSync(new URL(`../../scenarios/${name}`, import.meta.url), 'utf8');

const WORLDS = [
  { name: 'the default world', options: {} },
  { name: 'an empty world', options: { world: 'empty' as const } },
  { name: 'a scenario world', options: { scenario: scenario('afib-apple-health.yaml') } },
  { name: 'a lab scenario world', options: { scenario: scenario('lab-testkit-lost.yaml') } },
];

describe.skipIf(!haveChromium)('every inspector view on any world', () => {
  it('the tabs are the route table of the views', () => {
    for (const [tab] of TABS) expect(VIEWS[tab]).toBeTypeOf('function');
  });

  it('the default world has a test-kit order with no patient details, and the Lab orders tab lists it', async () => {
    const rig = await inspectorRig();
    try {
      const orders = (await rig.call('GET', '/v3/orders?size=100')).body.orders as Array<{ id: string; patient_details: unknown }>;
      const bare = orders.find((o) => o.patient_details === null);
      expect(bare, 'a seeded order with patient_details: null').toBeDefined();
      await rig.open('orders');
      const line = rig.page.locator('#view tbody tr', { has: rig.page.locator(`a[href="#orders/${bare!.id}"]`) });
      expect(await line.locator('td').nth(1).textContent()).toBe('-');
      await rig.open(`orders/${bare!.id}`);
      expect(await rig.page.locator('#view dd').nth(4).textContent()).toBe('-');
      expect(rig.problems, rig.problems.join('\n')).toEqual([]);
    } finally {
      await rig.close();
    }
  }, 60_000);

  for (const world of WORLDS) {
    describe(world.name, () => {
      let rig: InspectorRig;
      beforeAll(async () => {
        rig = await inspectorRig(world.options);
        // Some traffic of each kind: a success, a 404 with near misses, a 422.
        await rig.call('GET', '/v2/user');
        await rig.call('POST', '/v2/usr', { client_user_id: 'typo' });
        await rig.call('POST', '/v2/user', {});
        await rig.call('POST', '/_sandbox/clock/advance', { duration: '1d' });
      }, 60_000);
      afterAll(() => rig?.close());

      it('opens every tab and the first item of each list with no error', async () => {
        const seen: string[] = [];
        for (const [tab] of TABS) {
          await rig.open(tab);
          seen.push(tab);
          expect(await rig.page.locator('#error').isHidden(), `${tab}: ${await rig.page.locator('#error').textContent()}`).toBe(true);
          const item = rig.page.locator('#view tbody a[href^="#"]').first();
          if ((await item.count()) > 0) {
            const href = ((await item.getAttribute('href')) ?? '').slice(1);
            await rig.open(href);
            seen.push(href.split('/')[0]!);
            expect(await rig.page.locator('#error').isHidden(), `${href}: ${await rig.page.locator('#error').textContent()}`).toBe(true);
          }
        }
        expect(rig.problems, rig.problems.join('\n')).toEqual([]);
        expect(rig.outside).toEqual([]);
        // The page asks for no favicon (a 404 in the journal) and its own reads are not journaled.
        const journal = (await rig.call('GET', '/_sandbox/requests?limit=10000')).body.requests as Array<{ path: string }>;
        expect(journal.filter((r) => r.path === '/favicon.ico')).toEqual([]);
        expect(journal.filter((r) => r.path === '/_sandbox/credentials' || r.path === '/_sandbox/clock')).toEqual([]);
        expect(seen).toEqual(expect.arrayContaining(TABS.map(([t]) => t)));
        if (world.name !== 'an empty world') expect(seen).toContain('user');
      }, 120_000);
    });
  }
});
