/** Contract test: the official SDK books, reschedules, reads and cancels lab appointments. */
import type { VitalClient } from '@tryvital/vital-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CANCELLATION_REASONS } from '../../src/fixtures/labs/appointment-slots.js';
import { startSdkServer } from '../support/sdk-server.js';
import type { RunningServer } from '../support/server.js';

let server: RunningServer;
let client: VitalClient;

beforeAll(async () => {
  ({ server, client } = await startSdkServer(72));
});

afterAll(async () => {
  await server.close();
});

const patientDetails = {
  firstName: 'Sdk',
  lastName: 'Appointment',
  dob: '1979-03-04',
  gender: 'male' as const,
  phoneNumber: '+12125550188',
  email: 'sdk@example.com',
};
const reason = CANCELLATION_REASONS[0]?.id ?? '';

async function place(method: 'at_home_phlebotomy' | 'walk_in_test', zip: string, state: string): Promise<string> {
  const userId = (await client.user.getAll({ limit: 1 })).users[0]?.userId ?? '';
  const tests = await client.labTests.get({ collectionMethod: method });
  const placed = await client.labTests.createOrder({
    userId,
    labTestId: tests[0]?.id ?? '',
    patientDetails,
    patientAddress: {
      receiverName: 'Sdk Appointment',
      firstLine: zip === '85004' ? '1 West Lincoln Street' : '1 Main Street',
      city: 'Somewhere',
      state,
      zip,
      country: 'US',
    },
  });
  await server.sandbox.advance(600); // past requisition_created
  return placed.order.id;
}

describe('official SDK @tryvital/vital-node: lab appointments', () => {
  it('phlebotomy: availability, book, reschedule, get, reasons, cancel', async () => {
    const orderId = await place('at_home_phlebotomy', '85004', 'AZ');
    const availability = await client.labTests.getPhlebotomyAppointmentAvailability({
      body: { firstLine: '1 West Lincoln Street', city: 'Phoenix', state: 'AZ', zipCode: '85004' },
    });
    const slots = availability.slots.flatMap((d) => d.slots);
    expect(slots.length).toBeGreaterThan(1);
    const booked = await client.labTests.bookPhlebotomyAppointment(orderId, { bookingKey: slots[0]?.bookingKey ?? '' });
    expect(booked.status).toBe('confirmed');
    expect(booked.provider).toBe('getlabs');
    const moved = await client.labTests.reschedulePhlebotomyAppointment(orderId, { bookingKey: slots[1]?.bookingKey ?? '' });
    expect(moved.startAt).toEqual(slots[1]?.start);
    expect((await client.labTests.getPhlebotomyAppointment(orderId)).id).toBe(booked.id);
    const reasons = await client.labTests.getPhlebotomyAppointmentCancellationReason();
    expect(reasons.map((r) => r.id)).toContain(reason);
    const cancelled = await client.labTests.cancelPhlebotomyAppointment(orderId, { cancellationReasonId: reason });
    expect(cancelled.status).toBe('cancelled');
  });

  it('PSC: availability, book, reschedule, get, reasons, cancel', async () => {
    const orderId = await place('walk_in_test', '10001', 'NY');
    const availability = await client.labTests.getPscAppointmentAvailability({ lab: 'quest', zipCode: '10001' });
    const slots = availability.slots.flatMap((d) => d.slots);
    expect(availability.slots[0]?.location?.code).toMatch(/^QSBX10001/);
    const booked = await client.labTests.bookPscAppointment(orderId, { bookingKey: slots[0]?.bookingKey ?? '' });
    expect(booked.type).toBe('patient_service_center');
    const moved = await client.labTests.reschedulePscAppointment(orderId, { bookingKey: slots[1]?.bookingKey ?? '' });
    expect(moved.startAt).toEqual(slots[1]?.start);
    expect((await client.labTests.getPscAppointment(orderId)).status).toBe('confirmed');
    expect((await client.labTests.getPscAppointmentCancellationReason()).length).toBe(CANCELLATION_REASONS.length);
    expect((await client.labTests.cancelPscAppointment(orderId, { cancellationReasonId: reason })).status).toBe('cancelled');
  });

  it('area info, PSC info and the PSC info of an order', async () => {
    const area = await client.labTests.getAreaInfo({ zipCode: '54650' });
    expect(area.phlebotomy.isServed).toBe(true);
    expect(area.phlebotomy.providers[0]?.name).toBe('phlebfinders');
    const psc = await client.labTests.getPscInfo({ zipCode: '10001', labId: 3, radius: '100' });
    expect(psc.patientServiceCenters).toHaveLength(3);
    const orderId = await place('walk_in_test', '10001', 'NY');
    const mine = await client.labTests.getOrderPscInfo(orderId, { radius: '100' });
    expect(mine.slug).toBe('quest');
  });

  it('lab tests: update and cursor pages through the SDK', async () => {
    const tests = await client.labTests.get();
    const updated = await client.labTests.updateLabTest(tests[0]?.id ?? '', { name: 'SDK Renamed' });
    expect(updated.name).toBe('SDK Renamed');
    const page = await client.labTests.getPaginated({ labTestLimit: 2 });
    expect(page.data).toHaveLength(2);
    expect(page.nextCursor).toBeTruthy();
  });
});
