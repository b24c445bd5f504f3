/**
 * The continuous-query reads of the data API: a user's result table
 * (`GET /aggregate/v1/user/{user_id}/continuous_query/{query_id_or_slug}/result_table`,
 * `AggregationResult`) and task history (`.../task_history`, `ContinuousQueryTaskHistoryResponse`).
 * The query is looked up in the caller's team environment, by id, else by the slug of an active
 * query; another team's query answers like an unknown one.
 */
import type { Domain } from '../domain-context.js';
import { findContinuousQuery, type ContinuousQuery } from '../management/continuous-queries.js';
import { decodeCursor, encodeCursor } from '../wearables/cursor.js';
import { aggregateError } from './errors.js';
import type { Table } from './execute.js';
import { aggregateUser } from './query.js';
import { latestTable, runsOf, type TaskEntry } from './runner.js';

function requireQuery(d: Domain, idOrSlug: string): ContinuousQuery {
  const { world, partition } = d;
  const q = findContinuousQuery(world, partition.team.id, partition.environment, idOrSlug);
  if (!q) throw aggregateError.queryNotFound();
  return q;
}

/** The user's latest result table; before the first completed run, the schema's columns, empty. */
export function resultTable(d: Domain, userId: string, idOrSlug: string): { table: Table } {
  return typedResultTable(d, userId, idOrSlug).answer;
}

/** The result table with the query's result schema (column types, for the Parquet answer). */
export function typedResultTable(d: Domain, userId: string, idOrSlug: string): { answer: { table: Table }; types: Record<string, string> } {
  const { world } = d;
  const user = aggregateUser(d, userId);
  const q = requireQuery(d, idOrSlug);
  const table = latestTable(world, user, q) ?? Object.fromEntries(Object.keys(q.result_table_schema).map((c) => [c, [] as unknown[]]));
  return { answer: { table }, types: { ...q.result_table_schema } as Record<string, string> };
}

const CURSOR_TAG = 'cqtask';

/** The user's task history for the query, newest first, `limit` per page. */
export function taskHistory(
  d: Domain,
  userId: string,
  idOrSlug: string,
  cursor: string | null | undefined,
  limit: number,
): { data: TaskEntry[]; next_cursor: string | null } {
  const { world } = d;
  const before = decodeCursor(CURSOR_TAG, cursor, 'next_cursor');
  const user = aggregateUser(d, userId);
  const q = requireQuery(d, idOrSlug);
  const list = runsOf(world, q.id)?.history.get(user.user_id) ?? [];
  // Entries are oldest first, one per run: binary search for the first entry at or after `before`.
  let end = list.length;
  if (before !== null) {
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (Date.parse((list[mid] as TaskEntry).scheduled_at) < before) lo = mid + 1;
      else hi = mid;
    }
    end = lo;
  }
  const start = Math.max(0, end - limit);
  const data = list
    .slice(start, end)
    .reverse()
    .map((e) => ({ ...e }));
  const last = data[data.length - 1];
  return { data, next_cursor: start > 0 && last ? encodeCursor(CURSOR_TAG, Date.parse(last.scheduled_at)) : null };
}
