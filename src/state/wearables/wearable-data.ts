/**
 * Which generated data a user can read: the visible time ranges of each (provider, resource),
 * from the user's connections (current and past), their historical pulls, connection errors
 * and the user's ingestion bounds. Plus the request-side helpers the data handlers share
 * (user lookup, date bounds, provider filter).
 */
import { revisionRate } from './revisions.js';
import { z } from 'zod';
import { liveUser } from '../users/user-ops.js';
import { wearablesError } from './errors.js';
import { LAB_SLUGS, PROVIDER_SLUGS, providerBySlug, type ProviderInfo } from '../../fixtures/wearables/providers.js';
import type { Range } from '../../fixtures/wearables/summaries.js';
import type { SourceCtx } from '../../fixtures/wearables/timeseries-table.js';
import { readSources } from './read-sources.js';
import { DAY, dayNumber, localMidnight } from '../../fixtures/wearables/wearable-time.js';
import type { Domain } from '../domain-context.js';
import { dateOrDateTime } from '../../engine/schemas.js';
import { disabledByPreference, historyStart, wearablesOf, type Connection, type ProviderLink } from './connections.js';
import { historyPulled } from './pulls.js';
import type { User } from '../users/users.js';
import { customSourceOrder } from '../users/team-views.js';
import type { World } from '../../engine/world.js';
import { lazySchema } from '../../engine/lazy-schema.js';

import { zoneOf } from './subject.js';

export { showcaseUsers, subjectOf, zoneOf } from './subject.js';

/** A live user of the caller's partition, or 404. */
export function requireUser(ctx: Domain, userId: string): User {
  return liveUser(ctx, userId);
}

/** The user's ingestion bounds as an instant range (local days of the user's zone). */
function ingestionBounds(user: User): Range {
  const zone = zoneOf(user);
  const lo = user.ingestion_start ? localMidnight(zone, dayNumber(user.ingestion_start)) : Number.NEGATIVE_INFINITY;
  const hi = user.ingestion_end ? localMidnight(zone, dayNumber(user.ingestion_end) + 1) - 1 : Number.POSITIVE_INFINITY;
  return [lo, hi];
}

/** Where a connection's data of any resource ends (its end, its error, else `now`). */
function connectionEnd(conn: Connection, now: number): number {
  let end = conn.ended_at ?? now;
  if (conn.status === 'error' && conn.error && conn.ended_at === null) end = Math.min(end, conn.error.errored_at);
  return end;
}

/**
 * Where a connection's visible range of a resource starts (its pulled history's start, else the
 * connection's), or NaN when it has none (denied, disabled, or starting after its end). The range
 * ends at `Math.min(connectionEnd(conn, now), now)`. Numbers, not a pair: the feed asks for every
 * resource of every connection it feeds, each tick.
 */
function connectionStart(world: World, user: User, conn: Connection, resource: string, now: number): number {
  if (conn.denied.includes(resource) || disabledByPreference(conn, resource)) return Number.NaN;
  const start = historyPulled(world.seed, user.user_id, conn, resource, now) ? historyStart(conn, resource) : conn.created_at;
  return start <= connectionEnd(conn, now) ? start : Number.NaN;
}

const UNBOUNDED: Range = [Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY];
const resourceSets = new WeakMap<ProviderInfo, ReadonlySet<string>>();

/** A provider's resources as a set (built once per provider). */
function providerResources(p: ProviderInfo): ReadonlySet<string> {
  let set = resourceSets.get(p);
  if (!set) {
    set = new Set(p.resources);
    resourceSets.set(p, set);
  }
  return set;
}

