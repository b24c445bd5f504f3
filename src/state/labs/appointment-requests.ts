/**
 * Requesting an at-home phlebotomy appointment (`POST /v3/order/{id}/phlebotomy/appointment/request`):
 * instead of booking a slot with a booking key, the caller asks the provider to schedule one. The
 * appointment starts `pending` (no start or end yet) and emits `labtest.appointment.created`;
 * the provider holds the first free slot of its area from the next day on, so nobody else in the
 * team can book it, and confirms it on the clock (`PROVIDER_CONFIRMS_AFTER` later): the
 * appointment goes `confirmed` (event `scheduled`, `labtest.appointment.updated`), the order
 * moves to `appointment_scheduled` as for a booking, and the appointment then goes in progress
 * and completed at its slot. A pending request can be cancelled like a booked appointment.
 */
import { stableUuid } from '../../engine/ids.js';
import { phlebotomyServed } from './order-progression.js';
import { PHLEBOTOMY_AREAS, dateRange, type Slot } from '../../fixtures/labs/appointment-slots.js';
import { BOOKABLE, appointmentsOf, emit, openSlots, orderFor, scheduleProgress, type Appointment } from './appointments.js';
import { LABS_ERRORS, LABS_TEXTS, labsError } from './errors.js';
import { planAppointment } from './order-changes.js';
import { HOUR } from './order-lifecycle.js';
import { currentStatus } from './order-model.js';
import { ordersOf } from './order-store.js';
import { jobKind } from '../../engine/job-kinds.js';
import type { Partition } from '../../engine/tenancy.js';
import type { Domain } from '../domain-context.js';

/** How long the provider takes to confirm a requested appointment (sandbox time). */
export const PROVIDER_CONFIRMS_AFTER = 2 * HOUR;

interface AppointmentRequestInput {
  address: { first_line: string; second_line: string | null; city: string; state: string; zip_code: string; access_notes: string | null };
  provider: string;
  appointment_notes: string | null;
}

/** The first free slot of the area from the day after `now` (five days are searched). */
function firstFreeSlot(env: Domain, zip: string): Slot | null {
  const tomorrow = new Date(env.world.clock.now() + 24 * HOUR).toISOString().slice(0, 10);
  for (const date of dateRange(tomorrow, 5)) {
    const slot = openSlots(env, 'phlebotomy', zip, date)[0];
    if (slot) return slot;
  }
  return null;
}

export function requestPhlebotomyAppointment(env: Domain, orderId: string, input: AppointmentRequestInput): Appointment {
  const order = orderFor(env, 'phlebotomy', orderId);
  const store = appointmentsOf(env.partition, env.world);
  const existing = store.forOrder(order.id);
  if (existing && existing.status !== 'cancelled' && existing.status !== 'completed')
    throw labsError.badRequest(LABS_ERRORS.appointmentExists);
  const cur = currentStatus(order);
  if (!BOOKABLE.has(cur)) throw labsError.badRequest(LABS_TEXTS.notBookable(cur));
  const zip = input.address.zip_code.slice(0, 5);
  const area = PHLEBOTOMY_AREAS[zip];
  if (!area || !phlebotomyServed({ first_line: input.address.first_line, zip }))
    throw labsError.badRequest(LABS_ERRORS.appointmentRequestZip);
  if (area.provider !== input.provider) throw labsError.badRequest(LABS_ERRORS.appointmentRequestProvider);
  const slot = firstFreeSlot(env, zip);
  if (!slot) throw labsError.notFound(LABS_ERRORS.noPscSlots);

  const now = env.world.clock.now();
  store.take(slot, null);
  const appt: Appointment = {
    id: stableUuid(env.world.seed, 'lab_appointment', env.partition.id, ++store.seq),
    kind: 'phlebotomy',
    order_id: order.id,
    user_id: order.user_id,
    slot,
    status: 'pending',
    notes: input.appointment_notes,
    address: { ...input.address },
    events: [{ at: now, status: 'pending', data: { origin: 'request' } }],
    job: null,
  };
  store.setForOrder(order.id, appt);
  order.appointment_id = appt.id;
  emit(env, appt, 'labtest.appointment.created');
  appt.job = env.world.scheduler.at(
    now + PROVIDER_CONFIRMS_AFTER,
    PROVIDER_CONFIRMS,
    { partition: env.partition, appt },
    `labtest.appointment ${appt.id} -> confirmed`,
  );
  return appt;
}

/** The provider confirms a requested appointment (nothing when it was moved another way meanwhile). */
const PROVIDER_CONFIRMS = jobKind<{ partition: Partition; appt: Appointment }>(
  'labtest.appointment_confirmed',
  (world, { partition, appt }, job) => {
    if (appt.job !== job) return;
    const env: Domain = { world, partition };
    appt.job = null;
    appt.status = 'confirmed';
    appt.events.push({ at: job.at, status: 'scheduled', data: null });
    emit(env, appt, 'labtest.appointment.updated');
    const live = ordersOf(env).get(appt.order_id);
    if (live && (BOOKABLE.has(currentStatus(live)) || currentStatus(live) === 'appointment_scheduled'))
      planAppointment(env, live, appt.slot.end, appt.id);
    scheduleProgress(env, appt);
  },
);
