/**
 * IgE and IgG timeseries end to end: the catalogue's immunoglobulin markers (total IgE, total
 * IgG, the allergen IgE panel) are ordered, simulated to completion, and their numeric results
 * come back as `ige` / `igg` samples (typed by allergen, in the result's unit), raw and grouped
 * by the performing lab, announced with `daily.data.ige|igg.created`; real schemas, both
 * adapters, and the official SDK's `vitals.ige` / `vitals.igg`.
 */
import { VitalClient } from '@tryvital/vital-node';
import { expect, it } from 'vitest';
import { createClient, forEachAdapter, type TestClient } from '../support/client.js';
import { oasValidator } from '../support/openapi.js';
import { startServer } from '../support/server.js';
import { ADDRESS, PATIENT, firstUserId } from '../support/lab-helpers.js';
import { completedNumericOrder } from './sdk-lab-order.js';

const oas = oasValidator('data');
const Q = { start_date: '2025-01-01' };
const ALLERGENS = ['baha_grass', 'cat_dander', 'common_ragweed', 'dog_dander', 'peanut'];

async function markerId(c: TestClient, lab: string, slug: string): Promise<number> {
  const res = await c.get('/v3/lab_tests/markers', { query: { lab_slug: lab, name: slug, size: 100 } });
  expect(res.status).toBe(200);
  const mk = res.body.markers.find((m: { slug: string }) => m.slug === slug);
  expect(mk, slug).toBeDefined();
  return mk.id as number;
}

/** A user of no seeded order (the default world gives one seeded user an IgE/IgG panel). */
async function freshUserId(c: TestClient): Promise<string> {
  const res = await c.post('/v2/user', { client_user_id: `immuno-fresh-${++fresh}` });
  expect(res.status, res.text).toBe(200);
  return res.body.user_id;
}
let fresh = 0;

/** Creates a walk-in lab test of the given markers at Quest, orders it for the user and completes it. */
async function completedOrder(
  c: TestClient,
  userId: string,
  slugs: string[],
  flags?: Record<string, unknown>,
): Promise<{ order: any; results: any[] }> {
  const marker_ids = [];
  for (const s of slugs) marker_ids.push(await markerId(c, 'quest', s));
  const test = await c.post('/v3/lab_tests', {
    name: 'Allergy and Immunology',
    method: 'walk_in_test',
    description: 'IgE, IgG',
    marker_ids,
  });
  expect(test.status, test.text).toBe(200);
  const placed = await c.post('/v3/order', {
    user_id: userId,
    lab_test_id: test.body.id,
    patient_details: PATIENT,
    patient_address: ADDRESS,
  });
  expect(placed.status, placed.text).toBe(200);
  const order = placed.body.order;
  // lab-derived timeseries take numeric results only (without result_types the sandbox cycles numeric, comment and range)
  const numeric = { result_types: ['numeric'], ...(flags ?? {}) };
  const sim = await c.post(`/v3/order/${order.id}/test`, numeric, { query: { final_status: 'completed.walk_in_test.completed' } });
  expect(sim.status, sim.text).toBe(200);
  const result = await c.get(`/v3/order/${order.id}/result`);
  expect(result.status, result.text).toBe(200);
  return { order, results: result.body.results };
}

