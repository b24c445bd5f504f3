/**
 * On-demand refresh (rate limited on the sandbox clock), a user's devices (one per current
 * connection), the team's metrics, sign-in tokens for the mobile SDK and user-portal links.
 */
import type { z } from 'zod';
import { stableUuid } from '../../engine/ids.js';
import type { Device, TeamMetrics } from '../../wire/schemas.js';
import { partitionSlot } from '../../engine/world.js';
import { ordersOf } from '../labs/order-store.js';
import { currentConnections, pulledResources, wearablesOf, type Connection } from '../wearables/connections.js';
import { pullPlan, pullStateAt } from '../wearables/pulls.js';
import { USERS_ERRORS, usersError } from './errors.js';
import type { Domain } from '../domain-context.js';
import { liveUser } from './user-ops.js';
import { usersOf } from './users.js';
import { metricCounts, weekOf } from './metric-counts.js';
import { dataClass } from '../../engine/world-codec.js';

/** The real service allows 8 refreshes per user per hour (api-facts A.8). */
const REFRESH_LIMIT = 8;
const REFRESH_WINDOW_MS = 3600 * 1000;
/** Portal links: `launch` lives minutes, `communications` weeks. */
const PORTAL_TTL_S = { launch: 600, communications: 14 * 24 * 3600 } as const;
/** Portal links kept per team environment, at most (oldest dropped first). */
const PORTAL_RETENTION = 10_000;

interface PortalLink {
  code: string;
  user_id: string;
  context: 'launch' | 'communications';
  order_id: string | null;
  expires_at: number;
}

class ActivityStore {
  /** user id -> times of the refreshes in the current window (at most REFRESH_LIMIT). */
  readonly refreshes = new Map<string, number[]>();
  readonly portal = new Map<string, PortalLink>();
}
dataClass('ActivityStore', ActivityStore);

const activityOf = partitionSlot('user-activity', () => new ActivityStore());

const connectionsOf = (scope: Domain, userId: string): Connection[] =>
  currentConnections(wearablesOf(scope.world).get(scope.partition, userId));

type RefreshAnswer =
  | {
      status: 200 | 202;
      body: { success: true; user_id: string; refreshed_sources: string[]; in_progress_sources: string[]; failed_sources: string[] };
    }
  | { status: 400; body: { success: false; user_id: string; error: string; failed_sources: string[] } };

/** `POST /v2/user/refresh/{id}`: 429 past 8 an hour; 202 while a source's pull still runs. */
export function refreshUser(scope: Domain, userId: string): RefreshAnswer {
  liveUser(scope, userId);
  const now = scope.world.clock.now();
  const store = activityOf(scope.partition, scope.world);
  const recent = (store.refreshes.get(userId) ?? []).filter((t) => t > now - REFRESH_WINDOW_MS);
  if (recent.length >= REFRESH_LIMIT)
    throw usersError.refreshRateLimited(Math.ceil(((recent[0] as number) + REFRESH_WINDOW_MS - now) / 1000));
  recent.push(now);
  store.refreshes.set(userId, recent);
  const refreshed: string[] = [];
  const inProgress: string[] = [];
  const failed: string[] = [];
  for (const conn of connectionsOf(scope, userId)) {
    const slug = conn.provider.slug;
    if (conn.status !== 'connected') failed.push(slug);
    else if (
      pulledResources(conn).some((r) =>
        ['scheduled', 'in_progress', 'retrying'].includes(pullStateAt(pullPlan(scope.world.seed, userId, conn, r), now).status),
      )
    )
      inProgress.push(slug);
    else refreshed.push(slug);
  }
  if (refreshed.length + inProgress.length + failed.length === 0)
    return { status: 400, body: { success: false, user_id: userId, error: USERS_ERRORS.refreshNoSources, failed_sources: [] } };
  if (refreshed.length + inProgress.length === 0)
    return { status: 400, body: { success: false, user_id: userId, error: USERS_ERRORS.refreshAllFailed, failed_sources: failed } };
  return {
    status: inProgress.length > 0 ? 202 : 200,
    body: { success: true, user_id: userId, refreshed_sources: refreshed, in_progress_sources: inProgress, failed_sources: failed },
  };
}

/** ClientFacingDevice: one per current connection of the user. */
export function userDevices(scope: Domain, userId: string): z.input<typeof Device>[] {
  liveUser(scope, userId);
  return connectionsOf(scope, userId).map((conn) => ({
    id: stableUuid(scope.world.seed, 'device', userId, conn.provider.slug),
    user_id: userId,
    provider: conn.provider.slug,
    source_type: conn.provider.device,
    app_id: null,
    device_manufacturer: conn.provider.name,
    device_model: null,
    device_version: null,
    device_id: null,
  }));
}

