/**
 * The page of (user, connections) the introspection routes show (`GET /v2/introspect/*`):
 * the caller's live users with connections, oldest first, from the cursor's creation sequence.
 */
import type { z } from 'zod';
import type { Domain } from '../domain-context.js';
import type { HistoricalPullsPage, ResourcesPage } from '../../wire/schemas.js';
import { daysWithData } from '../../fixtures/wearables/wearable-presence.js';
import { iso } from '../../fixtures/wearables/wearable-time.js';
import { usersOf, type User } from '../users/users.js';
import { historyStart, notPulledResources, pulledResources, type Connection } from './connections.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import { connectionDataRanges, connectionsOf } from './operations.js';
import { finishedAt, pullClock, pullPlan, pullStateAt, release, traceId } from './pulls.js';
import { checkProvider } from './wearable-data.js';
import { readSource } from './read-sources.js';

const SCAN_LIMIT = 5000;
/** `user_limit` is an upper bound (api-facts A.17): larger values are served as this many. */
const MAX_USER_LIMIT = 1000;

interface IntrospectQuery {
  user_id?: string | null | undefined;
  provider?: string | null | undefined;
  user_limit: number;
  cursor?: string | null | undefined;
  next_cursor?: string | null | undefined;
}

/** The page of (user, connections) a query selects. */
export function introspectPage(d: Domain, q: IntrospectQuery): { rows: Array<{ user: User; conns: Connection[] }>; next: string | null } {
  const { world, partition } = d;
  if (q.provider) checkProvider(q.provider, 'query', true);
  const fromSeq = decodeCursor('u', q.next_cursor, 'next_cursor') || decodeCursor('u', q.cursor, 'cursor') || 0;
  const store = usersOf(partition, world);
  const select = (user: User): Connection[] => connectionsOf(d, user.user_id, q.provider);
  if (q.user_id) {
    const user = store.liveUser(q.user_id);
    const conns = user ? select(user) : [];
    return { rows: user && conns.length ? [{ user, conns }] : [], next: null };
  }
  const all = store.all();
  const lo = store.liveIndexFrom(fromSeq);
  const rows: Array<{ user: User; conns: Connection[] }> = [];
  let i = lo;
  for (; i < all.length && i - lo < SCAN_LIMIT; i++) {
    const user = all[i] as User;
    const conns = select(user);
    if (!conns.length) continue;
    if (rows.length === Math.min(q.user_limit, MAX_USER_LIMIT)) break;
    rows.push({ user, conns });
  }
  const nextUser = all[i];
  return { rows, next: nextUser ? encodeCursor('u', nextUser.seq) : null };
}

/** What an introspection route shows per connection of a user. */
export type IntrospectView<V> = (d: Domain, user: User, conn: Connection) => V;

type PullsOfProvider = z.output<typeof HistoricalPullsPage>['data'][number]['provider'][string];
type ResourcesOfProvider = z.output<typeof ResourcesPage>['data'][number]['provider'][string];

/** `GET /v2/introspect/historical_pull`: per pulled resource, its status, timeline, range and days with data. */
export function pullView(d: Domain, user: User, conn: Connection): PullsOfProvider {
  const { world } = d;
  const seed = world.seed;
  const at = pullClock(conn, world.clock.now());
  const src = readSource(world, user, conn.provider);
  const pulled: PullsOfProvider['pulled'] = {};
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

export function resourcesView(d: Domain, user: User, conn: Connection): ResourcesOfProvider {
  const { world } = d;
  const now = world.clock.now();
  const out: ResourcesOfProvider = {};
  for (const r of pulledResources(conn)) {
    const end = finishedAt(pullPlan(world.seed, user.user_id, conn, r));
    const attempt =
      conn.status === 'error' && conn.error
        ? { timestamp: iso(conn.error.errored_at), status: 'failure' }
        : { timestamp: iso(Math.max(end <= now ? end : conn.created_at, conn.mark)), status: 'success' };
    const ranges = connectionDataRanges(d, user, conn, r, now);
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
