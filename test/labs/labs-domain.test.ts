/**
 * The labs domain layer (issue 10): the error catalogue is what the API answers, a rejected
 * request changes nothing, the listing's indexes (status, creation time, critical results)
 * agree with a full scan after every kind of change, and answers carry only the fields the real
 * schemas declare.
 */
import { describe, expect, it } from 'vitest';
import { LABS_ERRORS, LABS_TEXTS } from '../../src/state/labs/errors.js';
import { createClient, forEachAdapter, type TestClient } from '../support/client.js';
import { oasValidator } from '../support/openapi.js';
import { ADDRESS, PATIENT, SMALL, getOrder, newOrder } from '../support/lab-helpers.js';

const oas = oasValidator('data');
const DAY = 86_400;
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

async function everyOrder(c: TestClient, query: Record<string, string | number | Array<string | number>> = {}): Promise<any[]> {
  const out: any[] = [];
  for (let page = 1; page <= 50; page++) {
    const res = await c.get('/v3/orders', { query: { size: 100, page, ...query } });
    expect(res.status, res.text).toBe(200);
    out.push(...res.body.orders);
    if (out.length >= res.body.total) return out;
  }
  throw new Error('more than 50 pages');
}

const low = (o: any): string => String(o.last_event.status).split('.')[2] ?? '';
const ids = (list: any[]) => list.map((o) => o.id);

