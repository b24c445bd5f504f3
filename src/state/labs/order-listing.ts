/**
 * Listing lab orders (`GET /v3/orders`, api-facts A.10) from the store's indexes. The indexes
 * (all orders, per current status, per user, critical results) are kept in creation order
 * (order-index.ts), so a pool is a set of sorted slices cut by binary search on the creation
 * range: nothing is copied or sorted. The smallest pool among them (and the transaction and
 * order ids) is chosen; the filters it does not answer run on it as predicates.
 * - By created_at with every filter answered by the pool (no filter, dates, one or more statuses,
 *   is_critical=true, user_id, each with dates): the total is the pool's size and a page reads its
 *   own orders (after skipping the earlier pages when several statuses are merged).
 * - is_critical=false on such a pool: the critical orders in the pool are counted from the
 *   critical index and skipped while the page is read.
 * - Any other filter scans the pool once, in order, keeping only the page; sorting by
 *   patient_name or last_status sorts the matches.
 * Interpretation and criticality come from the result summary kept on each order.
 */
import { usersOf } from '../users/users.js';
import type { CollectionMethod } from '../../fixtures/labs/labs.js';
import { LABS_ERRORS, labsError } from './errors.js';
import type { Interpretation, LowStatus } from './order-lifecycle.js';
import { byCreation, type CreationIndex } from './order-index.js';
import { currentStatus, lastEvent, type Order } from './order-model.js';
import { ordersOf } from './order-store.js';
import type { Domain } from '../domain-context.js';

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
/** What a predicate filters on; a pool that answers a filter by construction drops its predicate. */
type Filter = 'tx' | 'user' | 'ids' | 'status' | 'date' | 'critical' | 'other';
interface Test {
  filter: Filter;
  test: Predicate;
}

/** Every filter of the query as a predicate (each O(1) per order). */
function predicates(q: OrderListQuery, today: string): Test[] {
  const out: Test[] = [];
  const add = (filter: Filter, test: Predicate) => out.push({ filter, test });
  if (q.order_transaction_id) add('tx', (o) => o.transaction_id === q.order_transaction_id);
  if (q.user_id) add('user', (o) => o.user_id === q.user_id);
  if (q.order_ids) {
    const ids = new Set(q.order_ids);
    add('ids', (o) => ids.has(o.id));
  }
  if (q.status) {
    const statuses = new Set(q.status);
    add('status', (o) => statuses.has(currentStatus(o)));
  }
  if (q.order_type) {
    const methods = new Set<string>(q.order_type);
    add('other', (o) => methods.has(o.method));
  }
  if (q.start_date !== undefined) add('date', (o) => o.created_at >= (q.start_date as number));
  if (q.end_date !== undefined) add('date', (o) => o.created_at <= (q.end_date as number));
  if (q.updated_start_date !== undefined) add('other', (o) => o.updated_at >= (q.updated_start_date as number));
  if (q.updated_end_date !== undefined) add('other', (o) => o.updated_at <= (q.updated_end_date as number));
  if (q.order_activation_types) {
    const activation = new Set(q.order_activation_types);
    add('other', (o) => activation.has(o.activate_by !== null && o.activate_by > today ? 'scheduled' : 'current'));
  }
  const patient = q.patient_name?.trim().toLowerCase();
  if (patient) add('other', (o) => patientName(o).toLowerCase().includes(patient));
  const recipient = q.shipping_recipient_name?.trim().toLowerCase();
  if (recipient) add('other', (o) => recipientName(o).toLowerCase().includes(recipient));
  const search = q.search_input?.trim().toLowerCase();
  if (search)
    add('other', (o) =>
      [o.id, o.user_id, patientName(o), o.patient_details?.dob ?? '', recipientName(o)].join('\n').toLowerCase().includes(search),
    );
  // Critical: a result beyond its critical limit (what labtest.result.critical reports), also
  // when the report's interpretation is `unknown`.
  if (q.is_critical !== undefined) add('critical', (o) => (o.summary?.hasCritical ?? false) === q.is_critical);
  if (q.interpretation !== undefined) add('other', (o) => (o.summary?.interpretation ?? null) === q.interpretation);
  return out;
}

/** Orders [from, to) of a list in creation order. */
interface Slice {
  orders: readonly Order[];
  from: number;
  to: number;
}

/** A candidate pool: disjoint slices in creation order, and the filters it answers by itself. */
interface Pool {
  size: number;
  slices: Slice[];
  covers: ReadonlySet<Filter>;
}

function indexed(index: CreationIndex | undefined, q: OrderListQuery): Slice {
  if (!index) return { orders: [], from: 0, to: 0 };
  return { orders: index.sorted(), ...index.range(q.start_date, q.end_date) };
}

function pool(slices: Slice[], covers: Filter[]): Pool {
  return { size: slices.reduce((n, s) => n + s.to - s.from, 0), slices, covers: new Set(covers) };
}

/** A small unordered pool (a transaction's orders, the order ids asked for), sorted. */
function sortedPool(orders: readonly Order[], filter: Filter): Pool {
  const sorted = [...orders].sort(byCreation);
  return pool([{ orders: sorted, from: 0, to: sorted.length }], [filter]);
}