forEachAdapter('timeseries: IgE and IgG from immunoglobulin lab results', (adapter) => {
  it('the catalogue offers total IgE, total IgG and the allergen IgE panel at venous labs, with real LOINC codes and ranges', async () => {
    const c = createClient(adapter, { seed: 61, users: 1, usersElsewhere: 0 });
    const panel = await c.get('/v3/lab_tests/markers', { query: { lab_slug: 'labcorp', name: 'allergen-panel-ige' } });
    expect(panel.body.total).toBe(1);
    oas?.expectValid('GetMarkersResponse', panel.body);
    const mk = panel.body.markers[0];
    expect(mk).toMatchObject({ type: 'panel', lab_id: 4, a_la_carte_enabled: true });
    expect(mk.expected_results.map((r: any) => [r.slug, r.loinc.code, r.loinc.unit])).toEqual([
      ['ige-total', '19113-0', 'IU/mL'],
      ['ige-baha-grass', '6034-3', 'kU/L'],
      ['ige-common-ragweed', '6085-5', 'kU/L'],
      ['ige-cat-dander', '6833-8', 'kU/L'],
      ['ige-dog-dander', '6098-8', 'kU/L'],
      ['ige-peanut', '6206-7', 'kU/L'],
    ]);
    const igg = await c.get('/v3/lab_tests/markers', { query: { lab_slug: 'quest', name: 'igg-total' } });
    expect(igg.body.markers[0]).toMatchObject({ type: 'biomarker', unit: 'mg/dL' });
    expect(igg.body.markers[0].expected_results[0].loinc).toMatchObject({ code: '2465-3', name: 'IgG [Mass/volume] in Serum or Plasma' });
    // Serum immunology is not offered by the testkit labs.
    expect((await c.get('/v3/lab_tests/markers', { query: { lab_slug: 'spiriplex', name: 'ige-total' } })).body.total).toBe(0);
  });

  it("a completed order brings its IgE and IgG results as samples, by lab, with the results' values and units", async () => {
    const c = createClient(adapter, { seed: 62, users: 2, usersElsewhere: 0 });
    const userId = await freshUserId(c); // not a seeded user: the default world seeds an immunoglobulin panel
    const other = await firstUserId(c, 1);
    for (const r of ['ige', 'igg']) expect((await c.get(`/v2/timeseries/${userId}/${r}`, { query: Q })).body).toEqual([]);

    const { order, results } = await completedOrder(c, userId, ['allergen-panel-ige', 'igg-total']);
    const byslug = new Map(results.map((r: any) => [r.slug, r]));
    expect([...byslug.keys()].sort()).toEqual([
      'ige-baha-grass',
      'ige-cat-dander',
      'ige-common-ragweed',
      'ige-dog-dander',
      'ige-peanut',
      'ige-total',
      'igg-total',
    ]);
    for (const r of results) expect(r.interpretation, r.slug).toBe('normal');
    const when = new Date(Date.parse(results[0].timestamp)).toISOString().replace('.000Z', '+00:00');

    const ige = await c.get(`/v2/timeseries/${userId}/ige`, { query: Q });
    expect(ige.status).toBe(200);
    for (const s of ige.body) oas?.expectValid('ClientFacingIgeTimeseries', s);
    expect(ige.body.map((s: any) => s.type).sort()).toEqual([...ALLERGENS, 'total'].sort());
    for (const s of ige.body) {
      const r = byslug.get(s.type === 'total' ? 'ige-total' : `ige-${s.type.replace(/_/g, '-')}`);
      expect(s).toMatchObject({ timestamp: when, unit: r.unit, value: r.value });
      expect(typeof s.timezone_offset).toBe('number');
    }
    const igg = await c.get(`/v2/timeseries/${userId}/igg`, { query: Q });
    for (const s of igg.body) oas?.expectValid('ClientFacingIggTimeseries', s);
    expect(igg.body).toEqual([
      expect.objectContaining({ type: 'total', unit: 'mg/dL', value: byslug.get('igg-total').value, timestamp: when }),
    ]);

    const lab = order.lab_test.lab.slug as string;
    expect(lab).toBe('quest');
    const grouped = await c.get(`/v2/timeseries/${userId}/ige/grouped`, { query: Q });
    oas?.expectValid('GroupedIgeResponse', grouped.body);
    expect(Object.keys(grouped.body.groups)).toEqual([lab]);
    expect(grouped.body.groups[lab][0].source).toMatchObject({ provider: lab, type: 'unknown' });
    expect(grouped.body.groups[lab][0].data).toEqual(ige.body);
    const groupedG = await c.get(`/v2/timeseries/${userId}/igg/grouped`, { query: { ...Q, provider: lab } });
    oas?.expectValid('GroupedIggResponse', groupedG.body);
    expect(groupedG.body.groups[lab][0].data).toEqual(igg.body);
    // Another lab, a window before the collection, another user: none of it.
    expect((await c.get(`/v2/timeseries/${userId}/ige`, { query: { ...Q, provider: 'labcorp' } })).body).toEqual([]);
    expect((await c.get(`/v2/timeseries/${userId}/igg`, { query: { start_date: '2025-01-01', end_date: '2025-01-02' } })).body).toEqual([]);
    expect((await c.get(`/v2/timeseries/${other}/ige`, { query: Q })).body).toEqual([]);
    // Cholesterol is not touched by an immunology order.
    expect((await c.get(`/v2/timeseries/${userId}/cholesterol`, { query: Q })).body.filter((s: any) => s.timestamp === when)).toEqual([]);
  });

  it('an abnormal order flags an immunoglobulin out of range; the sample carries the flagged value', async () => {
    const c = createClient(adapter, { seed: 63, users: 1, usersElsewhere: 0 });
    const userId = await freshUserId(c); // not a seeded user: the default world seeds an immunoglobulin panel
    const { results } = await completedOrder(c, userId, ['ige-total', 'igg-total'], { interpretation: 'abnormal' });
    const flagged = results.filter((r: any) => r.interpretation === 'abnormal');
    expect(flagged).toHaveLength(1);
    expect(flagged[0].is_above_max_range || flagged[0].is_below_min_range).toBe(true);
    const served = [
      ...(await c.get(`/v2/timeseries/${userId}/ige`, { query: Q })).body,
      ...(await c.get(`/v2/timeseries/${userId}/igg`, { query: Q })).body,
    ];
    expect(served.map((s: any) => s.value).sort()).toEqual(results.map((r: any) => r.value).sort());
    // Reference ranges as labs print them.
    expect(results.find((r: any) => r.slug === 'ige-total')).toMatchObject({
      min_range_value: null,
      max_range_value: 114,
      reference_range: '<115',
    });
    expect(results.find((r: any) => r.slug === 'igg-total')).toMatchObject({
      min_range_value: 600,
      max_range_value: 1640,
      reference_range: '600-1640',
    });
  });

  it('final results announce daily.data.ige.created and daily.data.igg.created with the served samples', async () => {
    const c = createClient(adapter, { seed: 64, users: 1, usersElsewhere: 0, feed: 'on' });
    const userId = await freshUserId(c); // not a seeded user: the default world seeds an immunoglobulin panel
    await completedOrder(c, userId, ['allergen-panel-ige', 'igg-total']);
    const journal = (
      await c.get('/_sandbox/events', { query: { limit: 10000, user_id: userId, event_type_prefix: 'daily.data.ig' } })
    ).body.events.map((e: any) => e.envelope);
    expect(journal.map((e: any) => e.event_type).sort()).toEqual(['daily.data.ige.created', 'daily.data.igg.created']);
    for (const e of journal) {
      const resource = e.event_type.split('.')[2] as 'ige' | 'igg';
      oas?.expectValid(resource === 'ige' ? 'ClientFacingIgeChanged' : 'ClientFacingIggChanged', {
        ...e,
        client_user_id: '00000000-0000-4000-8000-000000000000',
      });
      const served = (await c.get(`/v2/timeseries/${userId}/${resource}`, { query: Q })).body;
      expect(e.data.data).toEqual(served);
    }
  });
});

