/**
 * List lab orders (spec 4.6, 8; api-facts A.10).
 *
 * Simulates every filter, sort key and bound of `GET /v3/orders`: free-text search (order id,
 * user id, patient name, date of birth, recipient name), created and updated ranges (a date
 * alone gets 00:00:00, except `end_date`, which gets 23:59:59, as the reference documents),
 * low-level statuses, methods, interpretation and criticality, activation type, user, patient
 * and recipient names, order ids, transaction; sorted by `created_at`, `patient_name` or
 * `last_status`; paginated with `page` >= 1 and `size` 1 to 100 (422 outside).
 *
 * LIMITATIONS
 * - Without `order_key`/`order_direction` the list is newest first (`created_at` descending).
 * - `order_key=last_status` sorts by the time of the latest status change (ties by creation).
 * - Names match case-insensitively as substrings; the reference's exact matching rules are unknown.
 * - `is_critical` means a result beyond its critical limit (what `labtest.result.critical` reports).
 *
 * Served from the store's indexes (`state/labs/order-listing.ts`): the default listing costs a
 * page, not the partition.
 */
import { z } from 'zod';
import { defineRoute, reply } from '../../engine/route.js';
import { bool, dateOrDateTime, int, uuid } from '../../engine/schemas.js';
import { LOW_STATUSES, type LowStatus } from '../../state/labs/order-lifecycle.js';
import { listOrders } from '../../state/labs/order-listing.js';
import { orderView } from '../../state/labs/order-views.js';
import { METHOD } from './lab-schemas.js';
import { OrderList, res } from '../../wire/schemas.js';
import { lazySchema } from '../../engine/lazy-schema.js';

const listQuery = lazySchema(() =>
  z.object({
    search_input: z.string().optional(),
    start_date: dateOrDateTime('start').optional(),
    end_date: dateOrDateTime('end').optional(),
    updated_start_date: dateOrDateTime('start').optional(),
    updated_end_date: dateOrDateTime('start').optional(),
    status: z.array(z.enum(LOW_STATUSES as [LowStatus, ...LowStatus[]])).optional(),
    order_key: z.enum(['created_at', 'patient_name', 'last_status']).optional(),
    order_direction: z.enum(['asc', 'desc']).optional(),
    order_type: z.array(METHOD).optional(),
    is_critical: bool().optional(),
    interpretation: z.enum(['normal', 'abnormal', 'critical', 'unknown']).optional(),
    order_activation_types: z.array(z.enum(['current', 'scheduled'])).optional(),
    user_id: uuid().optional(),
    patient_name: z.string().optional(),
    shipping_recipient_name: z.string().optional(),
    order_ids: z.array(uuid()).optional(),
    order_transaction_id: uuid().optional(),
    page: int({ min: 1 }).default(1),
    size: int({ min: 1, max: 100 }).default(50),
  }),
);

export const orderListRoutes = [
  defineRoute({
    id: 'orders.list',
    method: 'GET',
    path: '/v3/orders',
    auth: 'team',
    summary: "Search, filter, sort and page the team's lab orders.",
    request: { query: listQuery },
    responses: {
      200: res(OrderList, '{orders, total, page, size}'),
      404: 'user_id not on this team',
      422: 'Validation error (page >= 1, size 1 to 100, enums)',
    },
    handle(ctx, { query }) {
      const { orders, total } = listOrders(ctx, query);
      return reply(200, { orders: orders.map((o) => orderView(ctx, o)), total, page: query.page, size: query.size });
    },
  }),
];
