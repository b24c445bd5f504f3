/**
 * Lab appointments (api-facts B, "Appointments"): at-home phlebotomy and patient service
 * center (PSC) availability, booking (PSC booking honours `x-idempotency-key`), rescheduling,
 * cancelling with a reason, reading, and the cancellation reasons. The rules are in
 * `state/labs/appointments.ts`; slots in `fixtures/labs/appointment-slots.ts`.
 *
 * LIMITATIONS
 * - Phlebotomy is served in zip 85004 (Getlabs, West Lincoln Street only) and 54650 (PhlebFinders) only, as in the
 *   reference's sandbox; elsewhere availability answers no slots.
 * - PSCs are Quest only and generated (three per zip code); `sonora_quest` availability answers
 *   404, like a place without slots.
 * - Local times use fixed UTC offsets (no daylight saving time).
 * - `POST .../phlebotomy/appointment/request` is served in `appointment-requests.ts`.
 * - Asynchronous confirmation options of a booking are accepted and ignored: bookings confirm at once.
 */
import { z } from 'zod';
import { defineRoute, reply, type Route } from '../../engine/route.js';
import { isoDate, usAddress, uuid, withRules } from '../../engine/schemas.js';
import {
  type AppointmentKind,
  appointmentView,
  bookAppointment,
  cancelAppointment,
  cancellationReasons,
  getAppointment,
  rescheduleAppointment,
} from '../../state/labs/appointments.js';
import { phlebotomyAvailability, pscAvailability } from '../../state/labs/appointment-availability.js';
import { LABS_ERRORS } from '../../state/labs/errors.js';
import { idempotent } from '../../state/labs/order-actions.js';
import { Appointment, AppointmentAvailability, CancellationReason, res } from '../../wire/schemas.js';
import { lazySchema } from '../../engine/lazy-schema.js';

const orderParams = lazySchema(() => z.object({ order_id: uuid() }));
const address = lazySchema(usAddress);

const bookingBody = lazySchema(() =>
  z.object({
    booking_key: z.string(),
    appointment_notes: z.string().max(1000).nullish(),
    async_confirmation: z.boolean().optional(),
    sync_confirmation_timeout_millisecond: z.number().int().min(1000).max(10000).nullish(),
    async_confirmation_timeout_millisecond: z.number().int().min(60000).max(172800000).nullish(),
  }),
);

const rescheduleBody = lazySchema(() => z.object({ booking_key: z.string(), appointment_notes: z.string().max(1000).nullish() }));

const pscQuery = lazySchema(() =>
  withRules(
    z.object({
      lab: z.enum(['quest', 'sonora_quest']),
      start_date: isoDate().optional(),
      site_codes: z.array(z.string()).optional(),
      zip_code: z
        .string()
        .regex(/^\d{5}$/)
        .optional(),
      radius: z.enum(['10', '20', '25', '50', '100']).default('25'),
      allow_stale: z.enum(['true', 'false']).optional(),
    }),
    (q) => !q.zip_code && !(q.site_codes && q.site_codes.length > 0) && { path: ['zip_code'], message: LABS_ERRORS.pscNeedsPlace },
  ),
);

