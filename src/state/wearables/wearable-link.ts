/**
 * Connection lifecycle: demo connect (history pulled through a historical pull), deregister,
 * and the control plane's error / reconnect. Each change emits its event through
 * `emitUserEvent` and keeps the user's `connected_sources` in step (they are read from here).
 */
import { providerBySlug, type ProviderInfo } from '../../fixtures/wearables/providers.js';
import type { Domain } from '../domain-context.js';
import {
  ERROR_MESSAGES,
  connectionCreatedData,
  emitUserEvent,
  endConnection,
  newConnection,
  wearablesOf,
  type Connection,
  type ConnectionErrorType,
  type ProviderLink,
  type ScopeGrant,
  deniedResources,
} from './connections.js';
import { applyOverrides, forgetPlans, schedulePullAnnouncements } from './pulls.js';
import { outagePreset } from '../sandbox/faults-providers.js';
import { pullPreferencesOf } from '../management/preferences.js';
import { recountUser } from '../users/metric-counts.js';

/** Demo users live this long (api-facts H: "expire (user + data deleted) after 7 days"). */
const DEMO_USER_LIFETIME_MS = 7 * 24 * 3600 * 1000;

/** Demo history length (api-facts H: 30 days backfilled). */
const DEMO_BACKFILL_DAYS = 30;

export function presetKey(userId: string, provider: string): string {
  return `${userId}\u241f${provider}`;
}

/**
 * The team's data-pull preferences for a provider, as the connection keeps them (`*` = the
 * provider default, then per-resource overrides); null when the team environment has none.
 * Taken when the connection is made: a later change applies to later connections.
 */
function historyDaysOf(d: Domain, provider: ProviderInfo): Record<string, number> | null {
  const pref = pullPreferencesOf(d).get(provider.slug);
  if (!pref) return null;
  const out: Record<string, number> = { '*': pref.default.historical_days_to_pull };
  for (const [resource, o] of Object.entries(pref.resource_overrides ?? {})) out[resource] = o.historical_days_to_pull;
  return out;
}

/** Creates a demo connection: pulls 30 days of history and emits `provider.connection.created`; the demo user expires after 7 days. */
export function connectDemo(d: Domain, userId: string, provider: ProviderInfo): Connection {
  const { world, partition } = d;
  const state = wearablesOf(world);
  const now = world.clock.now();
  // A demo user (its first demo connection) expires with its data 7 days later (api-facts H).
  if (!hasDemoConnection(d, userId)) world.hooks.expireUserAt(partition, userId, now + DEMO_USER_LIFETIME_MS);
  const rec = state.record(partition, userId);
  const link = state.link(rec, provider);
  const conn = newConnection(provider, {
    created_at: now,
    backfill_from: now - DEMO_BACKFILL_DAYS * 24 * 3600 * 1000,
    demo: true,
    pullMinutes: 6,
    mark: now,
    history_days: historyDaysOf(d, provider),
  });
  const key = presetKey(userId, provider.slug);
  applyOverrides(conn, state.presets.get(key) ?? outagePreset(world, provider.slug));
  state.presets.delete(key);
  link.current = conn;
  state.sourcesChanged();
  recountUser(d, userId);
  state.active.add(rec);
  emitUserEvent(d, userId, 'provider.connection.created', connectionCreatedData(userId, conn));
  schedulePullAnnouncements(d, userId, conn);
  return conn;
}

/** The user's link to a provider with a current connection, if any. */
export function currentLink(d: Domain, userId: string, slug: string): ProviderLink | undefined {
  const { world, partition } = d;
  const provider = providerBySlug(slug);
  const rec = wearablesOf(world).get(partition, userId);
  if (!provider || !rec) return undefined;
  const link = rec.links.find((l) => l.provider === provider);
  return link?.current ? link : undefined;
}

/** Deregisters every current connection of a user (user deletion). */
export function deregisterAll(d: Domain, userId: string): void {
  const { world, partition } = d;
  const state = wearablesOf(world);
  const rec = state.get(partition, userId);
  if (!rec) return;
  const now = world.clock.now();
  for (const link of rec.links) {
    endConnection(world, link, now);
    for (const conn of link.past) forgetPlans(conn);
  }
  recountUser(d, userId);
  // Nothing left to feed: the run-time feed list lets go at once (not at its next tick).
  state.active.delete(rec);
}

