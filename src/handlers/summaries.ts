/**
 * Summaries (spec 2.3, 4.2; api-facts A.2, D): activity, sleep, body, workouts and
 * electrocardiogram summaries of a user, generated from the same models as the timeseries
 * (a day's activity steps are the sum of its step samples; a sleep's stages are its hypnogram;
 * a workout's averages come from its stream; an ECG's heart rate from its trace's beats).
 *
 * Summaries are filtered by their local calendar date against the dates of `start_date` and
 * `end_date` (inclusive; `end_date` defaults to today), and by `provider`. Data exists only
 * inside the user's connection spans: history appears once the historical pull succeeds, new
 * data as the clock moves; an errored connection stops delivering; ingestion bounds clip.
 *
 * LIMITATIONS
 * - `/raw` variants, profile, meal, menstrual cycle, sleep cycle and devices summaries are not
 *   simulated (404 like any unknown route).
 * - `sleep_stream` is null (deprecated in the reference); `skin_temperature` and `hr_dip` are null.
 * - One source (device) per provider; `source.device_id` and `app_id` are null.
 */
import { z } from 'zod';
import { ecgSessionOn, ecgSummary } from '../fixtures/ecg.js';
import type { Range } from '../fixtures/summaries.js';
import { activitySummary, bodySummary, sleepSummary } from '../fixtures/summaries.js';
import { workoutId, workoutSummary } from '../fixtures/workouts.js';
import { localDay } from '../fixtures/wearable-time.js';
import { json } from '../http-types.js';
import { defineRoute, type Ctx } from '../route.js';
import { isoDate, uuid } from '../schemas.js';
import { wearablesOf } from '../state/connections.js';
import type { User } from '../state/users.js';
import { checkProvider, dataSources, queryWindow, rangeQuery, requireUser, windowDays, type DataSource } from '../state/wearable-data.js';

const params = z.object({ user_id: uuid() });

type Item = { sort: string; body: Record<string, unknown> };

/** Local days a source's ranges touch, within the query's days. */
function days(src: DataSource, lo: number, hi: number): [number, number] {
  const zone = src.src.subject.zone;
  const first = src.ranges[0] as Range;
  const last = src.ranges[src.ranges.length - 1] as Range;
  return [Math.max(lo, localDay(zone, first[0])), Math.min(hi, localDay(zone, last[1]) + 1)];
}

const inRanges = (ranges: readonly Range[], t: number) => ranges.some(([a, b]) => t >= a && t <= b);

function collectSummaries(
  ctx: Ctx,
  user: User,
  resource: string,
  provider: string,
  dayLo: number,
  dayHi: number,
  build: (s: DataSource, day: number, now: number) => Item[],
): Array<Record<string, unknown>> {
  const now = ctx.now();
  const items: Item[] = [];
  for (const s of dataSources(ctx.world, user, resource, provider, now)) {
    const [lo, hi] = days(s, dayLo, dayHi);
    for (let day = lo; day <= hi; day++) items.push(...build(s, day, now));
  }
  items.sort((a, b) => (a.sort < b.sort ? -1 : a.sort > b.sort ? 1 : 0));
  return items.map((i) => i.body);
}

function rangeDays(ctx: Ctx, start: number, end: number | null | undefined): [number, number] {
  return windowDays(queryWindow(start, end, ctx.now()));
}

const item = (sort: string, body: Record<string, unknown> | null): Item[] => (body ? [{ sort, body }] : []);

