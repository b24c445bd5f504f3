/**
 * Lab faults on demand (`POST /_sandbox/orders/:order_id/fault`): an order, found by id in any
 * team environment, is moved the way the lab would move it, with the events the lab's move
 * emits (`labtest.order.updated`, `labtest.result.critical`, `labtest.appointment.updated`).
 *
 * - `sample_rejected`: the lab rejects the sample now: `failed.<method>.sample_error`
 *   (status_detail `sample_hemolyzed`);
 * - `draw_failed` (walk-in): the draw did not give enough sample: `redraw_available`
 *   (status_detail `sample_quantity_not_sufficient`), then the redraw and results at their pace;
 * - `cancelled_by_lab`: the lab cancels the order now, whatever its status (until a final one);
 * - `requisition_failed`: the requisition is refused before it is created: `ordered` -> `cancelled`;
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
import { buildPath, FINAL, fullStatus, type LowStatus, type Step } from '../labs/order-lifecycle.js';
import { currentStatus, type Order } from '../labs/order-model.js';
import { runSimulation } from '../labs/order-changes.js';
import { resultStage } from '../labs/order-results.js';
import { orderEnv, type OrderEnv } from '../labs/order-store.js';
import { sandboxError } from './errors.js';

export const LAB_FAULTS = [
  'sample_rejected',
  'draw_failed',
  'cancelled_by_lab',
  'requisition_failed',
  'partial_then_corrected',
  'critical_result',
  'appointment_cancelled',
] as const;

export type LabFault = (typeof LAB_FAULTS)[number];

const LAB_FAULT_MESSAGES = {
  orderNotFound: "Order doesn't exist",
  finished: (status: string) => `The order is ${status}: nothing more happens to it`,
  notFor: (fault: string, method: string) => `${fault} does not apply to ${method} orders`,
  requisitionDone: (status: string) =>
    `The requisition is already past (the order is ${status}); requisition_failed applies to ordered orders`,
  resultsArrived: 'The results have arrived already: critical_result applies before they do',
  phlebotomistNote: 'Cancelled by the phlebotomist',
} as const;

/** The order of that id in whichever team environment holds it. */
function locate(world: World, orderId: string): { env: OrderEnv; order: Order } {
  for (const partition of world.tenancy.allPartitions()) {
    const env = orderEnv(world, partition);
    const order = env.store.get(orderId);
    if (order) return { env, order };
  }
  throw sandboxError.faultNotFound(LAB_FAULT_MESSAGES.orderNotFound);
}

/** The order's path so far, then `steps` (the first happens now when its `after` is 0). */
function goOn(env: OrderEnv, order: Order, steps: Step[], now: boolean): void {
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
  switch (fault) {
    case 'sample_rejected':
      order.fate = 'sample_error';
      goOn(env, order, [{ status: 'sample_error', after: 0 }], true);
      break;
    case 'draw_failed': {
      if (order.method !== 'walk_in_test') throw sandboxError.faultConflict(LAB_FAULT_MESSAGES.notFor(fault, order.method));
      order.fate = 'redraw';
      const redraw: LowStatus[] = ['redraw_available', 'partial_results', 'completed'];
      const tail = buildPath(order.method, 'redraw').filter((s) => redraw.includes(s.status));
      goOn(env, order, [{ status: 'redraw_available', after: 0 }, ...tail.slice(1)], true);
      break;
    }
    case 'cancelled_by_lab':
      goOn(env, order, [{ status: 'cancelled', after: 0 }], true);
      orderCancelled(env, order);
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
