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
 * - Sleep cycles come from the providers that record stages (hypnogram); deep, light, REM and
 *   awake runs only (no `-1` or `5`).
 * - Meals: `micros` is null; foods carry energy, carbs, protein and total fat only.
 * - Profile and devices are in profile.ts.
 * - `/raw` variants wrap each summary in its raw record; `data` is the summary's values in the
 *   provider's key style (fixtures/wearables/raw.ts), not the provider's exact schema. Demo users
 *   have none (demo data is summaries only): their `/raw` lists are empty.
 * - `sleep_stream` is null (deprecated in the reference); `skin_temperature` and `hr_dip` are null.
 * - One source (device) per provider; `source.device_id` and `app_id` are null, except that ECGs
 *   carry their device as a stable `device_id` (spec 2.3).
 */
import { sourceNight } from '../../fixtures/wearables/timeseries-model.js';
import { z } from 'zod';
import { ecgSessionOn, ecgSummary } from '../../fixtures/wearables/ecg.js';
import type { Range } from '../../fixtures/wearables/summaries.js';
import { activitySummary, bodySummary, sleepSummary } from '../../fixtures/wearables/summaries.js';
import { workoutId, workoutSummary } from '../../fixtures/wearables/workouts.js';
import { rawRecord } from '../../fixtures/wearables/raw.js';
import type { SourceCtx } from '../../fixtures/wearables/timeseries-table.js';
import { localDay, localMidnight } from '../../fixtures/wearables/wearable-time.js';
import { json, type Reply } from '../../engine/http-types.js';
import { defineRoute, type Ctx, type Route } from '../../engine/route.js';
import { isoDate, uuid } from '../../engine/schemas.js';
import { rememberSleep, rememberWorkout } from '../../state/wearables/operations.js';
import { hasDemoConnection } from '../../state/wearables/wearable-link.js';
import { sleepCycle, sleepId } from '../../fixtures/wearables/sleep-cycle.js';
import { mealSummary, mealsOn } from '../../fixtures/wearables/meals.js';
import { cycleStartingOn, menstrualCycle } from '../../fixtures/wearables/menstrual.js';
import type { User } from '../../state/users/users.js';
import {
  checkProvider,
  dataSources,
  queryWindow,
  rangeQuery,
  requireUser,
  windowDays,
  type DataSource,
} from '../../state/wearables/wearable-data.js';
import {
  ActivitySummary,
  BodySummary,
  ElectrocardiogramSummary,
  MealSummary,
  MenstrualCycle,
  RawSummary,
  SleepCycle,
  SleepSummary,
  WorkoutSummary,
  listOf,
  res,
} from '../../wire/schemas.js';

const params = z.object({ user_id: uuid() });

type Item = { sort: string; body: Record<string, unknown>; src?: SourceCtx };

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
): Item[] {
  const now = ctx.now();
  const items: Item[] = [];
  for (const s of dataSources(ctx.world, user, resource, provider, now)) {
    const [lo, hi] = days(s, dayLo, dayHi);
    for (let day = lo; day <= hi; day++) for (const i of build(s, day, now)) items.push({ ...i, src: s.src });
  }
  items.sort((a, b) => (a.sort < b.sort ? -1 : a.sort > b.sort ? 1 : 0));
  return items;
}

const item = (sort: string, body: Record<string, unknown> | null): Item[] => (body ? [{ sort, body }] : []);

/** What one source gives for one local day (`ctx` and `user` for the workout index). */
type Build = (s: DataSource, day: number, now: number, ctx: Ctx, user: User) => Item[];

const RESPONSES = { 404: 'Unknown user', 422: 'Bad dates, end before start, unknown provider' };

/** A summary as its raw record (RawActivity, RawSleep, RawBody, RawWorkout). */
type Raw = (src: SourceCtx, summary: Record<string, unknown>) => Record<string, unknown>;

/**
 * `{<resource>: [...]}`: the user's summaries of a resource whose dates fall in `[start, end]`
 * (end defaults to today); with `raw`, each as the raw record it was derived from.
 */
function summaryReply(
  ctx: Ctx,
  userId: string,
  resource: string,
  provider: string,
  start: number,
  end: number | null | undefined,
  build: Build,
  raw?: Raw,
  key = resource,
): Reply {
  checkProvider(provider);
  const user = requireUser(ctx, userId);
  const [lo, hi] = windowDays(queryWindow(start, end, ctx.now()));
  // Demo data is summaries only (api-facts H): a demo user's raw records are an empty list.
  if (raw && hasDemoConnection(ctx.world, ctx.partition, user.user_id)) return json({ [key]: [] });
  const items = collectSummaries(ctx, user, resource, provider, lo, hi, (s, day, now) => build(s, day, now, ctx, user));
  return json({ [key]: items.map((i) => (raw && i.src ? raw(i.src, i.body) : i.body)) });
}

