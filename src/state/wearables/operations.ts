/**
 * The wearables domain functions: what the API handlers and the control plane
 * (`/_sandbox/connections`, `/_sandbox/historical_pulls`, `/_sandbox/wearables/feed`) call. Each
 * validates everything first and then changes state, so a rejected request changes nothing;
 * errors come from the area's catalogue (errors.ts). Handlers never reach into the stores.
 */
import { revisionRates, setRevisionRate } from './revisions.js';
import type { Domain } from '../domain-context.js';
import { pauseAfterIngestionEnd } from './ingestion-pause.js';
import { deregisterHasNoEffect } from './health-sdk.js';
import { providerBySlug } from '../../fixtures/wearables/providers.js';
import type { Range } from '../../fixtures/wearables/summaries.js';
import type { Partition } from '../../engine/tenancy.js';
import type { FeedMode, World } from '../../engine/world.js';
import type { Connection as ConnectionAnswer } from '../../wire/types.js';
import { usersOf, type User } from '../users/users.js';
import {
  SIMULATED_RESOURCES,
  connectionView,
  currentConnections,
  endConnection,
  pulledResources,
  wearablesOf,
  type Connection,
  type ConnectionErrorType,
  type PullOverride,
  type PullOverrideOutcome,
} from './connections.js';
import { wearablesError } from './errors.js';
import { NON_RETRIABLE, RETRIABLE, finishedAt, isRetriable, pullPlan, schedulePullAnnouncements } from './pulls.js';
import { checkProvider, dataRanges } from './wearable-data.js';
import { connectDemo, currentLink, failConnection, presetKey, reconnect } from './wearable-link.js';
import { recountUser } from '../users/metric-counts.js';

/** `POST /v2/link/connect/demo`: sandbox only, not twice, not mixed with real connections. */
export function connectDemoProvider(d: Domain, userId: string, slug: string): Connection {
  const { world, partition } = d;
  if (partition.environment !== 'sandbox') throw wearablesError.demoSandboxOnly();
  const current = currentConnections(wearablesOf(world).get(partition, userId));
  if (current.some((c) => c.provider.slug === slug)) throw wearablesError.demoAlreadyConnected(userId, slug);
  if (current.some((c) => !c.demo)) throw wearablesError.demoMixed();
  const provider = providerBySlug(slug);
  if (!provider) throw wearablesError.providerNotFound();
  return connectDemo(d, userId, provider);
}

/** The user's current connections as ClientFacingProviderWithStatus. */
export function listConnections(d: Domain, userId: string): ConnectionAnswer[] {
  const { world, partition } = d;
  const user = usersOf(partition, world).liveUser(userId);
  if (user) pauseAfterIngestionEnd(d, user);
  return currentConnections(wearablesOf(world).get(partition, userId)).map(connectionView);
}

/** The user's current connections, optionally of one provider (introspection). */
export function connectionsOf(d: Domain, userId: string, provider?: string | null): Connection[] {
  const { world, partition } = d;
  return currentConnections(wearablesOf(world).get(partition, userId)).filter((c) => !provider || c.provider.slug === provider);
}

/** `DELETE /v2/user/:user_id/:provider`: ends the current connection (its data stays readable). */
export function deregisterProvider(d: Domain, userId: string, slug: string): void {
  const { world } = d;
  checkProvider(slug, 'path');
  const link = currentLink(d, userId, slug);
  if (!link) throw wearablesError.notConnected(userId, slug);
  // The Health SDK's default Auto Connect mode: deregistering has no effect (the next sync
  // attempt would reinstate the connection); in Explicit Connect mode it ends the connection as
  // for any provider (docs: api-reference/user/deregister-a-provider,
  // wearables/sdks/health/connection-policies).
  if (deregisterHasNoEffect(d, slug)) return;
  endConnection(world, link, world.clock.now());
  recountUser(d, userId);
}

/** A live user by id across the sandbox's team environments (control plane). */
function findUser(world: World, userId: string, slug: string): { user: User; partition: Partition } {
  checkProvider(slug, 'path');
  for (const partition of world.tenancy.allPartitions()) {
    const user = usersOf(partition, world).liveUser(userId);
    if (user) return { user, partition };
  }
  throw wearablesError.userNotFound();
}

function requireConnection(world: World, userId: string, slug: string): { user: User; partition: Partition; conn: Connection } {
  const { user, partition } = findUser(world, userId, slug);
  const conn = currentLink({ world, partition }, user.user_id, slug)?.current;
  if (!conn) throw wearablesError.notConnected(userId, slug);
  return { user, partition, conn };
}

/** Control plane: puts the connection into `error` (emits `provider.connection.error`). */
export function failProviderConnection(
  world: World,
  userId: string,
  slug: string,
  type: ConnectionErrorType,
  message?: string,
): ConnectionAnswer {
  const { user, partition, conn } = requireConnection(world, userId, slug);
  failConnection({ world, partition }, user.user_id, conn, type, message);
  return connectionView(conn);
}

/** Control plane: brings an errored connection back (emits `provider.connection.created`). */
export function reconnectProvider(world: World, userId: string, slug: string): ConnectionAnswer {
  const { user, partition, conn } = requireConnection(world, userId, slug);
  if (conn.status !== 'error') throw wearablesError.notInError();
  reconnect({ world, partition }, user.user_id, conn);
  return connectionView(conn);
}

export const PULL_OUTCOMES = ['success', 'failure', 'retry_then_success', 'retry_then_failure'] as const;
export const PULL_ERROR_DETAILS = [...RETRIABLE, ...NON_RETRIABLE] as const;

