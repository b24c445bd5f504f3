/**
 * Lab orders of one team environment (spec 2.4, 3; api-facts B.2 to B.7): the store with its
 * indexes (id, user, transaction, sample id), the `ClientFacingOrder` view, and every change an
 * order goes through: steps along its path on the sandbox clock, simulation, cancellation, the
 * on-site draw, testkit registration. Each change lands as an order event and is emitted as
 * `labtest.order.created` / `labtest.order.updated` with the full order.
 */
import { computeResults, type ResultSet, type ResultStage } from '../../fixtures/labs/lab-results.js';
import type { CollectionMethod } from '../../fixtures/labs/labs.js';
import type { ResultType } from '../../fixtures/labs/markers.js';
import { stableInt } from '../../engine/ids.js';
import { labTestView, type LabTest } from './lab-tests.js';
import {
  CANCELLABLE,
  DAY,
  FATES,
  FINAL,
  RESULT_STAGE,
  STATUS_DETAIL,
  buildPath,
  fullStatus,
  highLevel,
  type Fate,
  type Interpretation,
  type LowStatus,
  type Step,
} from './order-lifecycle.js';
import type { JobHandle } from '../../engine/scheduler.js';
import type { Partition } from '../../engine/tenancy.js';
import { usersOf } from '../users/users.js';
import { partitionSlot, type World } from '../../engine/world.js';

export const IDEMPOTENCY_TTL_MS = DAY;

export interface OrderEvent {
  id: number;
  at: number;
  status: LowStatus;
}

export interface ResultFlags {
  interpretation: Interpretation;
  result_types: ResultType[] | null;
  has_missing_results: boolean;
}

export interface PatientDetails {
  first_name: string;
  last_name: string;
  dob: string;
  gender: string;
  phone_number: string;
  email: string;
  medical_proxy?: Record<string, unknown> | null;
  race?: string | null;
  ethnicity?: string | null;
  sexual_orientation?: string | null;
  gender_identity?: string | null;
  household_income?: number | null;
  household_size?: number | null;
}

/** A US postal address with its receiver: the part a patient address and shipping details share. */
export interface PostalAddress {
  receiver_name: string;
  first_line: string;
  second_line: string | null;
  city: string;
  state: string;
  zip: string;
  country: string;
}

export interface PatientAddress extends PostalAddress {
  access_notes: string | null;
  phone_number: string | null;
}

export interface ShippingDetails extends PostalAddress {
  phone_number: string;
}

export interface Shipment {
  id: string;
  outbound_tracking_number: string | null;
  outbound_tracking_url: string | null;
  inbound_tracking_number: string | null;
  inbound_tracking_url: string | null;
  outbound_courier: string | null;
  inbound_courier: string | null;
  notes: string | null;
  created_at: number;
  updated_at: number;
}

export interface Physician {
  first_name: string;
  last_name: string;
  npi: string;
  email: string | null;
  licensed_states: string[];
}

export interface Order {
  id: string;
  team_id: string;
  user_id: string;
  /** The user's client_user_id when the order was placed (the user may be gone later). */
  client_user_id: string;
  seq: number;
  method: CollectionMethod;
  registrable: boolean;
  registered: boolean;
  lab_test: LabTest;
  patient_details: PatientDetails | null;
  patient_address: PatientAddress | null;
  shipping_details: ShippingDetails | null;
  physician: Physician | null;
  sample_id: string;
  notes: string | null;
  clinical_notes: string | null;
  priority: boolean;
  billing_type: string;
  icd_codes: string[] | null;
  passthrough: string | null;
  activate_by: string | null;
  health_insurance_id: string | null;
  created_at: number;
  updated_at: number;
  events: OrderEvent[];
  details_id: string;
  shipment: Shipment | null;
  transaction_id: string;
  origin: 'initial' | 'redraw' | 'recreation';
  expected_result_by_date: string | null;
  worst_case_result_by_date: string | null;
  fate: Fate;
  /** The path the order follows and the index of its current step in it. */
  path: Step[];
  pathIndex: number;
  flags: ResultFlags;
  /** A simulation in progress: steps up to `until` come `spacing` ms apart. */
  override: { until: number; spacing: number } | null;
  job: JobHandle | null;
  /** Seeded orders stand still until a request moves them. */
  seeded: boolean;
  /** Cache of the result set for the current stage. */
  resultCache: { key: string; set: ResultSet } | null;
}

