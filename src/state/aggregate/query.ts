/**
 * `POST /aggregate/v1/user/{user_id}/query` (data OpenAPI `QueryBatch` -> `AggregationResponse`):
 * every query of the batch is planned first (a 422 for any invalid one, nothing read), then run
 * over the user's data in the batch's timeframe, one result table per query, in order.
 */
import { liveUser } from '../users/user-ops.js';
import type { Domain } from '../domain-context.js';
import type { World } from '../../engine/world.js';
import type { QueryBatch } from '../management/query-schema.js';
import type { User } from '../users/users.js';
import { zoneOf } from '../wearables/wearable-data.js';
import { aggregateError } from './errors.js';
import { execute, type Table } from './execute.js';
import { planQuery, type Plan } from './plan.js';
import { readRows } from './rows.js';
import { windowOf } from './time.js';
import { DAY } from '../../fixtures/wearables/wearable-time.js';

/** Longest window over the summary tables, and over a timeseries (samples are dense). */
const MAX_SUMMARY_DAYS = 366;
const MAX_TIMESERIES_DAYS = 31;
/** Most queries one batch may hold. */
const MAX_QUERIES = 20;

/** A live user of the partition, or the data API's 404. */
export function aggregateUser(d: Domain, userId: string): User {
  return liveUser(d, userId);
}

/** Runs one plan for a user over `[from, to)` as of `now`. */
export function runPlan(world: World, user: User, plan: Plan, window: [number, number], now: number, priority: readonly string[]): Table {
  const rows = readRows({ world, user, plan, from: window[0], to: window[1], now, priority, allSources: plan.allSources });
  return execute(plan, rows, zoneOf(user), window);
}

function checkWindow(plans: Plan[], window: [number, number]): void {
  const days = (window[1] - window[0]) / DAY;
  if (plans.some((p) => p.table === 'timeseries') && days > MAX_TIMESERIES_DAYS + 1)
    throw aggregateError.windowTooLong(MAX_TIMESERIES_DAYS, 'a timeseries');
  if (days > MAX_SUMMARY_DAYS + 1) throw aggregateError.windowTooLong(MAX_SUMMARY_DAYS, 'a summary table');
}

/** The batch's result tables with their column types, in query order. */
export function queryTables(d: Domain, userId: string, batch: QueryBatch): Array<{ table: Table; types: Record<string, string> }> {
  const { world } = d;
  if (batch.queries.length > MAX_QUERIES) throw aggregateError.tooManyQueries(MAX_QUERIES);
  const plans = batch.queries.map((q, i) => planQuery(q as Record<string, unknown>, ['body', 'queries', i]));
  if (!('type' in batch.timeframe)) throw aggregateError.placeholderTimeframe();
  const tf = batch.timeframe;
  const user = aggregateUser(d, userId);
  const window = windowOf(zoneOf(user), tf.anchor, tf.past);
  checkWindow(plans, window);
  const now = world.clock.now();
  const priority = (batch.config?.provider_priority_overrides ?? []) as string[];
  return plans.map((plan) => ({
    table: runPlan(world, user, plan, window, now, priority),
    types: Object.fromEntries(plan.columns.map((c) => [c.name, c.type])),
  }));
}

/** `AggregationResponse`: the batch's result tables, in query order. */
export function queryOne(d: Domain, userId: string, batch: QueryBatch): { results: Array<{ table: Table }> } {
  return { results: queryTables(d, userId, batch).map((r) => ({ table: r.table })) };
}
