/**
 * The three lifecycles of an at-home phlebotomy order (booked, not booked, unserved zip) as the
 * real sandbox runs them (api-facts B.7, H, J), in both lab progression modes, through the
 * official SDK: the order waits at requisition_created until an appointment is booked, only zip
 * 85004 and 54650 can book, and with `manual` nothing moves until POST /v3/order/{id}/test.
 */
import { VitalClient, VitalError } from '@tryvital/vital-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LABS_ERRORS } from '../../src/state/labs/errors.js';
import { startServer, type RunningServer } from '../support/server.js';

const DAY = 86_400;
const PHOENIX = { firstLine: '1 West Lincoln Street', city: 'Phoenix', state: 'AZ', zipCode: '85004' };
const patientDetails = {
  firstName: 'Phleb',
  lastName: 'Otomy',
  dob: '1980-02-03',
  gender: 'female' as const,
  phoneNumber: '+12125550143',
  email: 'phleb@example.com',
};

for (const mode of ['clock', 'manual'] as const) {
  describe(`at-home phlebotomy lifecycles, labs progression ${mode} (official SDK)`, () => {
    let server: RunningServer;
    let client: VitalClient;

    beforeAll(async () => {
      server = await startServer({ seed: 310, users: 3, usersElsewhere: 0, labsProgression: mode });
      client = new VitalClient({
        apiKey: server.sandbox.credentials().teams[0]?.api_keys.sandbox ?? '',
        baseUrl: server.baseUrl,
        maxRetries: 0,
      });
    });
    afterAll(async () => server.close());

    async function place(zip: string, state: string, city: string): Promise<string> {
      const userId = (await client.user.getAll({ limit: 1 })).users[0]?.userId ?? '';
      const tests = await client.labTests.get({ collectionMethod: 'at_home_phlebotomy' });
      const placed = await client.labTests.createOrder({
        userId,
        labTestId: tests[0]?.id ?? '',
        patientDetails,
        patientAddress: {
          receiverName: 'Phleb Otomy',
          firstLine: zip === '85004' ? '1 West Lincoln Street' : '1 Main Street',
          city,
          state,
          zip,
          country: 'US',
        },
      });
      return placed.order.id;
    }
    const lows = async (orderId: string) => (await client.labTests.getOrder(orderId)).events.map((e) => e.status.split('.')[2]);
    const simulate = async (orderId: string, finalStatus?: 'completed.at_home_phlebotomy.completed') =>
      expect(await client.labTests.simulateOrderProcess(orderId, finalStatus ? { finalStatus } : {})).toBe('Success');
    /** Gets past `ordered`: on the clock by waiting, in manual mode by the first simulation (which stops there). */
    async function toRequisition(orderId: string): Promise<void> {
      await server.sandbox.advance(2 * DAY);
      if (mode === 'manual') {
        expect(await lows(orderId)).toEqual(['ordered']);
        await simulate(orderId, 'completed.at_home_phlebotomy.completed');
      }
      expect(await lows(orderId)).toEqual(['ordered', 'requisition_created']);
    }
    async function bookingKey(): Promise<string> {
      const found = await client.labTests.getPhlebotomyAppointmentAvailability({ body: PHOENIX });
      return found.slots.flatMap((d) => d.slots)[0]?.bookingKey ?? '';
    }
    async function labEvents(orderId: string): Promise<string[]> {
      const res = await fetch(`${server.baseUrl}/_sandbox/events?event_type_prefix=labtest.&limit=1000`);
      const body = (await res.json()) as { events: Array<{ envelope: { event_type: string; data: any } }> };
      return body.events
        .filter((e) => e.envelope.data.id === orderId || e.envelope.data.order_id === orderId)
        .map((e) => `${e.envelope.event_type} ${e.envelope.data.last_event?.status.split('.')[2] ?? e.envelope.data.status}`);
    }

    it('booked: waits at requisition_created, the booking brings the appointment events, then the draw and the results', async () => {
      const orderId = await place('85004', 'AZ', 'Phoenix');
      await toRequisition(orderId);
      await simulate(orderId);
      await server.sandbox.advance(3 * DAY);
      expect(await lows(orderId)).toEqual(['ordered', 'requisition_created']);
      const appt = await client.labTests.bookPhlebotomyAppointment(orderId, { bookingKey: await bookingKey() });
      expect(appt.status).toBe('confirmed');
      expect(await lows(orderId)).toEqual(['ordered', 'requisition_created', 'appointment_pending', 'appointment_scheduled']);
      await server.sandbox.advance(10 * DAY);
      if (mode === 'manual') {
        expect((await lows(orderId)).at(-1)).toBe('appointment_scheduled');
        await simulate(orderId);
      }
      expect(await lows(orderId)).toEqual([
        'ordered',
        'requisition_created',
        'appointment_pending',
        'appointment_scheduled',
        'draw_completed',
        'partial_results',
        'completed',
      ]);
      expect((await client.labTests.getPhlebotomyAppointment(orderId)).id).toBe(appt.id);
      const events = await labEvents(orderId);
      expect(events.slice(0, 5)).toEqual([
        'labtest.order.created ordered',
        'labtest.order.updated requisition_created',
        'labtest.appointment.created confirmed',
        'labtest.order.updated appointment_pending',
        'labtest.order.updated appointment_scheduled',
      ]);
      expect(events).toContain('labtest.order.updated completed');
      const results = await client.labTests.getResultRaw(orderId);
      const types = (results.results as Array<{ type: string }>).map((r) => r.type);
      expect(new Set(types)).toEqual(new Set(['numeric', 'comment', 'range']));
    });

    it('not booked: stays at requisition_created whatever the clock or simulations do; no appointment', async () => {
      const orderId = await place('54650', 'WI', 'Mosinee');
      await toRequisition(orderId);
      await simulate(orderId, 'completed.at_home_phlebotomy.completed');
      await server.sandbox.advance(30 * DAY);
      expect(await lows(orderId)).toEqual(['ordered', 'requisition_created']);
      await expect(client.labTests.getPhlebotomyAppointment(orderId)).rejects.toMatchObject({ statusCode: 404 });
      expect(await labEvents(orderId)).toEqual(['labtest.order.created ordered', 'labtest.order.updated requisition_created']);
      const cancelled = await client.labTests.cancelOrder(orderId);
      expect(cancelled.order.events.at(-1)?.status).toBe('cancelled.at_home_phlebotomy.cancelled');
    });

    it('unserved zip: accepted, no slots, a booking is refused, and the order stays at requisition_created', async () => {
      const orderId = await place('78701', 'TX', 'Austin');
      await toRequisition(orderId);
      const none = await client.labTests.getPhlebotomyAppointmentAvailability({
        body: { firstLine: '1 Main Street', city: 'Austin', state: 'TX', zipCode: '78701' },
      });
      expect(none.slots).toEqual([]);
      const refused = await client.labTests.bookPhlebotomyAppointment(orderId, { bookingKey: await bookingKey() }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(VitalError);
      expect((refused as VitalError).statusCode).toBe(400);
      expect((refused as VitalError).body).toEqual({ detail: LABS_ERRORS.appointmentRequestZip });
      await simulate(orderId);
      await server.sandbox.advance(30 * DAY);
      expect(await lows(orderId)).toEqual(['ordered', 'requisition_created']);
    });
  });
}