export interface Transaction {
  id: string;
  team_id: string;
  orders: Order[];
}

export interface IdempotentReply {
  at: number;
  status: number;
  body: unknown;
}

export class OrderStore {
  readonly byId = new Map<string, Order>();
  readonly byUser = new Map<string, Order[]>();
  readonly bySample = new Map<string, Order>();
  readonly transactions = new Map<string, Transaction>();
  readonly idempotency = new Map<string, IdempotentReply>();
  private readonly list: Order[] = [];
  private eventSeq = 0;
  private orderSeq = 0;

  nextEventId(): number {
    return ++this.eventSeq;
  }

  nextSeq(): number {
    return ++this.orderSeq;
  }

  all(): readonly Order[] {
    return this.list;
  }

  add(order: Order): void {
    this.byId.set(order.id, order);
    this.list.push(order);
    const mine = this.byUser.get(order.user_id);
    if (mine) mine.push(order);
    else this.byUser.set(order.user_id, [order]);
    this.bySample.set(order.sample_id, order);
    const tx = this.transactions.get(order.transaction_id);
    if (tx) tx.orders.push(order);
    else this.transactions.set(order.transaction_id, { id: order.transaction_id, team_id: order.team_id, orders: [order] });
  }

  /** Removes every order of a user (purge). */
  removeUser(userId: string): void {
    const mine = this.byUser.get(userId);
    if (!mine) return;
    const gone = new Set(mine);
    for (const order of mine) {
      order.job?.cancel();
      order.job = null;
      this.byId.delete(order.id);
      this.bySample.delete(order.sample_id);
      const tx = this.transactions.get(order.transaction_id);
      if (tx) {
        tx.orders = tx.orders.filter((o) => o !== order);
        if (tx.orders.length === 0) this.transactions.delete(tx.id);
      }
    }
    this.byUser.delete(userId);
    for (let i = this.list.length - 1; i >= 0; i--) if (gone.has(this.list[i] as Order)) this.list.splice(i, 1);
  }
}

export const ordersOf = partitionSlot('lab_orders', () => new OrderStore());

/** What order changes need: the world, the partition and its order store. */
export interface OrderEnv {
  world: World;
  partition: Partition;
  store: OrderStore;
}

export function orderEnv(world: World, partition: Partition): OrderEnv {
  return { world, partition, store: ordersOf(partition, world) };
}

const iso = (ms: number) => new Date(ms).toISOString();

export function lastEvent(order: Order): OrderEvent {
  return order.events[order.events.length - 1] as OrderEvent;
}

export function currentStatus(order: Order): LowStatus {
  return lastEvent(order).status;
}

/** A deterministic 10-digit sample (kit / accession) id. */
export function sampleIdFor(seed: number, orderId: string): string {
  return String(1_000_000_000 + (stableInt(seed, 'lab_sample', orderId) % 9_000_000_000)).padStart(10, '0');
}

// ---------------------------------------------------------------------------------------------
// Results

function collectedAt(order: Order): number {
  const find = (s: LowStatus) => order.events.find((e) => e.status === s)?.at;
  const first = order.events.find((e) => RESULT_STAGE[e.status] !== undefined)?.at ?? lastEvent(order).at;
  return find('draw_completed') ?? (find('transit_lab') !== undefined ? (find('transit_lab') as number) - 2 * 3_600_000 : undefined) ?? first - DAY;
}

/** The result stage the order has reached, if any (the latest of partial, final, corrected). */
export function resultStage(order: Order): { stage: ResultStage; at: number; firstAt: number } | null {
  let found: { stage: ResultStage; at: number } | null = null;
  let firstAt = 0;
  for (const e of order.events) {
    const stage = RESULT_STAGE[e.status];
    if (stage) {
      if (!found) firstAt = e.at;
      found = { stage, at: e.at };
    }
  }
  const cur = currentStatus(order);
  if (!found || cur === 'cancelled' || cur === 'sample_error') return null;
  return { ...found, firstAt };
}

