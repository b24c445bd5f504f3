/**
 * Every change a lab order goes through, on the sandbox clock: recording a step (with the
 * shipment, the result summary and the events it brings), scheduling the next one, the
 * lifecycle transitions (cancel, on-site draw, testkit registration) and simulations. Each
 * change lands as an order event and is emitted as `labtest.order.created` /
 * `labtest.order.updated` with the full order, plus `labtest.result.critical` when results
 * hold a critical value.
 */
import type { ResultSet } from '../../fixtures/labs/lab-results.js';
import { stableInt } from '../../engine/ids.js';
import { jobKind } from '../../engine/job-kinds.js';
import type { Partition } from '../../engine/tenancy.js';
import { usersOf } from '../users/users.js';
import { LABS_ERRORS, LABS_TEXTS, labsError } from './errors.js';
import { CANCELLABLE, FATES, FINAL, RESULT_STAGE, buildPath, type Fate, type LowStatus, type Step } from './order-lifecycle.js';
import { currentStatus, iso, type Order } from './order-model.js';
import { refreshSummary, resultTimes } from './order-results.js';
import { ordersOf } from './order-store.js';
import type { Domain } from '../domain-context.js';
import { orderView } from './order-views.js';
import { labsProgression, teamLabs, type LabsProgression } from './order-progression.js';
import { buildRedraw, needsRedraw } from './order-redraw.js';
import type { World } from '../../engine/world.js';

function clientUserId(env: Domain, order: Order): string {
  return usersOf(env.partition, env.world).get(order.user_id)?.client_user_id ?? order.client_user_id;
}

function emitOrder(env: Domain, order: Order, eventType: 'labtest.order.created' | 'labtest.order.updated'): void {
  env.world.events.emit(env.partition, {
    event_type: eventType,
    data: orderView(env, order),
    team_id: order.team_id,
    user_id: order.user_id,
    client_user_id: clientUserId(env, order),
  });
}

