/**
 * Requesting an at-home phlebotomy appointment (api-facts B.1 "Phlebotomy appts": `POST
 * .../phlebotomy/appointment/request` `{address, provider}`): the provider schedules it on the
 * clock instead of the caller booking a slot. The rules are in `state/labs/appointment-requests.ts`.
 *
 * LIMITATIONS
 * - Served where at-home phlebotomy is (zip 85004 Getlabs, 54650 PhlebFinders); `provider` must
 *   be the area's. The provider confirms two hours (sandbox time) after the request, for the first
 *   free slot from the next day; the texts of the 400s are invented.
 */
import { z } from 'zod';
import { defineRoute, reply } from '../../engine/route.js';
import { usAddress, uuid } from '../../engine/schemas.js';
import { requestPhlebotomyAppointment } from '../../state/labs/appointment-requests.js';
import { appointmentView } from '../../state/labs/appointments.js';
import { Appointment, res } from '../../wire/schemas.js';
import { lazySchema } from '../../engine/lazy-schema.js';

const requestBody = lazySchema(() =>
  z.object({
    address: usAddress(),
    provider: z.enum(['getlabs', 'phlebfinders', 'quest', 'sonora_quest']),
    appointment_notes: z.string().max(1000).nullish(),
  }),
);

export const appointmentRequestRoutes = [
  defineRoute({
    id: 'appointments.phlebotomy.request',
    method: 'POST',
    path: '/v3/order/:order_id/phlebotomy/appointment/request',
    auth: 'team',
    summary: 'Ask the provider to schedule an at-home phlebotomy appointment (pending until it confirms).',
    request: { params: lazySchema(() => z.object({ order_id: uuid() })), body: requestBody },
    responses: {
      200: res(Appointment, 'ClientFacingAppointment'),
      400: 'Not a phlebotomy order, not bookable, address or provider not served, appointment exists',
      404: "This order doesn't exist.",
      422: 'Validation error',
    },
    handle(ctx, { params, body }) {
      const a = body.address;
      const appt = requestPhlebotomyAppointment(ctx, params.order_id, {
        address: {
          first_line: a.first_line,
          second_line: a.second_line ?? a.unit ?? null,
          city: a.city,
          state: a.state,
          zip_code: a.zip_code,
          access_notes: a.access_notes ?? null,
        },
        provider: body.provider,
        appointment_notes: body.appointment_notes ?? null,
      });
      return reply(200, appointmentView(ctx, appt));
    },
  }),
];