/** The order's results at its current stage, or null before results exist. */
export function orderResults(world: World, order: Order): ResultSet | null {
  const stage = resultStage(order);
  if (!stage) return null;
  const key = `${stage.stage}|${order.flags.interpretation}|${order.flags.result_types?.join(',') ?? ''}|${order.flags.has_missing_results}`;
  if (order.resultCache?.key === key) return order.resultCache.set;
  const set = computeResults(
    {
      seed: world.seed,
      orderId: order.id,
      markers: order.lab_test.markers,
      interpretation: order.flags.interpretation,
      resultTypes: order.flags.result_types,
      hasMissing: order.flags.has_missing_results,
      collectedAt: iso(collectedAt(order)),
      laboratory: order.lab_test.lab.name,
    },
    stage.stage,
  );
  order.resultCache = { key, set };
  return set;
}

/** Sample collection, receipt and report times of an order with results. */
export function resultTimes(order: Order): { collected: number; received: number; reported: number; first: number } | null {
  const stage = resultStage(order);
  if (!stage) return null;
  const collected = collectedAt(order);
  const delivered = order.events.find((e) => e.status === 'delivered_to_lab')?.at;
  return { collected, received: delivered ?? collected + 4 * 3_600_000, reported: stage.at, first: stage.firstAt };
}

// ---------------------------------------------------------------------------------------------
// Views

function transactionStatus(tx: Transaction): 'active' | 'completed' | 'cancelled' {
  let allCancelled = true;
  for (const o of tx.orders) {
    const s = currentStatus(o);
    if (!FINAL.has(s)) return 'active';
    if (s !== 'cancelled' && s !== 'do_not_process') allCancelled = false;
  }
  return allCancelled ? 'cancelled' : 'completed';
}

export function transactionView(store: OrderStore, transactionId: string): Record<string, unknown> | null {
  const tx = store.transactions.get(transactionId);
  if (!tx) return null;
  return {
    id: tx.id,
    status: transactionStatus(tx),
    orders: tx.orders.map((o) => ({
      id: o.id,
      created_at: iso(o.created_at),
      updated_at: iso(o.updated_at),
      low_level_status: currentStatus(o),
      low_level_status_created_at: iso(lastEvent(o).at),
      origin: o.origin,
      parent_id: null,
    })),
  };
}

/** `GetOrderTransactionResponse`. */
export function transactionResponse(store: OrderStore, transactionId: string): Record<string, unknown> | null {
  const tx = store.transactions.get(transactionId);
  if (!tx) return null;
  return {
    id: tx.id,
    team_id: tx.team_id,
    status: transactionStatus(tx),
    orders: tx.orders.map((o) => ({
      id: o.id,
      origin: o.origin,
      parent_id: null,
      last_status: currentStatus(o),
      last_status_created_at: iso(lastEvent(o).at),
      updated_at: iso(o.updated_at),
      created_at: iso(o.created_at),
    })),
  };
}

function eventView(order: Order, e: OrderEvent): Record<string, unknown> {
  return { id: e.id, created_at: iso(e.at), status: fullStatus(order.method, e.status), status_detail: STATUS_DETAIL[e.status] ?? null };
}

function shipmentView(s: Shipment): Record<string, unknown> {
  return {
    id: s.id,
    outbound_tracking_number: s.outbound_tracking_number,
    outbound_tracking_url: s.outbound_tracking_url,
    inbound_tracking_number: s.inbound_tracking_number,
    inbound_tracking_url: s.inbound_tracking_url,
    outbound_courier: s.outbound_courier,
    inbound_courier: s.inbound_courier,
    notes: s.notes,
    created_at: iso(s.created_at),
    updated_at: iso(s.updated_at),
  };
}

function detailsView(order: Order): Record<string, unknown> {
  const data: Record<string, unknown> = { id: order.details_id, created_at: iso(order.created_at), updated_at: iso(order.updated_at) };
  if (order.method === 'testkit') data.shipment = order.shipment ? shipmentView(order.shipment) : null;
  if (order.method === 'walk_in_test' || order.method === 'at_home_phlebotomy') data.appointment_id = null;
  return { type: order.method, data };
}

