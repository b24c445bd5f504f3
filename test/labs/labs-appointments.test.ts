/** Lab appointments (issue 13): phlebotomy and PSC availability, booking, reschedule, cancel, on the clock. */
import { describe, expect, it } from 'vitest';
import { LABS_ERRORS } from '../../src/state/labs/errors.js';
import { CANCELLATION_REASONS } from '../../src/fixtures/labs/appointment-slots.js';
import { createClient, forEachAdapter, type TestClient } from '../support/client.js';
import { oasValidator } from '../support/openapi.js';
import { SMALL, getOrder, labEvents, newOrder } from '../support/lab-helpers.js';

const oas = oasValidator('data');
const PHOENIX = { first_line: '1 West Lincoln Street', zip: '85004', state: 'AZ', city: 'Phoenix' };
const HOME = { first_line: '1 West Lincoln Street', city: 'Phoenix', state: 'AZ', zip_code: '85004' };
const low = (o: any): string => String(o.last_event.status).split('.')[2] ?? '';
const REASON = CANCELLATION_REASONS[0]?.id as string;

async function phlebSlots(c: TestClient): Promise<any[]> {
  const res = await c.post('/v3/order/phlebotomy/appointment/availability', HOME);
  expect(res.status, res.text).toBe(200);
  oas?.expectValid('AppointmentAvailabilitySlots', res.body);
  return (res.body.slots as any[]).flatMap((d) => d.slots);
}

async function pscSlots(c: TestClient): Promise<any[]> {
  const res = await c.post('/v3/order/psc/appointment/availability', undefined, { query: { lab: 'quest', zip_code: '10001' } });
  expect(res.status, res.text).toBe(200);
  oas?.expectValid('AppointmentAvailabilitySlots', res.body);
  return (res.body.slots as any[]).flatMap((d) => d.slots);
}

