/**
 * Listing lab orders (`GET /v3/orders`, api-facts A.10) from the store's indexes: the smallest
 * candidate pool among user, transaction, order ids, statuses, criticality and the creation
 * range is chosen, then the remaining filters run on it; orders come in creation order from the
 * creation index, so the default listing (newest first) sorts nothing and a page costs its size.
 * Interpretation and criticality come from the result summary kept on each order.
 */
import { usersOf } from '../users/users.js';
import type { CollectionMethod } from '../../fixtures/labs/labs.js';
import { LAB_MESSAGES, labNotFound } from './errors.js';
import type { Interpretation, LowStatus } from './order-lifecycle.js';
import { currentStatus, lastEvent, type Order } from './order-model.js';
import type { OrderEnv } from './order-store.js';

interface OrderListQuery {
  search_input?: string | undefined;
  start_date?: number | undefined;
  end_date?: number | undefined;
  updated_start_date?: number | undefined;
  updated_end_date?: number | undefined;
  status?: LowStatus[] | undefined;
  order_key?: 'created_at' | 'patient_name' | 'last_status' | undefined;
  order_direction?: 'asc' | 'desc' | undefined;
  order_type?: CollectionMethod[] | undefined;
  is_critical?: boolean | undefined;
  interpretation?: Interpretation | undefined;
  order_activation_types?: Array<'current' | 'scheduled'> | undefined;
  user_id?: string | undefined;
  patient_name?: string | undefined;
  shipping_recipient_name?: string | undefined;
  order_ids?: string[] | undefined;
  order_transaction_id?: string | undefined;
  page: number;
  size: number;
}

function patientName(o: Order): string {
  if (o.patient_details) return `${o.patient_details.first_name} ${o.patient_details.last_name}`;
  return o.shipping_details?.receiver_name ?? '';
}

function recipientName(o: Order): string {
  return o.shipping_details?.receiver_name || o.patient_address?.receiver_name || '';
}

type Predicate = (o: Order) => boolean;

/** The filters other than the pool's own, as predicates (each O(1) per order). */
function predicates(q: OrderListQuery, today: string): Predicate[] {
  const out: Predicate[] = [];
  if (q.order_transaction_id) out.push((o) => o.transaction_id === q.order_transaction_id);
  if (q.user_id) out.push((o) => o.user_id === q.user_id);
  if (q.order_ids) {
    const ids = new Set(q.order_ids);
    out.push((o) => ids.has(o.id));
  }
  if (q.status) {
    const statuses = new Set(q.status);
    out.push((o) => statuses.has(currentStatus(o)));
  }
  if (q.order_type) {
    const methods = new Set<string>(q.order_type);
    out.push((o) => methods.has(o.method));
  }
  if (q.start_date !== undefined) out.push((o) => o.created_at >= (q.start_date as number));
  if (q.end_date !== undefined) out.push((o) => o.created_at <= (q.end_date as number));
  if (q.updated_start_date !== undefined) out.push((o) => o.updated_at >= (q.updated_start_date as number));
  if (q.updated_end_date !== undefined) out.push((o) => o.updated_at <= (q.updated_end_date as number));
  if (q.order_activation_types) {
    const activation = new Set(q.order_activation_types);
    out.push((o) => activation.has(o.activate_by !== null && o.activate_by > today ? 'scheduled' : 'current'));
  }
  const patient = q.patient_name?.trim().toLowerCase();
  if (patient) out.push((o) => patientName(o).toLowerCase().includes(patient));
  const recipient = q.shipping_recipient_name?.trim().toLowerCase();
  if (recipient) out.push((o) => recipientName(o).toLowerCase().includes(recipient));
  const search = q.search_input?.trim().toLowerCase();
  if (search) out.push((o) => [o.id, o.user_id, patientName(o), o.patient_details?.dob ?? '', recipientName(o)].join('\n').toLowerCase().includes(search));
  // Critical: a result beyond its critical limit (what labtest.result.critical reports), also
  // when the report's interpretation is `unknown`.
  if (q.is_critical !== undefined) out.push((o) => (o.summary?.hasCritical ?? false) === q.is_critical);
  if (q.interpretation !== undefined) out.push((o) => (o.summary?.interpretation ?? null) === q.interpretation);
  return out;
}

