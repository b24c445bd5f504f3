/**
 * Timeseries samples as the `/v2/timeseries` routes answer them: per row of the resource table
 * (fixtures/wearables/timeseries-table.ts) and the ECG voltage sessions, rendered per provider
 * inside the user's connection spans, and the span a grouped page starts from.
 */
import { ECG_SECONDS, ecgDeviceId, ecgSessionOn, ecgVoltages, type EcgSession } from '../../fixtures/wearables/ecg.js';
import { providerBySlug } from '../../fixtures/wearables/providers.js';
import type { RenderedSample } from '../../fixtures/wearables/cadence.js';
import { clip, sourceObject, type SourceObject } from '../../fixtures/wearables/summaries.js';
import { TIMESERIES, renderSample, samplesOf, type TimeseriesRow } from '../../fixtures/wearables/timeseries-table.js';
import { DAY, localDay } from '../../fixtures/wearables/wearable-time.js';
import type { World } from '../../engine/world.js';
import type { User } from '../users/users.js';
import { dataSources, type DataSource } from './wearable-data.js';
import { keptAnswer } from './read-answers.js';

export type { RenderedSample, SourceObject };

/** Samples a grouped page aims at (pages are whole days). */
const PAGE_SAMPLES = 10_000;

export interface Rendered {
  t: number;
  order: number;
  body: RenderedSample;
}

/** Days per grouped page for a row (dense rows page more finely). */
export function pageDays(row: TimeseriesRow | 'ecg'): number {
  if (row === 'ecg') return 3;
  let perDay = 0;
  for (const p of new Set(['apple_health_kit', 'freestyle_libre'])) {
    const sched = row.schedule(providerBySlug(p) as NonNullable<ReturnType<typeof providerBySlug>>);
    if (sched.kind === 'cadence') perDay = Math.max(perDay, (24 * 60) / sched.minutes);
  }
  return perDay === 0 ? 366 : Math.max(1, Math.floor(PAGE_SAMPLES / perDay));
}

/** Samples of a row for the user, per provider, in `[from, to]`. */
function rowSamples(
  world: World,
  user: User,
  row: TimeseriesRow,
  provider: string,
  from: number,
  to: number,
): Map<string, { source: SourceObject; data: Rendered[] }> {
  const now = world.clock.now();
  const out = new Map<string, { source: SourceObject; data: Rendered[] }>();
  for (const s of dataSources(world, user, row.resource, provider, now)) {
    const data: Rendered[] = [];
    for (const [a, b] of clip(s.ranges, from, to)) {
      for (const sample of samplesOf(row, s.src, a, b, now))
        data.push({ t: sample.timestamp, order: s.order, body: renderSample(row, s.src, sample) });
    }
    if (data.length) out.set(s.link.provider.slug, { source: sourceObject(s.link.provider), data });
  }
  return out;
}

/**
 * Sessions the plain electrocardiogram_voltage list answers at most (the oldest in the window,
 * all providers together); the rest through the grouped variant's cursor. A session is 30 s of
 * samples (up to 15,360 at 512 Hz, about 0.7 MB of JSON), so an answer stays under ~7 MB.
 */
export const MAX_VOLTAGE_SESSIONS = 10;

/** ECG voltage samples for the user, per provider, in `[from, to]`: at most `limit` sessions, oldest first. */
export function voltageSamples(
  world: World,
  user: User,
  provider: string,
  from: number,
  to: number,
  limit = Number.POSITIVE_INFINITY,
): Map<string, { source: SourceObject; data: Rendered[] }> {
  const out = new Map<string, { source: SourceObject; data: Rendered[] }>();
  for (const { s, session } of voltageSessions(world, user, provider, from, to, limit)) {
    let group = out.get(s.link.provider.slug);
    if (!group) {
      group = {
        source: {
          ...sourceObject(s.link.provider),
          type: s.link.provider.device === 'scale' ? 'watch' : s.link.provider.device,
          device_id: ecgDeviceId(s.src),
        },
        data: [],
      };
      out.set(s.link.provider.slug, group);
    }
    const times: number[] = [];
    const bodies = ecgVoltages(s.src, session, from, to, times);
    for (let i = 0; i < bodies.length; i++) group.data.push({ t: times[i] as number, order: s.order, body: bodies[i] as RenderedSample });
  }
  return out;
}