forEachAdapter('labs domain layer', (adapter) => {
  it('answers the catalogue texts', async () => {
    const c = createClient(adapter, { seed: 41, ...SMALL });
    expect((await c.get(`/v3/order/${UNKNOWN}`)).body.detail).toBe(LABS_ERRORS.orderGetNotFound);
    expect((await c.post(`/v3/order/${UNKNOWN}/cancel`)).body.detail).toBe(LABS_ERRORS.orderActionNotFound);
    expect((await c.get(`/v3/order/${UNKNOWN}/result`)).body.detail).toBe(LABS_ERRORS.orderResultNotFound);
    expect((await c.get(`/v3/order_transaction/${UNKNOWN}`)).body.detail).toBe(LABS_ERRORS.transactionNotFound);
    const order = await newOrder(c, 'walk_in_test');
    expect((await c.get(`/v3/order/${order.id}/result`)).body.detail).toBe(LABS_TEXTS.resultsNotAvailable(order.id));
    expect(
      (await c.post(`/v3/order/${order.id}/test`, undefined, { query: { final_status: 'completed.walk_in_test.completed' } })).status,
    ).toBe(200);
    const refused = await c.post(`/v3/order/${order.id}/cancel`);
    expect(refused.status).toBe(400);
    const text = LABS_TEXTS.transitionNotAllowed('completed', 'cancelled');
    expect(refused.body).toEqual({ detail: text, error: 'Bad Request', message: text, status_code: 400 });
    const draw = await c.patch(`/v3/order/${order.id}/draw_completed`);
    expect(draw.body.detail).toBe(LABS_ERRORS.drawOnlyOnSite);
    const resend = await c.post('/v3/order/resend_events', {});
    expect(resend.status).toBe(422);
    expect(resend.body.detail[0].msg).toBe(`Value error, ${LABS_ERRORS.resendNeedsSelection}`);
  });

  it('a rejected registration changes nothing', async () => {
    const c = createClient(adapter, { seed: 42, ...SMALL });
    const tests = (await c.get('/v3/lab_tests')).body as any[];
    const testkit = tests.find((t) => t.method === 'testkit' && !t.auto_generated);
    const users = (await c.get('/v2/user')).body.users;
    const created = await c.post('/v3/order/testkit', {
      user_id: users[0].user_id,
      lab_test_id: testkit.id,
      shipping_details: { ...ADDRESS, phone_number: '+14155550123' },
    });
    expect(created.status, created.text).toBe(200);
    const sim = await c.post(`/v3/order/${created.body.order.id}/test`, undefined, {
      query: { final_status: 'received.testkit.awaiting_registration' },
    });
    expect(sim.status, sim.text).toBe(200);
    const before = await getOrder(c, created.body.order.id);
    const bad = await c.post('/v3/order/testkit/register', {
      sample_id: before.sample_id,
      user_id: users[1].user_id,
      patient_details: { ...PATIENT, phone_number: '+15555550123' },
      patient_address: ADDRESS,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toBe(LABS_ERRORS.fictionalPhone);
    expect(await getOrder(c, before.id)).toEqual(before);
    expect(ids(await everyOrder(c, { user_id: users[1].user_id }))).not.toContain(before.id);
    const good = await c.post('/v3/order/testkit/register', {
      sample_id: before.sample_id,
      user_id: users[1].user_id,
      patient_details: PATIENT,
      patient_address: ADDRESS,
    });
    expect(good.status, good.text).toBe(200);
    expect(ids(await everyOrder(c, { user_id: users[1].user_id }))).toContain(before.id);
    expect(ids(await everyOrder(c, { user_id: users[0].user_id }))).not.toContain(before.id);
    expect(
      (await c.post('/v3/order/testkit/register', { sample_id: before.sample_id, patient_details: PATIENT, patient_address: ADDRESS })).body
        .detail,
    ).toBe(LABS_ERRORS.testkitAlreadyRegistered);
  });

  it('status, date and critical filters agree with a full scan after changes', async () => {
    const c = createClient(adapter, { seed: 43, ...SMALL });
    const placed = [
      await newOrder(c, 'walk_in_test'),
      await newOrder(c, 'walk_in_test', { patient: { last_name: 'Critical' } }),
      await newOrder(c, 'testkit'),
      await newOrder(c, 'at_home_phlebotomy'),
    ];
    await c.post(`/v3/order/${placed[0].id}/test`);
    await c.post(`/v3/order/${placed[1].id}/test`, { interpretation: 'critical' });
    await c.post(`/v3/order/${placed[2].id}/cancel`);
    await c.advance(2 * DAY);
    const scan = await everyOrder(c);
    const byStatus = new Map<string, string[]>();
    for (const o of scan) byStatus.set(low(o), [...(byStatus.get(low(o)) ?? []), o.id]);
    for (const [status, expected] of byStatus) {
      expect(ids(await everyOrder(c, { status })).sort(), status).toEqual([...expected].sort());
    }
    const critical = await everyOrder(c, { is_critical: 'true' });
    expect(ids(critical)).toContain(placed[1].id);
    expect(ids(critical)).not.toContain(placed[0].id);
    const notCritical = await everyOrder(c, { is_critical: 'false' });
    expect(critical.length + notCritical.length).toBe(scan.length);
    for (const interpretation of ['normal', 'abnormal', 'critical']) {
      expect(ids(await everyOrder(c, { interpretation })).sort()).toEqual(
        ids(scan.filter((o) => o.interpretation === interpretation)).sort(),
      );
    }
    // The default listing is newest first (ties: the later placed first), so its reverse is oldest first.
    const sorted = [...scan].reverse();
    for (let i = 1; i < sorted.length; i++) expect(sorted[i - 1].created_at <= sorted[i].created_at).toBe(true);
    const mid = sorted[Math.floor(sorted.length / 2)].created_at as string;
    const fromMid = await everyOrder(c, { start_date: mid, order_direction: 'asc' });
    expect(ids(fromMid)).toEqual(ids(sorted.filter((o) => o.created_at >= mid)));
    const page2 = await c.get('/v3/orders', { query: { size: 3, page: 2, order_direction: 'asc' } });
    expect(ids(page2.body.orders)).toEqual(ids(sorted.slice(3, 6)));
    const newest = await c.get('/v3/orders', { query: { size: 2 } });
    expect(ids(newest.body.orders)).toEqual(ids(scan.slice(0, 2)));
    expect(newest.body.total).toBe(scan.length);
    // A purge removes the user's orders from every index.
    const owner = placed[1].user_id;
    expect((await c.delete(`/v2/user/${owner}`)).status).toBeLessThan(300);
    await c.advance(8 * DAY);
    expect(ids(await everyOrder(c, { is_critical: 'true' }))).not.toContain(placed[1].id);
    expect(ids(await everyOrder(c, { status: 'completed' }))).not.toContain(placed[1].id);
  });
});

describe('labs answers carry only declared fields', () => {
  const declared = (name: string): Set<string> => new Set(Object.keys(oas?.doc.components.schemas[name].properties ?? {}));

  it('testkit shipments and seeded shipping details', async () => {
    if (!oas) return;
    const c = createClient('msw', { seed: 44, ...SMALL });
    const all = await everyOrder(c);
    const testkits = all.filter((o) => o.details.type === 'testkit' && o.details.data?.shipment);
    const shipped = all.filter((o) => o.shipping_details);
    expect(testkits.length).toBeGreaterThan(0);
    expect(shipped.length).toBeGreaterThan(0);
    const shipment = declared('ClientFacingShipment');
    for (const o of testkits) for (const key of Object.keys(o.details.data.shipment)) expect(shipment, key).toContain(key);
    const address = declared('ShippingAddress');
    for (const o of shipped) for (const key of Object.keys(o.shipping_details)) expect(address, key).toContain(key);
    for (const o of all) oas.expectValid('ClientFacingOrder', o);
  });
});
