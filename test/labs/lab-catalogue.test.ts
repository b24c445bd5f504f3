/** Labs, lab tests, markers and order-set markers (spec 2.5, 4.7). */
import { expect, it } from 'vitest';
import { createClient, forEachAdapter } from '../support/client.js';
import { oasValidator } from '../support/openapi.js';
import { SMALL, standardTests } from '../support/lab-helpers.js';

const oas = oasValidator('data');

forEachAdapter('lab catalogue', (adapter) => {
  it('lists labs and the four standard lab tests, one per method', async () => {
    const c = createClient(adapter, { seed: 41, ...SMALL });
    const labs = await c.get('/v3/lab_tests/labs');
    expect(labs.status).toBe(200);
    expect(labs.body.map((l: any) => l.slug)).toEqual(['spiriplex', 'ussl', 'quest', 'labcorp', 'bioreference', 'sonora_quest']);
    for (const lab of labs.body) oas?.expectValid('ClientFacingLab', lab);
    const tests = await c.get('/v3/lab_tests');
    expect(tests.body.map((t: any) => t.method)).toEqual(['testkit', 'walk_in_test', 'at_home_phlebotomy', 'on_site_collection']);
    for (const t of tests.body) {
      oas?.expectValid('ClientFacingLabTest', t);
      expect(t.status).toBe('active');
      expect(t.price).toBeCloseTo(
        t.markers.reduce((s: number, m: any) => s + Number(m.price), 0),
        2,
      );
      expect(t.markers.every((m: any) => m.lab_id === t.lab.id)).toBe(true);
    }
    expect(tests.body[0].sample_type).toBe('dried_blood_spot');
    expect(tests.body[1].sample_type).toBe('serum');
    const one = await c.get(`/v3/lab_tests/${tests.body[2].id}`);
    expect(one.body).toEqual(tests.body[2]);
    expect((await c.get('/v3/lab_tests/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    // another team's tests are its own
    const eu = c.creds.teams[1]?.api_keys.sandbox ?? '';
    const theirs = await c.get('/v3/lab_tests', { headers: { 'x-service-api-key': eu } });
    expect(theirs.body).toHaveLength(4);
    expect(theirs.body[0].id).not.toBe(tests.body[0].id);
  });

  it('creates lab tests from marker ids or lab test codes and filters them', async () => {
    const c = createClient(adapter, { seed: 42, ...SMALL });
    const created = await c.post('/v3/lab_tests', {
      name: 'Thyroid Check',
      method: 'walk_in_test',
      description: 'TSH and free T4',
      provider_ids: ['899', '866'],
    });
    expect(created.status, created.text).toBe(200);
    expect(created.body).toMatchObject({
      name: 'Thyroid Check',
      slug: 'thyroid-check',
      method: 'walk_in_test',
      auto_generated: false,
      status: 'active',
      fasting: false,
    });
    expect(created.body.lab.slug).toBe('quest');
    expect(created.body.markers.map((m: any) => m.provider_id)).toEqual(['899', '866']);
    oas?.expectValid('ClientFacingLabTest', created.body);
    const byIds = await c.post('/v3/lab_tests', {
      name: 'Thyroid Check',
      method: 'testkit',
      description: 'x',
      marker_ids: [1005, 1007],
      fasting: true,
    });
    expect(byIds.status, byIds.text).toBe(200);
    expect(byIds.body.slug).toBe('thyroid-check-2');
    expect(byIds.body.lab.slug).toBe('spiriplex');
    expect(byIds.body.fasting).toBe(true);

    const errors: Array<[unknown, number]> = [
      [{ name: 'x', method: 'walk_in_test', description: 'x' }, 422],
      [{ name: 'x', method: 'teleport', description: 'x', marker_ids: [3001] }, 422],
      [{ name: 'x', method: 'walk_in_test', description: 'x', marker_ids: [999999] }, 400],
      [{ name: 'x', method: 'walk_in_test', description: 'x', marker_ids: [3001, 4001] }, 400],
      [{ name: 'x', method: 'testkit', description: 'x', marker_ids: [3001] }, 400],
      [{ name: 'x', method: 'walk_in_test', description: 'x', provider_ids: ['899'], lab_slug: 'labcorp' }, 400],
      [{ name: 'x', method: 'walk_in_test', description: 'x', provider_ids: ['899'], lab_slug: 'ayumetrix' }, 400],
    ];
    for (const [body, status] of errors) expect((await c.post('/v3/lab_tests', body)).status, JSON.stringify(body)).toBe(status);

    expect((await c.get('/v3/lab_tests', { query: { name: 'thyroid' } })).body).toHaveLength(2);
    expect((await c.get('/v3/lab_tests', { query: { collection_method: 'testkit' } })).body).toHaveLength(2);
    expect((await c.get('/v3/lab_tests', { query: { lab_slug: 'quest' } })).body.map((t: any) => t.name)).toEqual([
      'Essentials Walk-In Panel',
      'Essentials On-Site Collection Panel',
      'Thyroid Check',
    ]);
    expect((await c.get('/v3/lab_tests', { query: { provider_ids: ['899', '866'] } })).body.map((t: any) => t.id)).toEqual([
      created.body.id,
    ]);
    expect((await c.get('/v3/lab_tests', { query: { marker_ids: 1005 } })).body.map((t: any) => t.slug)).toEqual([
      'essentials-testkit',
      'thyroid-check-2',
    ]);
    const byPrice = (await c.get('/v3/lab_tests', { query: { order_key: 'price', order_direction: 'desc' } })).body.map(
      (t: any) => t.price,
    );
    expect(byPrice).toEqual([...byPrice].sort((a: number, b: number) => b - a));
    expect((await c.get('/v3/lab_tests', { query: { generation_method: 'bogus' } })).status).toBe(422);
  });

  it('searches markers with pagination and exposes expected results with LOINC codes', async () => {
    const c = createClient(adapter, { seed: 43, ...SMALL });
    const first = await c.get('/v3/lab_tests/markers', { query: { size: 20 } });
    expect(first.status).toBe(200);
    expect(first.body.total).toBeGreaterThan(100);
    expect(first.body).toMatchObject({ page: 1, size: 20, pages: Math.ceil(first.body.total / 20) });
    expect(first.body.markers).toHaveLength(20);
    oas?.expectValid('GetMarkersResponse', first.body);
    const quest = await c.get('/v3/lab_tests/markers', { query: { lab_slug: 'quest', name: 'glucose', size: 100 } });
    expect(quest.body.markers.map((m: any) => m.name)).toEqual(['Glucose']);
    const glucose = quest.body.markers[0];
    expect(glucose).toMatchObject({ provider_id: '483', type: 'biomarker', unit: 'mg/dL', lab_id: 3, price: '5.00' });
    expect(glucose.expected_results).toEqual([
      {
        id: glucose.id * 100 + 1,
        name: 'Glucose',
        slug: 'glucose',
        lab_id: 3,
        provider_id: '483-1',
        required: true,
        loinc: { id: 23457, name: 'Glucose [Mass/volume] in Serum or Plasma', slug: 'glucose', code: '2345-7', unit: 'mg/dL' },
      },
    ]);
    const byCode = await c.get('/v3/lab_tests/markers', { query: { name: '004259' } });
    expect(byCode.body.markers.map((m: any) => [m.lab_id, m.name])).toEqual([[4, 'TSH']]);
    const labIds = await c.get('/v3/lab_tests/markers', { query: { lab_id: [1, 2], size: 100 } });
    expect(new Set(labIds.body.markers.map((m: any) => m.lab_id))).toEqual(new Set([1, 2]));
    expect(labIds.body.markers.every((m: any) => m.a_la_carte_enabled === false)).toBe(true);
    const priced = await c.get('/v3/lab_tests/markers', { query: { lab_slug: 'quest', size: 2, include_pricing: 'true' } });
    expect(priced.body.pricing).toEqual({
      currency: 'USD',
      data: { '3001': { base_amount_minor: 1200, modifiers: null }, '3002': { base_amount_minor: 1400, modifiers: null } },
    });
    for (const [key, value] of [
      ['page', 0],
      ['size', 0],
      ['size', 101],
    ] as const) {
      const res = await c.get('/v3/lab_tests/markers', { query: { [key]: value } });
      expect(res.status).toBe(422);
      expect(res.body.detail[0].loc).toEqual(['query', key]);
    }
    const one = await c.get('/v3/lab_tests/4/markers/004259');
    expect(one.body).toMatchObject({ id: 4005, name: 'TSH', provider_id: '004259' });
    oas?.expectValid('ClientFacingMarker', one.body);
    expect((await c.get('/v3/lab_tests/4/markers/nope')).status).toBe(404);
  });

  it('lists the markers of a lab test and of an order set', async () => {
    const c = createClient(adapter, { seed: 44, ...SMALL });
    const tests = await standardTests(c);
    const own = await c.get(`/v3/lab_tests/${tests.walk_in_test}/markers`, { query: { size: 3 } });
    expect(own.body).toMatchObject({ total: 4, page: 1, size: 3, pages: 2 });
    expect(own.body.markers.map((m: any) => m.slug)).toEqual(['comprehensive-metabolic-panel', 'complete-blood-count', 'lipid-panel']);
    const cmp = own.body.markers[0];
    expect(cmp.type).toBe('panel');
    expect(cmp.expected_results.map((r: any) => r.loinc.code)).toContain('2951-2');
    expect(cmp.expected_results.find((r: any) => r.slug === 'egfr').required).toBe(false);
    expect((await c.get('/v3/lab_tests/00000000-0000-4000-8000-000000000000/markers')).status).toBe(404);

    const set = await c.post(
      '/v3/lab_tests/list_order_set_markers',
      { lab_test_ids: [tests.walk_in_test], add_on: { marker_ids: [3009], provider_ids: ['899', '10231'] } },
      { query: { page: 2, size: 4 } },
    );
    expect(set.status, set.text).toBe(200);
    expect(set.body).toMatchObject({ total: 6, page: 2, size: 4, pages: 2 });
    expect(set.body.markers.map((m: any) => m.provider_id)).toEqual(['17306', '899']);
    for (const m of set.body.markers) for (const r of m.expected_results) expect(typeof r.required).toBe('boolean');
    oas?.expectValid('GetMarkersResponse', set.body);
    const empty = await c.post('/v3/lab_tests/list_order_set_markers', {});
    expect(empty.body).toEqual({ markers: [], total: 0, page: 1, size: 50, pages: 0 });
    expect((await c.post('/v3/lab_tests/list_order_set_markers', { lab_test_ids: ['00000000-0000-4000-8000-000000000000'] })).status).toBe(
      404,
    );
    expect(
      (await c.post('/v3/lab_tests/list_order_set_markers', { lab_test_ids: [tests.walk_in_test], add_on: { provider_ids: ['004259'] } }))
        .status,
    ).toBe(400);
    expect((await c.post('/v3/lab_tests/list_order_set_markers', { lab_test_ids: ['nope'] })).status).toBe(422);
    expect((await c.post('/v3/lab_tests/list_order_set_markers', {}, { query: { size: 101 } })).status).toBe(422);
  });
});