/** `ClientFacingOrder`. */
export function orderView(world: World, order: Order, store: OrderStore): Record<string, unknown> {
  const last = lastEvent(order);
  const results = orderResults(world, order);
  const final = results !== null && results.stage !== 'partial';
  const pd = order.patient_details;
  return {
    user_id: order.user_id,
    id: order.id,
    team_id: order.team_id,
    patient_details: pd
      ? {
          first_name: pd.first_name,
          last_name: pd.last_name,
          dob: `${pd.dob}T00:00:00+00:00`,
          gender: pd.gender,
          phone_number: pd.phone_number,
          email: pd.email,
          medical_proxy: pd.medical_proxy ?? null,
          race: pd.race ?? null,
          ethnicity: pd.ethnicity ?? null,
          sexual_orientation: pd.sexual_orientation ?? null,
          gender_identity: pd.gender_identity ?? null,
        }
      : null,
    patient_address: order.patient_address ? { ...order.patient_address } : null,
    lab_test: labTestView(order.lab_test),
    details: detailsView(order),
    sample_id: order.sample_id,
    notes: order.notes,
    clinical_notes: order.clinical_notes,
    created_at: iso(order.created_at),
    updated_at: iso(order.updated_at),
    events: order.events.map((e) => eventView(order, e)),
    status: highLevel(order.method, last.status),
    last_event: eventView(order, last),
    physician: order.physician ? { first_name: order.physician.first_name, last_name: order.physician.last_name, npi: order.physician.npi } : null,
    health_insurance_id: order.health_insurance_id,
    requisition_form_url: null,
    priority: order.priority,
    shipping_details: order.shipping_details ? { ...order.shipping_details } : null,
    activate_by: order.activate_by,
    passthrough: order.passthrough,
    billing_type: order.billing_type,
    icd_codes: order.icd_codes,
    has_abn: false,
    interpretation: results ? results.interpretation : null,
    has_missing_results: final ? results.missing.length > 0 : null,
    expected_result_by_date: order.expected_result_by_date,
    worst_case_result_by_date: order.worst_case_result_by_date,
    origin: order.origin,
    order_transaction: transactionView(store, order.transaction_id),
  };
}

// ---------------------------------------------------------------------------------------------
// Events

function clientUserId(env: OrderEnv, order: Order): string {
  return usersOf(env.partition, env.world).byId.get(order.user_id)?.client_user_id ?? order.client_user_id;
}

export function emitOrder(env: OrderEnv, order: Order, eventType: 'labtest.order.created' | 'labtest.order.updated'): void {
  env.world.events.emit(env.partition, {
    event_type: eventType,
    data: orderView(env.world, order, env.store),
    team_id: order.team_id,
    user_id: order.user_id,
    client_user_id: clientUserId(env, order),
  });
}

function emitCritical(env: OrderEnv, order: Order, set: ResultSet): void {
  const times = resultTimes(order);
  env.world.events.emit(env.partition, {
    event_type: 'labtest.result.critical',
    data: {
      order_id: order.id,
      sample_id: order.sample_id,
      status: set.stage === 'partial' ? 'partial' : 'final',
      interpretation: 'critical',
      team_id: order.team_id,
      user_id: order.user_id,
      created_at: iso(times?.first ?? env.world.clock.now()),
      updated_at: iso(env.world.clock.now()),
    },
    team_id: order.team_id,
    user_id: order.user_id,
    client_user_id: clientUserId(env, order),
  });
}

// ---------------------------------------------------------------------------------------------
// Changes

const COURIER_URL: Record<string, (n: string) => string> = {
  fedex: (n) => `https://www.fedex.com/fedextrack/?trknbr=${n}`,
  usps: (n) => `https://tools.usps.com/go/TrackConfirmAction?tLabels=${n}`,
};

function trackingNumber(seed: number, orderId: string, leg: string, courier: string): string {
  const a = String(stableInt(seed, 'tracking', orderId, leg, 1)).padStart(10, '0');
  const b = String(stableInt(seed, 'tracking', orderId, leg, 2)).padStart(10, '0');
  return courier === 'usps' ? `9400${a}${b}`.slice(0, 22) : `${a}${b}`.slice(0, 12);
}