/** Merged visible ranges of a resource through one provider link, up to `now`. */
export function dataRanges(world: World, user: User, link: ProviderLink, resource: string, now: number): Range[] {
  if (!providerResources(link.provider).has(resource)) return [];
  const bounds = user.ingestion_start || user.ingestion_end ? ingestionBounds(user) : UNBOUNDED;
  const lo = bounds[0];
  const hi = bounds[1];
  if (link.past.length === 0) {
    // One connection (the usual case): its range, within the ingestion bounds.
    const conn = link.current;
    if (!conn) return [];
    const start = connectionStart(world, user, conn, resource, now);
    if (Number.isNaN(start)) return [];
    const a = Math.max(start, lo);
    const b = Math.min(Math.min(connectionEnd(conn, now), now), hi);
    return a <= b ? [[a, b]] : [];
  }
  const raw: Array<[number, number]> = [];
  for (const conn of link.current ? [...link.past, link.current] : link.past) {
    const start = connectionStart(world, user, conn, resource, now);
    if (Number.isNaN(start)) continue;
    const a = Math.max(start, lo);
    const b = Math.min(Math.min(connectionEnd(conn, now), now), hi);
    if (a <= b) raw.push([a, b]);
  }
  raw.sort((x, y) => x[0] - y[0]);
  const out: Array<[number, number]> = [];
  for (const r of raw) {
    const last = out[out.length - 1];
    if (last && r[0] <= last[1] + 1) last[1] = Math.max(last[1], r[1]);
    else out.push([r[0], r[1]]);
  }
  return out;
}

export interface DataSource {
  link: ProviderLink;
  src: SourceCtx;
  ranges: Range[];
  /**
   * Where the source's items go among other sources' items of the same time: the provider's id
   * (catalogue order), or, when the team set source priorities for the data type, 1000 + its rank.
   */
  order: number;
}

/**
 * The user's sources of a resource (optionally one provider), with their visible ranges. With
 * team source priorities for the resource's data type, the preferred source comes first.
 */
export function dataSources(world: World, user: User, resource: string, provider: string, now: number): DataSource[] {
  const rec = wearablesOf(world).forUser(user.user_id);
  if (!rec) return [];
  const sources = readSources(world, user);
  const ranks = customSourceOrder({ world, partition: rec.partition }, resource);
  const rate = revisionRate({ world, partition: rec.partition });
  const out: DataSource[] = [];
  for (const link of rec.links) {
    if (provider !== '' && link.provider.slug !== provider) continue;
    const ranges = dataRanges(world, user, link, resource, now);
    const order = ranks ? 1000 + (ranks.get(link.provider.slug) ?? 999) : link.provider.id;
    if (ranges.length === 0) continue;
    const src = sources.source(link.provider);
    src.revisionRate = rate;
    out.push({ link, src, ranges, order });
  }
  if (ranks) out.sort((a, b) => a.order - b.order);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Query helpers

const providerText = lazySchema(() => z.string().default(''));

/** Query of summaries and timeseries: date or date-time bounds, provider filter. */
export const rangeQuery = lazySchema(() =>
  z.object({
    start_date: dateOrDateTime('start'),
    end_date: dateOrDateTime('end').nullish(),
    provider: providerText,
  }),
);

/** Query of grouped timeseries (adds the cursors). */
export const groupedQuery = lazySchema(() =>
  rangeQuery.extend({
    cursor: z.string().nullish(),
    next_cursor: z.string().nullish(),
  }),
);

function expected(values: readonly string[]): string {
  const quoted = values.map((v) => `'${v}'`);
  return `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}`;
}

/** Throws the pydantic enum error for an unknown provider slug (empty = all providers). */
export function checkProvider(provider: string, where: 'query' | 'path' = 'query', labs = false): void {
  if (provider === '' || providerBySlug(provider) || (labs && LAB_SLUGS.includes(provider))) return;
  const values = labs ? [...PROVIDER_SLUGS, ...LAB_SLUGS.filter((s) => !PROVIDER_SLUGS.includes(s))] : PROVIDER_SLUGS;
  throw wearablesError.unknownProvider(where, provider, expected(values));
}

/** The inclusive instant window of a query (end defaults to now); 422 when end < start. */
export function queryWindow(start: number, end: number | null | undefined, now: number): [number, number] {
  const hi = end ?? now;
  if (hi < start) throw wearablesError.endBeforeStart(hi);
  return [start, hi];
}

/** The UTC calendar dates (as day numbers) a window's bounds fall on: summaries filter by date. */
export function windowDays(window: [number, number]): [number, number] {
  return [Math.floor(window[0] / DAY), Math.floor(window[1] / DAY)];
}