export function userDevice(scope: Domain, userId: string, deviceId: string): z.input<typeof Device> {
  const device = userDevices(scope, userId).find((d) => d.id === deviceId);
  if (!device) throw usersError.deviceNotFound();
  return device;
}

const WEEK_MS = 7 * 24 * 3600 * 1000;
/** Weeks `number_of_connected_sources_by_week` covers, the current one last (invented bound, docs/simulated/users.md). */
const METRIC_WEEKS = 12;

/**
 * TimeseriesMetricPoint per week (Monday 00:00 UTC) for the last METRIC_WEEKS weeks: `value` the
 * current sources connected that week, `all` those connected by the week's end (`byWeek`: current
 * sources per week connected in).
 */
function sourcesByWeek(byWeek: ReadonlyMap<number, number>, now: number): Array<{ date: string; value: number; all: number }> {
  const last = weekOf(now);
  const first = last - (METRIC_WEEKS - 1);
  const value = new Array<number>(METRIC_WEEKS).fill(0);
  let before = 0;
  for (const [week, n] of byWeek) {
    if (week < first) before += n;
    else if (week <= last) value[week - first] = n;
  }
  const monday = (last * 7 + 4) * 86_400_000;
  const out: Array<{ date: string; value: number; all: number }> = [];
  let all = before;
  for (let k = 0; k < METRIC_WEEKS; k++) {
    const n = value[k] as number;
    all += n;
    out.push({ date: new Date(monday - (METRIC_WEEKS - 1 - k) * WEEK_MS).toISOString(), value: n, all });
  }
  return out;
}

/** MetricsResult of the caller's team environment (counts kept beside the stores, metric-counts.ts). */
export function teamMetrics(scope: Domain): z.input<typeof TeamMetrics> {
  const counts = metricCounts(scope);
  return {
    team_id: scope.partition.team.id,
    number_of_connected_sources: counts.connected,
    number_of_users: usersOf(scope.partition, scope.world).liveCount,
    number_of_errored_connected_sources: counts.errored,
    number_of_connected_sources_by_week: sourcesByWeek(counts.byWeek, scope.world.clock.now()),
    number_of_ordered_tests: ordersOf(scope).size,
  };
}

/** `POST /v2/user/{id}/sign_in_token`: an opaque token for the mobile SDK's sign-in. */
export function signInToken(scope: Domain, userId: string): { user_id: string; sign_in_token: string } {
  liveUser(scope, userId);
  return { user_id: userId, sign_in_token: scope.world.ids.token('sign_in_token', 48, scope.partition.id) };
}

/** `POST /v2/user/{id}/create_portal_url`: a link to the sandbox's user-portal page. */
export function createPortalUrl(
  scope: Domain,
  userId: string,
  context: 'launch' | 'communications',
  orderId: string | null,
): { url: string; expires_in: number } {
  liveUser(scope, userId);
  if (orderId !== null) {
    const order = ordersOf(scope).get(orderId);
    if (!order || order.user_id !== userId) throw usersError.portalOrderNotFound();
  }
  const ttl = PORTAL_TTL_S[context];
  const code = scope.world.ids.token('portal', context === 'launch' ? 40 : 10, scope.partition.id);
  const store = activityOf(scope.partition, scope.world);
  store.portal.set(code, { code, user_id: userId, context, order_id: orderId, expires_at: scope.world.clock.now() + ttl * 1000 });
  if (store.portal.size > PORTAL_RETENTION) {
    const oldest = store.portal.keys().next().value;
    if (oldest !== undefined) store.portal.delete(oldest);
  }
  const team = scope.partition.team.id;
  return { url: `${scope.world.urls.base}/portal/${team}/${scope.partition.environment}/${code}`, expires_in: ttl };
}

/** The portal link behind a URL, if it exists and has not expired. */
function portalLink(scope: Domain, code: string): PortalLink | null {
  const link = activityOf(scope.partition, scope.world).portal.get(code);
  return link && link.expires_at > scope.world.clock.now() ? link : null;
}

/** The portal page's view: the link and its user, or null (unknown, expired, or the user is gone). */
export function portalView(
  world: Domain['world'],
  teamId: string,
  environment: string,
  code: string,
): { link: PortalLink; client_user_id: string } {
  const team = world.tenancy.teams.get(teamId);
  if (!team || (environment !== 'sandbox' && environment !== 'production')) throw usersError.portalLinkExpired();
  const scope: Domain = { world, partition: world.tenancy.partition(team, environment) };
  const link = portalLink(scope, code);
  const user = link ? usersOf(scope.partition, world).liveUser(link.user_id) : undefined;
  if (!link || !user) throw usersError.portalLinkExpired();
  return { link, client_user_id: user.client_user_id };
}

/** Forgets a purged user's refresh window (portal links expire on their own). */
export function dropUserActivity(scope: Domain, userId: string): void {
  activityOf(scope.partition, scope.world).refreshes.delete(userId);
}
