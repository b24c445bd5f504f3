/**
 * Lab appointments (api-facts B, "Appointments"): at-home phlebotomy and patient service center
 * (PSC) appointments of an order. Availability lists the seeded slots of a place minus the ones
 * the team has booked; booking takes a single-use key that expires an hour before its slot;
 * booking, rescheduling and cancelling move the order through its appointment statuses
 * (`order-changes.ts`, `planAppointment`) and emit `labtest.appointment.created` / `.updated`.
 * On the clock the appointment goes confirmed -> in_progress (at its start) -> completed (at its
 * end), and the order moves on to the draw.
 */
import { jobKind } from '../../engine/job-kinds.js';
import type { JobHandle } from '../../engine/scheduler.js';
import type { Partition } from '../../engine/tenancy.js';
import { partitionSlot } from '../../engine/world.js';
import { stableUuid } from '../../engine/ids.js';
import { phlebotomyServed } from './order-progression.js';
import { usersOf } from '../users/users.js';
import {
  CANCELLATION_REASONS,
  PHLEBOTOMY_AREAS,
  PSC_TIMEZONE,
  bookingKey,
  pscSite,
  daySlots,
  keyExpiry,
  slotOfKey,
  type AppointmentKind,
  type Slot,
} from '../../fixtures/labs/appointment-slots.js';
import { LABS_ERRORS, LABS_TEXTS, labsError } from './errors.js';
import { cancelAppointmentSteps, planAppointment } from './order-changes.js';
import { currentStatus, iso, type Order } from './order-model.js';
import { ordersOf } from './order-store.js';
import type { Domain } from '../domain-context.js';
import type { z } from 'zod';
import type * as W from '../../wire/schemas.js';
import { dataClass } from '../../engine/world-codec.js';

export type { AppointmentKind };

export type AppointmentStatus = 'pending' | 'confirmed' | 'in_progress' | 'completed' | 'cancelled';

export interface Appointment {
  id: string;
  kind: AppointmentKind;
  order_id: string;
  user_id: string;
  slot: Slot;
  status: AppointmentStatus;
  notes: string | null;
  /** The address an at-home appointment was requested at (`.../appointment/request`); else the order's. */
  address?: {
    first_line: string;
    second_line: string | null;
    city: string;
    state: string;
    zip_code: string;
    access_notes: string | null;
  } | null;
  events: Array<{
    at: number;
    status: 'pending' | 'scheduled' | 'in_progress' | 'completed' | 'cancelled';
    data: Record<string, unknown> | null;
  }>;
  job: JobHandle | null;
}

const slotId = (s: Slot) => `${s.kind}|${s.location}|${s.start}`;

class AppointmentStore {
  private readonly byOrder = new Map<string, Appointment>();

  /** The order's appointment, if it has one. */
  forOrder(orderId: string): Appointment | undefined {
    return this.byOrder.get(orderId);
  }

  setForOrder(orderId: string, appt: Appointment): void {
    this.byOrder.set(orderId, appt);
  }

  private readonly taken = new Set<string>();
  private readonly usedKeys = new Set<string>();
  /** How many times each slot was freed again (its booking key's generation). */
  private readonly generation = new Map<string, number>();

  isTaken(slot: Slot): boolean {
    return this.taken.has(slotId(slot));
  }

  /** A slot booked with its booking key (the key cannot book again). */
  take(slot: Slot, bookingKey: string | null): void {
    if (bookingKey !== null) this.usedKeys.add(bookingKey);
    this.taken.add(slotId(slot));
  }

  keyUsed(key: string): boolean {
    return this.usedKeys.has(key);
  }

  /** The slot's booking key generation (how many times it was freed again). */
  generationOf(slot: Slot): number {
    return this.generation.get(slotId(slot)) ?? 0;
  }
  release(slot: Slot): void {
    const id = slotId(slot);
    if (this.taken.delete(id)) this.generation.set(id, (this.generation.get(id) ?? 0) + 1);
  }
  seq = 0;
}
dataClass('AppointmentStore', AppointmentStore);

