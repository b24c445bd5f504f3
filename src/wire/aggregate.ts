/** Wire pieces of the aggregate (query) interface: AggregationResponse, AggregationResult, task history. */
import { z } from 'zod';
import { dateTime, uuidString } from './common.js';

/** AggregationResult: a result table, column name to column values. */
export const AggregationResult = z.object({ table: z.record(z.string(), z.array(z.unknown())) });
/** AggregationResponse: one result per query of the batch. */
export const AggregationResponse = z.object({ results: z.array(AggregationResult) });

/** ContinuousQueryTaskHistoryEntry. */
const TaskHistoryEntry = z.object({
  query_id: uuidString,
  user_id: uuidString,
  status: z.string(),
  scheduled_at: dateTime,
  started_at: dateTime.nullable(),
  ended_at: dateTime.nullable(),
  error_details: z.string().nullable(),
});
/** ContinuousQueryTaskHistoryResponse. */
export const TaskHistory = z.object({ data: z.array(TaskHistoryEntry), next_cursor: z.string().nullable() });