/** `GET /v2/summary/<resource>/:user_id` and its `/raw` variant over the usual date-or-datetime range query. */
/** The wire schema of each summary resource's items. */
const ITEM: Record<string, z.ZodType> = { activity: ActivitySummary, sleep: SleepSummary, body: BodySummary, workouts: WorkoutSummary };

function summaryRoutePair(resource: string, summary: string, raw: Raw, build: Build): Route[] {
  const item = ITEM[resource];
  if (!item) throw new Error(`No wire schema for the ${resource} summary`);
  return [
    defineRoute({
      id: `summary.${resource}`,
      method: 'GET',
      path: `/v2/summary/${resource}/:user_id`,
      auth: 'team',
      summary,
      request: { params, query: rangeQuery },
      responses: { 200: res(listOf(resource, item), `{${resource}: [...]}`), ...RESPONSES },
      handle: (ctx, { params: p, query }) =>
        summaryReply(ctx, p.user_id, resource, query.provider, query.start_date, query.end_date, build),
    }),
    defineRoute({
      id: `summary.${resource}.raw`,
      method: 'GET',
      path: `/v2/summary/${resource}/:user_id/raw`,
      auth: 'team',
      summary: `The provider-shaped records behind the ${resource} summaries (Raw${resource === 'workouts' ? 'Workout' : resource[0]?.toUpperCase() + resource.slice(1)}Response).`,
      request: { params, query: rangeQuery },
      responses: { 200: res(listOf(resource, RawSummary), `{${resource}: [...]}`), ...RESPONSES },
      handle: (ctx, { params: p, query }) =>
        summaryReply(ctx, p.user_id, resource, query.provider, query.start_date, query.end_date, build, raw),
    }),
  ];
}

const rawAt =
  (field: string): Raw =>
  (src, summary) =>
    rawRecord(src, summary, summary[field] as string);

