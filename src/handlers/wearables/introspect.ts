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
import { defineRoute, reply, type Ctx } from '../../engine/route.js';
import { int, uuid } from '../../engine/schemas.js';
import { introspectPage, pullView, resourcesView, type IntrospectView } from '../../state/wearables/introspect.js';
import { HistoricalPullsPage, ResourcesPage, res } from '../../wire/schemas.js';
import { lazySchema } from '../../engine/lazy-schema.js';

const query = lazySchema(() =>
  z.object({
    user_id: uuid().nullish(),
    provider: z.string().nullish(),
    user_limit: int({ min: 1 }).default(50),
    cursor: z.string().nullish(),
    next_cursor: z.string().nullish(),
  }),
);

/** One page of the caller's users with connections, `view` per connection. */
function page<V>(ctx: Ctx, q: z.output<typeof query>, view: IntrospectView<V>) {
  const { rows, next } = introspectPage(ctx, q);
  const data = rows.map(({ user, conns }) => ({
    user_id: user.user_id,
    provider: Object.fromEntries(conns.map((c) => [c.provider.slug, view(ctx, user, c)])),
  }));
  // `next` (deprecated) carries the same cursor, for callers still paging with `cursor`.
  return { data, next, next_cursor: next };
}

const RESPONSES = { 422: 'Bad user_id, provider, user_limit or cursor' };

export const introspectRoutes = [
  defineRoute({
    id: 'introspect.historical_pull',
    method: 'GET',
    path: '/v2/introspect/historical_pull',
    auth: 'team',
    summary: 'Historical pull status per user, provider and resource (UserHistoricalPullsResponse).',
    request: { query },
    responses: { 200: res(HistoricalPullsPage, '{data, next, next_cursor}'), ...RESPONSES },
    handle: (ctx, { query: q }) => reply(200, page(ctx, q, pullView)),
  }),
  defineRoute({
    id: 'introspect.resources',
    method: 'GET',
    path: '/v2/introspect/resources',
    auth: 'team',
    summary: 'Per user, provider and resource: last attempt, oldest and newest data (UserResourcesResponse).',
    request: { query },
    responses: { 200: res(ResourcesPage, '{data, next, next_cursor}'), ...RESPONSES },
    handle: (ctx, { query: q }) => reply(200, page(ctx, q, resourcesView)),
  }),
];