export const appointmentsOf = partitionSlot('lab_appointments', () => new AppointmentStore());

const STATUS_OF_EVENT = {
  pending: 'pending',
  scheduled: 'confirmed',
  in_progress: 'in_progress',
  completed: 'completed',
  cancelled: 'cancelled',
} as const;

export function cancellationReasons(): z.input<typeof W.CancellationReason>[] {
  return [...CANCELLATION_REASONS];
}

export function openSlots(env: Domain, kind: AppointmentKind, location: string, date: string): Slot[] {
  const store = appointmentsOf(env.partition, env.world);
  const now = env.world.clock.now();
  return daySlots(env.world.seed, kind, location, date, now).filter((s) => !store.isTaken(s) && keyExpiry(s) > now);
}

export function orderFor(env: Domain, kind: AppointmentKind, orderId: string): Order {
  const order = ordersOf(env).get(orderId);
  if (!order) throw labsError.notFound(LABS_ERRORS.appointmentOrderNotFound);
  if (kind === 'phlebotomy' && order.method !== 'at_home_phlebotomy') throw labsError.badRequest(LABS_ERRORS.notPhlebotomyOrder);
  if (kind === 'psc' && order.method !== 'walk_in_test') throw labsError.badRequest(LABS_ERRORS.notPscOrder);
  return order;
}

/** The slot a booking key names, checked: genuine, of this kind, unused, unexpired, free. */
function slotForKey(env: Domain, kind: AppointmentKind, key: string): Slot {
  const store = appointmentsOf(env.partition, env.world);
  const slot = slotOfKey(env.world.seed, env.partition.id, key);
  if (!slot || slot.kind !== kind) throw labsError.badRequest(LABS_ERRORS.bookingKeyInvalid);
  if (store.keyUsed(key) || key !== bookingKey(env.world.seed, env.partition.id, slot, store.generationOf(slot)))
    throw labsError.badRequest(LABS_ERRORS.bookingKeyUsed);
  if (env.world.clock.now() >= keyExpiry(slot)) throw labsError.badRequest(LABS_ERRORS.bookingKeyExpired);
  if (store.isTaken(slot)) throw labsError.badRequest(LABS_ERRORS.slotTaken);
  const real = daySlots(
    env.world.seed,
    kind,
    slot.location,
    new Date(slot.start + (kind === 'psc' ? -5 : (PHLEBOTOMY_AREAS[slot.location]?.offset ?? 0)) * 3_600_000).toISOString().slice(0, 10),
    env.world.clock.now(),
  ).find((s) => s.start === slot.start);
  return real ?? slot;
}

export const BOOKABLE = new Set(['ordered', 'requisition_created', 'appointment_pending', 'appointment_cancelled']);

export function emit(env: Domain, appt: Appointment, type: 'labtest.appointment.created' | 'labtest.appointment.updated'): void {
  const user = usersOf(env.partition, env.world).get(appt.user_id);
  env.world.events.emit(env.partition, {
    event_type: type,
    data: appointmentView(env, appt),
    team_id: env.partition.team.id,
    user_id: appt.user_id,
    client_user_id: user?.client_user_id ?? ordersOf(env).get(appt.order_id)?.client_user_id ?? '',
  });
}

/** Moves the appointment on the clock: in progress at its start, completed at its end. */
export function scheduleProgress(env: Domain, appt: Appointment): void {
  appt.job?.cancel();
  appt.job = null;
  const next =
    appt.status === 'confirmed'
      ? { at: appt.slot.start, status: 'in_progress' as const }
      : appt.status === 'in_progress'
        ? { at: appt.slot.end, status: 'completed' as const }
        : null;
  if (!next) return;
  appt.job = env.world.scheduler.at(
    next.at,
    APPOINTMENT_STEP,
    { partition: env.partition, appt, status: next.status },
    `labtest.appointment ${appt.id} -> ${next.status}`,
  );
}

