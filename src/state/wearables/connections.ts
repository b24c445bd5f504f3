/**
 * Provider connections (spec 2.2, api-facts A.1, C): per user, per provider, the current
 * connection and the past ones (their time spans keep the data they delivered readable).
 * World-level store keyed by user id; handlers always resolve the user in the caller's
 * partition first, so nothing crosses teams. Also the one place wearable events are emitted.
 */
import { providerBrief, scopesFor, type ProviderInfo } from '../../fixtures/wearables/providers.js';
import type { Domain } from '../domain-context.js';
import { TIMESERIES } from '../../fixtures/wearables/timeseries-table.js';
import { DAY } from '../../fixtures/wearables/wearable-time.js';
import { ByUserMap, FEED_ID_DAYS, FEED_ID_LIMIT } from './handed-out-ids.js';
import type { EmittedEnvelope } from '../../engine/events.js';
import type { EventData, EventType } from '../../wire/events.js';
import type { Connection as ConnectionAnswer } from '../../wire/types.js';
import type { JobHandle } from '../../engine/scheduler.js';
import type { Partition } from '../../engine/tenancy.js';
import { usersOf } from '../users/users.js';
import { worldSlot, type ConnectedSource, type FeedMode, type World } from '../../engine/world.js';
import { ERROR_TYPES, type ConnectionErrorType } from './connection-error-types.js';
import { dataClass } from '../../engine/world-codec.js';

export { ERROR_TYPES, type ConnectionErrorType };

export const ERROR_MESSAGES: Record<ConnectionErrorType, string> = {
  token_refresh_failed:
    "We are having issues fetching information for user. We won't try to fetch again from this specific provider. Please reconnect device.",
  webhook_registration_failed: 'The provider did not accept our webhook registration for this user. Please reconnect device.',
  user_not_found: 'The provider no longer recognises this user. Please reconnect device.',
  deregistered_per_provider: 'The user has deregistered the connection per notification from the provider.',
  required_scopes_not_granted: 'The user did not grant the scopes required to read their data. Please reconnect and grant them.',
  provider_credential_error: 'The provider rejected the stored credentials. Please reconnect device.',
  provider_password_expired: 'The password for this provider has expired. Please reconnect with the new password.',
  unknown: 'An unknown error occurred while fetching data from the provider.',
};

/** Resources whose data the sandbox generates (everything else a provider lists is not pulled). */
export const SIMULATED_RESOURCES: ReadonlySet<string> = new Set([
  'activity',
  'sleep',
  'body',
  'workouts',
  'workout_stream',
  'electrocardiogram',
  'electrocardiogram_voltage',
  'profile',
  'meal',
  'menstrual_cycle',
  ...TIMESERIES.map((r) => r.resource),
]);

const DAY_MS = 24 * 3600 * 1000;

/** The team's historical days for a resource of a connection (preferences), or null for the connection's usual history. */
function preferredDays(conn: Connection, resource: string): number | null {
  if (!conn.history_days) return null;
  return conn.history_days[resource] ?? conn.history_days['*'] ?? null;
}

/** Whether the team's data-pull preferences turned a resource off for this connection (0 days). */
export function disabledByPreference(conn: Connection, resource: string): boolean {
  return preferredDays(conn, resource) === 0;
}

/** Where a resource's history starts once pulled: the team's preferred days back, else the connection's backfill. */
export function historyStart(conn: Connection, resource: string): number {
  const days = preferredDays(conn, resource);
  return days === null ? conn.backfill_from : conn.created_at - days * DAY_MS;
}

export type PullOverrideOutcome = 'success' | 'failure' | 'retry_then_success' | 'retry_then_failure';

export interface PullOverride {
  outcome: PullOverrideOutcome;
  /** Retriable detail (retry outcomes) or non-retriable detail (failure outcomes). */
  error: string | null;
  /** When the pull finishes (epoch ms); null keeps the planned timing. */
  endAt: number | null;
  /** For presets: finish this long after the connection is made (becomes `endAt`). */
  afterMs?: number | null;
}

/** The OAuth scopes a user granted when connecting, and those the team let them leave out (`user_may_grant`). */
export interface ScopeGrant {
  granted: readonly string[];
  optional: readonly string[];
}

