/**
 * Importing an order placed outside the API (`POST /v3/order/import`; api-facts B.1): the order
 * keeps the caller's `sample_id`, records `requisition_bypassed` instead of
 * `requisition_created`, and then moves on the clock like a placed order, with the same
 * `labtest.order.created` / `.updated` events. The rules are in `state/labs/order-import.ts`.
 *
 * LIMITATIONS
 * - `lab_account_id` is validated and not used. A `sample_id` already used in the team
 *   environment answers 400 (invented text).
 */
import { z } from 'zod';
import { defineRoute, reply } from '../../engine/route.js';
import { uuid } from '../../engine/schemas.js';
import { importOrder } from '../../state/labs/order-import.js';
import { postOrderView } from '../../state/labs/order-views.js';
import {
  orderSetSchema,
  patientDetailsSchema,
  physicianSchema,
  toPatientAddress,
  toPatientDetails,
  toPhysician,
} from './order-requests.js';
import { OrderAnswer, res } from '../../wire/schemas.js';
import { lazySchema } from '../../engine/lazy-schema.js';

/** `PatientAddress` of ImportOrderBody: the receiver is required, the zip code free text. */
const importAddress = lazySchema(() =>
  z.object({
    receiver_name: z.string(),
    first_line: z.string().min(1),
    second_line: z.string().nullish(),
    city: z.string().min(1),
    state: z.string().min(1),
    zip: z.string().min(1),
    country: z.string().min(1),
    access_notes: z.string().max(1000).nullish(),
  }),
);

const importBody = lazySchema(() =>
  z.object({
    user_id: uuid(),
    billing_type: z.enum(['client_bill', 'commercial_insurance', 'patient_bill_passthrough', 'patient_bill']),
    order_set: orderSetSchema,
    collection_method: z.enum(['testkit', 'walk_in_test', 'at_home_phlebotomy', 'on_site_collection']),
    physician: physicianSchema.nullish(),
    patient_details: patientDetailsSchema,
    patient_address: importAddress,
    sample_id: z.string().trim().min(1).max(64),
    lab_account_id: uuid().nullish(),
  }),
);

export const orderImportRoutes = [
  defineRoute({
    id: 'orders.import',
    method: 'POST',
    path: '/v3/order/import',
    auth: 'team',
    summary: 'Import an order placed outside the API, under its existing requisition and sample id.',
    request: { body: importBody },
    responses: {
      200: res(OrderAnswer, 'PostOrderResponse'),
      400: 'Sample id already used; business rule (fictional phone, minors, order set)',
      404: 'Unknown user or lab test',
      422: 'Validation error',
    },
    handle(ctx, { body }) {
      const order = importOrder(ctx, {
        user_id: body.user_id,
        billing_type: body.billing_type,
        order_set: body.order_set,
        collection_method: body.collection_method,
        physician: toPhysician(body.physician),
        patient_details: toPatientDetails(body.patient_details),
        // The import's address takes no phone number: toPatientAddress answers null for it.
        patient_address: toPatientAddress(body.patient_address),
        sample_id: body.sample_id,
      });
      return reply(200, postOrderView(ctx, order, 'Order imported'));
    },
  }),
];
