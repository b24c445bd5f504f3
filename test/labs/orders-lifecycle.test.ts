/** Lab orders on the sandbox clock: each method's full lifecycle, side paths and events. */
import { LABS_ERRORS, LABS_TEXTS } from '../../src/state/labs/errors.js';
import { describe, expect, it } from 'vitest';
import { createClient, forEachAdapter, type TestClient } from '../support/client.js';
import { oasValidator } from '../support/openapi.js';
import { SMALL, bookPhlebotomy, expectConsistent, getOrder, labEvents, lows, newOrder } from '../support/lab-helpers.js';

const DAY = 86400;
const oas = oasValidator('data');

/** Moves the sandbox clock on by `seconds`, then reads the order again. */
async function orderAfter(c: TestClient, seconds: number, orderId: string) {
  await c.advance(seconds);
  return getOrder(c, orderId);
}

/** A testkit registration body (`POST /v3/order/testkit/register`): the patient, at the kit's Denver address. */
const registration = (sampleId: string, firstName: string, lastName: string) => ({
  sample_id: sampleId,
  patient_details: {
    first_name: firstName,
    last_name: lastName,
    dob: '1990-01-01',
    gender: 'male',
    phone_number: '+13035550101',
    email: `${firstName.toLowerCase()}@example.com`,
  },
  patient_address: { first_line: '5 Oak Avenue', city: 'Denver', state: 'CO', zip: '80202', country: 'US' },
});

