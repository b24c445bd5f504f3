/**
 * Unmatched results (data OpenAPI tag `unmatched`): results that arrived without a matching
 * order, listed, read, accepted onto an order or resolved; the test-case catalogue and test runs
 * that create them on the sandbox clock (`state/labs/unmatched*.ts`; docs/simulated/labs.md).
 */
import { z } from 'zod';
import { validationError } from '../../engine/errors.js';
import { defineRoute, reply } from '../../engine/route.js';
import { int, isoDate, uuid } from '../../engine/schemas.js';
import {
  UNMATCHED_CASES,
  acceptUnmatched,
  findUnmatched,
  listUnmatched,
  resolveUnmatched,
  unmatchedTestCases,
} from '../../state/labs/unmatched.js';
import { createRun, findRun } from '../../state/labs/unmatched-runs.js';
import { runStatus, runView, unmatchedView } from '../../state/labs/unmatched-store.js';
import {
  Order,
  UnmatchedResult,
  UnmatchedResultList,
  UnmatchedTestCases,
  UnmatchedTestRun,
  UnmatchedTestRunCreated,
  res,
} from '../../wire/schemas.js';
import { lazySchema } from '../../engine/lazy-schema.js';

const DECISION = lazySchema(() => z.enum([...UNMATCHED_CASES, 'match_sample_id']));
const INTERPRETATION = lazySchema(() => z.enum(['normal', 'abnormal', 'critical', 'unknown']));
const RESULT_STATUS = lazySchema(() => z.enum(['final', 'partial']));
const idParams = lazySchema(() => z.object({ raw_result_id: uuid() }));

const runBody = lazySchema(() =>
  z
    .object({
      case: z.enum(UNMATCHED_CASES),
      order_source: z.enum(['managed', 'provided']),
      orders: z.record(z.string(), uuid()).nullish(),
      result_status: RESULT_STATUS.default('final'),
      interpretation: INTERPRETATION.default('normal'),
      lab_test_id: uuid().nullish(),
      wrong_lab_test_id: uuid().nullish(),
    })
    .strict(),
);

export const unmatchedRoutes = [
  defineRoute({
    id: 'unmatched.test_cases',
    method: 'GET',
    path: '/v3/unmatched_result_test/case',
    auth: 'team',
    summary: 'The unmatched-result test cases: order roles, required statuses, lab constraints.',
    request: {},
    responses: { 200: res(UnmatchedTestCases, 'ListUnmatchedResultTestCasesResponse') },
    handle: () => reply(200, unmatchedTestCases()),
  }),

  defineRoute({
    id: 'unmatched.test_run.create',
    method: 'POST',
    path: '/v3/unmatched_result_test',
    auth: 'team',
    summary:
      'Starts a test run that creates an unmatched result on the clock (X-Idempotency-Key required; the same key gives the same run).',
    request: { body: runBody },
    responses: {
      202: res(UnmatchedTestRunCreated, 'CreateUnmatchedResultTestResponse'),
      400: 'Run limit reached',
      422: 'Validation error or missing X-Idempotency-Key',
    },
    handle(ctx, { body }) {
      const key = ctx.request.headers['x-idempotency-key'];
      if (key === undefined || key.length < 1 || key.length > 255) {
        throw validationError([
          key === undefined
            ? { type: 'missing', loc: ['header', 'X-Idempotency-Key'], msg: 'Field required', input: null }
            : {
                type: key.length < 1 ? 'string_too_short' : 'string_too_long',
                loc: ['header', 'X-Idempotency-Key'],
                msg: key.length < 1 ? 'String should have at least 1 character' : 'String should have at most 255 characters',
                input: key,
                ctx: key.length < 1 ? { min_length: 1 } : { max_length: 255 },
              },
        ]);
      }
      const run = createRun(ctx, body, key);
      return reply(202, { run_id: run.run_id, status: runStatus(run) });
    },
  }),

  defineRoute({
    id: 'unmatched.test_run.get',
    method: 'GET',
    path: '/v3/unmatched_result_test/:run_id',
    auth: 'team',
    summary: 'A test run: status, stage, orders, the unmatched result it wrote, or its error.',
    request: { params: lazySchema(() => z.object({ run_id: uuid() })) },
    responses: { 200: res(UnmatchedTestRun, 'GetUnmatchedResultTestResponse'), 404: 'Unknown run' },
    handle: (ctx, { params }) => reply(200, runView(findRun(ctx, params.run_id))),
  }),

  defineRoute({
    id: 'unmatched.list',
    method: 'GET',
    path: '/v3/unmatched_result',
    auth: 'team',
    summary:
      'Unmatched results, newest first, cursor-paginated; filters decision_code, lab_slug, status, created_at_start/end, search_input.',
    request: {
      query: lazySchema(() =>
        z.object({
          limit: int({ min: 1, max: 100 }).default(50),
          next_cursor: z.string().nullish(),
          decision_code: DECISION.nullish(),
          lab_slug: z.string().nullish(),
          status: z.enum(['pending_customer_review', 'pending_ops_review', 'resolved']).nullish(),
          created_at_start: isoDate().nullish(),
          created_at_end: isoDate().nullish(),
          search_input: z.string().nullish(),
        }),
      ),
    },
    responses: { 200: res(UnmatchedResultList, 'ListUnmatchedResultResponse'), 422: 'Validation error or invalid cursor' },
    handle: (ctx, { query }) => reply(200, listUnmatched(ctx, query)),
  }),

  defineRoute({
    id: 'unmatched.get',
    method: 'GET',
    path: '/v3/unmatched_result/:raw_result_id',
    auth: 'team',
    summary: 'One unmatched result with its candidate orders and allowed actions.',
    request: { params: idParams },
    responses: { 200: res(UnmatchedResult, 'GetUnmatchedResultResponse'), 404: 'Unknown unmatched result' },
    handle: (ctx, { params }) => reply(200, unmatchedView(findUnmatched(ctx, params.raw_result_id))),
  }),

  defineRoute({
    id: 'unmatched.accept',
    method: 'POST',
    path: '/v3/unmatched_result/:raw_result_id/accept',
    auth: 'team',
    summary: 'Accepts the result onto an order (order_id, or the one candidate of user_id); the order gets its results.',
    request: {
      params: idParams,
      body: lazySchema(() => z.object({ user_id: uuid().nullish(), order_id: uuid().nullish(), note: z.string().nullish() })),
    },
    responses: {
      200: res(Order, 'ClientFacingOrder'),
      400: 'Already resolved, or no order to accept onto',
      404: 'Unknown unmatched result or order',
    },
    handle: (ctx, { params, body }) => reply(200, acceptUnmatched(ctx, params.raw_result_id, body)),
  }),

  defineRoute({
    id: 'unmatched.resolve',
    method: 'POST',
    path: '/v3/unmatched_result/:raw_result_id/resolve',
    auth: 'team',
    summary: 'Rejects the result (resolved) or escalates it to ops review (unsure).',
    request: { params: idParams, body: lazySchema(() => z.object({ action: z.enum(['reject', 'unsure']), note: z.string().nullish() })) },
    responses: { 200: res(UnmatchedResult, 'UnmatchedResult'), 400: 'Action not allowed in this status', 404: 'Unknown unmatched result' },
    handle: (ctx, { params, body }) => reply(200, resolveUnmatched(ctx, params.raw_result_id, body)),
  }),
];
