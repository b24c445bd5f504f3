/** Order import and at-home appointment requests (issue 13). */
import { expect, it } from 'vitest';
import { CANCELLATION_REASONS } from '../../src/fixtures/labs/appointment-slots.js';
import { PROVIDER_CONFIRMS_AFTER } from '../../src/state/labs/appointment-requests.js';
import { LABS_ERRORS } from '../../src/state/labs/errors.js';
import { createClient, forEachAdapter, type TestClient } from '../support/client.js';
import { oasValidator } from '../support/openapi.js';
import { UNKNOWN_ID } from '../support/route-params.js';
import {
  ADDRESS,
  PATIENT,
  SMALL,
  expectConsistent,
  firstUserId,
  getOrder,
  labEvents,
  lows,
  newOrder,
  standardTests,
} from '../support/lab-helpers.js';
import { expectWire } from '../support/wire.js';

const oas = oasValidator('data');
const PHOENIX = { first_line: '1 West Lincoln Street', zip: '85004', state: 'AZ', city: 'Phoenix' };
const CHICAGO_AREA = { first_line: '2 Main Street', city: 'Mosinee', state: 'WI', zip_code: '54650' };
const HOME = { first_line: '1 West Lincoln Street', city: 'Phoenix', state: 'AZ', zip_code: '85004' };

async function importBody(c: TestClient, extra: Record<string, unknown> = {}) {
  const tests = await standardTests(c);
  return {
    user_id: await firstUserId(c),
    billing_type: 'client_bill',
    order_set: { lab_test_ids: [tests.walk_in_test] },
    collection_method: 'walk_in_test',
    patient_details: PATIENT,
    patient_address: ADDRESS,
    sample_id: 'EXT-0042',
    ...extra,
  };
}

forEachAdapter('order import', (adapter) => {
  it('imports an order under its sample id: requisition_bypassed, then the usual lifecycle and events', async () => {
    const c = createClient(adapter, { seed: 151, ...SMALL });
    const body = await importBody(c);
    const res = await c.post('/v3/order/import', body);
    expect(res.status, res.text).toBe(200);
    oas?.expectValid('PostOrderResponse', res.body);
    expectWire('orders.import', res);
    const order = res.body.order;
    expect(res.body).toMatchObject({ status: 'SUCCESS', message: 'Order imported' });
    expect(order).toMatchObject({
      sample_id: 'EXT-0042',
      origin: 'initial',
      billing_type: 'client_bill',
      details: { type: 'walk_in_test' },
    });
    expect(lows(order)).toEqual(['ordered']);
    await c.advance(600);
    const later = await getOrder(c, order.id);
    expect(lows(later)).toEqual(['ordered', 'requisition_bypassed']);
    expectConsistent(later);
    expect((await labEvents(c, order.id)).map((e) => e.type)).toEqual(['labtest.order.created', 'labtest.order.updated']);
    // The requisition already existed: its form is served.
    expect((await c.get(`/v3/order/${order.id}/requisition/pdf`)).status).toBe(200);
    await c.post(`/v3/order/${order.id}/test`);
    expect(lows(await getOrder(c, order.id)).slice(-1)).toEqual(['completed']);
    expect((await c.get(`/v3/order/${order.id}/result`)).body.metadata.specimen_number).toBe('EXT-0042');
  });

  it('refuses a used sample id, unknown users and lab tests, a method mismatch and bad bodies, changing nothing', async () => {
    const c = createClient(adapter, { seed: 152, ...SMALL });
    const body = await importBody(c);
    expect((await c.post('/v3/order/import', body)).status).toBe(200);
    const before = (await c.get('/v3/orders')).body.total;
    const again = await c.post('/v3/order/import', body);
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ detail: LABS_ERRORS.importSampleIdUsed });
    const noUser = await c.post('/v3/order/import', { ...body, sample_id: 'EXT-1', user_id: UNKNOWN_ID });
    expect(noUser.status).toBe(404);
    expect(noUser.body).toEqual({ detail: LABS_ERRORS.userNotOnTeam });
    const noTest = await c.post('/v3/order/import', { ...body, sample_id: 'EXT-2', order_set: { lab_test_ids: [UNKNOWN_ID] } });
    expect(noTest.status).toBe(404);
    const mismatch = await c.post('/v3/order/import', { ...body, sample_id: 'EXT-3', collection_method: 'testkit' });
    expect(mismatch.status).toBe(400);
    for (const key of ['sample_id', 'order_set', 'collection_method', 'billing_type', 'patient_details']) {
      const { [key]: _gone, ...rest } = body as Record<string, unknown>;
      const bad = await c.post('/v3/order/import', rest);
      expect(bad.status).toBe(422);
      expect(bad.body.detail[0].loc).toEqual(['body', key]);
    }
    expect((await c.get('/v3/orders')).body.total).toBe(before);
  });
});

