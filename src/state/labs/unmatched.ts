/**
 * Reviewing unmatched results (`GET /v3/unmatched_result`, `GET .../{id}`, `POST .../accept`,
 * `POST .../resolve`). Accepting puts the result on an order: the order gets results like a
 * result arrival (final: `completed`; partial: `partial_results`, then `completed` a day later;
 * an order that already has final results is `corrected`), with the result's interpretation, and
 * emits its usual events. Resolving rejects the result or escalates it (`unsure`) to ops review.
 */
import { emitMatchReview } from './match-review-events.js';
import { decodeText64, encodeText64 } from '../../engine/bytes.js';
import { LABS_ERRORS, labsError } from './errors.js';
import { runSimulation } from './order-changes.js';
import { DAY, type LowStatus } from './order-lifecycle.js';
import { currentStatus, type Order } from './order-model.js';
import { ordersOf } from './order-store.js';
import type { Domain } from '../domain-context.js';
import { orderView } from './order-views.js';
import { allowedActions, unmatchedOf, unmatchedView, type ReviewStatus, type UnmatchedResult } from './unmatched-store.js';
import type { z } from 'zod';
import type * as W from '../../wire/schemas.js';
import { CASE_DEFINITIONS, UNMATCHED_CASES } from '../../fixtures/labs/unmatched-cases.js';

/** The unmatched-result test cases (slugs), for request schemas. */
export { UNMATCHED_CASES };

interface UnmatchedListQuery {
  limit: number;
  next_cursor?: string | null;
  decision_code?: string | null;
  lab_slug?: string | null;
  status?: 'pending_customer_review' | 'pending_ops_review' | 'resolved' | null;
  created_at_start?: string | null;
  created_at_end?: string | null;
  search_input?: string | null;
}

const day = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

function matchesSearch(item: UnmatchedResult, search: string): boolean {
  const q = search.trim().toLowerCase();
  if (q === '') return true;
  if (/^\d{4}-\d{2}-\d{2}$/.test(q)) return item.patient.dob === q;
  return (
    item.patient.first_name.toLowerCase().startsWith(q) ||
    item.patient.last_name.toLowerCase().startsWith(q) ||
    `${item.patient.first_name} ${item.patient.last_name}`.toLowerCase().startsWith(q)
  );
}

/**
 * Newest first, `limit` per page, an opaque `next_cursor`; `total` counts every match. The
 * status filter goes through the status index (`resolved` also lists accepted, `matched`
 * results); the other filters check each candidate (a team environment holds at most
 * `UNMATCHED_LIMIT` results).
 */
export function listUnmatched(env: Domain, q: UnmatchedListQuery): z.input<typeof W.UnmatchedResultList> {
  const store = unmatchedOf(env.partition, env.world);
  let before = Number.POSITIVE_INFINITY;
  if (q.next_cursor) {
    const m = /^unmatched:(\d+)$/.exec(decodeText64(q.next_cursor));
    if (!m) throw labsError.invalid(['query', 'next_cursor'], LABS_ERRORS.invalidCursor, q.next_cursor);
    before = Number(m[1]);
  }
  const statuses: ReviewStatus[] | null = q.status ? (q.status === 'resolved' ? ['resolved', 'matched'] : [q.status]) : null;
  const pool: Iterable<UnmatchedResult> = statuses ? statuses.flatMap((s) => [...store.ofStatus(s)]) : store.list;
  const matches: UnmatchedResult[] = [];
  for (const item of pool) {
    if (q.decision_code && item.decision_code !== q.decision_code) continue;
    if (q.lab_slug && item.lab.slug !== q.lab_slug) continue;
    if (q.created_at_start && day(item.created_at) < q.created_at_start) continue;
    if (q.created_at_end && day(item.created_at) > q.created_at_end) continue;
    if (q.search_input && !matchesSearch(item, q.search_input)) continue;
    matches.push(item);
  }
  matches.sort((a, b) => b.seq - a.seq);
  const rest = matches.filter((item) => item.seq < before);
  const page = rest.slice(0, q.limit);
  const last = page[page.length - 1];
  return {
    data: page.map(unmatchedView),
    next_cursor: rest.length > q.limit && last ? encodeText64(`unmatched:${last.seq}`) : null,
    total: matches.length,
  };
}

