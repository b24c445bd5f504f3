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
import { defineRoute, reply, type Route } from '../../engine/route.js';
import { uuid } from '../../engine/schemas.js';
import { decodeCursor, encodeCursor } from '../../state/wearables/cursor.js';
import { sleepStreamOf, workoutStreamOf } from '../../state/wearables/streams.js';
import {
  MAX_VOLTAGE_SESSIONS,
  TIMESERIES_RESOURCES,
  pageDays,
  pageEnd,
  keptTimeseries,
  visibleSpan,
  voltageSamples,
  type Fetch,
  type Rendered,
  type RenderedSample,
  type SourceObject,
} from '../../state/wearables/timeseries.js';
import { checkProvider, groupedQuery, queryWindow, rangeQuery, requireUser } from '../../state/wearables/wearable-data.js';
import { GroupedTimeseries, SleepStream, TimeseriesSample, WorkoutStream, res } from '../../wire/schemas.js';
import { lazySchema } from '../../engine/lazy-schema.js';
import { binary } from '../../engine/http-types.js';
import { JSON_TYPE } from '../../engine/render.js';
import type { World } from '../../engine/world.js';
import type { User } from '../../state/users/users.js';
import { voltageJson } from '../../state/wearables/voltage-json.js';
import { voltageGroupedJson } from '../../state/wearables/voltage-grouped-json.js';

const params = lazySchema(() => z.object({ user_id: uuid() }));

/** Renders the JSON bytes of a plain list itself (the ECG voltages: src/state/wearables/voltage-json.ts). */
type RenderBytes = (world: World, user: User, provider: string, from: number, to: number) => Uint8Array;

function rawRoute(path: string, resource: string, id: string, summary: string, fetch: Fetch, render?: RenderBytes): Route {
  return defineRoute({
    id,
    method: 'GET',
    path: `/v2/timeseries/:user_id/${path}`,
    auth: 'team',
    summary,
    request: { params, query: rangeQuery },
    responses: {
      200: res(
        lazySchema(() => z.array(TimeseriesSample)),
        'Array of samples',
      ),
      404: 'Unknown user',
      422: 'Bad dates, end before start, unknown provider',
    },
    handle(ctx, { params: p, query }) {
      checkProvider(query.provider);
      const user = requireUser(ctx, p.user_id);
      const [from, to] = queryWindow(query.start_date, query.end_date, ctx.now());
      if (render) return binary(render(ctx.world, user, query.provider, from, to), JSON_TYPE);
      const list = keptTimeseries(ctx.world, user, { resource, provider: query.provider, from, to, key: 'list' }, () => {
        const all: Rendered[] = [];
        for (const g of fetch(ctx.world, user, query.provider, from, to).values()) for (const r of g.data) all.push(r);
        all.sort((a, b) => a.t - b.t || a.order - b.order);
        return { view: all.map((r) => r.body), samples: all.length };
      });
      return reply(200, list);
    },
  });
}

/** Renders the JSON bytes of a grouped page itself (the ECG voltages: src/state/wearables/voltage-grouped-json.ts). */
type RenderPage = (world: World, user: User, provider: string, from: number, to: number, next: string | null) => Uint8Array;

/** Where a grouped route's pages come from: the samples, or (the ECG voltages) their JSON rendered directly. */
interface GroupedData {
  fetch: Fetch;
  render?: RenderPage;
}

function groupedRoute(path: string, resource: string, id: string, summary: string, days: number, { fetch, render }: GroupedData): Route {
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
      const groups: Record<string, Array<{ source: SourceObject; data: RenderedSample[] }>> = {};
      // Pages skip the time before the first visible data and stop after the last.
      const span = visibleSpan(ctx.world, user, resource, query.provider, resume !== null ? Math.max(start, resume) : start);
      if (!span || span[0] > end) return reply(200, { groups, next: null, next_cursor: null });
      const from = span[0];
      const to = pageEnd(from, days, end);
      // `next` (deprecated) carries the same cursor, for callers still paging with `cursor`.
      const next = to < Math.min(end, span[1]) ? encodeCursor('t', to + 1) : null;
      if (render) return binary(render(ctx.world, user, query.provider, from, to, next), JSON_TYPE);
      const page = keptTimeseries(ctx.world, user, { resource, provider: query.provider, from, to, key: `grouped|${next}` }, () => {
        let samples = 0;
        for (const [slug, g] of fetch(ctx.world, user, query.provider, from, to)) {
          groups[slug] = [{ source: g.source, data: g.data.map((r) => r.body) }];
          samples += g.data.length;
        }
        return { view: { groups, next, next_cursor: next }, samples };
      });
      return reply(200, page);
    },
  });
}

const rowRoutes: Route[] = [];
for (const row of TIMESERIES_RESOURCES) {
  if (row.raw)
    rowRoutes.push(
      rawRoute(
        row.path,
        row.resource,
        `timeseries.${row.path}`,
        `${row.resource} samples (${row.unit}), all providers, oldest first.`,
        row.fetch,
      ),
    );
  rowRoutes.push(
    groupedRoute(
      row.path,
      row.resource,
      `timeseries.${row.path}.grouped`,
      `${row.resource} samples (${row.unit}) grouped by provider and source.`,
      row.pageDays,
      { fetch: row.fetch },
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
    request: { params: lazySchema(() => z.object({ sleep_id: uuid() })) },
    responses: { 200: res(SleepStream, 'ClientFacingSleepStream'), 404: 'Unknown sleep', 422: 'Malformed sleep_id' },
    handle: (ctx, { params: p }) => reply(200, sleepStreamOf(ctx, p.sleep_id)),
  }),
  ...rowRoutes,
  rawRoute(
    'electrocardiogram_voltage',
    'electrocardiogram_voltage',
    'timeseries.electrocardiogram_voltage',
    `ECG voltage samples (lead I, mV) of the sessions in range: at most ${MAX_VOLTAGE_SESSIONS} sessions, the oldest; the rest via /grouped.`,
    (world, user, provider, from, to) => voltageSamples(world, user, provider, from, to, MAX_VOLTAGE_SESSIONS),
    (world, user, provider, from, to) => voltageJson(world, user, provider, from, to, MAX_VOLTAGE_SESSIONS),
  ),
  groupedRoute(
    'electrocardiogram_voltage',
    'electrocardiogram_voltage',
    'timeseries.electrocardiogram_voltage.grouped',
    'ECG voltage samples grouped by provider and source.',
    pageDays('ecg'),
    { fetch: voltageSamples, render: voltageGroupedJson },
  ),
  defineRoute({
    id: 'timeseries.workout_stream',
    method: 'GET',
    path: '/v2/timeseries/workouts/:workout_id/stream',
    auth: 'team',
    summary: 'The stream of a workout (ClientFacingStream): time, heart rate, speed, distance, GPS, cadence, power.',
    request: { params: lazySchema(() => z.object({ workout_id: uuid() })) },
    responses: { 200: res(WorkoutStream, 'ClientFacingStream'), 404: 'Unknown workout', 422: 'Malformed workout_id' },
    handle: (ctx, { params: p }) => reply(200, workoutStreamOf(ctx, p.workout_id)),
  }),
];
