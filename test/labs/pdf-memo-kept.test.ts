/**
 * Issue 45: the lab PDFs are drawn once per content and kept (state/labs/pdf-memo.ts, an `aside`
 * slot). On both adapters, a sandbox that reads every PDF of its orders after each change (twice
 * at first, so the second read is served from what the first kept) answers every read with the
 * bytes a fresh sandbox answers after the same changes, each document drawn anew: whatever changes
 * a document (the requisition, results arriving, completed and corrected, another interpretation,
 * the labels' number and date) makes another document, and nothing kept goes stale. The memo is
 * not part of a saved world.
 */
import { expect, it } from 'vitest';
import { forgetKeptPdfs, keptPdfCount } from '../../src/state/labs/pdf-memo.js';
import { createClient, forEachAdapter, type AdapterName, type TestClient } from '../support/client.js';
import { SMALL, newOrder, orderTargets } from '../support/lab-helpers.js';

interface Orders {
  walkIn: any;
  onSite: any;
  testkit: any;
}

/** What changes the documents, one step after the other (the same requests in every sandbox). */
const STEPS: ReadonlyArray<(c: TestClient, o: Orders) => Promise<unknown>> = [
  async () => undefined,
  async () => undefined,
  (c) => c.advance(600),
  (c, o) => c.post(`/v3/order/${o.walkIn.id}/test`, undefined, { query: { final_status: 'sample_with_lab.walk_in_test.partial_results' } }),
  (c, o) => c.post(`/v3/order/${o.walkIn.id}/test`),
  (c, o) =>
    c.post(
      `/v3/order/${o.walkIn.id}/test`,
      { interpretation: 'critical' },
      { query: { final_status: 'completed.walk_in_test.corrected' } },
    ),
  (c) => c.advance(3 * 86400),
];

/** Every PDF of the orders, as status and bytes; `drawn`: each one drawn anew (nothing kept before it). */
async function readAll(c: TestClient, o: Orders, drawn = false): Promise<string[]> {
  const out: string[] = [];
  const get = async (path: string, query?: Record<string, string>) => {
    if (drawn) forgetKeptPdfs(c.sandbox.world);
    const res = await c.get(path, query ? { query } : {});
    out.push(`${path} ${JSON.stringify(query ?? {})} ${res.status} ${res.bytes.toString('base64')}`);
  };
  await get(`/v3/order/${o.walkIn.id}/requisition/pdf`);
  await get(`/v3/order/${o.walkIn.id}/result/pdf`);
  await get(`/v3/order_transaction/${o.walkIn.order_transaction.id}/result/pdf`);
  await get(`/v3/order/${o.onSite.id}/requisition/pdf`);
  await get(`/v3/order/${o.onSite.id}/labels/pdf`, { collection_date: '2026-01-06T10:30:00Z' });
  await get(`/v3/order/${o.onSite.id}/labels/pdf`, { collection_date: '2026-01-07T08:00:00Z', number_of_labels: '5' });
  await get(`/v3/order/${o.testkit.id}/collection_instruction_pdf`);
  await get(`/v3/lab_test/${o.testkit.lab_test.id}/collection_instruction_pdf`);
  return out;
}

async function ordersOf(adapter: AdapterName): Promise<{ c: TestClient; o: Orders }> {
  const c = createClient(adapter, { seed: 451, ...SMALL });
  const targets = await orderTargets(c);
  const o = {
    walkIn: await newOrder(c, 'walk_in_test', { targets, patient: { last_name: 'Missing' } }),
    onSite: await newOrder(c, 'on_site_collection', { targets }),
    testkit: await newOrder(c, 'testkit', { targets }),
  };
  return { c, o };
}

forEachAdapter('labs: PDFs kept between requests', (adapter) => {
  it('a sandbox reading after every change answers what a fresh one answers after the same changes', async () => {
    const warm = await ordersOf(adapter);
    const seen: string[][] = [];
    for (const step of STEPS) {
      const res = (await step(warm.c, warm.o)) as { status: number; text: string } | undefined;
      expect(res?.status ?? 200, res?.text).toBe(200);
      seen.push(await readAll(warm.c, warm.o));
    }
    expect(keptPdfCount(warm.c.sandbox.world)).toBeGreaterThan(0);
    // The documents move with the changes (so the comparison below compares something).
    for (const at of [2, 3, 4, 5]) expect(seen[at], `step ${at}`).not.toEqual(seen[at - 1]);
    for (const at of [1, 2, 3, 4, 5, 6]) {
      const fresh = await ordersOf(adapter);
      for (const step of STEPS.slice(0, at + 1)) await step(fresh.c, fresh.o);
      expect(keptPdfCount(fresh.c.sandbox.world)).toBe(0);
      const answers = await readAll(fresh.c, fresh.o, true);
      for (let i = 0; i < answers.length; i++) expect(seen[at]?.[i], `after step ${at}, read ${i}`).toBe(answers[i]);
    }
  });
});

it('the kept PDFs are not part of a saved world', async () => {
  const { c, o } = await ordersOf('express');
  await c.advance(600);
  const before = (await c.get('/_sandbox/world')).text;
  await readAll(c, o);
  expect(keptPdfCount(c.sandbox.world)).toBeGreaterThan(0);
  expect((await c.get('/_sandbox/world')).text).toBe(before);
});