export interface Connection {
  provider: ProviderInfo;
  created_at: number;
  /** Start of the history the pull backfills. */
  backfill_from: number;
  /** `paused`: de-registered by a bulk pause (no feed, no pulls; the user reconnects through Link). */
  status: 'connected' | 'error' | 'paused';
  error: { error_type: ConnectionErrorType; error_message: string; errored_at: number } | null;
  /** Created through `POST /v2/link/connect/demo`. */
  demo: boolean;
  /** Set when deregistered (or paused): data ends here. */
  ended_at: number | null;
  /** When the user connected, if earlier than `created_at` (a re-triggered historical pull starts a new pull epoch). */
  connected_at?: number;
  /** Resources whose scopes the user denied. */
  denied: readonly string[];
  /** Scopes granted through Link (absent: every scope, none optional). */
  grant?: ScopeGrant;
  /**
   * Days of history per resource from the team's data-pull preferences when the connection was
   * made (`*` = the provider default); null without preferences. 0 = the team takes none of it.
   */
  history_days: Record<string, number> | null;
  /** Longest planned pull duration in minutes (seeded still-pulling connections pull longer). */
  pullMinutes: number;
  /** Forced pull outcomes, per resource. */
  overrides: Map<string, PullOverride> | null;
  /** Historical-pull completions up to this time have been announced. */
  pullAnnounced: number;
  pullJob: JobHandle | null;
  /** The periodic feed has sent events for data up to this time. */
  mark: number;
}

export interface ProviderLink {
  provider: ProviderInfo;
  current: Connection | null;
  past: Connection[];
}

export interface UserWearables {
  user_id: string;
  partition: Partition;
  links: ProviderLink[];
  /** Removed when the user is purged (the feed ring skips it). */
  gone: boolean;
}

const NO_RESOURCES: readonly string[] = [];

class WearablesState {
  private readonly users = new Map<string, UserWearables>();
  /** Round-robin order of the periodic feed. */
  readonly ring: UserWearables[] = [];
  ringPos = 0;
  /** Users with connections made at run time (demo connects): fed every tick, before the ring. */
  readonly active = new Set<UserWearables>();
  /** The periodic feed's mode (set from the world's options; the control plane changes it). */
  feedMode: FeedMode;

  /**
   * Moves whenever a link's current connection is set or a record's links change in this world
   * (`sourcesChanged`): kept `connected_sources` and kept user views made before are made again
   * (the world's `connectedSourcesVersion` hook). Not state: not in `toJSON`.
   */
  sourcesEpoch = 0;

  constructor(feedMode: FeedMode) {
    this.feedMode = feedMode;
  }

  /** Call after setting a link's `current` or changing a record's links. */
  sourcesChanged(): void {
    this.sourcesEpoch++;
  }
  /** Outcomes forced for the next connection of `user/provider` (per resource; `*` = all). */
  readonly presets = new Map<string, Map<string, PullOverride>>();
  /** Workouts handed out (summary listings, events): id -> where to regenerate them. */
  readonly workouts = new ByUserMap<{ partitionId: string; userId: string; provider: string; day: number; index: number }>();
  /** Sleeps handed out (summary listings, events): id -> where to regenerate them. */
  readonly sleeps = new ByUserMap<{ partitionId: string; userId: string; provider: string; day: number }>();

  /** Forgets the handed-out ids older than FEED_ID_DAYS, and the oldest days past FEED_ID_LIMIT (each feed tick). */
  forgetOldIds(now: number): void {
    const cut = Math.floor(now / DAY) - FEED_ID_DAYS - 1;
    for (const ids of [this.workouts, this.sleeps] as ByUserMap<{ userId: string; day: number }>[]) {
      ids.dropDaysBefore(cut);
      const days = ids.days();
      for (let i = 1; ids.size > FEED_ID_LIMIT && i < days.length; i++) ids.dropDaysBefore(days[i] as number);
    }
  }

  record(partition: Partition, userId: string): UserWearables {
    let rec = this.users.get(userId);
    if (!rec) {
      rec = { user_id: userId, partition, links: [], gone: false };
      this.users.set(userId, rec);
      this.ring.push(rec);
    }
    return rec;
  }

  /** The user's record in any partition (user ids are unique across the world). */
  forUser(userId: string): UserWearables | undefined {
    return this.users.get(userId);
  }