export const summaryRoutes = [
  defineRoute({
    id: 'summary.activity',
    method: 'GET',
    path: '/v2/summary/activity/:user_id',
    auth: 'team',
    summary: 'Daily activity summaries (ClientActivityResponse).',
    request: { params, query: rangeQuery },
    responses: { 200: '{activity: [...]}', 404: 'Unknown user', 422: 'Bad dates, end before start, unknown provider' },
    handle(ctx, { params: p, query }) {
      checkProvider(query.provider);
      const user = requireUser(ctx, p.user_id);
      const [lo, hi] = rangeDays(ctx, query.start_date, query.end_date);
      const activity = collectSummaries(ctx, user, 'activity', query.provider, lo, hi, (s, day, now) => {
        const a = activitySummary(s.src, day, s.ranges, now);
        return item(`${a?.calendar_date as string}|${s.link.provider.id}`, a);
      });
      return json({ activity });
    },
  }),

  defineRoute({
    id: 'summary.sleep',
    method: 'GET',
    path: '/v2/summary/sleep/:user_id',
    auth: 'team',
    summary: 'Sleep summaries (ClientSleepResponse), by the date the sleep ended on.',
    request: { params, query: rangeQuery },
    responses: { 200: '{sleep: [...]}', 404: 'Unknown user', 422: 'Bad dates, end before start, unknown provider' },
    handle(ctx, { params: p, query }) {
      checkProvider(query.provider);
      const user = requireUser(ctx, p.user_id);
      const [lo, hi] = rangeDays(ctx, query.start_date, query.end_date);
      const sleep = collectSummaries(ctx, user, 'sleep', query.provider, lo, hi, (s, day, now) => {
        const night = s.src.subject.night(day);
        if (!night || night.end > now || !inRanges(s.ranges, night.end)) return [];
        return item(`${night.end}|${s.link.provider.id}`, sleepSummary(s.src, night));
      });
      return json({ sleep });
    },
  }),

  defineRoute({
    id: 'summary.body',
    method: 'GET',
    path: '/v2/summary/body/:user_id',
    auth: 'team',
    summary: 'Body summaries (ClientBodyResponse): one per weigh-in day.',
    request: { params, query: rangeQuery },
    responses: { 200: '{body: [...]}', 404: 'Unknown user', 422: 'Bad dates, end before start, unknown provider' },
    handle(ctx, { params: p, query }) {
      checkProvider(query.provider);
      const user = requireUser(ctx, p.user_id);
      const [lo, hi] = rangeDays(ctx, query.start_date, query.end_date);
      const body = collectSummaries(ctx, user, 'body', query.provider, lo, hi, (s, day, now) => {
        const b = bodySummary(s.src, day, s.ranges, now);
        return item(`${b?.created_at as string}|${s.link.provider.id}`, b);
      });
      return json({ body });
    },
  }),

  defineRoute({
    id: 'summary.workouts',
    method: 'GET',
    path: '/v2/summary/workouts/:user_id',
    auth: 'team',
    summary: 'Workout summaries (ClientWorkoutResponse); streams via /v2/timeseries/workouts/:id/stream.',
    request: { params, query: rangeQuery },
    responses: { 200: '{workouts: [...]}', 404: 'Unknown user', 422: 'Bad dates, end before start, unknown provider' },
    handle(ctx, { params: p, query }) {
      checkProvider(query.provider);
      const user = requireUser(ctx, p.user_id);
      const [lo, hi] = rangeDays(ctx, query.start_date, query.end_date);
      const index = wearablesOf(ctx.world).workouts;
      const workouts = collectSummaries(ctx, user, 'workouts', query.provider, lo, hi, (s, day, now) => {
        const out: Item[] = [];
        for (const w of s.src.subject.workoutsOn(day)) {
          if (w.end > now || !inRanges(s.ranges, w.end)) continue;
          index.set(workoutId(s.src, w), { partitionId: ctx.partition.id, userId: user.user_id, provider: s.link.provider.slug, day: w.day, index: w.index });
          out.push({ sort: `${w.start}|${s.link.provider.id}`, body: workoutSummary(s.src, w) });
        }
        return out;
      });
      return json({ workouts });
    },
  }),

  defineRoute({
    id: 'summary.electrocardiogram',
    method: 'GET',
    path: '/v2/summary/electrocardiogram/:user_id',
    auth: 'team',
    summary: 'Electrocardiogram summaries (spec 4.2); voltages via the electrocardiogram_voltage timeseries.',
    request: { params, query: z.object({ start_date: isoDate(), end_date: isoDate().nullish(), provider: z.string().default('') }) },
    responses: { 200: '{electrocardiogram: [...]}', 404: 'Unknown user', 422: 'Bad dates, end before start, unknown provider' },
    handle(ctx, { params: p, query }) {
      checkProvider(query.provider);
      const user = requireUser(ctx, p.user_id);
      const start = Date.parse(`${query.start_date}T00:00:00Z`);
      const end = query.end_date ? Date.parse(`${query.end_date}T23:59:59.999Z`) : null;
      const [lo, hi] = rangeDays(ctx, start, end);
      const electrocardiogram = collectSummaries(ctx, user, 'electrocardiogram', query.provider, lo, hi, (s, day, now) => {
        const session = ecgSessionOn(s.src, day);
        if (!session || session.end > now || !inRanges(s.ranges, session.end)) return [];
        return item(`${session.start}|${s.link.provider.id}`, ecgSummary(s.src, session));
      });
      return json({ electrocardiogram });
    },
  }),
];
