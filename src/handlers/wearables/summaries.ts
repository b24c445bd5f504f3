/**
 * Summary routes (spec 2.3, 4.2; api-facts A.2, D): activity, sleep, body, workouts and
 * electrocardiogram summaries of a user, generated from the same models as the timeseries
 * (a day's activity steps are the sum of its step samples; a sleep's stages are its hypnogram;
 * a workout's averages come from its stream; an ECG's heart rate from its trace's beats).
 *
 * The building and filtering live in the wearables domain (`state/wearables/summaries.ts`); these
 * routes parse, call `summaryAnswer` (the answer, kept between reads while it holds) and present.
 *
 * LIMITATIONS
 * - Sleep cycles come from the providers that record stages (hypnogram); deep, light, REM and
 *   awake runs only (no `-1` or `5`).
 * - Meals: `micros` is null; foods carry energy, carbs, protein and total fat only.
 * - Profile and devices are in profile.ts.
 * - `/raw` variants wrap each summary in its raw record; `data` is the summary's values in the
 *   provider's key style (fixtures/wearables/raw.ts), not the provider's exact schema.
 * - `sleep_stream` is null (deprecated in the reference); `skin_temperature` and `hr_dip` are null.
 * - One source (device) per provider; `source.device_id` and `app_id` are null, except that ECGs
 *   carry their device as a stable `device_id` (spec 2.3).
 */

import { z } from 'zod';
import { json } from '../../engine/http-types.js';
import { defineRoute, reply, type Route } from '../../engine/route.js';
import { isoDate, uuid } from '../../engine/schemas.js';
import { summaryAnswer, type SummaryName } from '../../state/wearables/summaries.js';
import { rangeQuery } from '../../state/wearables/wearable-data.js';
import {
  ActivitySummary,
  BodySummary,
  ElectrocardiogramSummary,
  MealSummary,
  MenstrualCycle,
  RawSummary,
  RawWorkoutSummary,
  SleepCycle,
  SleepSummary,
  WorkoutSummary,
  listOf,
  res,
} from '../../wire/schemas.js';
import { lazySchema } from '../../engine/lazy-schema.js';

const params = lazySchema(() => z.object({ user_id: uuid() }));

const RESPONSES = { 404: 'Unknown user', 422: 'Bad dates, end before start, unknown provider' };

/** The usual date-or-datetime range query (`rangeQuery`), as the domain's bounds. */
const rangeBounds = (q: z.output<typeof rangeQuery>) => ({ provider: q.provider, start: q.start_date, end: q.end_date });

/** Date-only bounds (the electrocardiogram and sleep cycle summaries), as an instant range. */
const dateQuery = lazySchema(() => z.object({ start_date: isoDate(), end_date: isoDate().nullish(), provider: z.string().default('') }));
const dateBounds = (q: z.output<typeof dateQuery>) => ({
  provider: q.provider,
  start: Date.parse(`${q.start_date}T00:00:00Z`),
  end: q.end_date ? Date.parse(`${q.end_date}T23:59:59.999Z`) : null,
});

/** The wire schema of each summary resource's items. */
const ITEM: Record<string, z.ZodType> = { activity: ActivitySummary, sleep: SleepSummary, body: BodySummary, workouts: WorkoutSummary };

/** `GET /v2/summary/<resource>/:user_id` and its `/raw` variant over the usual date-or-datetime range query. */
function summaryRoutePair(resource: SummaryName, summary: string): Route[] {
  const item = ITEM[resource];
  if (!item) throw new Error(`No wire schema for the ${resource} summary`);
  const rawName = resource === 'workouts' ? 'Workout' : `${resource[0]?.toUpperCase()}${resource.slice(1)}`;
  return [false, true].map((raw) =>
    defineRoute({
      id: raw ? `summary.${resource}.raw` : `summary.${resource}`,
      method: 'GET',
      path: raw ? `/v2/summary/${resource}/:user_id/raw` : `/v2/summary/${resource}/:user_id`,
      auth: 'team',
      summary: raw ? `The provider-shaped records behind the ${resource} summaries (Raw${rawName}Response).` : summary,
      request: { params, query: rangeQuery },
      responses: {
        200: res(
          lazySchema(() => listOf(resource, raw ? (resource === 'workouts' ? RawWorkoutSummary : RawSummary) : item)),
          `{${resource}: [...]}`,
        ),
        ...RESPONSES,
      },
      // The answer's key is the route's resource (one definition for four resources and their raw
      // variants), which the compiler cannot follow: unchecked, the wire test checks it.
      handle: (ctx, { params: p, query }) => json(summaryAnswer(ctx, p.user_id, resource, { ...rangeBounds(query), raw }, resource)),
    }),
  );
}

