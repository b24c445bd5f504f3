/**
 * Timeseries (api-facts A.3, A.18, F.2): `/v2/timeseries/:user_id/<resource>` and its `/grouped`
 * variant for every row of the resource table (fixtures/wearables/timeseries-table.ts), the ECG voltage
 * timeseries, and workout streams.
 *
 * Samples are generated when asked from (seed, user, provider, resource, time) inside the
 * user's connection spans; bounds are inclusive (`start_date` date-only = 00:00:00, `end_date`
 * date-only = 23:59:59, UTC; `end_date` defaults to now). A cumulative bucket still open at the
 * current sandbox time carries its partial value; a non-cumulative interval bucket (stand hour,
 * UV index, sleep stage) appears once it ends. Grouped answers page by time from the first
 * visible data: `next_cursor` (and the deprecated `next`, the same cursor) continues where the
 * page stopped and is null after the last visible data.
 *
 * LIMITATIONS
 * - `ige`, `igg` and `cholesterol` (and its deprecated sub-paths) have no table row: they come
 *   from the user's lab results (timeseries-labs.ts).
 * - The plain `electrocardiogram_voltage` list answers at most MAX_VOLTAGE_SESSIONS sessions.
 * - Sleep streams are found only for sleep ids the sandbox has handed out (summary listings and
 *   events) since the last reset; a provider that does not record a stream resource answers [].
 * - Providers without `workout_stream` (demo data is summary-only) answer all-empty arrays.
 * - Workout streams are found only for workout ids the sandbox has handed out (summary
 *   listings and events) since the last reset.
 * - Sample `id` (deprecated) is omitted; `grouping` of blood pressure is omitted.
 */
import { z } from 'zod';
import { ECG_SECONDS, ecgDeviceId, ecgSessionOn, ecgVoltages, type EcgSession } from '../../fixtures/wearables/ecg.js';
import { providerBySlug } from '../../fixtures/wearables/providers.js';
import { clip, sourceObject } from '../../fixtures/wearables/summaries.js';
import { TIMESERIES, renderSample, samplesOf, type TimeseriesRow } from '../../fixtures/wearables/timeseries-table.js';
import { DAY, localDay } from '../../fixtures/wearables/wearable-time.js';
import { json } from '../../engine/http-types.js';
import { defineRoute, type Ctx, type Route } from '../../engine/route.js';
import { uuid } from '../../engine/schemas.js';
import { decodeCursor, encodeCursor } from '../../state/wearables/cursor.js';
import { sleepStreamOf, workoutStreamOf } from '../../state/wearables/streams.js';
import type { User } from '../../state/users/users.js';
import {
  checkProvider,
  dataSources,
  type DataSource,
  groupedQuery,
  queryWindow,
  rangeQuery,
  requireUser,
} from '../../state/wearables/wearable-data.js';
import { GroupedTimeseries, SleepStream, TimeseriesSample, WorkoutStream, res } from '../../wire/schemas.js';

const params = z.object({ user_id: uuid() });

/** Samples a grouped page aims at (pages are whole days). */
const PAGE_SAMPLES = 10_000;

interface Rendered {
  t: number;
  order: number;
  body: Record<string, unknown>;
}