export const summaryRoutes: Route[] = [
  ...summaryRoutePair('activity', 'Daily activity summaries (ClientActivityResponse).', rawAt('date'), (s, day, now) => {
    const a = activitySummary(s.src, day, s.ranges, now);
    return item(`${a?.calendar_date as string}|${s.order}`, a);
  }),

  ...summaryRoutePair(
    'sleep',
    'Sleep summaries (ClientSleepResponse), by the date the sleep ended on.',
    rawAt('bedtime_start'),
    (s, day, now, ctx, user) => {
      const night = sourceNight(s.src, day);
      if (!night || night.end > now || !inRanges(s.ranges, night.end)) return [];
      rememberSleep(ctx.world, sleepId(s.src, night), {
        partitionId: ctx.partition.id,
        userId: user.user_id,
        provider: s.link.provider.slug,
        day: night.day,
      });
      return item(`${night.day}|${s.order}`, sleepSummary(s.src, night)); // by night, then source priority: providers see it minutes apart
    },
  ),

  ...summaryRoutePair('body', 'Body summaries (ClientBodyResponse): one per weigh-in day.', rawAt('created_at'), (s, day, now) => {
    const b = bodySummary(s.src, day, s.ranges, now);
    return item(`${b?.created_at as string}|${s.order}`, b);
  }),

  ...summaryRoutePair(
    'workouts',
    'Workout summaries (ClientWorkoutResponse); streams via /v2/timeseries/workouts/:id/stream.',
    (src, w) => {
      const sport = w.sport as { id: number };
      return rawRecord(src, w, w.time_start as string, { sport_id: sport.id, sport });
    },
    (s, day, now, ctx, user) => {
      const out: Item[] = [];
      for (const w of s.src.subject.workoutsOn(day)) {
        if (w.end > now || !inRanges(s.ranges, w.end)) continue;
        rememberWorkout(ctx.world, workoutId(s.src, w), {
          partitionId: ctx.partition.id,
          userId: user.user_id,
          provider: s.link.provider.slug,
          day: w.day,
          index: w.index,
        });
        out.push({ sort: `${w.start}|${s.order}`, body: workoutSummary(s.src, w) });
      }
      return out;
    },
  ),

  defineRoute({
    id: 'summary.meal',
    method: 'GET',
    path: '/v2/summary/meal/:user_id',
    auth: 'team',
    summary: 'Meals with energy and macros (ClientFacingMealResponse) from the nutrition apps that log them.',
    request: { params, query: rangeQuery },
    responses: { 200: res(listOf('meals', MealSummary), '{meals: [...]}'), ...RESPONSES },
    handle: (ctx, { params: p, query }) =>
      summaryReply(
        ctx,
        p.user_id,
        'meal',
        query.provider,
        query.start_date,
        query.end_date,
        (s, day, now) =>
          mealsOn(s.src, day).flatMap((m) =>
            m.at > now || !inRanges(s.ranges, m.at) ? [] : item(`${m.at}|${s.order}`, mealSummary(s.src, m)),
          ),
        undefined,
        'meals',
      ),
  }),

  defineRoute({
    id: 'summary.menstrual_cycle',
    method: 'GET',
    path: '/v2/summary/menstrual_cycle/:user_id',
    auth: 'team',
    summary: 'Menstrual cycles (MenstrualCycleResponse) by period start: flow, ovulation tests, basal body temperature.',
    request: { params, query: rangeQuery },
    responses: { 200: res(listOf('menstrual_cycle', MenstrualCycle), '{menstrual_cycle: [...]}'), ...RESPONSES },
    handle: (ctx, { params: p, query }) =>
      summaryReply(ctx, p.user_id, 'menstrual_cycle', query.provider, query.start_date, query.end_date, (s, day, now) => {
        const cycle = cycleStartingOn(s.src, day);
        const at = cycle ? localMidnight(s.src.subject.zone, day) : 0;
        if (!cycle || at > now || !inRanges(s.ranges, at)) return [];
        return item(`${at}|${s.order}`, menstrualCycle(s.src, cycle, localDay(s.src.subject.zone, now)));
      }),
  }),

  // Date-only bounds, like the electrocardiogram summaries.
  defineRoute({
    id: 'summary.sleep_cycle',
    method: 'GET',
    path: '/v2/summary/sleep_cycle/:user_id',
    auth: 'team',
    summary: "Sleep cycles (ClientSleepCycleResponse): each night's stage runs, from the providers that record stages.",
    request: { params, query: z.object({ start_date: isoDate(), end_date: isoDate().nullish(), provider: z.string().default('') }) },
    responses: { 200: res(listOf('sleep_cycle', SleepCycle), '{sleep_cycle: [...]}'), ...RESPONSES },
    handle(ctx, { params: p, query }) {
      const start = Date.parse(`${query.start_date}T00:00:00Z`);
      const end = query.end_date ? Date.parse(`${query.end_date}T23:59:59.999Z`) : null;
      return summaryReply(
        ctx,
        p.user_id,
        'sleep',
        query.provider,
        start,
        end,
        (s, day, now) => {
          if (!s.link.provider.resources.includes('hypnogram')) return [];
          const night = sourceNight(s.src, day);
          if (!night || night.end > now || !inRanges(s.ranges, night.end)) return [];
          return item(`${night.day}|${s.order}`, sleepCycle(s.src, night));
        },
        undefined,
        'sleep_cycle',
      );
    },
  }),

  // Date-only bounds (its own query), unlike the other summaries.
  defineRoute({
    id: 'summary.electrocardiogram',
    method: 'GET',
    path: '/v2/summary/electrocardiogram/:user_id',
    auth: 'team',
    summary: 'Electrocardiogram summaries (spec 4.2); voltages via the electrocardiogram_voltage timeseries.',
    request: { params, query: z.object({ start_date: isoDate(), end_date: isoDate().nullish(), provider: z.string().default('') }) },
    responses: { 200: res(listOf('electrocardiogram', ElectrocardiogramSummary), '{electrocardiogram: [...]}'), ...RESPONSES },
    handle(ctx, { params: p, query }) {
      const start = Date.parse(`${query.start_date}T00:00:00Z`);
      const end = query.end_date ? Date.parse(`${query.end_date}T23:59:59.999Z`) : null;
      return summaryReply(ctx, p.user_id, 'electrocardiogram', query.provider, start, end, (s, day, now) => {
        const session = ecgSessionOn(s.src, day);
        if (!session || session.end > now || !inRanges(s.ranges, session.end)) return [];
        return item(`${session.start}|${s.order}`, ecgSummary(s.src, session));
      });
    },
  }),
];