forEachAdapter('lab appointments', (adapter) => {
  it('books, reschedules and cancels an at-home phlebotomy appointment', async () => {
    const c = createClient(adapter, { seed: 51, ...SMALL });
    const order = await newOrder(c, 'at_home_phlebotomy', { address: PHOENIX });
    await c.advance(600); // past requisition_created
    const slots = await phlebSlots(c);
    expect(slots.length).toBeGreaterThan(2);
    const booked = await c.post(`/v3/order/${order.id}/phlebotomy/appointment/book`, { booking_key: slots[0].booking_key });
    expect(booked.status, booked.text).toBe(200);
    oas?.expectValid('ClientFacingAppointment', booked.body);
    expect(booked.body).toMatchObject({
      order_id: order.id,
      type: 'phlebotomy',
      provider: 'getlabs',
      status: 'confirmed',
      start_at: slots[0].start,
      end_at: slots[0].end,
    });
    let now = await getOrder(c, order.id);
    expect(low(now)).toBe('appointment_scheduled');
    expect(now.details.data.appointment_id).toBe(booked.body.id);
    // The slot is gone for the team, and its key is single-use.
    expect((await phlebSlots(c)).map((s) => s.booking_key)).not.toContain(slots[0].booking_key);
    const other = await newOrder(c, 'at_home_phlebotomy', { address: PHOENIX });
    const reused = await c.post(`/v3/order/${other.id}/phlebotomy/appointment/book`, { booking_key: slots[0].booking_key });
    expect(reused.status).toBe(400);
    expect(reused.body.detail).toBe(LABS_ERRORS.bookingKeyUsed);
    expect((await c.post(`/v3/order/${other.id}/phlebotomy/appointment/book`, { booking_key: 'nope' })).body.detail).toBe(
      LABS_ERRORS.bookingKeyInvalid,
    );
    const moved = await c.patch(`/v3/order/${order.id}/phlebotomy/appointment/reschedule`, { booking_key: slots[1].booking_key });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.start_at).toBe(slots[1].start);
    // The first slot is free again, under a fresh key; the old key stays spent.
    const freed = (await phlebSlots(c)).find((s) => s.start === slots[0].start);
    expect(freed?.booking_key).toBeDefined();
    expect(freed?.booking_key).not.toBe(slots[0].booking_key);
    const got = await c.get(`/v3/order/${order.id}/phlebotomy/appointment`);
    expect(got.body).toEqual(moved.body);
    const reasons = await c.get('/v3/order/phlebotomy/appointment/cancellation-reasons');
    for (const r of reasons.body) oas?.expectValid('ClientFacingAppointmentCancellationReason', r);
    const cancelled = await c.patch(`/v3/order/${order.id}/phlebotomy/appointment/cancel`, {
      cancellation_reason_id: REASON,
      notes: 'travel',
    });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.body.status).toBe('cancelled');
    now = await getOrder(c, order.id);
    expect(low(now)).toBe('appointment_cancelled');
    const events = await labEvents(c);
    const types = events.filter((e) => e.type.startsWith('labtest.appointment.')).map((e) => e.type);
    expect(types).toEqual(['labtest.appointment.created', 'labtest.appointment.updated', 'labtest.appointment.updated']);
    for (const e of events.filter((x) => x.type.startsWith('labtest.appointment.'))) oas?.expectValid('ClientFacingAppointment', e.data);
    expect((await c.patch(`/v3/order/${order.id}/phlebotomy/appointment/cancel`, { cancellation_reason_id: REASON })).body.detail).toBe(
      LABS_ERRORS.appointmentNotActive,
    );
  });

  it('moves the appointment and then the order on the clock', async () => {
    const c = createClient(adapter, { seed: 52, ...SMALL });
    const order = await newOrder(c, 'at_home_phlebotomy', { address: PHOENIX });
    await c.advance(600);
    const [slot] = await phlebSlots(c);
    expect((await c.post(`/v3/order/${order.id}/phlebotomy/appointment/book`, { booking_key: slot.booking_key })).status).toBe(200);
    const clock = await c.get('/_sandbox/clock');
    const seconds = Math.ceil((Date.parse(slot.end) - Date.parse(clock.body.now)) / 1000) + 60;
    await c.advance(seconds);
    const appt = await c.get(`/v3/order/${order.id}/phlebotomy/appointment`);
    expect(appt.body.status).toBe('completed');
    expect(appt.body.events.map((e: any) => e.status)).toEqual(['scheduled', 'in_progress', 'completed']);
    expect(low(await getOrder(c, order.id))).toBe('draw_completed');
  });

  it('before the requisition a booking leaves the order ordered until the requisition comes', async () => {
    const c = createClient(adapter, { seed: 56, ...SMALL });
    const order = await newOrder(c, 'at_home_phlebotomy', { address: PHOENIX });
    const [slot] = await phlebSlots(c);
    expect((await c.post(`/v3/order/${order.id}/phlebotomy/appointment/book`, { booking_key: slot.booking_key })).status).toBe(200);
    expect(low(await getOrder(c, order.id))).toBe('ordered');
    await c.advance(600);
    const now = await getOrder(c, order.id);
    expect(now.events.map((e: any) => e.status.split('.')[2])).toEqual([
      'ordered',
      'requisition_created',
      'appointment_pending',
      'appointment_scheduled',
    ]);
  });

  it('an expired key is refused; cancelling the order cancels a phlebotomy appointment', async () => {
    const c = createClient(adapter, { seed: 53, ...SMALL });
    const order = await newOrder(c, 'at_home_phlebotomy', { address: PHOENIX });
    const slots = await phlebSlots(c);
    const last = slots[slots.length - 1];
    const clock = await c.get('/_sandbox/clock');
    await c.advance(Math.ceil((Date.parse(slots[0].expires_at) - Date.parse(clock.body.now)) / 1000) + 1);
    expect((await c.post(`/v3/order/${order.id}/phlebotomy/appointment/book`, { booking_key: slots[0].booking_key })).body.detail).toBe(
      LABS_ERRORS.bookingKeyExpired,
    );
    expect((await c.post(`/v3/order/${order.id}/phlebotomy/appointment/book`, { booking_key: last.booking_key })).status).toBe(200);
    expect((await c.post(`/v3/order/${order.id}/cancel`)).status).toBe(200);
    expect((await c.get(`/v3/order/${order.id}/phlebotomy/appointment`)).body.status).toBe('cancelled');
  });

  it('PSC: books with x-idempotency-key, and cancelling the order leaves the appointment', async () => {
    const c = createClient(adapter, { seed: 54, ...SMALL });
    const order = await newOrder(c, 'walk_in_test');
    await c.advance(600);
    const slots = await pscSlots(c);
    const headers = { 'x-idempotency-key': 'psc-1' };
    const first = await c.post(`/v3/order/${order.id}/psc/appointment/book`, { booking_key: slots[0].booking_key }, { headers });
    expect(first.status, first.text).toBe(200);
    oas?.expectValid('ClientFacingAppointment', first.body);
    expect(first.body).toMatchObject({ type: 'patient_service_center', provider: 'quest', iana_timezone: 'America/New_York' });
    const replay = await c.post(`/v3/order/${order.id}/psc/appointment/book`, { booking_key: slots[0].booking_key }, { headers });
    expect(replay.text).toBe(first.text);
    expect((await c.post(`/v3/order/${order.id}/psc/appointment/book`, { booking_key: slots[1].booking_key })).body.detail).toBe(
      LABS_ERRORS.appointmentExists,
    );
    expect(low(await getOrder(c, order.id))).toBe('appointment_scheduled');
    const phleb = await c.post(`/v3/order/${order.id}/phlebotomy/appointment/book`, { booking_key: slots[1].booking_key });
    expect(phleb.body.detail).toBe(LABS_ERRORS.notPhlebotomyOrder);
    expect((await c.post(`/v3/order/${order.id}/cancel`)).status).toBe(200);
    expect((await c.get(`/v3/order/${order.id}/psc/appointment`)).body.status).toBe('confirmed');
    const nope = await c.post('/v3/order/psc/appointment/availability', undefined, { query: { lab: 'sonora_quest', zip_code: '10001' } });
    expect(nope.status).toBe(404);
    const bad = await c.post('/v3/order/psc/appointment/availability', undefined, {
      query: { lab: 'quest', radius: '7', zip_code: '10001' },
    });
    expect(bad.status).toBe(422);
    const cancelled = await c.patch(`/v3/order/${order.id}/psc/appointment/cancel`, { cancellationReasonId: REASON });
    expect(cancelled.body.status).toBe('cancelled');
  });
});