function choosePool(env: Domain, q: OrderListQuery): Pool {
  const store = ordersOf(env);
  const pools: Pool[] = [pool([indexed(store.created(), q)], ['date'])];
  if (q.user_id) pools.push(pool([indexed(store.createdOfUser(q.user_id), q)], ['user', 'date']));
  if (q.order_transaction_id) pools.push(sortedPool(store.transaction(q.order_transaction_id)?.orders ?? [], 'tx'));
  if (q.order_ids) {
    const found = [...new Set(q.order_ids)].map((id) => store.get(id)).filter((o): o is Order => o !== undefined);
    pools.push(sortedPool(found, 'ids'));
  }
  if (q.status)
    pools.push(
      pool(
        [...new Set(q.status)].map((s) => indexed(store.withStatus(s), q)),
        ['status', 'date'],
      ),
    );
  if (q.is_critical === true) pools.push(pool([indexed(store.critical(), q)], ['critical', 'date']));
  // The smallest; on a tie, the one that answers more filters itself.
  return pools.reduce((best, p) => (p.size < best.size || (p.size === best.size && p.covers.size > best.covers.size) ? p : best));
}

/** Reads a pool in creation order (newest first when `desc`), merging its slices. */
function cursor(slices: Slice[], desc: boolean): () => Order | undefined {
  const live = slices.filter((s) => s.to > s.from);
  const at = live.map((s) => (desc ? s.to - 1 : s.from));
  const only = live[0];
  if (live.length === 1 && only) {
    let i = at[0] as number;
    return desc ? () => (i >= only.from ? only.orders[i--] : undefined) : () => (i < only.to ? only.orders[i++] : undefined);
  }
  return () => {
    let pick: Order | undefined;
    let from = -1;
    for (let k = 0; k < live.length; k++) {
      const s = live[k] as Slice;
      const i = at[k] as number;
      if (desc ? i < s.from : i >= s.to) continue;
      const o = s.orders[i] as Order;
      if (!pick || (desc ? byCreation(o, pick) > 0 : byCreation(o, pick) < 0)) {
        pick = o;
        from = k;
      }
    }
    if (from >= 0) at[from] = (at[from] as number) + (desc ? -1 : 1);
    return pick;
  };
}

/** The page [start, start + size) of the pool's orders that pass `keep`, read in order; stops at the page. */
function readPage(p: Pool, desc: boolean, start: number, size: number, keep: Predicate): Order[] {
  const only = p.slices.length === 1 ? p.slices[0] : undefined;
  if (only && keep === ALL) {
    const from = desc ? Math.max(only.from, only.to - start - size) : Math.min(only.to, only.from + start);
    const to = desc ? Math.max(only.from, only.to - start) : Math.min(only.to, only.from + start + size);
    const page = only.orders.slice(from, to);
    return desc ? page.reverse() : page;
  }
  const out: Order[] = [];
  const next = cursor(p.slices, desc);
  let seen = 0;
  for (let o = next(); o && out.length < size; o = next()) if (keep(o) && seen++ >= start) out.push(o);
  return out;
}

const ALL: Predicate = () => true;

/** One page of the partition's orders matching the query, and how many match in all. */
export function listOrders(env: Domain, q: OrderListQuery): { orders: Order[]; total: number } {
  if (q.user_id && !usersOf(env.partition, env.world).has(q.user_id)) throw labsError.notFound(LABS_ERRORS.userNotOnTeam);
  const today = new Date(env.world.clock.now()).toISOString().slice(0, 10);
  const p = choosePool(env, q);
  const tests = predicates(q, today);
  const rest = tests.filter((t) => !p.covers.has(t.filter));
  const keep = (o: Order) => rest.every((t) => t.test(o));
  const key = q.order_key ?? 'created_at';
  const desc = (q.order_direction ?? 'desc') === 'desc';
  const start = (q.page - 1) * q.size;
  if (key !== 'created_at') {
    const list: Order[] = [];
    const next = cursor(p.slices, false);
    for (let o = next(); o; o = next()) if (keep(o)) list.push(o);
    list.sort((a, b) => {
      const d =
        key === 'patient_name'
          ? patientName(a).toLowerCase().localeCompare(patientName(b).toLowerCase(), 'en')
          : lastEvent(a).at - lastEvent(b).at;
      return d || a.seq - b.seq;
    });
    if (desc) list.reverse();
    return { orders: list.slice(start, start + q.size), total: list.length };
  }
  // Every filter answered by the pool: its size is the total.
  if (rest.length === 0) return { orders: readPage(p, desc, start, q.size, ALL), total: p.size };
  // is_critical=false on such a pool: the pool minus its critical orders, counted from the critical index.
  if (rest.length === 1 && rest[0]?.filter === 'critical' && q.is_critical === false && p.covers.has('date')) {
    const inPool = tests.filter((t) => t.filter !== 'critical');
    const critical = indexed(ordersOf(env).critical(), q);
    let excluded = 0;
    for (let i = critical.from; i < critical.to; i++) if (inPool.every((t) => t.test(critical.orders[i] as Order))) excluded++;
    return { orders: readPage(p, desc, start, q.size, keep), total: p.size - excluded };
  }
  // Other filters: one pass over the pool in order, keeping the page.
  const orders: Order[] = [];
  let total = 0;
  const next = cursor(p.slices, desc);
  for (let o = next(); o; o = next()) {
    if (!keep(o)) continue;
    if (total >= start && orders.length < q.size) orders.push(o);
    total++;
  }
  return { orders, total };
}