forEachAdapter('phlebotomy appointment requests', (adapter) => {
  it('a request is pending, holds a slot, and is confirmed by the provider on the clock', async () => {
    const c = createClient(adapter, { seed: 153, ...SMALL });
    const order = await newOrder(c, 'at_home_phlebotomy', { address: PHOENIX });
    await c.advance(600);
    const res = await c.post(`/v3/order/${order.id}/phlebotomy/appointment/request`, {
      address: HOME,
      provider: 'getlabs',
      appointment_notes: 'ring twice',
    });
    expect(res.status, res.text).toBe(200);
    oas?.expectValid('ClientFacingAppointment', res.body);
    expectWire('appointments.phlebotomy.request', res);
    expect(res.body).toMatchObject({
      order_id: order.id,
      type: 'phlebotomy',
      provider: 'getlabs',
      status: 'pending',
      event_status: 'pending',
      start_at: null,
      end_at: null,
      can_reschedule: false,
    });
    expect(res.body.address).toMatchObject({ first_line: HOME.first_line, zip_code: '85004' });
    expect((await getOrder(c, order.id)).details.data.appointment_id).toBe(res.body.id);
    // A second request or a booking is refused while one is pending.
    const twice = await c.post(`/v3/order/${order.id}/phlebotomy/appointment/request`, { address: HOME, provider: 'getlabs' });
    expect(twice.body).toEqual({ detail: LABS_ERRORS.appointmentExists });
    // Nothing to reschedule before the provider has confirmed a time.
    const slots = (await c.post('/v3/order/phlebotomy/appointment/availability', HOME)).body.slots.flatMap((d: any) => d.slots);
    const early = await c.patch(`/v3/order/${order.id}/phlebotomy/appointment/reschedule`, { booking_key: slots[0].booking_key });
    expect(early.status).toBe(400);
    expect(early.body).toEqual({ detail: LABS_ERRORS.appointmentNotActive });
    const events = await labEvents(c);
    expect(events.filter((e) => e.type === 'labtest.appointment.created').map((e) => e.data.status)).toEqual(['pending']);

    await c.advance(PROVIDER_CONFIRMS_AFTER / 1000);
    const confirmed = (await c.get(`/v3/order/${order.id}/phlebotomy/appointment`)).body;
    oas?.expectValid('ClientFacingAppointment', confirmed);
    expect(confirmed.status).toBe('confirmed');
    expect(confirmed.events.map((e: any) => e.status)).toEqual(['pending', 'scheduled']);
    expect(Date.parse(confirmed.start_at)).toBeGreaterThan(Date.parse((await c.get('/_sandbox/clock')).body.now));
    expect(lows(await getOrder(c, order.id)).slice(-1)).toEqual(['appointment_scheduled']);
    // The held slot is gone from availability.
    const avail = await c.post('/v3/order/phlebotomy/appointment/availability', HOME);
    expect((avail.body.slots as any[]).flatMap((d) => d.slots).map((s: any) => s.start)).not.toContain(confirmed.start_at);
    const updated = (await labEvents(c)).filter((e) => e.type === 'labtest.appointment.updated');
    expect(updated.map((e) => e.data.status)).toEqual(['confirmed']);
    // Then the appointment runs at its slot and the order records the draw.
    const seconds = Math.ceil((Date.parse(confirmed.end_at) - Date.parse((await c.get('/_sandbox/clock')).body.now)) / 1000) + 60;
    await c.advance(seconds);
    expect((await c.get(`/v3/order/${order.id}/phlebotomy/appointment`)).body.status).toBe('completed');
    expect(lows(await getOrder(c, order.id))).toContain('draw_completed');
  });

  it('refuses other methods, unserved places, the wrong provider; a pending request can be cancelled', async () => {
    const c = createClient(adapter, { seed: 154, ...SMALL });
    const walkIn = await newOrder(c, 'walk_in_test');
    const wrongKind = await c.post(`/v3/order/${walkIn.id}/phlebotomy/appointment/request`, { address: HOME, provider: 'getlabs' });
    expect(wrongKind.body).toEqual({ detail: LABS_ERRORS.notPhlebotomyOrder });
    const unknown = await c.post(`/v3/order/${UNKNOWN_ID}/phlebotomy/appointment/request`, { address: HOME, provider: 'getlabs' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ detail: LABS_ERRORS.appointmentOrderNotFound });
    const order = await newOrder(c, 'at_home_phlebotomy', { address: PHOENIX });
    const nowhere = await c.post(`/v3/order/${order.id}/phlebotomy/appointment/request`, {
      address: { ...HOME, zip_code: '10001' },
      provider: 'getlabs',
    });
    expect(nowhere.body).toEqual({ detail: LABS_ERRORS.appointmentRequestZip });
    const provider = await c.post(`/v3/order/${order.id}/phlebotomy/appointment/request`, { address: CHICAGO_AREA, provider: 'getlabs' });
    expect(provider.body).toEqual({ detail: LABS_ERRORS.appointmentRequestProvider });
    expect(
      (await c.post(`/v3/order/${order.id}/phlebotomy/appointment/request`, { address: { ...HOME, zip_code: '850' }, provider: 'getlabs' }))
        .status,
    ).toBe(422);
    expect((await c.post(`/v3/order/${order.id}/phlebotomy/appointment/request`, { address: HOME, provider: 'nobody' })).status).toBe(422);
    expect((await c.get(`/v3/order/${order.id}/phlebotomy/appointment`)).status).toBe(404);

    const req = await c.post(`/v3/order/${order.id}/phlebotomy/appointment/request`, { address: CHICAGO_AREA, provider: 'phlebfinders' });
    expect(req.status, req.text).toBe(200);
    expect(req.body.provider).toBe('phlebfinders');
    const cancelled = await c.patch(`/v3/order/${order.id}/phlebotomy/appointment/cancel`, {
      cancellation_reason_id: CANCELLATION_REASONS[0]?.id,
    });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.body.status).toBe('cancelled');
    await c.advance(PROVIDER_CONFIRMS_AFTER / 1000 + 60);
    expect((await c.get(`/v3/order/${order.id}/phlebotomy/appointment`)).body.status).toBe('cancelled');
    // A new request is accepted after the cancellation.
    expect(
      (await c.post(`/v3/order/${order.id}/phlebotomy/appointment/request`, { address: CHICAGO_AREA, provider: 'phlebfinders' })).status,
    ).toBe(200);
    // Cancelling the order cancels the pending request; the provider never confirms it.
    expect((await c.post(`/v3/order/${order.id}/cancel`)).status).toBe(200);
    await c.advance(PROVIDER_CONFIRMS_AFTER / 1000 + 60);
    const last = (await c.get(`/v3/order/${order.id}/phlebotomy/appointment`)).body;
    expect(last.status).toBe('cancelled');
    expect(last.events.map((e: any) => e.status)).toEqual(['pending', 'cancelled']);
    expect(lows(await getOrder(c, order.id)).slice(-1)).toEqual(['cancelled']);
  });
});