forEachAdapter('area and PSC info', (adapter) => {
  it('phlebotomy coverage, Quest PSCs, and the PSCs around an order', async () => {
    const c = createClient(adapter, { seed: 57, ...SMALL });
    const area = await c.get('/v3/order/area/info', { query: { zip_code: '85004' } });
    expect(area.status, area.text).toBe(200);
    oas?.expectValid('AreaInfo', area.body);
    expect(area.body.phlebotomy).toEqual({ is_served: true, providers: [{ name: 'getlabs', service_types: ['appointment-ready'] }] });
    expect(Object.keys(area.body.central_labs)).toEqual(['quest', 'labcorp', 'bioreference', 'sonora_quest']);
    const elsewhere = await c.get('/v3/order/area/info', { query: { zip_code: '78701', labs: ['quest'] } });
    expect(elsewhere.body.phlebotomy.is_served).toBe(false);
    expect(Object.keys(elsewhere.body.central_labs)).toEqual(['quest']);
    const psc = await c.get('/v3/order/psc/info', { query: { zip_code: '10001', lab_id: 3, radius: '100' } });
    expect(psc.status, psc.text).toBe(200);
    oas?.expectValid('PSCInfo', psc.body);
    expect(psc.body.patient_service_centers.length).toBe(3);
    expect(psc.body.patient_service_centers.map((s: any) => s.site_code)).toEqual(['QSBX100011', 'QSBX100012', 'QSBX100013']);
    // The site codes are the ones PSC availability answers for.
    const avail = await c.post('/v3/order/psc/appointment/availability', undefined, {
      query: { lab: 'quest', site_codes: [psc.body.patient_service_centers[0].site_code] },
    });
    expect(avail.status, avail.text).toBe(200);
    expect(new Set(avail.body.slots.map((d: any) => d.location.code))).toEqual(new Set([psc.body.patient_service_centers[0].site_code]));
    expect((await c.get('/v3/order/psc/info', { query: { zip_code: '10001', lab_id: 999 } })).body.detail).toBe(LABS_ERRORS.labNotFound);
    expect((await c.get('/v3/order/psc/info', { query: { zip_code: '1001', lab_id: 3 } })).status).toBe(422);
    const order = await newOrder(c, 'walk_in_test');
    const mine = await c.get(`/v3/order/${order.id}/psc/info`, { query: { radius: '100' } });
    expect(mine.status, mine.text).toBe(200);
    oas?.expectValid('PSCInfo', mine.body);
    expect(mine.body.slug).toBe('quest');
    expect(mine.body.patient_service_centers[0].metadata.zip_code).toBe(order.patient_address.zip);
  });
});

describe('appointments elsewhere', () => {
  it('no phlebotomy slots outside the served zip codes', async () => {
    const c = createClient('msw', { seed: 55, ...SMALL });
    const res = await c.post('/v3/order/phlebotomy/appointment/availability', { ...HOME, zip_code: '78701' });
    expect(res.body).toEqual({ slots: [], timezone: null });
  });
});