/** Keeps a testkit's shipment in step with its status (tracking numbers, courier notes). */
export function updateShipment(seed: number, order: Order, status: LowStatus, at: number): void {
  const s = order.shipment;
  if (!s) return;
  if (status === 'transit_customer' && s.outbound_tracking_number === null) {
    const n = trackingNumber(seed, order.id, 'outbound', 'fedex');
    Object.assign(s, { outbound_courier: 'fedex', outbound_tracking_number: n, outbound_tracking_url: COURIER_URL.fedex?.(n) ?? null, updated_at: at });
  } else if (status === 'transit_lab' && s.inbound_tracking_number === null) {
    const n = trackingNumber(seed, order.id, 'inbound', 'usps');
    Object.assign(s, { inbound_courier: 'usps', inbound_tracking_number: n, inbound_tracking_url: COURIER_URL.usps?.(n) ?? null, updated_at: at });
  } else if (status === 'problem_in_transit_customer' || status === 'problem_in_transit_lab') {
    Object.assign(s, { notes: 'Courier reported a delivery exception', updated_at: at });
  } else if (status === 'failure_to_deliver_to_customer' || status === 'failure_to_deliver_to_lab' || status === 'lost') {
    Object.assign(s, { notes: status === 'lost' ? 'Package lost in transit' : 'Package could not be delivered', updated_at: at });
  }
}

/**
 * Records one status change at the current sandbox time and emits it: `labtest.order.updated`
 * (partial results only when the team's `partial_webhooks_enabled` is on), then
 * `labtest.result.critical` when the new result set holds a critical value.
 */
export function recordStep(env: OrderEnv, order: Order, status: LowStatus, at = env.world.clock.now()): void {
  order.events.push({ id: env.store.nextEventId(), at, status });
  order.updated_at = Math.max(order.updated_at, at);
  updateShipment(env.world.seed, order, status, at);
  const partial = status === 'partial_results';
  if (!partial || env.partition.team.settings[env.partition.environment].partial_webhooks_enabled) {
    emitOrder(env, order, 'labtest.order.updated');
  }
  if (RESULT_STAGE[status]) {
    const set = orderResults(env.world, order);
    if (set?.hasCritical) emitCritical(env, order, set);
  }
}

/** Moves the order to the next step of its path. */
function stepForward(env: OrderEnv, order: Order, at?: number): void {
  const next = order.path[order.pathIndex + 1];
  if (!next) return;
  order.pathIndex++;
  recordStep(env, order, next.status, at);
}

function activationTime(order: Order): number | null {
  return order.activate_by ? Date.parse(`${order.activate_by}T00:00:00.000Z`) : null;
}

/**
 * Schedules the order's next step on the clock (nothing when the next step waits for a gate),
 * counted from `from` (default now). A step's job records it at its due time, so an order
 * caught up late (realtime mode) keeps its own timeline.
 */
export function scheduleNext(env: OrderEnv, order: Order, from = env.world.clock.now()): void {
  order.job?.cancel();
  order.job = null;
  const next = order.path[order.pathIndex + 1];
  if (!next || (FINAL.has(currentStatus(order)) && next.status !== 'corrected')) return;
  const override = order.override && order.pathIndex < order.override.until ? order.override : null;
  if (!override) {
    order.override = null;
    if (next.gate === 'draw') return;
    if (next.gate === 'registration' && !order.registered) return;
  }
  let at = from + (override ? override.spacing : next.after);
  const activation = activationTime(order);
  if (!override && currentStatus(order) === 'ordered' && activation !== null && activation > at) at = activation;
  const handle: JobHandle = env.world.scheduler.at(at, `labtest.order ${order.id} -> ${next.status}`, () => {
    if (order.job !== handle) return;
    order.job = null;
    stepForward(env, order, handle.at);
    scheduleNext(env, order, handle.at);
  });
  order.job = handle;
}

/** Emits the creation and starts the order on the clock. */
export function startOrder(env: OrderEnv, order: Order): void {
  env.store.add(order);
  emitOrder(env, order, 'labtest.order.created');
  scheduleNext(env, order);
}

export class TransitionError extends Error {}

/** Cancels an order (throws TransitionError when its status does not allow it). */
export function cancelOrder(env: OrderEnv, order: Order): void {
  const cur = currentStatus(order);
  if (!CANCELLABLE[order.method].has(cur)) throw new TransitionError(`Transition from ${cur} to cancelled is not allowed`);
  order.job?.cancel();
  order.job = null;
  order.override = null;
  order.path = [...order.path.slice(0, order.pathIndex + 1), { status: 'cancelled', after: 0 }];
  stepForward(env, order);
}

