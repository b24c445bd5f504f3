/**
 * Historical-pull and resource introspection (spec 3, 4.10; api-facts A.17).
 *
 * `GET /v2/introspect/historical_pull`: per user and provider, each pulled resource's status
 * (`scheduled`, `in_progress`, `retrying` with a retriable detail, `success`, `failure` with a
 * non-retriable detail), its timeline, range and days with data; `not_pulled` lists what the
 * provider offers but the pull does not cover. `GET /v2/introspect/resources`: per resource the
 * last attempt and the oldest and newest data. Both list the caller's users that have
 * connections, oldest first, at most `user_limit` per page (it is an upper bound: a page may
 * hold fewer; above 1000 it is served as 1000), with `next_cursor` (and the deprecated `next`,
 * the same cursor) for the next page; `user_id` and `provider` filter.
 *
 * LIMITATIONS
 * - `sent_count` is null (the sandbox does not count what it would have sent).
 * - `release` is a sandbox string; `trace_id` is a deterministic hex id.
 * - A page scans at most 5000 users, so a narrow provider filter over a very large world can
 *   return an empty page with a `next_cursor`.
 */
import { z } from 'zod';
import { sourceCtx } from '../../fixtures/wearables/timeseries-table.js';
import { daysWithData } from '../../fixtures/wearables/wearable-presence.js';
import { iso } from '../../fixtures/wearables/wearable-time.js';
import { json } from '../../engine/http-types.js';
import { IntrospectPage, res } from '../../wire/schemas.js';
import { defineRoute, type Ctx, type Route } from '../../engine/route.js';
import { int, uuid } from '../../engine/schemas.js';
import { historyStart, notPulledResources, pulledResources, type Connection } from '../../state/wearables/connections.js';
import { connectionDataRanges } from '../../state/wearables/operations.js';
import { finishedAt, pullClock, pullPlan, pullStateAt, release, traceId } from '../../state/wearables/pulls.js';
import type { User } from '../../state/users/users.js';
import { introspectPage } from '../../state/wearables/introspect.js';
import { subjectOf } from '../../state/wearables/wearable-data.js';

const query = z.object({
  user_id: uuid().nullish(),
  provider: z.string().nullish(),
  user_limit: int({ min: 1 }).default(50),
  cursor: z.string().nullish(),
  next_cursor: z.string().nullish(),
});

function pullView(ctx: Ctx, user: User, conn: Connection): Record<string, unknown> {
  const seed = ctx.world.seed;
  const at = pullClock(conn, ctx.now());
  const src = sourceCtx(subjectOf(ctx.world, user), conn.provider);
  const pulled: Record<string, unknown> = {};
  for (const r of pulledResources(conn)) {
    const plan = pullPlan(seed, user.user_id, conn, r);
    const state = pullStateAt(plan, at);
    pulled[r] = {
      status: state.status,
      range_start: iso(historyStart(conn, r)),
      range_end: iso(conn.created_at),
      timeline: {
        scheduled_at: iso(plan.scheduledAt),
        started_at: state.started_at === null ? null : iso(state.started_at),
        ended_at: state.ended_at === null ? null : iso(state.ended_at),
      },
      days_with_data: state.status === 'success' ? daysWithData(src, r, historyStart(conn, r), conn.created_at) : 0,
      release: release(seed),
      trace_id: traceId(seed, user.user_id, conn),
      error_details: state.error_details,
    };
  }
  return { pulled, not_pulled: notPulledResources(conn) };
}

function resourcesView(ctx: Ctx, user: User, conn: Connection): Record<string, unknown> {
  const now = ctx.now();
  const out: Record<string, unknown> = {};
  for (const r of pulledResources(conn)) {
    const end = finishedAt(pullPlan(ctx.world.seed, user.user_id, conn, r));
    const attempt =
      conn.status === 'error' && conn.error
        ? { timestamp: iso(conn.error.errored_at), status: 'failure' }
        : { timestamp: iso(Math.max(end <= now ? end : conn.created_at, conn.mark)), status: 'success' };
    const ranges = connectionDataRanges(ctx.world, ctx.partition, user, conn, r, now);
    const first = ranges[0];
    const last = ranges[ranges.length - 1];
    out[r] = {
      last_attempt: attempt,
      oldest_data: first ? iso(first[0]) : null,
      newest_data: last ? iso(last[1]) : null,
      sent_count: null,
    };
  }
  return out;
}

type View = (ctx: Ctx, user: User, conn: Connection) => Record<string, unknown>;

/** A route that pages through the caller's users with connections and shows `view` per connection. */
function introspectRoute(id: string, path: string, summary: string, view: View): Route {
  return defineRoute({
    id,
    method: 'GET',
    path,
    auth: 'team',
    summary,
    request: { query },
    responses: { 200: res(IntrospectPage, '{data, next, next_cursor}'), 422: 'Bad user_id, provider, user_limit or cursor' },
    handle(ctx, { query: q }) {
      const { rows, next } = introspectPage(ctx.world, ctx.partition, q);
      const data = rows.map(({ user, conns }) => ({
        user_id: user.user_id,
        provider: Object.fromEntries(conns.map((c) => [c.provider.slug, view(ctx, user, c)])),
      }));
      // `next` (deprecated) carries the same cursor, for callers still paging with `cursor`.
      return json({ data, next, next_cursor: next });
    },
  });
}

export const introspectRoutes = [
  introspectRoute(
    'introspect.historical_pull',
    '/v2/introspect/historical_pull',
    'Historical pull status per user, provider and resource (UserHistoricalPullsResponse).',
    pullView,
  ),
  introspectRoute(
    'introspect.resources',
    '/v2/introspect/resources',
    'Per user, provider and resource: last attempt, oldest and newest data (UserResourcesResponse).',
    resourcesView,
  ),
];