export const summaryRoutes: Route[] = [
  ...summaryRoutePair('activity', 'Daily activity summaries (ClientActivityResponse).'),
  ...summaryRoutePair('sleep', 'Sleep summaries (ClientSleepResponse), by the date the sleep ended on.'),
  ...summaryRoutePair('body', 'Body summaries (ClientBodyResponse): one per weigh-in day.'),
  ...summaryRoutePair('workouts', 'Workout summaries (ClientWorkoutResponse); streams via /v2/timeseries/workouts/:id/stream.'),

  defineRoute({
    id: 'summary.meal',
    method: 'GET',
    path: '/v2/summary/meal/:user_id',
    auth: 'team',
    summary: 'Meals with energy and macros (ClientFacingMealResponse) from the nutrition apps that log them.',
    request: { params, query: rangeQuery },
    responses: {
      200: res(
        lazySchema(() => listOf('meals', MealSummary)),
        '{meals: [...]}',
      ),
      ...RESPONSES,
    },
    handle: (ctx, { params: p, query }) => reply(200, summaryAnswer(ctx, p.user_id, 'meal', rangeBounds(query), 'meals')),
  }),

  defineRoute({
    id: 'summary.menstrual_cycle',
    method: 'GET',
    path: '/v2/summary/menstrual_cycle/:user_id',
    auth: 'team',
    summary: 'Menstrual cycles (MenstrualCycleResponse) by period start: flow, ovulation tests, basal body temperature.',
    request: { params, query: rangeQuery },
    responses: {
      200: res(
        lazySchema(() => listOf('menstrual_cycle', MenstrualCycle)),
        '{menstrual_cycle: [...]}',
      ),
      ...RESPONSES,
    },
    handle: (ctx, { params: p, query }) =>
      reply(200, summaryAnswer(ctx, p.user_id, 'menstrual_cycle', rangeBounds(query), 'menstrual_cycle')),
  }),

  // Date-only bounds, like the electrocardiogram summaries.
  defineRoute({
    id: 'summary.sleep_cycle',
    method: 'GET',
    path: '/v2/summary/sleep_cycle/:user_id',
    auth: 'team',
    summary: "Sleep cycles (ClientSleepCycleResponse): each night's stage runs, from the providers that record stages.",
    request: { params, query: dateQuery },
    responses: {
      200: res(
        lazySchema(() => listOf('sleep_cycle', SleepCycle)),
        '{sleep_cycle: [...]}',
      ),
      ...RESPONSES,
    },
    handle: (ctx, { params: p, query }) => reply(200, summaryAnswer(ctx, p.user_id, 'sleep_cycle', dateBounds(query), 'sleep_cycle')),
  }),

  // Date-only bounds (its own query), unlike the other summaries.
  defineRoute({
    id: 'summary.electrocardiogram',
    method: 'GET',
    path: '/v2/summary/electrocardiogram/:user_id',
    auth: 'team',
    summary: 'Electrocardiogram summaries (spec 4.2); voltages via the electrocardiogram_voltage timeseries.',
    request: { params, query: dateQuery },
    responses: {
      200: res(
        lazySchema(() => listOf('electrocardiogram', ElectrocardiogramSummary)),
        '{electrocardiogram: [...]}',
      ),
      ...RESPONSES,
    },
    handle: (ctx, { params: p, query }) =>
      reply(200, summaryAnswer(ctx, p.user_id, 'electrocardiogram', dateBounds(query), 'electrocardiogram')),
  }),
];