function emitCritical(env: Domain, order: Order, set: ResultSet): void {
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
export function updateShipment(seed: number, order: Order, status: LowStatus): void {
  const s = order.shipment;
  if (!s) return;
  if (status === 'transit_customer' && s.outbound_tracking_number === null) {
    const n = trackingNumber(seed, order.id, 'outbound', 'fedex');
    Object.assign(s, { outbound_courier: 'fedex', outbound_tracking_number: n, outbound_tracking_url: COURIER_URL.fedex?.(n) ?? null });
  } else if (status === 'transit_lab' && s.inbound_tracking_number === null) {
    const n = trackingNumber(seed, order.id, 'inbound', 'usps');
    Object.assign(s, { inbound_courier: 'usps', inbound_tracking_number: n, inbound_tracking_url: COURIER_URL.usps?.(n) ?? null });
  } else if (status === 'problem_in_transit_customer' || status === 'problem_in_transit_lab') {
    Object.assign(s, { notes: 'Courier reported a delivery exception' });
  } else if (status === 'failure_to_deliver_to_customer' || status === 'failure_to_deliver_to_lab' || status === 'lost') {
    Object.assign(s, { notes: status === 'lost' ? 'Package lost in transit' : 'Package could not be delivered' });
  }
}

/**
 * Records one status change at the current sandbox time and emits it: `labtest.order.updated`
 * (partial results only when the team's `partial_webhooks_enabled` is on), then
 * `labtest.result.critical` when the new result set holds a critical value.
 */
function recordStep(env: Domain, order: Order, status: LowStatus, at = env.world.clock.now()): void {
  if (status === 'redraw_available') order.flags = { ...order.flags, has_missing_results: true };
  ordersOf(env).pushEvent(order, { id: ordersOf(env).nextEventId(), at, status });
  order.updated_at = Math.max(order.updated_at, at);
  updateShipment(env.world.seed, order, status);
  const set = refreshSummary(env.world, ordersOf(env), order);
  const partial = status === 'partial_results';
  if (!partial || env.partition.team.settings[env.partition.environment].partial_webhooks_enabled) {
    emitOrder(env, order, 'labtest.order.updated');
  }
  if (RESULT_STAGE[status] && set?.hasCritical) emitCritical(env, order, set);
  if (status === 'redraw_available' && needsRedraw(ordersOf(env), order, env.world.seed))
    startOrder(env, buildRedraw(env.world.seed, ordersOf(env), order, at));
}

/** Moves the order to the next step of its path. */
function stepForward(env: Domain, order: Order, at?: number): void {
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
export function scheduleNext(env: Domain, order: Order, from = env.world.clock.now()): void {
  order.job?.cancel();
  order.job = null;
  const next = order.path[order.pathIndex + 1];
  if (!next || (FINAL.has(currentStatus(order)) && next.status !== 'corrected')) return;
  const override = order.override && order.pathIndex < order.override.until ? order.override : null;
  if (!override) {
    order.override = null;
    if (next.gate === 'draw' || next.gate === 'appointment') return;
    if (next.gate === 'registration' && !order.registered) return;
    if (labsProgression(env.world, order.team_id) === 'manual') return;
  }
  let at = from + (override ? override.spacing : next.after);
  const activation = activationTime(order);
  if (!override && currentStatus(order) === 'ordered' && activation !== null && activation > at) at = activation;
  order.job = env.world.scheduler.at(at, ORDER_STEP, { partition: env.partition, order }, `labtest.order ${order.id} -> ${next.status}`);
}

/** An order's next step on the clock (nothing when the order was moved another way meanwhile). */
const ORDER_STEP = jobKind<{ partition: Partition; order: Order }>('labtest.order_step', (world, { partition, order }, job) => {
  if (order.job !== job) return;
  const env: Domain = { world, partition };
  order.job = null;
  if (!order.override && labsProgression(world, order.team_id) === 'manual') return;
  stepForward(env, order, job.at);
  scheduleNext(env, order, job.at);
});

/** Sets a team's lab progression (control plane); back on `clock`, its waiting orders go on from now. */
export function setTeamProgression(world: World, teamId: string, mode?: LabsProgression): ReturnType<typeof teamLabs> {
  const view = teamLabs(world, teamId, mode);
  if (mode !== 'clock') return view;
  for (const partition of world.tenancy.allPartitions()) {
    if (partition.team.id !== teamId) continue;
    const env = { world, partition };
    for (const order of ordersOf(env).all()) if (!order.job && !order.seeded) scheduleNext(env, order);
  }
  return view;
}

/** Emits the creation and starts the order on the clock. */
export function startOrder(env: Domain, order: Order): void {
  ordersOf(env).add(order);
  emitOrder(env, order, 'labtest.order.created');
  scheduleNext(env, order);
}

/**
 * The one cancellation rule, for the API's cancel and for simulations to `cancelled`: allowed
 * only from the statuses the reference lists for the method; the order's path so far, then
 * `cancelled`. `refuse` builds the error of the caller's kind.
 */
function cancelPlan(order: Order, refuse: (text: string) => Error): SimulationPlan {
  const cur = currentStatus(order);
  if (!CANCELLABLE[order.method].has(cur)) throw refuse(LABS_TEXTS.transitionNotAllowed(cur, 'cancelled'));
  return {
    path: [...order.path.slice(0, order.pathIndex + 1), { status: 'cancelled', after: 0 }],
    from: order.pathIndex,
    to: order.pathIndex + 1,
  };
}

/** Cancels an order (a 400 transition error when its status does not allow it). */
export function cancelOrder(env: Domain, order: Order): void {
  runSimulation(env, order, cancelPlan(order, labsError.transition), 0);
}

/** Records the on-site draw (on-site collection orders waiting for it). */
export function drawCompleted(env: Domain, order: Order): void {
  if (order.method !== 'on_site_collection') throw labsError.transition(LABS_ERRORS.drawOnlyOnSite);
  const next = order.path[order.pathIndex + 1];
  const cur = currentStatus(order);
  if (next?.gate !== 'draw') throw labsError.transition(LABS_TEXTS.transitionNotAllowed(cur, 'draw_completed'));
  order.job?.cancel();
  order.job = null;
  order.override = null;
  stepForward(env, order);
  scheduleNext(env, order);
}

/** Statuses in which a registrable testkit can be registered. */
export const REGISTRABLE_FROM: ReadonlySet<LowStatus> = new Set<LowStatus>([
  'awaiting_registration',
  'transit_customer',
  'out_for_delivery',
  'with_customer',
]);

/** Marks a registrable testkit as registered; at `with_customer` it moves on at once. */
export function markRegistered(env: Domain, order: Order): void {
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
interface SimulationPlan {
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

/** Plans a simulation to a low-level status (a 400 when it cannot be reached). */
export function planSimulation(order: Order, target: LowStatus): SimulationPlan | 'noop' {
  const cur = currentStatus(order);
  if (target === cur) return 'noop';
  if (FINAL.has(cur) && !(cur === 'completed' && target === 'corrected')) {
    throw labsError.badRequest(LABS_TEXTS.alreadyFinal(cur));
  }
  if (target === 'cancelled') return cancelPlan(order, labsError.badRequest);
  // One redraw per transaction: a redraw order never reaches redraw_available (lab/workflow/redraws).
  if (target === 'redraw_available' && order.origin === 'redraw')
    throw labsError.badRequest(LABS_TEXTS.unreachable(order.method, cur, target));
  const occurrences = order.events.filter((e) => e.status === cur).length;
  const fates: Fate[] = [order.fate, ...FATES[order.method].filter((f) => f !== order.fate)];
  for (const fate of fates) {
    const path = fate === order.fate ? order.path : buildPath(order.method, fate, order.registrable);
    const from = fate === order.fate ? order.pathIndex : nthIndex(path, cur, occurrences);
    if (from < 0) continue;
    const to = path.findIndex((step, i) => i > from && step.status === target);
    if (to < 0) continue;
    if (!order.registered && path.slice(from + 1, to + 1).some((step) => step.gate === 'registration')) {
      throw labsError.badRequest(LABS_ERRORS.testkitNotRegistered);
    }
    return { path, from, to };
  }
  throw labsError.badRequest(LABS_TEXTS.unreachable(order.method, cur, target));
}

/**
 * Runs a planned simulation: with no delay every step happens now; with a delay the steps come
 * `delayMs` apart on the clock. Afterwards the order goes on along the same path at its usual pace.
 */
export function runSimulation(env: Domain, order: Order, plan: SimulationPlan, delayMs: number): void {
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
export function resendOrder(env: Domain, order: Order): void {
  emitOrder(env, order, order.events.length === 1 ? 'labtest.order.created' : 'labtest.order.updated');
}

const BOOKING_STEPS: ReadonlySet<LowStatus> = new Set<LowStatus>(['appointment_pending', 'appointment_scheduled', 'appointment_cancelled']);

/** The steps of the order's fate after its appointment: after the last `appointment_scheduled`, else after `requisition_created`. */
function afterAppointment(order: Order): Step[] {
  const path = buildPath(order.method, order.fate, order.registrable);
  let i = -1;
  for (let k = 0; k < path.length; k++) if ((path[k] as Step).status === 'appointment_scheduled') i = k;
  if (i < 0) i = path.findIndex((step) => step.status === 'requisition_created');
  return path.slice(i + 1).filter((step) => !BOOKING_STEPS.has(step.status));
}

/**
 * A booking (or a reschedule) for the order: it goes (through `requisition_created` first when it
 * is still `ordered`, as the reference does) to `appointment_pending` and `appointment_scheduled`,
 * then on to its draw when the appointment ends, and along its fate from there.
 */
export function planAppointment(env: Domain, order: Order, appointmentEnd: number, appointmentId: string): void {
  const cur = currentStatus(order);
  const now = env.world.clock.now();
  const done = order.path.slice(0, order.pathIndex + 1);
  const head: Step[] = [];
  if (cur === 'ordered') head.push({ status: 'requisition_created', after: 5 * 60_000 });
  if (cur !== 'appointment_pending' && cur !== 'appointment_scheduled') head.push({ status: 'appointment_pending', after: 0 });
  head.push({ status: 'appointment_scheduled', after: 0 });
  const tail = afterAppointment(order).map((step, i) =>
    i === 0 ? { status: step.status, after: Math.max(0, appointmentEnd - now) + (order.method === 'walk_in_test' ? step.after : 0) } : step,
  );
  order.appointment_id = appointmentId;
  order.updated_at = Math.max(order.updated_at, now);
  const path = [...done, ...head, ...tail];
  runSimulation(env, order, { path, from: order.pathIndex, to: cur === 'ordered' ? order.pathIndex : order.pathIndex + head.length }, 0);
}

/** A cancelled appointment: after the requisition the order goes to `appointment_cancelled` and waits for a new booking; before it, it goes on as if none was booked. */
export function cancelAppointmentSteps(env: Domain, order: Order): void {
  const cur = currentStatus(order);
  if (cur === 'ordered') {
    runSimulation(
      env,
      order,
      { path: buildPath(order.method, order.fate, order.registrable), from: order.pathIndex, to: order.pathIndex },
      0,
    );
    return;
  }
  if (!BOOKING_STEPS.has(cur) || cur === 'appointment_cancelled') return;
  const path = [...order.path.slice(0, order.pathIndex + 1), { status: 'appointment_cancelled' as const, after: 0 }];
  runSimulation(env, order, { path, from: order.pathIndex, to: order.pathIndex + 1 }, 0);
}
