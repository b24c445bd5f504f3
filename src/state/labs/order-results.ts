/**
 * The results of a lab order (api-facts B.6): the stage it has reached (partial, final,
 * corrected), its result set (computed from the seed, cached per stage and flags), the sample's
 * collection, receipt and report times, and the short summary the listing filters on, which is
 * computed when a status change brings or removes results, never per request.
 */
import { computeResults, type ResultSet, type ResultStage } from '../../fixtures/labs/lab-results.js';
import type { World } from '../../engine/world.js';
import { DAY, RESULT_STAGE, type LowStatus } from './order-lifecycle.js';
import { currentStatus, iso, lastEvent, type Order } from './order-model.js';
import type { OrderStore } from './order-store.js';
import type { ResultType } from '../../fixtures/labs/markers.js';

function collectedAt(order: Order): number {
  const find = (s: LowStatus) => order.events.find((e) => e.status === s)?.at;
  const first = order.events.find((e) => RESULT_STAGE[e.status] !== undefined)?.at ?? lastEvent(order).at;
  return (
    find('draw_completed') ??
    (find('transit_lab') !== undefined ? (find('transit_lab') as number) - 2 * 3_600_000 : undefined) ??
    first - DAY
  );
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

/** Result types without `result_types`: the real sandbox cycles numeric, comment and range results (api-facts H, J). */
const DEFAULT_RESULT_CYCLE: readonly ResultType[] = ['numeric', 'comment', 'range'];

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
      resultTypes: order.flags.result_types ?? DEFAULT_RESULT_CYCLE,
      hasMissing: order.flags.has_missing_results,
      collectedAt: iso(collectedAt(order)),
      laboratory: order.lab_test.lab.name,
    },
    stage.stage,
  );
  order.resultCache = { key, set };
  return set;
}

/** Recomputes the order's result summary (after a status change) and returns its result set. */
export function refreshSummary(world: World, store: OrderStore, order: Order): ResultSet | null {
  const set = orderResults(world, order);
  store.setSummary(order, set ? { interpretation: set.interpretation, hasCritical: set.hasCritical } : null);
  return set;
}

export type ResultTimes = { collected: number; received: number; reported: number; first: number };

/** Sample collection, receipt and report times of an order with results. */
export function resultTimes(order: Order): ResultTimes | null {
  const stage = resultStage(order);
  if (!stage) return null;
  const collected = collectedAt(order);
  const delivered = order.events.find((e) => e.status === 'delivered_to_lab')?.at;
  return { collected, received: delivered ?? collected + 4 * 3_600_000, reported: stage.at, first: stage.firstAt };
}
