/** Lab results: raw results, metadata and the PDF report (api-facts B.6). */
import { LABS_ERRORS, LABS_TEXTS } from '../../src/state/labs/errors.js';
import { PDFDocument } from 'pdf-lib';
import { expect, it } from 'vitest';
import { createClient, forEachAdapter } from '../support/client.js';
import { oasValidator } from '../support/openapi.js';
import { SMALL, getOrder, newOrder } from '../support/lab-helpers.js';
import { pdfStrings } from '../support/pdf-helpers.js';

const DAY = 86400;
const oas = oasValidator('data');

forEachAdapter('lab results', (adapter) => {
  it('answers the reference 404s before results exist and for unknown orders', async () => {
    const c = createClient(adapter, { seed: 51, ...SMALL });
    const order = await newOrder(c, 'walk_in_test');
    for (const suffix of ['result', 'result/metadata', 'result/pdf']) {
      const res = await c.get(`/v3/order/${order.id}/${suffix}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: LABS_TEXTS.resultsNotAvailable(order.id) });
      expect((await c.get(`/v3/order/00000000-0000-4000-8000-000000000000/${suffix}`)).body).toEqual({
        detail: LABS_ERRORS.orderResultNotFound,
      });
    }
  });

  it('partial results show a subset, final results every marker with ranges and derived interpretation', async () => {
    const c = createClient(adapter, { seed: 52, ...SMALL });
    const order = await newOrder(c, 'walk_in_test', { patient: { last_name: 'Abnormal' } });
    await c.advance(5 * 60 + 2 * DAY);
    const partial = await c.get(`/v3/order/${order.id}/result`);
    expect(partial.status).toBe(200);
    expect(partial.body.metadata.status).toBe('partial');
    await c.advance(DAY);
    const final = await c.get(`/v3/order/${order.id}/result`);
    expect(final.body.metadata.status).toBe('final');
    oas?.expectValid('LabResultsRaw', final.body);
    const expected = order.lab_test.markers.length;
    expect(expected).toBe(4);
    const markers = (await c.get(`/v3/lab_tests/${order.lab_test.id}/markers`)).body.markers;
    const slugs = markers.flatMap((m: any) => m.expected_results.map((r: any) => r.slug));
    expect(final.body.results.map((r: any) => r.slug)).toEqual(slugs);
    expect(partial.body.results.length).toBeLessThan(final.body.results.length);
    expect(final.body.missing_results).toEqual([]);
    for (const r of final.body.results) {
      expect(typeof r.result).toBe('string');
      if (r.type === 'numeric' && r.value !== null) {
        const above = r.max_range_value !== null && r.value > r.max_range_value;
        const below = r.min_range_value !== null && r.value < r.min_range_value;
        expect(r.is_above_max_range).toBe(above);
        expect(r.is_below_min_range).toBe(below);
        expect(r.interpretation === 'normal').toBe(!above && !below);
      }
      expect(r.loinc).toMatch(/^\d+-\d$/);
      expect(r.source_markers[0].marker_id).toBeGreaterThan(0);
    }
    const flagged = final.body.results.filter((r: any) => r.interpretation !== 'normal');
    expect(flagged.map((r: any) => r.interpretation)).toEqual(['abnormal']);
    const meta = await c.get(`/v3/order/${order.id}/result/metadata`);
    expect(meta.body).toEqual(final.body.metadata);
    expect(meta.body).toMatchObject({
      patient: 'Grace Abnormal',
      dob: '1985-12-09',
      age: '40',
      laboratory: 'Quest Diagnostics',
      specimen_number: order.sample_id,
      interpretation: 'abnormal',
    });
    oas?.expectValid('LabResultsMetadata', meta.body);
    expect((await getOrder(c, order.id)).interpretation).toBe('abnormal');
    // same seed, same requests: same bytes
    const twin = createClient(adapter, { seed: 52, ...SMALL });
    const twinOrder = await newOrder(twin, 'walk_in_test', { patient: { last_name: 'Abnormal' } });
    await twin.advance(5 * 60 + 3 * DAY);
    expect(twinOrder.id).toBe(order.id);
    expect((await twin.get(`/v3/order/${order.id}/result`)).text).toBe(final.text);
  });

  it('reports missing results and cycles the asked result types', async () => {
    const c = createClient(adapter, { seed: 53, ...SMALL });
    const order = await newOrder(c, 'on_site_collection', { patient: { last_name: 'Missing' } });
    await c.post(`/v3/order/${order.id}/test`);
    const res = (await c.get(`/v3/order/${order.id}/result`)).body;
    expect(res.missing_results.length).toBeGreaterThan(0);
    for (const m of res.missing_results) expect(m.inferred_failure_type).toMatch(/failure|volume/);
    expect((await getOrder(c, order.id)).has_missing_results).toBe(true);

    const typed = await newOrder(c, 'on_site_collection');
    await c.post(`/v3/order/${typed.id}/test`, { result_types: ['numeric', 'range', 'comment', 'coded_value'] });
    const body = (await c.get(`/v3/order/${typed.id}/result`)).body;
    expect(body.results.slice(0, 4).map((r: any) => r.type)).toEqual(['numeric', 'range', 'comment', 'coded_value']);
    expect(body.results[2].result).toBe('Within reference range');
    expect(body.results[3].result).toBe('Normal');
    oas?.expectValid('LabResultsRaw', body);
  });

  it('serves a real, deterministic PDF listing the results', async () => {
    const c = createClient(adapter, { seed: 54, ...SMALL });
    const order = await newOrder(c, 'testkit', { patient: { last_name: 'Critical' } });
    await c.post(`/v3/order/${order.id}/test`);
    const pdf = await c.get(`/v3/order/${order.id}/result/pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const doc = await PDFDocument.load(pdf.bytes);
    expect(doc.getPageCount()).toBeGreaterThanOrEqual(1);
    expect(doc.getTitle()).toBe('Spiriplex Laboratory Report');
    const results = (await c.get(`/v3/order/${order.id}/result`)).body;
    expect(doc.getCreationDate()?.toISOString().slice(0, 19)).toBe(results.metadata.date_reported.slice(0, 19));
    const drawn = pdfStrings(pdf.bytes);
    for (const r of results.results) {
      expect(drawn).toContain(r.name.slice(0, 38));
      expect(drawn).toContain(r.result);
    }
    expect(drawn).toContain('CRITICAL');
    expect(drawn).toContain('Grace Critical');
    expect(drawn).toContain(order.sample_id);
    const again = await c.get(`/v3/order/${order.id}/result/pdf`);
    expect(again.bytes.equals(pdf.bytes)).toBe(true);
  });
});