interface ForcePull {
  outcome: PullOverrideOutcome;
  resources?: string[] | undefined;
  error_details?: string | undefined;
  finish_in_seconds?: number | undefined;
}

interface ForcePullResult {
  applies_to: 'next_connection' | 'current_connection';
  user_id: string;
  provider: string;
  resources: string[] | null;
  outcome: PullOverrideOutcome;
}

/**
 * Control plane: forces the outcome of the current connection's unfinished pulls, or, without
 * a current connection, of the next connection's pulls. The caller runs the due jobs after.
 */
export function forcePullOutcome(world: World, userId: string, slug: string, req: ForcePull): ForcePullResult {
  const { user, partition } = findUser(world, userId, slug);
  const { outcome } = req;
  const retry = outcome.startsWith('retry');
  const failing = outcome === 'failure' || outcome === 'retry_then_failure';
  if (req.error_details) {
    if (isRetriable(req.error_details) && !retry) throw wearablesError.retriableNeedsRetry(req.error_details);
    if (!isRetriable(req.error_details) && !failing) throw wearablesError.nonRetriableNeedsFailure(req.error_details);
  }
  for (const r of req.resources ?? []) if (!SIMULATED_RESOURCES.has(r)) throw wearablesError.unknownResource(r);
  const override = (endAt: number | null, afterMs: number | null): PullOverride => ({
    outcome,
    error: req.error_details ?? null,
    endAt,
    afterMs,
  });
  const now = world.clock.now();
  const state = wearablesOf(world);
  const conn = currentLink({ world, partition }, user.user_id, slug)?.current;
  if (!conn) {
    const after = req.finish_in_seconds !== undefined ? Math.round(req.finish_in_seconds * 1000) : null;
    const map = new Map<string, PullOverride>();
    for (const r of req.resources ?? ['*']) map.set(r, override(null, after));
    state.presets.set(presetKey(user.user_id, slug), map);
    return { applies_to: 'next_connection', user_id: user.user_id, provider: slug, resources: req.resources ?? null, outcome };
  }
  const pulled = pulledResources(conn);
  const wanted = req.resources ?? pulled;
  for (const r of wanted) if (!pulled.includes(r)) throw wearablesError.resourceNotPulled(slug, r);
  const open = wanted.filter((r) => finishedAt(pullPlan(world.seed, user.user_id, conn, r)) > now);
  if (open.length === 0) throw wearablesError.pullFinished(wanted);
  const endAt = req.finish_in_seconds !== undefined ? now + Math.round(req.finish_in_seconds * 1000) : null;
  conn.overrides ??= new Map();
  for (const r of open) conn.overrides.set(r, override(endAt, null));
  schedulePullAnnouncements({ world, partition }, user.user_id, conn);
  return { applies_to: 'current_connection', user_id: user.user_id, provider: slug, resources: open, outcome };
}

interface FeedState extends ReturnType<typeof revisionRates> {
  enabled: boolean;
  mode: FeedMode;
  interval_seconds: number;
}

/** The periodic feed's state. */
export function feedState(world: World): FeedState {
  const mode = wearablesOf(world).feedMode;
  return { enabled: mode !== 'off', mode, interval_seconds: 7200, ...revisionRates(world) };
}

/**
 * Sets the share of nights, days and workouts a later sync revises (`daily.data.*.updated`),
 * sandbox-wide or for one team (404 for an unknown team).
 */
export function setFeedRevisionRate(world: World, rate: number, teamId?: string): FeedState {
  if (teamId !== undefined && !world.tenancy.teams.has(teamId)) throw wearablesError.teamNotFound(teamId);
  setRevisionRate(world, rate, teamId);
  return feedState(world);
}

/** Sets the periodic feed's mode. */
export function setFeedMode(world: World, mode: FeedMode): FeedState {
  wearablesOf(world).feedMode = mode;
  return feedState(world);
}

/** Where a workout id handed out by an event lives (the feed remembers it). */
interface WorkoutRef {
  partitionId: string;
  userId: string;
  provider: string;
  day: number;
  index: number;
}

/** A workout id handed out to this partition, or undefined. */
export function workoutRef(d: Domain, id: string): WorkoutRef | undefined {
  const { world, partition } = d;
  const ref = wearablesOf(world).workouts.get(id);
  return ref && ref.partitionId === partition.id ? ref : undefined;
}

/** Visible data ranges of a resource through the provider link that holds `conn` (introspection). */
export function connectionDataRanges(d: Domain, user: User, conn: Connection, resource: string, now: number): Range[] {
  const { world, partition } = d;
  const link = wearablesOf(world)
    .get(partition, user.user_id)
    ?.links.find((l) => l.current === conn);
  return link ? dataRanges(world, user, link, resource, now) : [];
}

/** Forgets everything of a purged user. */
export function purgeUserWearables(world: World, userId: string): void {
  const partition = wearablesOf(world).forUser(userId)?.partition;
  wearablesOf(world).purge(userId);
  if (partition) recountUser({ world, partition }, userId);
}

/** Where a sleep id handed out by an event lives (the feed remembers it). */
interface SleepRef {
  partitionId: string;
  userId: string;
  provider: string;
  day: number;
}

/** A sleep id handed out to this partition, or undefined. */
export function sleepRef(d: Domain, id: string): SleepRef | undefined {
  const { world, partition } = d;
  const ref = wearablesOf(world).sleeps.get(id);
  return ref && ref.partitionId === partition.id ? ref : undefined;
}
