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
 */
import { z } from 'zod';
import { MESSAGES, notFound } from '../../engine/errors.js';
import { json } from '../../engine/http-types.js';
import { defineRoute } from '../../engine/route.js';
import { bool, dateOrDateTime, int, uuid } from '../../engine/schemas.js';
import { LOW_STATUSES, type LowStatus } from '../../state/labs/order-lifecycle.js';
import { currentStatus, lastEvent, orderResults, orderView, ordersOf, type Order } from '../../state/labs/orders.js';
import { usersOf } from '../../state/users/users.js';
import { METHOD } from './lab-tests.js';

const listQuery = z.object({
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
});

function patientName(o: Order): string {
  if (o.patient_details) return `${o.patient_details.first_name} ${o.patient_details.last_name}`;
  return o.shipping_details?.receiver_name ?? '';
}

function recipientName(o: Order): string {
  return o.shipping_details?.receiver_name || o.patient_address?.receiver_name || '';
}

export const orderListRoutes = [
  defineRoute({
    id: 'orders.list',
    method: 'GET',
    path: '/v3/orders',
    auth: 'team',
    summary: 'Search, filter, sort and page the team\'s lab orders.',
    request: { query: listQuery },
    responses: { 200: '{orders, total, page, size}', 404: 'user_id not on this team', 422: 'Validation error (page >= 1, size 1 to 100, enums)' },
    handle(ctx, { query }) {
      const store = ordersOf(ctx.partition, ctx.world);
      let pool: readonly Order[];
      if (query.user_id) {
        if (!usersOf(ctx.partition, ctx.world).byId.has(query.user_id)) throw notFound(MESSAGES.userNotOnTeam);
        pool = store.byUser.get(query.user_id) ?? [];
      } else if (query.order_transaction_id) {
        pool = store.transactions.get(query.order_transaction_id)?.orders ?? [];
      } else {
        pool = store.all();
      }
      const today = new Date(ctx.now()).toISOString().slice(0, 10);
      const search = query.search_input?.trim().toLowerCase();
      const statuses = query.status ? new Set(query.status) : null;
      const methods = query.order_type ? new Set<string>(query.order_type) : null;
      const ids = query.order_ids ? new Set(query.order_ids) : null;
      const activation = query.order_activation_types ? new Set(query.order_activation_types) : null;
      const patient = query.patient_name?.trim().toLowerCase();
      const recipient = query.shipping_recipient_name?.trim().toLowerCase();
      const needsResults = query.is_critical !== undefined || query.interpretation !== undefined;
      const list = pool.filter((o) => {
        if (query.order_transaction_id && o.transaction_id !== query.order_transaction_id) return false;
        if (ids && !ids.has(o.id)) return false;
        if (statuses && !statuses.has(currentStatus(o))) return false;
        if (methods && !methods.has(o.method)) return false;
        if (query.start_date !== undefined && o.created_at < query.start_date) return false;
        if (query.end_date !== undefined && o.created_at > query.end_date) return false;
        if (query.updated_start_date !== undefined && o.updated_at < query.updated_start_date) return false;
        if (query.updated_end_date !== undefined && o.updated_at > query.updated_end_date) return false;
        if (activation) {
          const scheduled = o.activate_by !== null && o.activate_by > today;
          if (!activation.has(scheduled ? 'scheduled' : 'current')) return false;
        }
        if (patient && !patientName(o).toLowerCase().includes(patient)) return false;
        if (recipient && !recipientName(o).toLowerCase().includes(recipient)) return false;
        if (search) {
          const hay = [o.id, o.user_id, patientName(o), o.patient_details?.dob ?? '', recipientName(o)].join('\n').toLowerCase();
          if (!hay.includes(search)) return false;
        }
        if (needsResults) {
          const results = orderResults(ctx.world, o);
          // Critical: a result beyond its critical limit (what labtest.result.critical reports),
          // also when the report's interpretation is `unknown`.
          if (query.is_critical !== undefined && (results?.hasCritical ?? false) !== query.is_critical) return false;
          if (query.interpretation !== undefined && (results?.interpretation ?? null) !== query.interpretation) return false;
        }
        return true;
      });
      const key = query.order_key ?? 'created_at';
      const dir = (query.order_direction ?? 'desc') === 'asc' ? 1 : -1;
      const sorted = [...list].sort((a, b) => {
        let d: number;
        if (key === 'patient_name') d = patientName(a).toLowerCase().localeCompare(patientName(b).toLowerCase(), 'en');
        else if (key === 'last_status') d = lastEvent(a).at - lastEvent(b).at;
        else d = a.created_at - b.created_at;
        return dir * (d || a.seq - b.seq);
      });
      const start = (query.page - 1) * query.size;
      return json({
        orders: sorted.slice(start, start + query.size).map((o) => orderView(ctx.world, o, store)),
        total: sorted.length,
        page: query.page,
        size: query.size,
      });
    },
  }),
];