/** A candidate pool: its orders, and whether they are in creation order already. */
interface Pool {
  size: number;
  orders: () => Iterable<Order>;
  inCreationOrder: boolean;
}

function choosePool(env: OrderEnv, q: OrderListQuery): Pool {
  const { store } = env;
  const pools: Pool[] = [];
  const range = store.createdRange(q.start_date, q.end_date);
  const created = store.byCreation();
  pools.push({ size: range.to - range.from, orders: () => created.slice(range.from, range.to), inCreationOrder: true });
  if (q.user_id) {
    const mine = store.ofUser(q.user_id);
    pools.push({ size: mine.length, orders: () => mine, inCreationOrder: false });
  }
  if (q.order_transaction_id) {
    const tx = store.transaction(q.order_transaction_id)?.orders ?? [];
    pools.push({ size: tx.length, orders: () => tx, inCreationOrder: false });
  }
  if (q.order_ids) {
    const found = [...new Set(q.order_ids)].map((id) => store.get(id)).filter((o): o is Order => o !== undefined);
    pools.push({ size: found.length, orders: () => found, inCreationOrder: false });
  }
  if (q.status) {
    const sets = [...new Set(q.status)].map((s) => store.withStatus(s));
    pools.push({ size: sets.reduce((n, s) => n + s.size, 0), orders: () => sets.flatMap((s) => [...s]), inCreationOrder: false });
  }
  if (q.is_critical === true) pools.push({ size: store.critical().size, orders: () => store.critical(), inCreationOrder: false });
  return pools.reduce((best, p) => (p.size < best.size ? p : best));
}

/** One page of the partition's orders matching the query, and how many match in all. */
export function listOrders(env: OrderEnv, q: OrderListQuery): { orders: Order[]; total: number } {
  if (q.user_id && !usersOf(env.partition, env.world).byId.has(q.user_id)) throw labNotFound(LAB_MESSAGES.userNotOnTeam);
  const today = new Date(env.world.clock.now()).toISOString().slice(0, 10);
  const pool = choosePool(env, q);
  const keep = predicates(q, today);
  const key = q.order_key ?? 'created_at';
  const desc = (q.order_direction ?? 'desc') === 'desc';
  const start = (q.page - 1) * q.size;
  const byCreation = key === 'created_at' && pool.inCreationOrder;
  // Fast path: the creation range with no other filter is already the answer, in order.
  if (byCreation && onlyDateFilters(q)) {
    const created = env.store.byCreation();
    const range = env.store.createdRange(q.start_date, q.end_date);
    const total = range.to - range.from;
    const from = desc ? Math.max(range.from, range.to - start - q.size) : Math.min(range.to, range.from + start);
    const to = desc ? Math.max(range.from, range.to - start) : Math.min(range.to, range.from + start + q.size);
    const page = created.slice(from, to);
    return { orders: desc ? page.reverse() : page, total };
  }
  const list: Order[] = [];
  for (const o of pool.orders()) if (keep.every((p) => p(o))) list.push(o);
  if (!byCreation) {
    list.sort((a, b) => {
      let d: number;
      if (key === 'patient_name') d = patientName(a).toLowerCase().localeCompare(patientName(b).toLowerCase(), 'en');
      else if (key === 'last_status') d = lastEvent(a).at - lastEvent(b).at;
      else d = a.created_at - b.created_at;
      return d || a.seq - b.seq;
    });
  }
  if (desc) list.reverse();
  return { orders: list.slice(start, start + q.size), total: list.length };
}

function onlyDateFilters(q: OrderListQuery): boolean {
  return (
    !q.search_input?.trim() &&
    q.updated_start_date === undefined &&
    q.updated_end_date === undefined &&
    !q.status &&
    !q.order_type &&
    q.is_critical === undefined &&
    q.interpretation === undefined &&
    !q.order_activation_types &&
    !q.user_id &&
    !q.patient_name?.trim() &&
    !q.shipping_recipient_name?.trim() &&
    !q.order_ids &&
    !q.order_transaction_id
  );
}
