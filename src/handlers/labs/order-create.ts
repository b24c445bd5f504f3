/**
 * Placing lab orders (spec 2.4, 3; api-facts B.1, B.2, B.5).
 *
 * Simulates placing an order (lab test or order set, reference validation of patient details
 * and address, unknown user), ordering an unregistered (registrable) testkit and registering
 * it by sample id, with `X-Idempotency-Key` replay for 24 h of sandbox time (per endpoint;
 * business errors are replayed too unless `X-Idempotency-Error: no-cache`). Orders then move on
 * the sandbox clock (`src/state/labs/order-lifecycle.ts`); every change emits
 * `labtest.order.created` / `labtest.order.updated` with the full order.
 *
 * LIMITATIONS
 * - Health insurance, consents, AoE answers and `lab_account_id` are validated and not used;
 *   `requisition_form_url` is null (the requisition is served at `/requisition/pdf`); `has_abn`
 *   follows the sandbox's rule (`state/labs/order-abn.ts`).
 */
import type { z } from 'zod';
import { type CheckedReply, type Ctx, defineRoute, reply } from '../../engine/route.js';
import { idempotent, orderTestkit, placeOrder, registerTestkit } from '../../state/labs/order-actions.js';
import type { Order } from '../../state/labs/order-model.js';
import type { Domain } from '../../state/domain-context.js';
import { postOrderView } from '../../state/labs/order-views.js';
import {
  createOrderBody,
  createTestkitBody,
  registerTestkitBody,
  toPatientAddress,
  toPatientDetails,
  toPhysician,
  toShippingDetails,
} from './order-requests.js';
import { OrderAnswer, res } from '../../wire/schemas.js';

/** Runs `create` under the request's idempotency key and answers PostOrderResponse. */
async function replayable(
  ctx: Ctx,
  scope: 'order' | 'testkit',
  message: string,
  create: (d: Domain) => Order,
): Promise<CheckedReply<200, z.input<typeof OrderAnswer>>> {
  const key = ctx.request.headers['x-idempotency-key'];
  const noCache = ctx.request.headers['x-idempotency-error'] === 'no-cache';
  const answer = idempotent(ctx, scope, key, noCache, () => ({
    at: ctx.now(),
    status: 200,
    body: postOrderView(ctx, create(ctx), message),
  }));
  // Successes are 200 (above); stored errors are thrown by `idempotent`.
  return reply(200, answer.body);
}

function placeInput(body: z.output<typeof createOrderBody>) {
  return {
    user_id: body.user_id,
    lab_test_id: body.lab_test_id ?? null,
    order_set: body.order_set ?? null,
    collection_method: body.collection_method ?? null,
    patient_details: toPatientDetails(body.patient_details),
    patient_address: toPatientAddress(body.patient_address),
    physician: toPhysician(body.physician),
    priority: body.priority,
    billing_type: body.billing_type,
    icd_codes: body.icd_codes ?? null,
    passthrough: body.passthrough ?? null,
    clinical_notes: body.clinical_notes ?? null,
    activate_by: body.activate_by ?? null,
    has_health_insurance: Boolean(body.health_insurance),
  };
}

export const orderCreateRoutes = [
  defineRoute({
    id: 'orders.create',
    method: 'POST',
    path: '/v3/order',
    auth: 'team',
    summary: 'Place a lab order (lab test or order set); honours X-Idempotency-Key.',
    request: { body: createOrderBody },
    responses: {
      200: res(OrderAnswer, 'PostOrderResponse'),
      400: 'Business rule (fictional phone, minors, lab/method mismatch)',
      404: 'Unknown user or lab test',
      422: 'Validation error',
    },
    handle(ctx, { body }) {
      return replayable(ctx, 'order', 'Order submitted', (ctx) => placeOrder(ctx, placeInput(body)));
    },
  }),

  defineRoute({
    id: 'orders.testkit.create',
    method: 'POST',
    path: '/v3/order/testkit',
    auth: 'team',
    summary: 'Order an unregistered (registrable) testkit shipped to an address.',
    request: { body: createTestkitBody },
    responses: {
      200: res(OrderAnswer, 'PostOrderResponse'),
      400: 'Not a testkit test',
      404: 'Unknown user or lab test',
      422: 'Validation error',
    },
    handle(ctx, { body }) {
      return replayable(ctx, 'testkit', 'Order submitted', (ctx) =>
        orderTestkit(ctx, {
          user_id: body.user_id,
          lab_test_id: body.lab_test_id,
          shipping_details: toShippingDetails(body.shipping_details),
          passthrough: body.passthrough ?? null,
        }),
      );
    },
  }),

  defineRoute({
    id: 'orders.testkit.register',
    method: 'POST',
    path: '/v3/order/testkit/register',
    auth: 'team',
    summary: "Register a testkit by its sample id with the patient's details.",
    request: { body: registerTestkitBody },
    responses: {
      200: res(OrderAnswer, 'PostOrderResponse'),
      400: 'Already registered or past registration',
      404: 'Unknown sample id or user',
      422: 'Validation error',
    },
    handle(ctx, { body }) {
      const order = registerTestkit(ctx, {
        sample_id: body.sample_id,
        user_id: body.user_id ?? null,
        patient_details: toPatientDetails(body.patient_details),
        patient_address: toPatientAddress(body.patient_address),
        physician: toPhysician(body.physician),
      });
      return reply(200, postOrderView(ctx, order, 'Testkit registered'));
    },
  }),
];