/** Puts a connection into `error` and emits `provider.connection.error`. */
export function failConnection(d: Domain, userId: string, conn: Connection, type: ConnectionErrorType, message: string | undefined): void {
  const { world } = d;
  const now = world.clock.now();
  const text = message ?? ERROR_MESSAGES[type];
  conn.status = 'error';
  conn.error = { error_type: type, error_message: text, errored_at: now };
  recountUser(d, userId);
  emitUserEvent(d, userId, 'provider.connection.error', {
    provider: conn.provider.slug,
    user_id: userId,
    message: text,
    error_type: type,
    error_details: `Connection error: ${type}`,
  });
}

/** Brings an errored connection back (the user re-authorised): emits `provider.connection.created`. */
export function reconnect(d: Domain, userId: string, conn: Connection): void {
  conn.status = 'connected';
  conn.error = null;
  recountUser(d, userId);
  emitUserEvent(d, userId, 'provider.connection.created', connectionCreatedData(userId, conn));
}

/**
 * Creates a connection made through Link (OAuth, password, email or manual connect): backfills
 * the provider's usual history through a historical pull and emits `provider.connection.created`.
 * A current connection to the same provider is replaced (the user re-authorised). With a `grant`
 * (OAuth), resources needing a scope the user did not grant are unavailable and not pulled.
 */
export function connectLinked(d: Domain, userId: string, provider: ProviderInfo, grant?: ScopeGrant): Connection {
  const { world, partition } = d;
  const state = wearablesOf(world);
  const now = world.clock.now();
  const rec = state.record(partition, userId);
  const link = state.link(rec, provider);
  if (link.current) endConnection(world, link, now);
  const conn = newConnection(provider, {
    created_at: now,
    mark: now,
    history_days: historyDaysOf(d, provider),
    ...(grant ? { grant, denied: deniedResources(provider, grant.granted) } : {}),
  });
  const key = presetKey(userId, provider.slug);
  applyOverrides(conn, state.presets.get(key) ?? outagePreset(world, provider.slug));
  state.presets.delete(key);
  link.current = conn;
  state.sourcesChanged();
  recountUser(d, userId);
  state.active.add(rec);
  emitUserEvent(d, userId, 'provider.connection.created', connectionCreatedData(userId, conn));
  schedulePullAnnouncements(d, userId, conn);
  return conn;
}

/** Whether the user has a current demo connection (demo and real connections do not mix). */
export function hasDemoConnection(d: Domain, userId: string): boolean {
  const { world, partition } = d;
  const rec = wearablesOf(world).get(partition, userId);
  return rec?.links.some((l) => l.current?.demo === true) ?? false;
}

/**
 * Pauses a user's current connection to a provider (Link bulk pause): it is de-registered and
 * marked `paused`: data ends now, unfinished pulls stop, the feed skips it. It stays listed until
 * the user reconnects through Link (which replaces it). False when there is nothing to pause.
 */
export function pauseConnection(d: Domain, userId: string, provider: ProviderInfo): boolean {
  const { world } = d;
  const conn = currentLink(d, userId, provider.slug)?.current;
  if (!conn || conn.status === 'paused') return false;
  conn.pullJob?.cancel();
  conn.pullJob = null;
  const now = world.clock.now();
  conn.ended_at = conn.status === 'error' && conn.error ? Math.min(now, conn.error.errored_at) : now;
  conn.status = 'paused';
  recountUser(d, userId);
  return true;
}

/**
 * Starts a new historical pull of a user's connected provider (Link bulk trigger): a new pull
 * epoch backfilling the same span back from now, on the clock like a connection's first pull
 * (`historical.data.<resource>.created` as each finishes). The connection keeps its connection
 * time and the data already delivered. False when the connection is absent, errored or paused.
 */
export function restartHistoricalPull(d: Domain, userId: string, provider: ProviderInfo): boolean {
  const { world, partition } = d;
  const state = wearablesOf(world);
  const link = currentLink(d, userId, provider.slug);
  const old = link?.current;
  const rec = state.get(partition, userId);
  if (!link || !old || !rec || old.status !== 'connected') return false;
  const now = world.clock.now();
  endConnection(world, link, now);
  const conn = newConnection(provider, {
    created_at: now,
    backfill_from: now - (old.created_at - old.backfill_from),
    connected_at: old.connected_at ?? old.created_at,
    demo: old.demo,
    denied: old.denied,
    pullMinutes: old.pullMinutes,
    mark: old.mark,
    history_days: old.history_days,
    ...(old.grant ? { grant: old.grant } : {}),
  });
  link.current = conn;
  state.sourcesChanged();
  recountUser(d, userId);
  state.active.add(rec);
  schedulePullAnnouncements(d, userId, conn);
  return true;
}
