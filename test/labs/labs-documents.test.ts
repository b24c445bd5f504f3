/** Order documents (issue 13): requisition, labels, collection instructions, ABN. */
import { PDFDocument } from 'pdf-lib';
import { expect, it } from 'vitest';
import { LABS_ERRORS, LABS_TEXTS } from '../../src/state/labs/errors.js';
import { createClient, forEachAdapter, type TestClient } from '../support/client.js';
import { UNKNOWN_ID } from '../support/route-params.js';
import { pdfStrings } from '../support/pdf-helpers.js';
import { SMALL, newOrder, standardTests } from '../support/lab-helpers.js';

async function expectPdf(
  c: TestClient,
  path: string,
  query?: Record<string, string>,
): Promise<{ bytes: Buffer; doc: PDFDocument; drawn: string[] }> {
  const res = await c.get(path, query ? { query } : undefined);
  expect(res.status, res.text).toBe(200);
  expect(res.headers['content-type']).toBe('application/pdf');
  expect(res.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  return { bytes: res.bytes, doc: await PDFDocument.load(res.bytes), drawn: pdfStrings(res.bytes) };
}

forEachAdapter('order documents', (adapter) => {
  it('requisition: 404 before the order reaches the lab, then a deterministic PDF dated by the requisition', async () => {
    const c = createClient(adapter, { seed: 131, ...SMALL });
    const order = await newOrder(c, 'walk_in_test', {
      extra: { physician: { first_name: 'Ada', last_name: 'Byron', npi: '1234567893' }, icd_codes: ['Z00.00'] },
    });
    const before = await c.get(`/v3/order/${order.id}/requisition/pdf`);
    expect(before.status).toBe(404);
    expect(before.body).toEqual({ detail: LABS_TEXTS.requisitionNotAvailable(order.id) });
    const unknown = await c.get(`/v3/order/${UNKNOWN_ID}/requisition/pdf`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ detail: LABS_ERRORS.orderGetNotFound });
    expect((await c.get('/v3/order/not-a-uuid/requisition/pdf')).status).toBe(422);

    await c.advance(600);
    const got = (await c.get(`/v3/order/${order.id}`)).body;
    const req = got.events.find((e: any) => e.status.endsWith('.requisition_created'));
    const { bytes, doc, drawn } = await expectPdf(c, `/v3/order/${order.id}/requisition/pdf`);
    expect(doc.getTitle()).toBe('Quest Diagnostics Requisition');
    expect(doc.getCreationDate()?.toISOString()).toBe(new Date(req.created_at).toISOString());
    for (const s of [order.sample_id, 'Hopper, Grace', 'Ada Byron (NPI 1234567893)', 'Z00.00']) expect(drawn).toContain(s);
    for (const mk of order.lab_test.markers) expect(drawn).toContain(mk.provider_id);
    // Later steps of the order and later clock times leave the document as it was.
    await c.advance(3 * 86400);
    const again = await c.get(`/v3/order/${order.id}/requisition/pdf`);
    expect(again.bytes.equals(bytes)).toBe(true);
  });

  it('labels: at-home and on-site orders after the requisition, number_of_labels, collection_date required', async () => {
    const c = createClient(adapter, { seed: 132, ...SMALL });
    const walkIn = await newOrder(c, 'walk_in_test');
    const onSite = await newOrder(c, 'on_site_collection');
    const q = { collection_date: '2026-01-06T10:30:00Z' };
    const early = await c.get(`/v3/order/${onSite.id}/labels/pdf`, { query: q });
    expect(early.status).toBe(404);
    expect(early.body).toEqual({ detail: LABS_TEXTS.requisitionNotAvailable(onSite.id) });
    await c.advance(600);
    const wrong = await c.get(`/v3/order/${walkIn.id}/labels/pdf`, { query: q });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ detail: LABS_TEXTS.labelsNotForMethod('walk_in_test') });
    const missing = await c.get(`/v3/order/${onSite.id}/labels/pdf`);
    expect(missing.status).toBe(422);
    expect(missing.body.detail[0].loc).toEqual(['query', 'collection_date']);
    for (const n of ['0', '31']) {
      const bad = await c.get(`/v3/order/${onSite.id}/labels/pdf`, { query: { ...q, number_of_labels: n } });
      expect(bad.status).toBe(422);
      expect(bad.body.detail[0].loc).toEqual(['query', 'number_of_labels']);
    }
    const three = await expectPdf(c, `/v3/order/${onSite.id}/labels/pdf`, q);
    expect(three.drawn.filter((s) => s.startsWith('Accession '))).toEqual([1, 2, 3].map((i) => `Accession ${onSite.sample_id}-0${i}`));
    expect(three.drawn).toContain('Collected 2026-01-06 10:30 UTC');
    expect(three.drawn).toContain('HOPPER, Grace');
    const many = await expectPdf(c, `/v3/order/${onSite.id}/labels/pdf`, { ...q, number_of_labels: '30' });
    expect(many.drawn.filter((s) => s.startsWith('Accession '))).toHaveLength(30);
    expect(many.doc.getPageCount()).toBe(1);
    expect((await c.get(`/v3/order/${onSite.id}/labels/pdf`, { query: q })).bytes.equals(three.bytes)).toBe(true);
  });

  it('collection instructions: testkit orders and lab tests; others 404', async () => {
    const c = createClient(adapter, { seed: 133, ...SMALL });
    const tests = await standardTests(c);
    const kit = await newOrder(c, 'testkit');
    const walkIn = await newOrder(c, 'walk_in_test');
    const forOrder = await expectPdf(c, `/v3/order/${kit.id}/collection_instruction_pdf`);
    expect(forOrder.drawn).toContain(kit.sample_id);
    expect(forOrder.drawn.some((s) => s.startsWith('Collecting: '))).toBe(true);
    expect(forOrder.doc.getCreationDate()?.toISOString()).toBe(new Date(kit.created_at).toISOString());
    const forTest = await expectPdf(c, `/v3/lab_test/${tests.testkit}/collection_instruction_pdf`);
    expect(forTest.doc.getTitle()).toBe(`${kit.lab_test.name} - Collection instructions`);
    expect(forTest.drawn).not.toContain(kit.sample_id);
    const none = await c.get(`/v3/order/${walkIn.id}/collection_instruction_pdf`);
    expect(none.status).toBe(404);
    expect(none.body).toEqual({ detail: LABS_ERRORS.noCollectionInstructions });
    expect((await c.get(`/v3/lab_test/${tests.walk_in_test}/collection_instruction_pdf`)).body).toEqual({
      detail: LABS_ERRORS.noCollectionInstructions,
    });
    const unknownTest = await c.get(`/v3/lab_test/${UNKNOWN_ID}/collection_instruction_pdf`);
    expect(unknownTest.status).toBe(404);
    expect(unknownTest.body).toEqual({ detail: LABS_ERRORS.labTestNotFound });
    expect((await c.get(`/v3/order/${UNKNOWN_ID}/collection_instruction_pdf`)).body).toEqual({ detail: LABS_ERRORS.orderGetNotFound });
  });

  it('ABN: only orders billed to insurance for a patient of Medicare age have one (has_abn)', async () => {
    const c = createClient(adapter, { seed: 134, ...SMALL });
    const plain = await newOrder(c, 'walk_in_test');
    expect(plain.has_abn).toBe(false);
    const none = await c.get(`/v3/order/${plain.id}/abn_pdf`);
    expect(none.status).toBe(404);
    expect(none.body).toEqual({ detail: LABS_TEXTS.abnNotAvailable(plain.id) });
    const insured = { billing_type: 'commercial_insurance', health_insurance: { payor_code: 'MEDICARE', member_id: 'M123' } };
    const young = await newOrder(c, 'walk_in_test', { extra: insured });
    expect(young.has_abn).toBe(false);
    const senior = await newOrder(c, 'walk_in_test', { patient: { dob: '1950-02-01' }, extra: insured });
    expect(senior.has_abn).toBe(true);
    const { bytes, doc, drawn } = await expectPdf(c, `/v3/order/${senior.id}/abn_pdf`);
    expect(doc.getTitle()).toBe('Advance Beneficiary Notice of Noncoverage (ABN)');
    expect(drawn).toContain(senior.sample_id);
    expect(drawn).toContain('Grace Hopper');
    expect((await c.get(`/v3/order/${senior.id}/abn_pdf`)).bytes.equals(bytes)).toBe(true);
    expect((await c.get(`/v3/order/${UNKNOWN_ID}/abn_pdf`)).body).toEqual({ detail: LABS_ERRORS.orderGetNotFound });
  });
});

it('the same state gives the same document bytes in two sandboxes of one seed', async () => {
  const docs = async () => {
    const c = createClient('express', { seed: 135, ...SMALL });
    const order = await newOrder(c, 'at_home_phlebotomy');
    await c.advance(600);
    return Promise.all([
      c.get(`/v3/order/${order.id}/requisition/pdf`),
      c.get(`/v3/order/${order.id}/labels/pdf`, { query: { collection_date: '2026-01-07' } }),
    ]);
  };
  const [a, b] = [await docs(), await docs()];
  for (let i = 0; i < a.length; i++) {
    expect(a[i]?.status).toBe(200);
    expect(a[i]?.bytes.equals(b[i]?.bytes ?? Buffer.alloc(0))).toBe(true);
  }
});
