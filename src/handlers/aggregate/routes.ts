/**
 * The aggregate query operations of the data API (`x-fern-sdk-group-name: aggregate`, beta):
 * run a batch of queries over a user's wearable data, and read a continuous query's result
 * table and task history for a user. The engine is `src/state/aggregate/` (plan, rows,
 * execute); what it supports and what it invents is in docs/simulated/aggregate.md.
 *
 * The `accept` header chooses JSON (absent, `*\/*` or `application/json`) or the operation's
 * Parquet type (`src/state/aggregate/parquet.ts`); any other value is the header's enum 422.
 */
import { z } from 'zod';
import { defineRoute, reply, type Ctx } from '../../engine/route.js';
import { int, uuid } from '../../engine/schemas.js';
import { queryBatchSchema } from '../../state/management/query-schema.js';
import { AGGREGATE_ERRORS, aggregateError } from '../../state/aggregate/errors.js';
import { queryOne, queryTables } from '../../state/aggregate/query.js';
import { resultTable, taskHistory, typedResultTable } from '../../state/aggregate/results.js';
import { parquetFile, parquetTarball } from '../../state/aggregate/parquet.js';
import { AggregationResponse, AggregationResult, TaskHistory, res } from '../../wire/schemas.js';
import { lazySchema } from '../../engine/lazy-schema.js';

const userParams = lazySchema(() => z.object({ user_id: uuid() }));
const queryParams = lazySchema(() => userParams.extend({ query_id_or_slug: z.string().min(1) }));

const QUERY_PARQUET = 'application/vnd.vital.tar+gzip+parquet';
const RESULT_PARQUET = 'application/vnd.apache.parquet';

/** The `accept` header's value: JSON, or the operation's Parquet type; anything else is the enum 422. */
function acceptOf(ctx: Ctx, parquet: string, expected: string): 'json' | 'parquet' {
  const value = ctx.request.headers.accept;
  if (value === undefined || value === '*/*' || value === 'application/json') return 'json';
  if (value === parquet) return 'parquet';
  throw aggregateError.badAccept(value, expected);
}

export const aggregateRoutes = [
  defineRoute({
    id: 'aggregate.query_one',
    method: 'POST',
    path: '/aggregate/v1/user/:user_id/query',
    auth: 'team',
    summary: "Runs a batch of aggregate queries over the user's wearable data in a relative timeframe (AggregationResponse).",
    request: { params: userParams, body: queryBatchSchema },
    responses: {
      200: {
        ...res(AggregationResponse, 'AggregationResponse (JSON by default; a tar.gz of Parquet files when the accept header asks for it)'),
        alternatives: [QUERY_PARQUET],
      },
      404: 'Unknown user',
      422: 'Invalid query, timeframe or accept header',
    },
    async handle(ctx, { params, body }) {
      const format = acceptOf(ctx, QUERY_PARQUET, AGGREGATE_ERRORS.acceptExpected);
      if (format === 'json') return reply(200, queryOne(ctx, params.user_id, body));
      return parquetTarball(queryTables(ctx, params.user_id, body), ctx.now());
    },
  }),

  defineRoute({
    id: 'aggregate.continuous_query.result_table',
    method: 'GET',
    path: '/aggregate/v1/user/:user_id/continuous_query/:query_id_or_slug/result_table',
    auth: 'team',
    summary:
      "The user's latest result table of a continuous query (by id or slug), filled by its runs on the sandbox clock (AggregationResult).",
    request: { params: queryParams },
    responses: {
      200: {
        ...res(AggregationResult, 'AggregationResult (JSON by default; a Parquet file when the accept header asks for it)'),
        alternatives: [RESULT_PARQUET],
      },
      404: 'Unknown user or query',
      422: 'Invalid user id or accept header',
    },
    async handle(ctx, { params }) {
      const format = acceptOf(ctx, RESULT_PARQUET, AGGREGATE_ERRORS.resultAcceptExpected);
      if (format === 'json') return reply(200, resultTable(ctx, params.user_id, params.query_id_or_slug));
      const { answer, types } = typedResultTable(ctx, params.user_id, params.query_id_or_slug);
      return parquetFile(answer.table, types);
    },
  }),

  defineRoute({
    id: 'aggregate.continuous_query.task_history',
    method: 'GET',
    path: '/aggregate/v1/user/:user_id/continuous_query/:query_id_or_slug/task_history',
    auth: 'team',
    summary: "The user's task history of a continuous query, newest first (ContinuousQueryTaskHistoryResponse).",
    request: {
      params: queryParams,
      query: lazySchema(() => z.object({ next_cursor: z.string().nullish(), limit: int({ min: 1, max: 1000 }).default(50) })),
    },
    responses: {
      200: res(TaskHistory, 'ContinuousQueryTaskHistoryResponse'),
      404: 'Unknown user or query',
      422: 'Invalid cursor or limit',
    },
    handle: (ctx, { params, query }) =>
      reply(200, taskHistory(ctx, params.user_id, params.query_id_or_slug, query.next_cursor, query.limit)),
  }),
];