/** An appointment starts or ends on the clock (nothing when it was moved another way meanwhile). */
const APPOINTMENT_STEP = jobKind<{ partition: Partition; appt: Appointment; status: 'in_progress' | 'completed' }>(
  'labtest.appointment_step',
  (world, { partition, appt, status }, job) => {
    if (appt.job !== job) return;
    const env: Domain = { world, partition };
    appt.job = null;
    appt.status = STATUS_OF_EVENT[status];
    appt.events.push({ at: job.at, status, data: null });
    emit(env, appt, 'labtest.appointment.updated');
    scheduleProgress(env, appt);
  },
);

/** Books an appointment for an order with a booking key from availability. */
export function bookAppointment(
  env: Domain,
  kind: AppointmentKind,
  orderId: string,
  input: { booking_key: string; appointment_notes: string | null },
): Appointment {
  const order = orderFor(env, kind, orderId);
  const store = appointmentsOf(env.partition, env.world);
  const existing = store.forOrder(order.id);
  if (existing && existing.status !== 'cancelled') throw labsError.badRequest(LABS_ERRORS.appointmentExists);
  const cur = currentStatus(order);
  if (!BOOKABLE.has(cur)) throw labsError.badRequest(LABS_TEXTS.notBookable(cur));
  if (kind === 'phlebotomy' && !phlebotomyServed(order.patient_address)) throw labsError.badRequest(LABS_ERRORS.appointmentRequestZip);
  const slot = slotForKey(env, kind, input.booking_key);
  const now = env.world.clock.now();
  store.take(slot, input.booking_key);
  const appt: Appointment = {
    id: stableUuid(env.world.seed, 'lab_appointment', env.partition.id, ++store.seq),
    kind,
    order_id: order.id,
    user_id: order.user_id,
    slot,
    status: 'confirmed',
    notes: input.appointment_notes,
    events: [{ at: now, status: 'scheduled', data: null }],
    job: null,
  };
  store.setForOrder(order.id, appt);
  emit(env, appt, 'labtest.appointment.created');
  planAppointment(env, order, slot.end, appt.id);
  scheduleProgress(env, appt);
  return appt;
}

function activeAppointment(env: Domain, kind: AppointmentKind, orderId: string, allowPending = false): { order: Order; appt: Appointment } {
  const order = orderFor(env, kind, orderId);
  const appt = appointmentsOf(env.partition, env.world).forOrder(order.id);
  if (!appt) throw labsError.notFound(LABS_ERRORS.appointmentNotFound);
  if (appt.status !== 'confirmed' && !(allowPending && appt.status === 'pending'))
    throw labsError.badRequest(appt.status === 'in_progress' ? LABS_ERRORS.appointmentStarted : LABS_ERRORS.appointmentNotActive);
  return { order, appt };
}

/** Moves an appointment to the slot of a new booking key. */
export function rescheduleAppointment(
  env: Domain,
  kind: AppointmentKind,
  orderId: string,
  input: { booking_key: string; appointment_notes: string | null },
): Appointment {
  const { order, appt } = activeAppointment(env, kind, orderId);
  const slot = slotForKey(env, kind, input.booking_key);
  const store = appointmentsOf(env.partition, env.world);
  store.release(appt.slot);
  store.take(slot, input.booking_key);
  appt.slot = slot;
  if (input.appointment_notes !== null) appt.notes = input.appointment_notes;
  appt.events.push({ at: env.world.clock.now(), status: 'scheduled', data: { rescheduled: true } });
  emit(env, appt, 'labtest.appointment.updated');
  planAppointment(env, order, slot.end, appt.id);
  scheduleProgress(env, appt);
  return appt;
}

function cancelRecord(env: Domain, appt: Appointment, data: Record<string, unknown>): void {
  appt.job?.cancel();
  appt.job = null;
  appt.status = 'cancelled';
  appointmentsOf(env.partition, env.world).release(appt.slot);
  appt.events.push({ at: env.world.clock.now(), status: 'cancelled', data });
  emit(env, appt, 'labtest.appointment.updated');
}