/** An ECG session of a data source, as the voltage lists find them. */
export interface FoundSession {
  s: DataSource;
  session: EcgSession;
}

/** The ECG sessions in `[from, to]` for the user: at most `limit`, oldest first (then by source order). */
export function voltageSessions(world: World, user: User, provider: string, from: number, to: number, limit: number): FoundSession[] {
  const now = world.clock.now();
  const found: FoundSession[] = [];
  for (const s of dataSources(world, user, 'electrocardiogram_voltage', provider, now)) {
    const zone = s.src.subject.zone;
    // Only the days the visible history covers: a wide query window costs nothing extra.
    const visible = clip(s.ranges, from - ECG_SECONDS * 1000, Math.min(to, now));
    const first = visible[0];
    const last = visible[visible.length - 1];
    if (!first || !last) continue;
    for (let day = localDay(zone, first[0]); day <= localDay(zone, last[1]); day++) {
      const session = ecgSessionOn(s.src, day);
      if (!session || session.end > now || session.end < from || session.start > to) continue;
      if (!s.ranges.some(([a, b]) => session.end >= a && session.end <= b)) continue;
      found.push({ s, session });
    }
  }
  found.sort((x, y) => x.session.start - y.session.start || x.s.order - y.s.order);
  return found.slice(0, limit);
}

/** Samples of one resource for the user, per provider, in `[from, to]`. */
export type Fetch = (
  world: World,
  user: User,
  provider: string,
  from: number,
  to: number,
) => Map<string, { source: SourceObject; data: Rendered[] }>;

/**
 * The span of visible data a grouped page can start from: the first instant at or after `from`
 * (less a day, so spans that began just before a range start are whole), and the last instant.
 */
export function visibleSpan(world: World, user: User, resource: string, provider: string, from: number): [number, number] | null {
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const s of dataSources(world, user, resource, provider, world.clock.now())) {
    for (const [a, b] of s.ranges) {
      if (b < from) continue;
      first = Math.min(first, a);
      last = Math.max(last, b);
    }
  }
  return Number.isFinite(first) ? [Math.max(from, first - DAY), last] : null;
}

/** One row of the resource table as the routes serve it: its path, resource, unit, page size and samples. */
export interface TimeseriesResource {
  path: string;
  resource: string;
  unit: string;
  /** Whether the plain (ungrouped) list is served besides `/grouped`. */
  raw: boolean;
  /** Days per grouped page. */
  pageDays: number;
  fetch: Fetch;
}

/** Every row of the resource table (the ECG voltage timeseries is served apart). */
export const TIMESERIES_RESOURCES: readonly TimeseriesResource[] = TIMESERIES.map((row) => ({
  path: row.path,
  resource: row.resource,
  unit: row.unit,
  raw: Boolean(row.raw),
  pageDays: pageDays(row),
  fetch: (world, user, provider, from, to) => rowSamples(world, user, row, provider, from, to),
}));

/**
 * A timeseries answer of `resource` over `[from, to]` as `build` makes it (`key`: the route's
 * variant and what else its answer holds), kept between reads while the user's sources of the
 * resource give the same samples (read-answers.ts).
 */
export function keptTimeseries<T extends object>(
  world: World,
  user: User,
  page: { resource: string; provider: string; from: number; to: number; key: string },
  build: () => { view: T; samples: number },
): T {
  const { resource, provider, from, to, key } = page;
  const now = world.clock.now();
  return keptAnswer(
    dataSources(world, user, resource, provider, now),
    `${resource}|${provider}|${from}|${to}|${key}`,
    { from, to, now },
    build,
  );
}

/** The last instant of a grouped page of `days` days from `from`, within `end`. */
export const pageEnd = (from: number, days: number, end: number): number => Math.min(end, from + days * DAY - 1);