function perKind(kind: AppointmentKind, cancelBody: z.ZodType<{ reason_id: string; note: string | null }>): Route[] {
  const base = `/v3/order/:order_id/${kind}/appointment`;
  const label = kind === 'psc' ? 'PSC' : 'phlebotomy';
  return [
    defineRoute({
      id: `appointments.${kind}.book`,
      method: 'POST',
      path: `${base}/book`,
      auth: 'team',
      summary: `Book a ${label} appointment with a booking key from availability.`,
      request: { params: orderParams, body: bookingBody },
      responses: {
        200: res(Appointment, 'ClientFacingAppointment'),
        400: 'Key invalid, used, expired or slot taken; order not bookable',
        404: "This order doesn't exist.",
        422: 'Validation error',
      },
      handle(ctx, { params, body }) {
        const book = () => ({
          at: ctx.now(),
          status: 200,
          body: appointmentView(
            ctx,
            bookAppointment(ctx, kind, params.order_id, {
              booking_key: body.booking_key,
              appointment_notes: body.appointment_notes ?? null,
            }),
          ),
        });
        if (kind !== 'psc') return reply(200, book().body);
        const answer = idempotent(
          ctx,
          `psc_book ${params.order_id}`,
          ctx.request.headers['x-idempotency-key'],
          ctx.request.headers['x-idempotency-error'] === 'no-cache',
          book,
        );
        // Successes are 200 (`book`); stored errors are thrown by `idempotent`.
        return reply(200, answer.body);
      },
    }),
    defineRoute({
      id: `appointments.${kind}.reschedule`,
      method: 'PATCH',
      path: `${base}/reschedule`,
      auth: 'team',
      summary: `Move a ${label} appointment to the slot of a new booking key.`,
      request: { params: orderParams, body: rescheduleBody },
      responses: {
        200: res(Appointment, 'ClientFacingAppointment'),
        400: 'Key invalid, used, expired or slot taken; appointment not active',
        404: 'Unknown order or no appointment',
        422: 'Validation error',
      },
      handle(ctx, { params, body }) {
        return reply(
          200,
          appointmentView(
            ctx,
            rescheduleAppointment(ctx, kind, params.order_id, {
              booking_key: body.booking_key,
              appointment_notes: body.appointment_notes ?? null,
            }),
          ),
        );
      },
    }),
    defineRoute({
      id: `appointments.${kind}.cancel`,
      method: 'PATCH',
      path: `${base}/cancel`,
      auth: 'team',
      summary: `Cancel a ${label} appointment with a cancellation reason.`,
      request: { params: orderParams, body: cancelBody },
      responses: {
        200: res(Appointment, 'ClientFacingAppointment'),
        400: 'Unknown reason; appointment not active',
        404: 'Unknown order or no appointment',
        422: 'Validation error',
      },
      handle(ctx, { params, body }) {
        return reply(200, appointmentView(ctx, cancelAppointment(ctx, kind, params.order_id, body)));
      },
    }),
    defineRoute({
      id: `appointments.${kind}.get`,
      method: 'GET',
      path: base,
      auth: 'team',
      summary: `The order's ${label} appointment.`,
      request: { params: orderParams },
      responses: {
        200: res(Appointment, 'ClientFacingAppointment'),
        400: 'The order is not of this appointment kind',
        404: 'Unknown order or no appointment',
        422: 'Malformed id',
      },
      handle(ctx, { params }) {
        return reply(200, appointmentView(ctx, getAppointment(ctx, kind, params.order_id)));
      },
    }),
    defineRoute({
      id: `appointments.${kind}.cancellation_reasons`,
      method: 'GET',
      path: `/v3/order/${kind}/appointment/cancellation-reasons`,
      auth: 'team',
      summary: `Reasons a ${label} appointment can be cancelled with.`,
      responses: {
        200: res(
          lazySchema(() => z.array(CancellationReason)),
          '[ClientFacingAppointmentCancellationReason]',
        ),
      },
      handle() {
        return reply(200, cancellationReasons());
      },
    }),
  ];
}

export const appointmentRoutes: Route[] = [
  defineRoute({
    id: 'appointments.phlebotomy.availability',
    method: 'POST',
    path: '/v3/order/phlebotomy/appointment/availability',
    auth: 'team',
    summary: 'At-home phlebotomy slots for an address, five days from start_date.',
    request: { query: lazySchema(() => z.object({ start_date: isoDate().optional() })), body: address },
    responses: { 200: res(AppointmentAvailability, 'AppointmentAvailabilitySlots'), 422: 'Validation error' },
    handle(ctx, { query, body }) {
      return reply(200, phlebotomyAvailability(ctx, body, query.start_date));
    },
  }),
  defineRoute({
    id: 'appointments.psc.availability',
    method: 'POST',
    path: '/v3/order/psc/appointment/availability',
    auth: 'team',
    summary: 'Quest PSC slots near a zip code or at site codes, three days from start_date.',
    request: { query: pscQuery },
    responses: { 200: res(AppointmentAvailability, 'AppointmentAvailabilitySlots'), 404: 'No slots', 422: 'Validation error' },
    handle(ctx, { query }) {
      return reply(200, pscAvailability(ctx, { ...query, radius: Number(query.radius) }));
    },
  }),
  ...perKind(
    'phlebotomy',
    z
      .object({ cancellation_reason_id: uuid(), notes: z.string().nullish() })
      .transform((b) => ({ reason_id: b.cancellation_reason_id, note: b.notes ?? null })),
  ),
  ...perKind(
    'psc',
    z
      .object({ cancellationReasonId: uuid(), note: z.string().nullish() })
      .transform((b) => ({ reason_id: b.cancellationReasonId, note: b.note ?? null })),
  ),
];