  /** How many users have a record (memory accounting: soak tests, census). */
  get userCount(): number {
    return this.users.size;
  }

  /** Whether the user has (or had, until purged) connections. */
  hasUser(userId: string): boolean {
    return this.users.has(userId);
  }

  /** Canonical state for world snapshots (the field names of the plain store). */
  toJSON(): unknown {
    return {
      users: this.users,
      ring: this.ring,
      ringPos: this.ringPos,
      active: this.active,
      feedMode: this.feedMode,
      presets: this.presets,
      workouts: this.workouts,
      sleeps: this.sleeps,
    };
  }

  /** The user's record, if it belongs to this partition. */
  get(partition: Partition, userId: string): UserWearables | undefined {
    const rec = this.users.get(userId);
    return rec && rec.partition === partition ? rec : undefined;
  }

  link(rec: UserWearables, provider: ProviderInfo): ProviderLink {
    let link = rec.links.find((l) => l.provider === provider);
    if (!link) {
      link = { provider, current: null, past: [] };
      rec.links.push(link);
      this.sourcesChanged();
    }
    return link;
  }

  purge(userId: string): void {
    const rec = this.users.get(userId);
    if (!rec) return;
    rec.gone = true;
    // The feed ring drops the record at its next tick; what it held goes now.
    rec.links.length = 0;
    this.sourcesChanged();
    this.users.delete(userId);
    this.active.delete(rec);
    this.workouts.dropUser(userId);
    this.sleeps.dropUser(userId);
  }
}
dataClass('WearablesState', WearablesState);

export const wearablesOf = worldSlot('wearables', (world) => new WearablesState(world.options.feed));

/** Demo data is summaries only (api-facts H): a demo connection has no streams. */
const streamless = (conn: Connection, r: string): boolean => conn.demo && r === 'workout_stream';

/** The resources a connection's historical pull covers. */
export function pulledResources(conn: Connection): string[] {
  return conn.provider.resources.filter(
    (r) => SIMULATED_RESOURCES.has(r) && !conn.denied.includes(r) && !disabledByPreference(conn, r) && !streamless(conn, r),
  );
}

/** The resources a provider lists that the pull does not cover. */
export function notPulledResources(conn: Connection): string[] {
  return conn.provider.resources.filter(
    (r) => !SIMULATED_RESOURCES.has(r) || conn.denied.includes(r) || disabledByPreference(conn, r) || streamless(conn, r),
  );
}

/** Resources of a provider that need a scope outside `granted`. */
export function deniedResources(provider: ProviderInfo, granted: readonly string[]): string[] {
  return provider.resources.filter((r) => scopesFor(provider, r).some((s) => !granted.includes(s)));
}

/**
 * resource_availability of a connection (ResourceAvailability per resource). A resource's
 * scopes are `required` unless the team let users leave them out (`optional`); each lands in
 * `user_granted` or `user_denied` by the user's grant.
 */
function resourceAvailability(conn: Connection): ConnectionAnswer['resource_availability'] {
  const out: ConnectionAnswer['resource_availability'] = {};
  const oauth = conn.provider.auth_type === 'oauth';
  const grant = conn.grant;
  for (const r of conn.provider.resources) {
    const denied = conn.denied.includes(r);
    const scopes = scopesFor(conn.provider, r);
    let requirements: ScopeRequirementsGrants | null = null;
    if (oauth && grant) {
      const has = (s: string) => grant.granted.includes(s);
      const required = scopes.filter((s) => !grant.optional.includes(s));
      const optional = scopes.filter((s) => grant.optional.includes(s));
      requirements = {
        user_granted: { required: required.filter(has), optional: optional.filter(has) },
        user_denied: { required: required.filter((s) => !has(s)), optional: optional.filter((s) => !has(s)) },
      };
    } else if (oauth) {
      requirements = {
        user_granted: { required: denied ? [] : scopes, optional: [] },
        user_denied: { required: denied ? scopes : [], optional: [] },
      };
    }
    out[r] = { status: denied ? 'unavailable' : 'available', scope_requirements: requirements };
  }
  return out;
}

type ScopeRequirementsGrants = NonNullable<ConnectionAnswer['resource_availability'][string]['scope_requirements']>;

