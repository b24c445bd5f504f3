/**
 * Lab faults on demand (`POST /_sandbox/orders/:order_id/fault`): an order, found by id in any
 * team environment, is moved the way the lab would move it, with the events the lab's move
 * emits (`labtest.order.updated`, `labtest.result.critical`, `labtest.appointment.updated`).
 * Each fault follows an edge of the method's lifecycle (docs: lab/testkits/order-lifecycle,
 * lab/walk-in/order-lifecycle, lab/at-home-phlebotomy/order-appointment-lifecycle,
 * lab/workflow/cancelling-an-order); from a status without that edge it answers 409 naming the status.
 *
 * - `sample_rejected`: the lab rejects a collected sample: `failed.<method>.sample_error`
 *   (status_detail `sample_hemolyzed`); only once the lab has the sample (a testkit at
 *   `delivered_to_lab`, a draw done);
 * - `draw_failed` (walk-in, initial orders): the draw did not give enough sample: the order stops
 *   at `redraw_available` (status_detail `sample_quantity_not_sufficient`, its results readable)
 *   and a redraw order joins its transaction (state/labs/order-redraw.ts);
 * - `cancelled_by_lab`: the lab cancels the order now, from the statuses the lifecycle cancels from
 *   (never a shipped kit);
 * - `requisition_failed`: the requisition is refused before it is created: `ordered` -> `cancelled`;
 * - `lost_in_transit` (testkit, shipped): the kit is lost by the courier: `failed.testkit.lost`;
 * - `undeliverable_to_customer` (testkit, on its way to the patient):
 *   `failed.testkit.failure_to_deliver_to_customer`;
 * - `undeliverable_to_lab` (testkit, on its way back): `failed.testkit.failure_to_deliver_to_lab`;
 * - `partial_then_corrected`: results arrive partial (methods with a partial stage), then final,
 *   then one is corrected two days later; an order already completed is corrected now;
 * - `critical_result`: the results (not arrived yet) hold a critical value:
 *   `labtest.result.critical` when they arrive;
 * - `appointment_cancelled`: the phlebotomist (or the service center) cancels the booked
 *   appointment: appointment `cancelled`, order `appointment_cancelled`, waiting for a new booking.
 */
import type { z } from 'zod';
import type * as W from '../../wire/schemas.js';
import { CANCELLATION_REASONS } from '../../fixtures/labs/appointment-slots.js';
import type { World } from '../../engine/world.js';
import { cancelAppointment, orderCancelled } from '../labs/appointments.js';
import { buildPath, CANCELLABLE, FINAL, fullStatus, type LowStatus, type Step } from '../labs/order-lifecycle.js';
import type { CollectionMethod } from '../../fixtures/labs/labs.js';
import { currentStatus, type Order } from '../labs/order-model.js';
import { runSimulation } from '../labs/order-changes.js';
import { resultStage } from '../labs/order-results.js';
import { ordersOf } from '../labs/order-store.js';
import type { Domain } from '../domain-context.js';
import { sandboxError } from './errors.js';
import { LAB_FAULTS, type LabFault } from './lab-fault-kinds.js';

export { LAB_FAULTS, type LabFault };

const LAB_FAULT_MESSAGES = {
  orderNotFound: "Order doesn't exist",
  finished: (status: string) => `The order is ${status}: nothing more happens to it`,
  notFor: (fault: string, method: string) => `${fault} does not apply to ${method} orders`,
  notFrom: (fault: string, status: string) => `The order is ${status}: its lifecycle has no ${fault} from there`,
  redrawOnce: 'The order is a redraw order: a patient can only go through one redraw per order transaction',
  requisitionDone: (status: string) =>
    `The requisition is already past (the order is ${status}); requisition_failed applies to ordered orders`,
  resultsArrived: 'The results have arrived already: critical_result applies before they do',
  phlebotomistNote: 'Cancelled by the phlebotomist',
} as const;

/** The order of that id in whichever team environment holds it. */
function locate(world: World, orderId: string): { env: Domain; order: Order } {
  for (const partition of world.tenancy.allPartitions()) {
    const env = { world, partition };
    const order = ordersOf(env).get(orderId);
    if (order) return { env, order };
  }
  throw sandboxError.faultNotFound(LAB_FAULT_MESSAGES.orderNotFound);
}

/** The order's path so far, then `steps` (the first happens now when its `after` is 0). */
function goOn(env: Domain, order: Order, steps: Step[], now: boolean): void {
  const path = [...order.path.slice(0, order.pathIndex + 1), ...steps];
  runSimulation(env, order, { path, from: order.pathIndex, to: now ? order.pathIndex + 1 : order.pathIndex }, 0);
}

/** The steps of `fate`'s path after the order's current status (null when that path never passes it). */
function restOf(order: Order, fate: Order['fate']): Step[] | null {
  const path = buildPath(order.method, fate, order.registrable);
  const cur = currentStatus(order);
  let i = -1;
  for (let k = 0; k < path.length; k++) if ((path[k] as Step).status === cur) i = k;
  return i < 0 ? null : path.slice(i + 1);
}

/** Where a testkit shipping fault ends (the documented failed statuses). */
const SHIPPING_END = {
  lost_in_transit: 'lost',
  undeliverable_to_customer: 'failure_to_deliver_to_customer',
  undeliverable_to_lab: 'failure_to_deliver_to_lab',
} as const satisfies Record<string, LowStatus>;