/** Records the on-site draw (on-site collection orders waiting for it). */
export function drawCompleted(env: OrderEnv, order: Order): void {
  if (order.method !== 'on_site_collection') throw new TransitionError('Draw completed can only be set for on_site_collection orders');
  const next = order.path[order.pathIndex + 1];
  const cur = currentStatus(order);
  if (!next || next.gate !== 'draw') throw new TransitionError(`Transition from ${cur} to draw_completed is not allowed`);
  order.job?.cancel();
  order.job = null;
  order.override = null;
  stepForward(env, order);
  scheduleNext(env, order);
}

/** Statuses in which a registrable testkit can be registered. */
export const REGISTRABLE_FROM: ReadonlySet<LowStatus> = new Set<LowStatus>(['awaiting_registration', 'transit_customer', 'out_for_delivery', 'with_customer']);

/** Marks a registrable testkit as registered; at `with_customer` it moves on at once. */
export function registerTestkit(env: OrderEnv, order: Order): void {
  order.registered = true;
  order.updated_at = env.world.clock.now();
  const next = order.path[order.pathIndex + 1];
  if (next?.gate === 'registration' && !order.override) {
    order.job?.cancel();
    order.job = null;
    stepForward(env, order);
    scheduleNext(env, order);
  }
}

/** Where a simulation to `target` goes: a path, the current index in it and the target's index. */
export interface SimulationPlan {
  path: Step[];
  from: number;
  to: number;
}

function nthIndex(path: Step[], status: LowStatus, n: number): number {
  let seen = 0;
  let last = -1;
  for (let i = 0; i < path.length; i++) {
    if ((path[i] as Step).status === status) {
      last = i;
      if (++seen === n) return i;
    }
  }
  return last;
}

/** Plans a simulation to a low-level status (throws TransitionError when it cannot be reached). */
export function planSimulation(order: Order, target: LowStatus): SimulationPlan | 'noop' {
  const cur = currentStatus(order);
  if (target === cur) return 'noop';
  if (FINAL.has(cur) && !(cur === 'completed' && target === 'corrected')) {
    throw new TransitionError(`Order is already in a final status (${cur})`);
  }
  if (target === 'cancelled') {
    if (!CANCELLABLE[order.method].has(cur)) throw new TransitionError(`Transition from ${cur} to cancelled is not allowed`);
    return { path: [...order.path.slice(0, order.pathIndex + 1), { status: 'cancelled', after: 0 }], from: order.pathIndex, to: order.pathIndex + 1 };
  }
  const occurrences = order.events.filter((e) => e.status === cur).length;
  const fates: Fate[] = [order.fate, ...FATES[order.method].filter((f) => f !== order.fate)];
  for (const fate of fates) {
    const path = fate === order.fate ? order.path : buildPath(order.method, fate, order.registrable);
    const from = fate === order.fate ? order.pathIndex : nthIndex(path, cur, occurrences);
    if (from < 0) continue;
    const to = path.findIndex((step, i) => i > from && step.status === target);
    if (to < 0) continue;
    if (!order.registered && path.slice(from + 1, to + 1).some((step) => step.gate === 'registration')) {
      throw new TransitionError('The testkit has not been registered yet (POST /v3/order/testkit/register)');
    }
    return { path, from, to };
  }
  throw new TransitionError(`An order of method ${order.method} cannot move from ${cur} to ${target}`);
}

/**
 * Runs a planned simulation: with no delay every step happens now; with a delay the steps come
 * `delayMs` apart on the clock. Afterwards the order goes on along the same path at its usual pace.
 */
export function runSimulation(env: OrderEnv, order: Order, plan: SimulationPlan, delayMs: number): void {
  order.job?.cancel();
  order.job = null;
  order.path = plan.path;
  order.pathIndex = plan.from;
  if (delayMs > 0) {
    order.override = { until: plan.to, spacing: delayMs };
    scheduleNext(env, order);
    return;
  }
  order.override = null;
  while (order.pathIndex < plan.to) stepForward(env, order);
  scheduleNext(env, order);
}

/** Re-emits an order's current state (resend events). */
export function resendOrder(env: OrderEnv, order: Order): void {
  emitOrder(env, order, order.events.length === 1 ? 'labtest.order.created' : 'labtest.order.updated');
}