forEachAdapter('lab order lifecycle', (adapter) => {
  it('a testkit walks ordered -> completed on the clock, shipment tracking in step', async () => {
    const c = createClient(adapter, { seed: 11, ...SMALL });
    const order = await newOrder(c, 'testkit');
    expect(order.status).toBe('received');
    expect(lows(order)).toEqual(['ordered']);
    expect(order.details.data.shipment.outbound_tracking_number).toBeNull();
    oas?.expectValid('ClientFacingOrder', order);

    let now = await orderAfter(c, 5 * 60, order.id);
    expect(lows(now)).toEqual(['ordered', 'requisition_created']);
    expectConsistent(now);

    now = await orderAfter(c, 3600, order.id);
    expect(now.last_event.status).toBe('collecting_sample.testkit.transit_customer');
    expect(now.status).toBe('collecting_sample');
    expect(now.details.data.shipment.outbound_tracking_number).toMatch(/^\d{12}$/);
    expect(now.details.data.shipment.outbound_courier).toBe('fedex');
    expect(now.details.data.shipment.inbound_tracking_number).toBeNull();
    expect(now.order_transaction.status).toBe('active');
    expectConsistent(now);

    now = await orderAfter(c, 9 * DAY, order.id);
    expect(lows(now)).toEqual([
      'ordered',
      'requisition_created',
      'transit_customer',
      'out_for_delivery',
      'with_customer',
      'transit_lab',
      'delivered_to_lab',
      'completed',
    ]);
    expect(now.status).toBe('completed');
    expect(now.details.data.shipment.inbound_tracking_number).toMatch(/^9400\d{18}$/);
    expect(now.order_transaction.status).toBe('completed');
    expect(now.interpretation).toBe('normal');
    expect(now.has_missing_results).toBe(false);
    expectConsistent(now);
    oas?.expectValid('ClientFacingOrder', now);

    const events = await labEvents(c, order.id);
    expect(events.map((e) => e.type)).toEqual(['labtest.order.created', ...Array(7).fill('labtest.order.updated')]);
    expect(events.map((e) => e.status)).toEqual(now.events.map((e: any) => e.status));
    // each event carries the full order as it was then
    expect(events[2]?.data.events).toHaveLength(3);
    expect(events[0]?.data.lab_test.method).toBe('testkit');
  });

  it('walk-in: partial results stay quiet unless the team enables partial webhooks', async () => {
    const c = createClient(adapter, { seed: 12, ...SMALL });
    const quiet = await newOrder(c, 'walk_in_test');
    const team = c.sandbox.world.tenancy.teams.get(quiet.team_id);
    expect(team).toBeDefined();
    let now = await orderAfter(c, 5 * 60 + 2 * DAY, quiet.id);
    expect(now.last_event.status).toBe('sample_with_lab.walk_in_test.partial_results');
    expect(now.status).toBe('sample_with_lab');
    expect(now.interpretation).toBe('normal');
    expect(now.has_missing_results).toBeNull();
    now = await orderAfter(c, DAY, quiet.id);
    expect(lows(now)).toEqual(['ordered', 'requisition_created', 'partial_results', 'completed']);
    expect((await labEvents(c, quiet.id)).map((e) => e.status)).toEqual([
      'received.walk_in_test.ordered',
      'received.walk_in_test.requisition_created',
      'completed.walk_in_test.completed',
    ]);

    if (team) team.settings.sandbox.partial_webhooks_enabled = true;
    const loud = await newOrder(c, 'walk_in_test');
    await c.advance(4 * DAY);
    expect((await labEvents(c, loud.id)).map((e) => e.status)).toEqual([
      'received.walk_in_test.ordered',
      'received.walk_in_test.requisition_created',
      'sample_with_lab.walk_in_test.partial_results',
      'completed.walk_in_test.completed',
    ]);
  });

  it('at-home phlebotomy waits at requisition_created for a booking, then goes through the appointment and the draw', async () => {
    const c = createClient(adapter, { seed: 13, ...SMALL });
    const order = await newOrder(c, 'at_home_phlebotomy');
    let now = await orderAfter(c, 5 * 60 + 3600 + DAY, order.id);
    expect(now.last_event.status).toBe('received.at_home_phlebotomy.requisition_created');
    const appt = await bookPhlebotomy(c, order.id);
    now = await getOrder(c, order.id);
    expect(now.last_event.status).toBe('collecting_sample.at_home_phlebotomy.appointment_scheduled');
    expectConsistent(now);
    now = await orderAfter(c, 10 * DAY, order.id);
    expect(lows(now)).toEqual([
      'ordered',
      'requisition_created',
      'appointment_pending',
      'appointment_scheduled',
      'draw_completed',
      'partial_results',
      'completed',
    ]);
    expect(now.details.data.appointment_id).toBe(appt.id);
    expectConsistent(now);
    const events = await labEvents(c, order.id);
    expect(events.filter((e) => e.type.startsWith('labtest.order.')).map((e) => e.status?.split('.')[2])).toEqual([
      'ordered',
      'requisition_created',
      'appointment_pending',
      'appointment_scheduled',
      'draw_completed',
      'completed',
    ]);
    expect(events.filter((e) => e.type.startsWith('labtest.appointment.')).map((e) => e.type)).toEqual([
      'labtest.appointment.created',
      'labtest.appointment.updated',
      'labtest.appointment.updated',
    ]);
  });

  it('on-site collection waits for PATCH draw_completed, then completes', async () => {
    const c = createClient(adapter, { seed: 14, ...SMALL });
    const order = await newOrder(c, 'on_site_collection');
    const early = await c.patch(`/v3/order/${order.id}/draw_completed`);
    expect(early.status).toBe(400);
    expect(early.body.detail).toBe(LABS_TEXTS.transitionNotAllowed('ordered', 'draw_completed'));
    let now = await orderAfter(c, 5 * DAY, order.id);
    expect(lows(now)).toEqual(['ordered', 'requisition_created']);
    const drawn = await c.patch(`/v3/order/${order.id}/draw_completed`);
    expect(drawn.status).toBe(200);
    expect(drawn.body.status).toBe('SUCCESS');
    expect(drawn.body.order.last_event.status).toBe('sample_with_lab.on_site_collection.draw_completed');
    expect((await c.patch(`/v3/order/${order.id}/draw_completed`)).status).toBe(400);
    now = await orderAfter(c, 2 * DAY, order.id);
    expect(lows(now)).toEqual(['ordered', 'requisition_created', 'draw_completed', 'partial_results', 'completed']);
    expectConsistent(now);

    const tables = await c.get('/_sandbox/labs/lifecycle');
    expect(tables.body.methods.on_site_collection.paths.happy.map((s: any) => s.waits_for)).toEqual([null, null, 'draw', null, null]);
    expect(tables.body.methods.on_site_collection.statuses.draw_completed).toBe('sample_with_lab.on_site_collection.draw_completed');
    expect(tables.body.methods.at_home_phlebotomy.statuses.draw_completed).toBe('collecting_sample.at_home_phlebotomy.draw_completed');
    expect(tables.body.methods.testkit.paths.registrable.map((s: any) => s.status)).toContain('registered');

    const walkIn = await newOrder(c, 'walk_in_test');
    const wrong = await c.patch(`/v3/order/${walkIn.id}/draw_completed`);
    expect(wrong.status).toBe(400);
    expect(wrong.body.detail).toBe(LABS_ERRORS.drawOnlyOnSite);
  });

  it('scheduled orders stay ordered until activate_by, and can be rescheduled', async () => {
    const c = createClient(adapter, { seed: 15, ...SMALL });
    const order = await newOrder(c, 'walk_in_test', { extra: { activate_by: '2026-01-10' } });
    expect(order.activate_by).toBe('2026-01-10');
    const scheduled = await c.get('/v3/orders', { query: { order_activation_types: 'scheduled', order_ids: order.id } });
    expect(scheduled.body.total).toBe(1);
    await c.advance(3 * DAY);
    expect(lows(await getOrder(c, order.id))).toEqual(['ordered']);
    const moved = await c.patch(`/v3/order/${order.id}`, { activate_by: '2026-01-09' });
    expect(moved.status).toBe(200);
    expect(moved.body.order.activate_by).toBe('2026-01-09');
    // the expected result dates follow the new activation date (one day earlier)
    const dayBefore = (d: string) => new Date(Date.parse(`${d}T00:00:00Z`) - DAY * 1000).toISOString().slice(0, 10);
    expect(moved.body.order.expected_result_by_date).toBe(dayBefore(order.expected_result_by_date));
    expect(moved.body.order.worst_case_result_by_date).toBe(dayBefore(order.worst_case_result_by_date));
    expect((await c.patch(`/v3/order/${order.id}`, { activate_by: '2026-01-01' })).status).toBe(400);
    const now = await orderAfter(c, DAY, order.id);
    expect(lows(now)).toEqual(['ordered', 'requisition_created']);
    expect(now.events[1].created_at).toBe('2026-01-09T00:00:00.000Z');
    const current = await c.get('/v3/orders', { query: { order_activation_types: 'current', order_ids: order.id } });
    expect(current.body.total).toBe(1);
    const immediate = await newOrder(c, 'walk_in_test');
    const refused = await c.patch(`/v3/order/${immediate.id}`, { activate_by: '2026-02-01' });
    expect(refused.status).toBe(400);
  });

  it('registrable testkit waits at with_customer for registration, then completes', async () => {
    const c = createClient(adapter, { seed: 16, ...SMALL });
    const tests = (await c.get('/v3/lab_tests', { query: { collection_method: 'testkit' } })).body;
    const user = (await c.get('/v2/user')).body.users[0].user_id;
    const created = await c.post('/v3/order/testkit', {
      user_id: user,
      lab_test_id: tests[0].id,
      shipping_details: {
        receiver_name: 'Kit Holder',
        first_line: '5 Oak Avenue',
        city: 'Denver',
        state: 'CO',
        zip: '80202',
        country: 'US',
        phone_number: '+13035550100',
      },
    });
    expect(created.status, created.text).toBe(200);
    const order = created.body.order;
    expect(order.patient_details).toBeNull();
    expect(order.shipping_details.receiver_name).toBe('Kit Holder');
    oas?.expectValid('ClientFacingOrder', order);
    let now = await orderAfter(c, 4 * DAY, order.id);
    expect(lows(now)).toEqual(['ordered', 'awaiting_registration', 'transit_customer', 'out_for_delivery', 'with_customer']);

    const unknown = await c.post('/v3/order/testkit/register', registration('nope', 'A', 'B'));
    expect(unknown.status).toBe(404);
    const reg = await c.post('/v3/order/testkit/register', registration(order.sample_id, 'Kit', 'Holder'));
    expect(reg.status, reg.text).toBe(200);
    expect(reg.body.order.last_event.status).toBe('received.testkit.registered');
    expect(reg.body.order.patient_details.first_name).toBe('Kit');
    const again = await c.post('/v3/order/testkit/register', registration(order.sample_id, 'Kit', 'Holder'));
    expect(again.status).toBe(400);
    now = await orderAfter(c, 7 * DAY, order.id);
    expect(lows(now)).toEqual([
      'ordered',
      'awaiting_registration',
      'transit_customer',
      'out_for_delivery',
      'with_customer',
      'registered',
      'requisition_created',
      'transit_lab',
      'delivered_to_lab',
      'completed',
    ]);
    expectConsistent(now);
  });

  describe('scenario hints', () => {
    it('zip 00020 ends in sample_error; zip 00013 loses a testkit; zip 00031 cancels the first appointment', async () => {
      const c = createClient(adapter, { seed: 17, ...SMALL });
      const bad = await newOrder(c, 'walk_in_test', { address: { zip: '00020' } });
      const lost = await newOrder(c, 'testkit', { address: { zip: '00013' } });
      const resched = await newOrder(c, 'walk_in_test', { address: { zip: '00031' } });
      const b = await orderAfter(c, 20 * DAY, bad.id);
      expect(lows(b)).toEqual(['ordered', 'requisition_created', 'sample_error']);
      expect(b.status).toBe('failed');
      expect(b.last_event.status_detail).toBe('sample_hemolyzed');
      expect(b.order_transaction.status).toBe('completed');
      expect((await c.get(`/v3/order/${bad.id}/result`)).status).toBe(404);
      const l = await getOrder(c, lost.id);
      expect(lows(l).slice(-2)).toEqual(['transit_lab', 'lost']);
      expect(l.last_event.status).toBe('failed.testkit.lost');
      expect(l.details.data.shipment.notes).toBe('Package lost in transit');
      const r = await getOrder(c, resched.id);
      expect(lows(r)).toEqual([
        'ordered',
        'requisition_created',
        'appointment_pending',
        'appointment_scheduled',
        'appointment_cancelled',
        'appointment_pending',
        'appointment_scheduled',
        'partial_results',
        'completed',
      ]);
      const scenarios = await c.get('/_sandbox/labs/scenarios');
      expect(scenarios.body.zip_hints.map((h: any) => h.zip)).toContain('00020');
    });

    it('last name Critical emits labtest.result.critical after the partial and the final results', async () => {
      const c = createClient(adapter, { seed: 18, ...SMALL });
      const order = await newOrder(c, 'walk_in_test', { patient: { last_name: 'Critical' } });
      await c.advance(4 * DAY);
      const events = await labEvents(c, order.id);
      expect(events.map((e) => `${e.type} ${e.status}`)).toEqual([
        'labtest.order.created received.walk_in_test.ordered',
        'labtest.order.updated received.walk_in_test.requisition_created',
        'labtest.result.critical partial',
        'labtest.order.updated completed.walk_in_test.completed',
        'labtest.result.critical final',
      ]);
      const critical = events[4]?.data;
      expect(critical).toMatchObject({
        order_id: order.id,
        sample_id: order.sample_id,
        interpretation: 'critical',
        team_id: order.team_id,
        user_id: order.user_id,
      });
      oas?.expectValid('ClientFacingCriticalResult', critical);
      const now = await getOrder(c, order.id);
      expect(now.interpretation).toBe('critical');
      const listed = await c.get('/v3/orders', { query: { is_critical: 'true', order_ids: order.id } });
      expect(listed.body.total).toBe(1);
    });

    it('zip 00040 corrects a result two days after completion', async () => {
      const c = createClient(adapter, { seed: 19, ...SMALL });
      const order = await newOrder(c, 'on_site_collection', { address: { zip: '00040' } });
      await c.advance(3600);
      await c.patch(`/v3/order/${order.id}/draw_completed`);
      await c.advance(2 * DAY);
      const before = (await c.get(`/v3/order/${order.id}/result`)).body;
      expect(before.metadata.status).toBe('final');
      const now = await orderAfter(c, 2 * DAY, order.id);
      expect(now.last_event.status).toBe('completed.on_site_collection.corrected');
      const after = (await c.get(`/v3/order/${order.id}/result`)).body;
      expect(after.metadata.status).toBe('final');
      const changed = after.results.filter((r: any, i: number) => r.result !== before.results[i].result);
      expect(changed).toHaveLength(1);
      expect(changed[0].notes).toMatch(/^Corrected result; previously reported as /);
    });
  });

  it('in realtime mode orders move on their own as wall time passes', async () => {
    let wall = 1_000_000;
    const c = createClient(adapter, { seed: 21, ...SMALL, clock: 'realtime', timeScale: 3600, wallClock: () => wall });
    const order = await newOrder(c, 'walk_in_test');
    wall += 1000; // one sandbox hour
    expect(lows(await getOrder(c, order.id))).toEqual(['ordered', 'requisition_created']);
    wall += 72 * 1000; // three sandbox days
    expect(lows(await getOrder(c, order.id))).toEqual(['ordered', 'requisition_created', 'partial_results', 'completed']);
  });

  it('a purged user takes their orders along', async () => {
    const c = createClient(adapter, { seed: 20, ...SMALL });
    const order = await newOrder(c, 'walk_in_test');
    expect((await c.delete(`/v2/user/${order.user_id}`)).status).toBeLessThan(300);
    await c.advance(8 * DAY);
    expect((await c.get(`/v3/order/${order.id}`)).status).toBe(404);
  });
});