/** ClientFacingProviderWithStatus. */
export function connectionView(conn: Connection): ConnectionAnswer {
  return {
    ...providerBrief(conn.provider),
    created_on: new Date(conn.connected_at ?? conn.created_at).toISOString(),
    status: conn.status,
    external_user_id: null,
    error_details: conn.error
      ? {
          error_type: conn.error.error_type,
          error_message: conn.error.error_message,
          errored_at: new Date(conn.error.errored_at).toISOString(),
        }
      : null,
    resource_availability: resourceAvailability(conn),
  };
}

/** The user's current connections. */
export function currentConnections(rec: UserWearables | undefined): Connection[] {
  const out: Connection[] = [];
  if (rec) for (const l of rec.links) if (l.current) out.push(l.current);
  return out;
}

/**
 * Each user's `connected_sources`, made once and kept until a link's current connection changes
 * anywhere (issue 33's keyed reads: a user read in a world of 100k users would otherwise read the
 * user's links and each connection, a cache miss each in a large heap). Whatever sets a link's
 * `current`, or adds or drops links, calls its world's `sourcesChanged()` (connections change rarely: a
 * connect, a deregistration; the feed only moves marks). A connection's item depends only on its
 * provider and its `connected_at ?? created_at`, both set when it is made.
 */
const sourceLists = new WeakMap<UserWearables, { epoch: number; items: ConnectedSource[] }>();
const NO_SOURCES: ConnectedSource[] = Object.freeze([]) as unknown as ConnectedSource[];

/** `connected_sources` of the user object (a frozen list, shared by the reads until a connection changes). */
export function connectedSources(d: Domain, userId: string): ConnectedSource[] {
  const { world, partition } = d;
  const state = wearablesOf(world);
  const rec = state.get(partition, userId);
  if (rec === undefined) return NO_SOURCES;
  const kept = sourceLists.get(rec);
  if (kept !== undefined && kept.epoch === state.sourcesEpoch) return kept.items;
  const items: ConnectedSource[] = [];
  for (const l of rec.links) {
    const c = l.current;
    if (!c) continue;
    const brief = providerBrief(c.provider);
    items.push({ created_on: new Date(c.connected_at ?? c.created_at).toISOString(), provider: brief, source: { ...brief } });
  }
  Object.freeze(items);
  sourceLists.set(rec, { epoch: state.sourcesEpoch, items });
  return items;
}

/** Emits a wearable event for a user through the world's event bus. */
export function emitUserEvent<T extends EventType>(d: Domain, userId: string, eventType: T, data: EventData<T>): void {
  const { world, partition } = d;
  const user = usersOf(partition, world).get(userId);
  const envelope: EmittedEnvelope<T> = {
    event_type: eventType,
    data,
    team_id: partition.team.id,
    user_id: userId,
    client_user_id: user?.client_user_id ?? '',
  };
  world.events.emit(partition, envelope);
}

/** `provider.connection.created` payload. */
export function connectionCreatedData(userId: string, conn: Connection): EventData<'provider.connection.created'> {
  const brief = providerBrief(conn.provider);
  return {
    user_id: userId,
    provider: brief,
    source: { ...brief },
    external_user_id: null,
    resource_availability: resourceAvailability(conn),
  };
}

/** Ends a connection (deregistration): data stops at the end of the connection. */
export function endConnection(world: World, link: ProviderLink, now: number): void {
  const conn = link.current;
  if (!conn) return;
  conn.pullJob?.cancel();
  conn.pullJob = null;
  if (conn.ended_at === null) conn.ended_at = conn.status === 'error' && conn.error ? Math.min(now, conn.error.errored_at) : now;
  link.past.push(conn);
  link.current = null;
  wearablesOf(world).sourcesChanged();
}

export function newConnection(provider: ProviderInfo, fields: Partial<Connection> & { created_at: number }): Connection {
  return {
    provider,
    backfill_from: fields.created_at - provider.backfillDays * 24 * 3600 * 1000,
    status: 'connected',
    error: null,
    demo: false,
    ended_at: null,
    denied: NO_RESOURCES,
    history_days: null,
    pullMinutes: 10,
    overrides: null,
    pullAnnounced: fields.created_at - 1,
    pullJob: null,
    mark: fields.created_at,
    ...fields,
  };
}