export function findUnmatched(env: Domain, id: string): UnmatchedResult {
  const item = unmatchedOf(env.partition, env.world).get(id);
  if (!item) throw labsError.notFound(LABS_ERRORS.unmatchedNotFound);
  return item;
}

function targetOrder(env: Domain, item: UnmatchedResult, userId: string | null, orderId: string | null): Order {
  if (orderId) {
    const order = ordersOf(env).get(orderId);
    if (!order) throw labsError.notFound(LABS_ERRORS.orderGetNotFound);
    if (userId && order.user_id !== userId) throw labsError.badRequest(LABS_ERRORS.unmatchedOrderOtherUser);
    return order;
  }
  const candidates = item.candidate_groups.filter((g) => !userId || g.user_id === userId).flatMap((g) => g.candidates);
  const order = candidates.length === 1 ? ordersOf(env).get((candidates[0] as { order_id: string }).order_id) : undefined;
  if (!order) throw labsError.badRequest(LABS_ERRORS.unmatchedNeedsOrder);
  return order;
}

/** Accepts the result onto an order (given, or the one candidate); answers the order. */
export function acceptUnmatched(
  env: Domain,
  id: string,
  body: { user_id?: string | null; order_id?: string | null; note?: string | null },
): z.input<typeof W.Order> {
  const item = findUnmatched(env, id);
  if (!allowedActions(item).includes('accept')) throw labsError.badRequest(LABS_ERRORS.unmatchedAlreadyResolved);
  const order = targetOrder(env, item, body.user_id ?? null, body.order_id ?? null);
  const cur = currentStatus(order);
  const steps: Array<{ status: LowStatus; after: number }> =
    cur === 'completed' || cur === 'corrected'
      ? [{ status: 'corrected', after: 0 }]
      : item.result_status === 'partial'
        ? [
            { status: 'partial_results', after: 0 },
            { status: 'completed', after: DAY },
          ]
        : [{ status: 'completed', after: 0 }];
  const now = env.world.clock.now();
  order.flags = { ...order.flags, interpretation: item.interpretation };
  runSimulation(
    env,
    order,
    { path: [...order.path.slice(0, order.pathIndex + 1), ...steps], from: order.pathIndex, to: order.pathIndex + 1 },
    0,
  );
  unmatchedOf(env.partition, env.world).setStatus(item, 'matched');
  Object.assign(item, {
    resolution_action: 'accept',
    resolved_user_id: order.user_id,
    resolved_order_id: order.id,
    note: body.note ?? item.note,
    reviewed_at: now,
    updated_at: now,
  });
  emitMatchReview(env, item, 'updated');
  return orderView(env, order);
}

/** Rejects the result (`resolved`) or escalates it to ops review (`unsure`). */
export function resolveUnmatched(
  env: Domain,
  id: string,
  body: { action: 'reject' | 'unsure'; note?: string | null },
): z.input<typeof W.UnmatchedResult> {
  const item = findUnmatched(env, id);
  if (!allowedActions(item).includes(body.action)) throw labsError.badRequest(LABS_ERRORS.unmatchedAlreadyResolved);
  const now = env.world.clock.now();
  unmatchedOf(env.partition, env.world).setStatus(item, body.action === 'reject' ? 'resolved' : 'pending_ops_review');
  Object.assign(item, { resolution_action: body.action, note: body.note ?? item.note, reviewed_at: now, updated_at: now });
  emitMatchReview(env, item, 'updated');
  return unmatchedView(item);
}

/** `ListUnmatchedResultTestCasesResponse`: the test cases, without their review texts. */
export function unmatchedTestCases(): z.input<typeof W.UnmatchedTestCases> {
  return {
    data: CASE_DEFINITIONS.map((d) => ({
      case: d.case,
      order_roles: d.order_roles,
      required_statuses: d.required_statuses,
      lab_constraints: d.lab_constraints,
    })),
  };
}
