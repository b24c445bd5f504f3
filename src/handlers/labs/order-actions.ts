/**
 * Reading and changing lab orders (spec 2.4, 3; api-facts B.3, B.4).
 *
 * Simulates reading an order, cancelling it (only from the statuses the reference allows),
 * rescheduling a scheduled order (`activate_by`), the on-site draw, order transactions and
 * resending events. The rules are the labs domain functions (`state/labs/order-actions.ts`).
 *
 * LIMITATIONS
 * - A disallowed cancel answers 400 with both the usual `detail` and the documented
 *   `{error, message, status_code}` fields, since the reference's shape is unconfirmed.
 * - Seeded orders stand still until a request moves them (simulate, cancel, draw); orders created
 *   by requests move on the clock.
 */
import { z } from 'zod';
import { defineRoute, type Method, reply } from '../../engine/route.js';
import { dateOrDateTime, isoDate, uuid, withRules } from '../../engine/schemas.js';
import { LABS_ERRORS } from '../../state/labs/errors.js';
import {
  cancelOrderById,
  communicationSettings,
  completeDraw,
  findOrder,
  rescheduleOrder,
  resendEvents,
  setCommunicationSettings,
} from '../../state/labs/order-actions.js';
import type { Order as LabOrder } from '../../state/labs/order-model.js';
import type { Domain } from '../../state/domain-context.js';
import { orderView, postOrderView, transactionResponse } from '../../state/labs/order-views.js';
import { CommunicationSettings, Order, OrderAnswer, OrderTransaction, res } from '../../wire/schemas.js';
import { lazySchema } from '../../engine/lazy-schema.js';

const orderParams = lazySchema(() => z.object({ order_id: uuid() }));

const resendBody = lazySchema(() =>
  withRules(
    z.object({
      order_ids: z.array(uuid()).nullish(),
      start_at: dateOrDateTime('start').nullish(),
      end_at: dateOrDateTime('end').nullish(),
    }),
    (b) => b.order_ids == null && b.start_at == null && b.end_at == null && { message: LABS_ERRORS.resendNeedsSelection },
  ),
);

/** A change of one order, `<method> /v3/order/{order_id}/<path>`: answers the changed order (`PostOrderResponse`) with `message`. */
function orderChangeRoute(o: {
  id: string;
  method: Method;
  path: string;
  summary: string;
  /** The 400 answer's description: when the change is not allowed. */
  notAllowed: string;
  change: (d: Domain, orderId: string) => LabOrder;
  message: string;
}) {
  return defineRoute({
    id: o.id,
    method: o.method,
    path: `/v3/order/:order_id/${o.path}`,
    auth: 'team',
    summary: o.summary,
    request: { params: orderParams },
    responses: {
      200: res(OrderAnswer, 'PostOrderResponse'),
      400: o.notAllowed,
      404: "Order doesn't exist",
      422: 'Malformed id',
    },
    handle(ctx, { params }) {
      return reply(200, postOrderView(ctx, o.change(ctx, params.order_id), o.message));
    },
  });
}

export const orderActionRoutes = [
  defineRoute({
    id: 'orders.resend_events',
    method: 'POST',
    path: '/v3/order/resend_events',
    auth: 'team',
    summary: 'Re-emit the current state of orders chosen by id and/or an updated_at range.',
    request: { body: resendBody },
    responses: {
      200: res(
        lazySchema(() => z.object({ order_ids: z.array(z.string()) })),
        '{order_ids}',
      ),
      422: 'No selection given',
    },
    handle(ctx, { body }) {
      const chosen = resendEvents(ctx, {
        order_ids: body.order_ids ?? null,
        start: body.start_at ?? null,
        end: body.end_at ?? null,
      });
      return reply(200, { order_ids: chosen.map((o) => o.id) });
    },
  }),

  defineRoute({
    id: 'orders.get',
    method: 'GET',
    path: '/v3/order/:order_id',
    auth: 'team',
    summary: 'One lab order.',
    request: { params: orderParams },
    responses: { 200: res(Order, 'ClientFacingOrder'), 404: "This order doesn't exist", 422: 'Malformed id' },
    handle(ctx, { params }) {
      return reply(200, orderView(ctx, findOrder(ctx, params.order_id, LABS_ERRORS.orderGetNotFound)));
    },
  }),

  defineRoute({
    id: 'orders.update',
    method: 'PATCH',
    path: '/v3/order/:order_id',
    auth: 'team',
    summary: 'Reschedule a scheduled order (activate_by; null activates it now).',
    request: { params: orderParams, body: lazySchema(() => z.object({ activate_by: isoDate().nullable() })) },
    responses: {
      200: res(OrderAnswer, 'PostOrderResponse'),
      400: 'Not a scheduled order still waiting, or a past date',
      404: 'Unknown order',
      422: 'Validation error',
    },
    handle(ctx, { params, body }) {
      return reply(200, postOrderView(ctx, rescheduleOrder(ctx, params.order_id, body.activate_by), 'Order updated'));
    },
  }),

  orderChangeRoute({
    id: 'orders.cancel',
    method: 'POST',
    path: 'cancel',
    summary: 'Cancel an order (only from the statuses the reference allows).',
    notAllowed: 'Transition not allowed',
    change: cancelOrderById,
    message: 'Order cancelled',
  }),

  orderChangeRoute({
    id: 'orders.draw_completed',
    method: 'PATCH',
    path: 'draw_completed',
    summary: 'Record the draw of an on-site collection order.',
    notAllowed: 'Not on-site, or not waiting for the draw',
    change: completeDraw,
    message: 'Draw completed',
  }),

  defineRoute({
    id: 'orders.communication_settings.get',
    method: 'GET',
    path: '/v3/order/:order_id/communication_settings',
    auth: 'team',
    summary: 'Whether the patient gets SMS about the order.',
    request: { params: orderParams },
    responses: {
      200: res(CommunicationSettings, 'GetOrderCommunicationSettingsResponse'),
      404: "This order doesn't exist",
      422: 'Malformed id',
    },
    handle(ctx, { params }) {
      return reply(200, communicationSettings(ctx, params.order_id));
    },
  }),

  defineRoute({
    id: 'orders.communication_settings.update',
    method: 'PATCH',
    path: '/v3/order/:order_id/communication_settings',
    auth: 'team',
    summary: "Turn the patient's SMS about the order on or off.",
    request: { params: orderParams, body: lazySchema(() => z.object({ sms_enabled: z.boolean() })) },
    responses: {
      200: res(CommunicationSettings, 'PatchOrderCommunicationSettingsResponse'),
      404: "Order doesn't exist",
      422: 'Validation error',
    },
    handle(ctx, { params, body }) {
      return reply(200, setCommunicationSettings(ctx, params.order_id, body.sms_enabled));
    },
  }),

  defineRoute({
    id: 'order_transactions.get',
    method: 'GET',
    path: '/v3/order_transaction/:transaction_id',
    auth: 'team',
    summary: 'An order transaction with a summary of its orders.',
    request: { params: lazySchema(() => z.object({ transaction_id: uuid() })) },
    responses: { 200: res(OrderTransaction, 'GetOrderTransactionResponse'), 404: 'Unknown transaction', 422: 'Malformed id' },
    handle: (ctx, { params }) => reply(200, transactionResponse(ctx, params.transaction_id)),
  }),
];
