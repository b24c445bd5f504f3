/** Wire pieces of the aggregate (query) interface: AggregationResponse, AggregationResult, task history. */
import { z } from 'zod';
import { lazySchema } from '../engine/lazy-schema.js';
import { dateTime, uuidString } from './common.js';

/** AggregationResult: a result table, column name to column values. */
export const AggregationResult = lazySchema(() => z.object({ table: z.record(z.string(), z.array(z.unknown())) }));
/** AggregationResponse: one result per query of the batch. */
export const AggregationResponse = lazySchema(() => z.object({ results: z.array(AggregationResult) }));

/** ContinuousQueryTaskHistoryEntry. */
const TaskHistoryEntry = lazySchema(() =>
  z.object({
    query_id: uuidString,
    user_id: uuidString,
    status: z.string(),
    scheduled_at: dateTime,
    started_at: dateTime.nullable(),
    ended_at: dateTime.nullable(),
    error_details: z.string().nullable(),
  }),
);
/** ContinuousQueryTaskHistoryResponse. */
export const TaskHistory = lazySchema(() => z.object({ data: z.array(TaskHistoryEntry), next_cursor: z.string().nullable() }));
