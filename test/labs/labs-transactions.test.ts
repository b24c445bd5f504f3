/** Order transaction results (issue 13): LabResultsRaw and the PDF over all orders of a transaction. */
import { PDFDocument } from 'pdf-lib';
import { expect, it } from 'vitest';
import { LABS_ERRORS, LABS_TEXTS } from '../../src/state/labs/errors.js';
import { buildOrder } from '../../src/state/labs/lab-order-factory.js';
import { startOrder } from '../../src/state/labs/order-changes.js';
import type { Order } from '../../src/state/labs/order-model.js';
import { createClient, forEachAdapter, type TestClient } from '../support/client.js';
import { oasValidator } from '../support/openapi.js';
import { UNKNOWN_ID } from '../support/route-params.js';
import { pdfStrings } from '../support/pdf-helpers.js';
import { SMALL, newOrder } from '../support/lab-helpers.js';
import { expectWire } from '../support/wire.js';
import { ordersOf } from '../../src/state/labs/order-store.js';

const oas = oasValidator('data');

forEachAdapter('order transaction results', (adapter) => {
  it('answers 404 for unknown transactions and before results, then the results of its order', async () => {
    const c = createClient(adapter, { seed: 141, ...SMALL });
    const order = await newOrder(c, 'walk_in_test', { patient: { last_name: 'Abnormal' } });
    const tx = order.order_transaction.id as string;
    for (const suffix of ['result', 'result/pdf']) {
      const unknown = await c.get(`/v3/order_transaction/${UNKNOWN_ID}/${suffix}`);
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ detail: LABS_ERRORS.transactionNotFound });
      const early = await c.get(`/v3/order_transaction/${tx}/${suffix}`);
      expect(early.status).toBe(404);
      expect(early.body).toEqual({ detail: LABS_TEXTS.transactionResultsNotAvailable(tx) });
      expect((await c.get(`/v3/order_transaction/nope/${suffix}`)).status).toBe(422);
    }
    expect((await c.post(`/v3/order/${order.id}/test`)).status).toBe(200);
    const mine = (await c.get(`/v3/order/${order.id}/result`)).body;
    const res = await c.get(`/v3/order_transaction/${tx}/result`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual(mine);
    oas?.expectValid('LabResultsRaw', res.body);
    expectWire('order_transactions.result', res);
    const pdf = await c.get(`/v3/order_transaction/${tx}/result/pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const doc = await PDFDocument.load(pdf.bytes);
    expect(doc.getCreationDate()?.toISOString().slice(0, 19)).toBe(mine.metadata.date_reported.slice(0, 19));
    const drawn = pdfStrings(pdf.bytes);
    // the report's value column holds 22 characters: a comment result (results cycle numeric, comment, range) is cut there
    for (const r of mine.results) expect(drawn).toContain(r.result.slice(0, 22));
    expect((await c.get(`/v3/order_transaction/${tx}/result/pdf`)).bytes.equals(pdf.bytes)).toBe(true);
  });
});

/** A re-draw: a second order of the same lab test in the first order's transaction (as the lab would create it). */
function addRedraw(c: TestClient, first: Order, id: string): Order {
  const world = c.sandbox.world;
  const team = world.tenancy.teams.get(first.team_id);
  if (!team) throw new Error('no team');
  const env = { world, partition: world.tenancy.partition(team, 'sandbox') };
  const redraw = buildOrder(ordersOf(env), {
    seed: world.seed,
    id,
    team_id: first.team_id,
    user_id: first.user_id,
    client_user_id: first.client_user_id,
    lab_test: first.lab_test,
    at: world.clock.now(),
    details_id: `${id.slice(0, -4)}beef`,
    shipment_id: null,
    transaction_id: first.transaction_id,
    patient_details: first.patient_details,
    patient_address: first.patient_address,
    fate: 'happy',
    flags: { interpretation: 'abnormal', result_types: null, has_missing_results: false },
  });
  redraw.origin = 'redraw';
  startOrder(env, redraw);
  return redraw;
}

it('merges all orders of a transaction: a re-draw replaces the first results analyte by analyte', async () => {
  const c = createClient('express', { seed: 142, ...SMALL });
  const placed = await newOrder(c, 'walk_in_test', { patient: { last_name: 'Missing' } });
  await c.post(`/v3/order/${placed.id}/test`);
  const firstResults = (await c.get(`/v3/order/${placed.id}/result`)).body;
  const world = c.sandbox.world;
  const team = world.tenancy.teams.get(placed.team_id);
  if (!team) throw new Error('no team');
  const first = ordersOf({ world, partition: world.tenancy.partition(team, 'sandbox') }).get(placed.id) as Order;
  const redraw = addRedraw(c, first, '0b1e2d3c-4a5b-4c6d-8e7f-0123456789ab');
  // Before the re-draw has results, the transaction shows the first order's.
  const partial = (await c.get(`/v3/order_transaction/${placed.order_transaction.id}/result`)).body;
  expect(partial.results).toEqual(firstResults.results);
  expect(partial.order_transaction.orders.map((o: any) => o.id)).toEqual([placed.id, redraw.id]);
  await c.post(`/v3/order/${redraw.id}/test`, { interpretation: 'abnormal' });
  const second = (await c.get(`/v3/order/${redraw.id}/result`)).body;
  const merged = (await c.get(`/v3/order_transaction/${placed.order_transaction.id}/result`)).body;
  oas?.expectValid('LabResultsRaw', merged);
  const bySlug = new Map<string, unknown>([...firstResults.results, ...second.results].map((r: any) => [r.slug, r]));
  expect(merged.results).toEqual([...bySlug.values()]);
  expect(firstResults.missing_results.length).toBeGreaterThan(0);
  // Missing results of the first draw that the re-draw reported are gone.
  const reported = new Set(second.results.map((r: any) => r.slug));
  expect(merged.missing_results.every((m: any) => !reported.has(m.slug))).toBe(true);
  expect(merged.missing_results).toEqual(firstResults.missing_results.filter((m: any) => !reported.has(m.slug)));
  expect(Object.keys(merged.sample_information).sort()).toEqual([placed.sample_id, redraw.sample_id].sort());
  expect(merged.metadata.specimen_number).toBe(redraw.sample_id);
  expect(merged.metadata.interpretation).toBe('abnormal');
});