/** Cancels an appointment with a reason; the order goes to appointment_cancelled (unchanged before its requisition). */
export function cancelAppointment(
  env: Domain,
  kind: AppointmentKind,
  orderId: string,
  input: { reason_id: string; note: string | null },
): Appointment {
  const { order, appt } = activeAppointment(env, kind, orderId, true);
  const reason = CANCELLATION_REASONS.find((r) => r.id === input.reason_id);
  if (!reason) throw labsError.badRequest(LABS_ERRORS.unknownCancellationReason);
  cancelRecord(env, appt, { cancellation_reason: reason.name, note: input.note });
  cancelAppointmentSteps(env, order);
  return appt;
}

/** A cancelled order takes its phlebotomy appointment along (not its PSC appointment, as the reference). */
export function orderCancelled(env: Domain, order: Order): void {
  const appt = appointmentsOf(env.partition, env.world).forOrder(order.id);
  if (appt && appt.kind === 'phlebotomy' && (appt.status === 'confirmed' || appt.status === 'pending'))
    cancelRecord(env, appt, { cancellation_reason: 'Order cancelled', note: null });
}

export function getAppointment(env: Domain, kind: AppointmentKind, orderId: string): Appointment {
  const order = orderFor(env, kind, orderId);
  const appt = appointmentsOf(env.partition, env.world).forOrder(order.id);
  if (!appt) throw labsError.notFound(LABS_ERRORS.appointmentNotFound);
  return appt;
}

/** `ClientFacingAppointment`. */
export function appointmentView(env: Domain, appt: Appointment): z.input<typeof W.Appointment> {
  const order = ordersOf(env).get(appt.order_id);
  const last = appt.events[appt.events.length - 1];
  let address: z.input<typeof W.Appointment>['address'];
  let location: { lng: number; lat: number };
  let provider: string;
  let timezone: string;
  if (appt.kind === 'psc') {
    const site = pscSite(env.world.seed, appt.slot.location);
    address = {
      first_line: site?.first_line ?? '',
      second_line: null,
      city: 'Sandbox City',
      state: 'NY',
      zip_code: site?.zip ?? '',
      unit: null,
      access_notes: null,
    };
    location = { lng: site?.lng ?? 0, lat: site?.lat ?? 0 };
    provider = 'quest';
    timezone = PSC_TIMEZONE;
  } else {
    const area = PHLEBOTOMY_AREAS[appt.slot.location];
    const pa = order?.patient_address;
    address = appt.address
      ? { ...appt.address, unit: null }
      : {
          first_line: pa?.first_line ?? '',
          second_line: pa?.second_line ?? null,
          city: pa?.city ?? '',
          state: pa?.state ?? '',
          zip_code: appt.slot.location,
          unit: null,
          access_notes: pa?.access_notes ?? null,
        };
    location = { lng: area?.lng ?? 0, lat: area?.lat ?? 0 };
    provider = area?.provider ?? 'getlabs';
    timezone = area?.timezone ?? 'America/Phoenix';
  }
  return {
    id: appt.id,
    user_id: appt.user_id,
    order_id: appt.order_id,
    order_transaction_id: order?.transaction_id ?? null,
    address,
    location,
    start_at: appt.status === 'pending' ? null : iso(appt.slot.start),
    end_at: appt.status === 'pending' ? null : iso(appt.slot.end),
    iana_timezone: timezone,
    type: appt.kind === 'psc' ? 'patient_service_center' : 'phlebotomy',
    provider,
    status: appt.status,
    provider_id: `sbx-${appt.id.slice(0, 8)}`,
    external_id: null,
    can_reschedule: appt.status === 'confirmed',
    appointment_notes: appt.notes,
    event_status: last?.status ?? 'scheduled',
    event_data: last?.data ?? null,
    events: appt.events.map((e) => ({ created_at: iso(e.at), status: e.status, data: e.data })),
  };
}
