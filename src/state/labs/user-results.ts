/**
 * A read-only view of one user's completed lab results, for the areas that derive data from them
 * (the wearables area's cholesterol, IgE and IgG timeseries). Orders are found through the
 * store's per-user index, never by scanning the partition.
 */
import type { BiomarkerResultJson } from '../../fixtures/labs/lab-results.js';
import type { Domain } from '../domain-context.js';
import type { World } from '../../engine/world.js';
import { orderResults, resultStage, resultTimes } from './order-results.js';
import type { Order } from './order-model.js';
import { ordersOf } from './order-store.js';

export interface UserLabResults {
  orderId: string;
  userId: string;
  /** The performing lab's slug (the reference's `Labs` enum). */
  lab: string;
  /** When the sample was collected (epoch ms): the time the results describe. */
  collectedAt: number;
  /** When the results were final (epoch ms). */
  reportedAt: number;
  results: readonly BiomarkerResultJson[];
}

/**
 * The final (completed or corrected) results of every order of a user in the partition, oldest
 * collection first. Partial results, cancelled orders and failed samples are left out.
 */
export function completedLabResultsOf(d: Domain, userId: string): UserLabResults[] {
  const { world } = d;
  const out: UserLabResults[] = [];
  for (const order of ordersOf(d).ofUser(userId)) {
    const r = finalResults(world, order);
    if (r) out.push(r);
  }
  out.sort((a, b) => a.collectedAt - b.collectedAt || (a.orderId < b.orderId ? -1 : a.orderId > b.orderId ? 1 : 0));
  return out;
}

/** The final results of one order of the partition (null before they exist, or for another partition's order). */
export function completedLabResultsOfOrder(d: Domain, orderId: string): UserLabResults | null {
  const { world } = d;
  const order = ordersOf(d).get(orderId);
  return order ? finalResults(world, order) : null;
}

function finalResults(world: World, order: Order): UserLabResults | null {
  const stage = resultStage(order);
  if (!stage || stage.stage === 'partial') return null;
  const set = orderResults(world, order);
  const times = resultTimes(order);
  if (!set || !times) return null;
  return {
    orderId: order.id,
    userId: order.user_id,
    lab: order.lab_test.lab.slug,
    collectedAt: times.collected,
    reportedAt: stage.at,
    results: set.results,
  };
}