const TO_CUSTOMER: LowStatus[] = ['transit_customer', 'out_for_delivery', 'problem_in_transit_customer'];
const TO_LAB: LowStatus[] = ['transit_lab', 'problem_in_transit_lab'];
/** Statuses at which the sample was collected and the lab may find it unusable. */
const SAMPLE_AT_LAB: Readonly<Record<CollectionMethod, LowStatus[]>> = {
  testkit: ['delivered_to_lab', 'lab_processing_blocked'],
  walk_in_test: ['requisition_created', 'requisition_bypassed', 'appointment_scheduled', 'partial_results'],
  at_home_phlebotomy: ['draw_completed', 'partial_results'],
  on_site_collection: ['draw_completed', 'partial_results'],
};
/** The walk-in statuses a draw happens from (the patient at the service center): a failed draw leads to `redraw_available`. */
const DRAWN: LowStatus[] = ['requisition_created', 'requisition_bypassed', 'appointment_scheduled', 'partial_results'];

/** The statuses each edge-bound fault leaves from, per method (a method not listed: the fault does not apply). */
const FAULT_FROM: Partial<Record<LabFault, Partial<Record<CollectionMethod, readonly LowStatus[]>>>> = {
  sample_rejected: SAMPLE_AT_LAB,
  draw_failed: { walk_in_test: DRAWN },
  cancelled_by_lab: {
    testkit: [...CANCELLABLE.testkit],
    walk_in_test: [...CANCELLABLE.walk_in_test],
    at_home_phlebotomy: [...CANCELLABLE.at_home_phlebotomy],
    on_site_collection: [...CANCELLABLE.on_site_collection],
  },
  lost_in_transit: { testkit: [...TO_CUSTOMER, ...TO_LAB] },
  undeliverable_to_customer: { testkit: TO_CUSTOMER },
  undeliverable_to_lab: { testkit: TO_LAB },
};

/** 409 when the lifecycle has no edge for the fault from the order's status (or the fault is not for its method). */
function checkEdge(order: Order, fault: LabFault, cur: LowStatus): void {
  const byMethod = FAULT_FROM[fault];
  if (!byMethod) return;
  const from = byMethod[order.method];
  if (!from) throw sandboxError.faultConflict(LAB_FAULT_MESSAGES.notFor(fault, order.method));
  if (fault === 'draw_failed' && order.origin === 'redraw') throw sandboxError.faultConflict(LAB_FAULT_MESSAGES.redrawOnce);
  if (!from.includes(cur)) throw sandboxError.faultConflict(LAB_FAULT_MESSAGES.notFrom(fault, fullStatus(order.method, cur)));
}

/** Applies a lab fault to an order; answers the order's id, the fault and its full status after it. */
export function applyLabFault(world: World, orderId: string, fault: LabFault): z.input<typeof W.LabFaultApplied> {
  const { env, order } = locate(world, orderId);
  const cur = currentStatus(order);
  const done = (): z.input<typeof W.LabFaultApplied> => ({
    order_id: order.id,
    fault,
    status: fullStatus(order.method, currentStatus(order)),
  });
  if (fault === 'partial_then_corrected' && (cur === 'completed' || cur === 'partial_results')) {
    order.fate = 'corrected';
    goOn(env, order, cur === 'completed' ? [{ status: 'corrected', after: 0 }] : (restOf(order, 'corrected') ?? []), cur === 'completed');
    return done();
  }
  if (FINAL.has(cur)) throw sandboxError.faultConflict(LAB_FAULT_MESSAGES.finished(fullStatus(order.method, cur)));
  checkEdge(order, fault, cur);
  switch (fault) {
    case 'sample_rejected':
      order.fate = 'sample_error';
      goOn(env, order, [{ status: 'sample_error', after: 0 }], true);
      break;
    case 'draw_failed':
      order.fate = 'redraw';
      goOn(env, order, [{ status: 'redraw_available', after: 0 }], true);
      break;
    case 'cancelled_by_lab':
      goOn(env, order, [{ status: 'cancelled', after: 0 }], true);
      orderCancelled(env, order);
      break;
    case 'lost_in_transit':
    case 'undeliverable_to_customer':
    case 'undeliverable_to_lab':
      order.fate = SHIPPING_END[fault];
      goOn(env, order, [{ status: SHIPPING_END[fault], after: 0 }], true);
      break;
    case 'requisition_failed':
      if (cur !== 'ordered') throw sandboxError.faultConflict(LAB_FAULT_MESSAGES.requisitionDone(fullStatus(order.method, cur)));
      goOn(env, order, [{ status: 'cancelled', after: 0 }], true);
      orderCancelled(env, order);
      break;
    case 'partial_then_corrected': {
      const rest = restOf(order, 'corrected');
      if (!rest) throw sandboxError.faultConflict(LAB_FAULT_MESSAGES.notFor(fault, `${cur}`));
      order.fate = 'corrected';
      goOn(env, order, rest, false);
      break;
    }
    case 'critical_result':
      if (resultStage(order) !== null) throw sandboxError.faultConflict(LAB_FAULT_MESSAGES.resultsArrived);
      order.flags = { ...order.flags, interpretation: 'critical' };
      order.resultCache = null;
      break;
    case 'appointment_cancelled': {
      if (order.method !== 'walk_in_test' && order.method !== 'at_home_phlebotomy')
        throw sandboxError.faultConflict(LAB_FAULT_MESSAGES.notFor(fault, order.method));
      const other = CANCELLATION_REASONS.find((r) => r.name === 'Other') ?? CANCELLATION_REASONS[0];
      cancelAppointment(env, order.method === 'walk_in_test' ? 'psc' : 'phlebotomy', order.id, {
        reason_id: other?.id ?? '',
        note: LAB_FAULT_MESSAGES.phlebotomistNote,
      });
      break;
    }
  }
  return done();
}
