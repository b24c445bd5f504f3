/** PATCH /v3/lab_tests/{id}, the cursor-paginated GET /v3/lab_test and order communication settings (issue 13). */
import { expect, it } from 'vitest';
import { LABS_ERRORS } from '../../src/state/labs/errors.js';
import { createClient, forEachAdapter } from '../support/client.js';
import { oasValidator } from '../support/openapi.js';
import { SMALL, newOrder } from '../support/lab-helpers.js';

const oas = oasValidator('data');

forEachAdapter('lab tests: update and cursor pages', (adapter) => {
  it('renames and deactivates a lab test; an inactive test cannot be ordered', async () => {
    const c = createClient(adapter, { seed: 61, ...SMALL });
    const tests = (await c.get('/v3/lab_tests')).body as any[];
    const target = tests[1];
    const res = await c.patch(`/v3/lab_tests/${target.id}`, { name: 'Renamed Panel', active: false });
    expect(res.status, res.text).toBe(200);
    oas?.expectValid('ClientFacingLabTest', res.body);
    expect(res.body).toMatchObject({ id: target.id, name: 'Renamed Panel', status: 'inactive', is_active: false });
    expect((await c.get(`/v3/lab_tests/${target.id}`)).body.name).toBe('Renamed Panel');
    expect(((await c.get('/v3/lab_tests', { query: { status: 'inactive' } })).body as any[]).map((t) => t.id)).toEqual([target.id]);
    expect((await c.patch(`/v3/lab_tests/${target.id}`, { name: '' })).status).toBe(422);
    expect((await c.patch('/v3/lab_tests/00000000-0000-4000-8000-000000000000', { active: true })).body.detail).toBe(
      LABS_ERRORS.labTestNotFound,
    );
    expect((await c.patch(`/v3/lab_tests/${target.id}`, { active: true })).body.status).toBe('active');
  });

  it('pages through the lab tests by cursor, in the order of GET /v3/lab_tests', async () => {
    const c = createClient(adapter, { seed: 62, ...SMALL });
    for (let i = 0; i < 3; i++)
      expect(
        (await c.post('/v3/lab_tests', { name: `Panel ${i}`, method: 'walk_in_test', description: 'x', marker_ids: [3005] })).status,
      ).toBe(200);
    const all = ((await c.get('/v3/lab_tests')).body as any[]).map((t) => t.id);
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 10; i++) {
      const page = await c.get('/v3/lab_test', { query: { lab_test_limit: 3, ...(cursor ? { next_cursor: cursor } : {}) } });
      expect(page.status, page.text).toBe(200);
      oas?.expectValid('LabTestResourcesResponse', page.body);
      seen.push(...page.body.data.map((t: any) => t.id));
      cursor = page.body.next_cursor ?? undefined;
      if (!cursor) break;
    }
    expect(seen).toEqual(all);
    expect(all.length).toBe(7);
    const bad = await c.get('/v3/lab_test', { query: { next_cursor: 'not-a-cursor' } });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].msg).toBe(`Value error, ${LABS_ERRORS.invalidCursor}`);
  });

  it('order communication settings: SMS on by default, switched off and on', async () => {
    const c = createClient(adapter, { seed: 63, ...SMALL });
    const order = await newOrder(c, 'walk_in_test');
    const first = await c.get(`/v3/order/${order.id}/communication_settings`);
    expect(first.body).toEqual({ order_id: order.id, sms_enabled: true });
    oas?.expectValid('GetOrderCommunicationSettingsResponse', first.body);
    const off = await c.patch(`/v3/order/${order.id}/communication_settings`, { sms_enabled: false });
    oas?.expectValid('PatchOrderCommunicationSettingsResponse', off.body);
    expect(off.body.sms_enabled).toBe(false);
    expect((await c.get(`/v3/order/${order.id}/communication_settings`)).body.sms_enabled).toBe(false);
    expect((await c.patch(`/v3/order/${order.id}/communication_settings`, {})).status).toBe(422);
    expect((await c.get('/v3/order/00000000-0000-4000-8000-000000000000/communication_settings')).body.detail).toBe(
      LABS_ERRORS.orderGetNotFound,
    );
  });
});