it('the official SDK parses vitals.ige / vitals.igg and their grouped forms', async () => {
  const server = await startServer({ seed: 65, users: 1, usersElsewhere: 0 });
  try {
    const client = new VitalClient({
      apiKey: server.sandbox.credentials().teams[0]?.api_keys.sandbox ?? '',
      baseUrl: server.baseUrl,
      maxRetries: 0,
    });
    const userId = (await client.user.create({ clientUserId: 'immuno-sdk' })).userId; // not the seeded panel's user
    const markers = await client.labTests.getMarkers({ labId: 3, name: 'allergen-panel-ige' });
    const igg = await client.labTests.getMarkers({ labId: 3, name: 'igg-total' });
    const test = await client.labTests.create({
      name: 'Allergy',
      method: 'walk_in_test',
      description: 'IgE panel and IgG',
      markerIds: [markers.markers[0]?.id ?? 0, igg.markers[0]?.id ?? 0],
    });
    await completedNumericOrder(client, userId, test.id);
    const q = { startDate: '2025-01-01' };
    const ige = await client.vitals.ige(userId, q);
    expect(ige.map((s) => s.type).sort()).toEqual([...ALLERGENS, 'total'].sort());
    expect(ige.every((s) => s.timestamp instanceof Date && typeof s.value === 'number')).toBe(true);
    const iggs = await client.vitals.igg(userId, q);
    expect(iggs.map((s) => [s.type, s.unit])).toEqual([['total', 'mg/dL']]);
    const grouped = await client.vitals.igeGrouped(userId, q);
    expect(grouped.groups.quest?.[0]?.data).toHaveLength(6);
    expect((await client.vitals.iggGrouped(userId, { ...q, provider: 'quest' })).groups.quest?.[0]?.source.provider).toBe('quest');
  } finally {
    await server.close();
  }
});