/** Days per grouped page for a row (dense rows page more finely). */
function pageDays(row: TimeseriesRow | 'ecg'): number {
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
  ctx: Ctx,
  user: User,
  row: TimeseriesRow,
  provider: string,
  from: number,
  to: number,
): Map<string, { source: Record<string, unknown>; data: Rendered[] }> {
  const now = ctx.now();
  const out = new Map<string, { source: Record<string, unknown>; data: Rendered[] }>();
  for (const s of dataSources(ctx.world, user, row.resource, provider, now)) {
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
function voltageSamples(
  ctx: Ctx,
  user: User,
  provider: string,
  from: number,
  to: number,
  limit = Number.POSITIVE_INFINITY,
): Map<string, { source: Record<string, unknown>; data: Rendered[] }> {
  const now = ctx.now();
  const found: Array<{ s: DataSource; session: EcgSession }> = [];
  for (const s of dataSources(ctx.world, user, 'electrocardiogram_voltage', provider, now)) {
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
  const out = new Map<string, { source: Record<string, unknown>; data: Rendered[] }>();
  for (const { s, session } of found.slice(0, limit)) {
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
    for (const body of ecgVoltages(s.src, session, from, to))
      group.data.push({ t: Date.parse(body.timestamp as string), order: s.order, body });
  }
  return out;
}

type Fetch = (
  ctx: Ctx,
  user: User,
  provider: string,
  from: number,
  to: number,
) => Map<string, { source: Record<string, unknown>; data: Rendered[] }>;

function rawRoute(path: string, id: string, summary: string, fetch: Fetch): Route {
  return defineRoute({
    id,
    method: 'GET',
    path: `/v2/timeseries/:user_id/${path}`,
    auth: 'team',
    summary,
    request: { params, query: rangeQuery },
    responses: {
      200: res(z.array(TimeseriesSample), 'Array of samples'),
      404: 'Unknown user',
      422: 'Bad dates, end before start, unknown provider',
    },
    handle(ctx, { params: p, query }) {
      checkProvider(query.provider);
      const user = requireUser(ctx, p.user_id);
      const [from, to] = queryWindow(query.start_date, query.end_date, ctx.now());
      const all: Rendered[] = [];
      for (const g of fetch(ctx, user, query.provider, from, to).values()) for (const r of g.data) all.push(r);
      all.sort((a, b) => a.t - b.t || a.order - b.order);
      return json(all.map((r) => r.body));
    },
  });
}

/**
 * The span of visible data a grouped page can start from: the first instant at or after `from`
 * (less a day, so spans that began just before a range start are whole), and the last instant.
 */
function visibleSpan(ctx: Ctx, user: User, resource: string, provider: string, from: number): [number, number] | null {
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const s of dataSources(ctx.world, user, resource, provider, ctx.now())) {
    for (const [a, b] of s.ranges) {
      if (b < from) continue;
      first = Math.min(first, a);
      last = Math.max(last, b);
    }
  }
  return Number.isFinite(first) ? [Math.max(from, first - DAY), last] : null;
}

function groupedRoute(path: string, resource: string, id: string, summary: string, days: number, fetch: Fetch): Route {
  return defineRoute({
    id,
    method: 'GET',
    path: `/v2/timeseries/:user_id/${path}/grouped`,
    auth: 'team',
    summary,
    request: { params, query: groupedQuery },
    responses: {
      200: res(GroupedTimeseries, '{groups: {<provider>: [{source, data}]}, next, next_cursor}'),
      404: 'Unknown user',
      422: 'Bad dates, cursor, end before start, unknown provider',
    },
    handle(ctx, { params: p, query }) {
      checkProvider(query.provider);
      const resume = decodeCursor('t', query.next_cursor, 'next_cursor') ?? decodeCursor('t', query.cursor, 'cursor');
      const user = requireUser(ctx, p.user_id);
      const [start, end] = queryWindow(query.start_date, query.end_date, ctx.now());
      const groups: Record<string, Array<{ source: Record<string, unknown>; data: Array<Record<string, unknown>> }>> = {};
      // Pages skip the time before the first visible data and stop after the last.
      const span = visibleSpan(ctx, user, resource, query.provider, resume !== null ? Math.max(start, resume) : start);
      if (!span || span[0] > end) return json({ groups, next: null, next_cursor: null });
      const from = span[0];
      const to = Math.min(end, from + days * DAY - 1);
      for (const [slug, g] of fetch(ctx, user, query.provider, from, to))
        groups[slug] = [{ source: g.source, data: g.data.map((r) => r.body) }];
      // `next` (deprecated) carries the same cursor, for callers still paging with `cursor`.
      const next = to < Math.min(end, span[1]) ? encodeCursor('t', to + 1) : null;
      return json({ groups, next, next_cursor: next });
    },
  });
}

const rowRoutes: Route[] = [];
for (const row of TIMESERIES) {
  const fetch: Fetch = (ctx, user, provider, from, to) => rowSamples(ctx, user, row, provider, from, to);
  if (row.raw)
    rowRoutes.push(
      rawRoute(row.path, `timeseries.${row.path}`, `${row.resource} samples (${row.unit}), all providers, oldest first.`, fetch),
    );
  rowRoutes.push(
    groupedRoute(
      row.path,
      row.resource,
      `timeseries.${row.path}.grouped`,
      `${row.resource} samples (${row.unit}) grouped by provider and source.`,
      pageDays(row),
      fetch,
    ),
  );
}

export const timeseriesRoutes: Route[] = [
  defineRoute({
    id: 'timeseries.sleep_stream',
    method: 'GET',
    path: '/v2/timeseries/sleep/:sleep_id/stream',
    auth: 'team',
    summary: 'The stream of a sleep (ClientFacingSleepStream): hrv, heart rate, hypnogram and respiratory rate samples of the night.',
    request: { params: z.object({ sleep_id: uuid() }) },
    responses: { 200: res(SleepStream, 'ClientFacingSleepStream'), 404: 'Unknown sleep', 422: 'Malformed sleep_id' },
    handle: (ctx, { params: p }) => json(sleepStreamOf(ctx.world, ctx.partition, p.sleep_id)),
  }),
  ...rowRoutes,
  rawRoute(
    'electrocardiogram_voltage',
    'timeseries.electrocardiogram_voltage',
    `ECG voltage samples (lead I, mV) of the sessions in range: at most ${MAX_VOLTAGE_SESSIONS} sessions, the oldest; the rest via /grouped.`,
    (ctx, user, provider, from, to) => voltageSamples(ctx, user, provider, from, to, MAX_VOLTAGE_SESSIONS),
  ),
  groupedRoute(
    'electrocardiogram_voltage',
    'electrocardiogram_voltage',
    'timeseries.electrocardiogram_voltage.grouped',
    'ECG voltage samples grouped by provider and source.',
    pageDays('ecg'),
    voltageSamples,
  ),
  defineRoute({
    id: 'timeseries.workout_stream',
    method: 'GET',
    path: '/v2/timeseries/workouts/:workout_id/stream',
    auth: 'team',
    summary: 'The stream of a workout (ClientFacingStream): time, heart rate, speed, distance, GPS, cadence, power.',
    request: { params: z.object({ workout_id: uuid() }) },
    responses: { 200: res(WorkoutStream, 'ClientFacingStream'), 404: 'Unknown workout', 422: 'Malformed workout_id' },
    handle: (ctx, { params: p }) => json(workoutStreamOf(ctx.world, ctx.partition, p.workout_id)),
  }),
];
