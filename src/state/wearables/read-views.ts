/**
 * The summaries of a kept read source (read-sources.ts) memoised per night or workout (issue 45):
 * a workout's summary as first sent (its stream read whole: elevation, speed, power, polyline),
 * a night's sleep summary (its 5-minute heart rate, HRV and breathing) in each of its two states
 * (as first sent, revised), a night's sleep cycle, a meal. Each is a pure function of the source and the
 * night or workout; what `now` changes (whether a revision is visible) is part of the key or
 * applied on every read (a workout's revision). Views are data shared between answers: nobody
 * changes a summary once built (revisions and raw records build new objects).
 *
 * A workout's stream (a pure function of the source and the workout) is kept sealed: read again,
 * it is neither built nor rendered again (issue 45).
 *
 * A day's activity summary as first sent is kept with the part of the day it was built over and
 * the instant it was built at: read again at that instant, or at any instant once the day is
 * settled (SETTLED after its end, when every bucket, sample and workout of the day has ended: they
 * end within hours of it), over the same part of the day, it is the same summary (issue 45); a
 * later sync's revision is applied on every read.
 *
 * A fresh source (the feed's, a test's) has no memo and builds every time; a kept source's views
 * go with it (its keeper drops it or rebuilds it), at most VIEWS_PER_SOURCE of each kind.
 */
import { sleepRevisedAt } from '../../fixtures/wearables/revisions.js';
import { sleepCycle } from '../../fixtures/wearables/sleep-cycle.js';
import { type Range, activityAsSent, clip, sleepSummary } from '../../fixtures/wearables/summaries.js';
import { DAY, localMidnight } from '../../fixtures/wearables/wearable-time.js';
import { reviseActivity, reviseWorkout } from '../../fixtures/wearables/summary-revisions.js';
import type { SourceCtx } from '../../fixtures/wearables/timeseries-table.js';
import type { Night, PlannedWorkout } from '../../fixtures/wearables/wearable-profile.js';
import { workoutSummary } from '../../fixtures/wearables/workouts.js';
import { type WorkoutStream, workoutStream } from '../../fixtures/wearables/workout-stream.js';
import { sealView } from '../../engine/render-cache.js';
import { mealSummary } from '../../fixtures/wearables/meals.js';
import type { ActivitySummary, MealSummary, SleepCycle, SleepSummary, WorkoutSummary } from '../../wire/types.js';

/** Views of one kind a source keeps (a year of nights or workouts); past it, the kind starts over. */
const VIEWS_PER_SOURCE = 400;

/** How long after a day's end its activity summary no longer depends on the clock (given the same part of the day). */
export const SETTLED = 2 * DAY;

/** A day's activity summary as first sent, with what it was built from. */
interface KeptActivity {
  /** The visible part of the day it was built over. */
  parts: Range[];
  /** The instant it was built at. */
  at: number;
  /** Whether the day was settled then. */
  settled: boolean;
  view: ActivitySummary | null;
}

interface Views {
  /** Workout summaries as first sent, by `day * 8 + index`. */
  workouts: Map<number, WorkoutSummary>;
  /** Sleep summaries, by `day * 2 + (revised ? 1 : 0)`. */
  sleeps: Map<number, SleepSummary>;
  /** Sleep cycles, by day. */
  cycles: Map<number, SleepCycle>;
  /** Meal summaries, by `day * 3 + index`. */
  meals: Map<number, MealSummary>;
  /** Activity summaries as first sent, by day. */
  activities: Map<number, KeptActivity>;
  /** Workout streams (sealed: rendered once), by `day * 8 + index`. */
  streams: Map<number, WorkoutStream>;
}

/** Views a kept workout stream counts for (a stream is 5-40 KB of JSON, a summary 1-3 KB). */
const STREAM_VIEWS = 10;

const viewsOf = new WeakMap<SourceCtx, Views>();

function views(src: SourceCtx): Views | null {
  if (!src.memo) return null;
  let v = viewsOf.get(src);
  if (!v) {
    v = { workouts: new Map(), sleeps: new Map(), cycles: new Map(), meals: new Map(), activities: new Map(), streams: new Map() };
    viewsOf.set(src, v);
  }
  return v;
}

function kept<T>(map: Map<number, T>, key: number, build: () => T): T {
  let view = map.get(key);
  if (view === undefined) {
    if (map.size >= VIEWS_PER_SOURCE) map.clear();
    view = build();
    map.set(key, view);
  }
  return view;
}

/** How many views a source keeps (its keeper counts them against its bound). */
export function viewCount(src: SourceCtx): number {
  const v = viewsOf.get(src);
  return v ? v.workouts.size + v.sleeps.size + v.cycles.size + v.meals.size + v.activities.size + v.streams.size * STREAM_VIEWS : 0;
}

/** `workoutSummary(src, w, now)`, its stream read once per kept source. */
export function readWorkoutSummary(src: SourceCtx, w: PlannedWorkout, now: number): WorkoutSummary {
  const v = views(src);
  if (!v) return workoutSummary(src, w, now);
  const first = kept(v.workouts, w.day * 8 + w.index, () => workoutSummary(src, w));
  return src.revisionRate > 0 ? reviseWorkout(src, w, first, now) : first;
}

/** `sleepSummary(src, night, now)`, built once per kept source and state of the night. */
export function readSleepSummary(src: SourceCtx, night: Night, now: number): SleepSummary {
  const v = views(src);
  if (!v) return sleepSummary(src, night, now);
  const revised = sleepRevisedAt(src, night.day, night.end);
  const state = revised !== null && revised <= now ? 1 : 0;
  return kept(v.sleeps, night.day * 2 + state, () => sleepSummary(src, night, now));
}

/** `sleepCycle(src, night)`, built once per kept source. */
export function readSleepCycle(src: SourceCtx, night: Night): SleepCycle {
  const v = views(src);
  return v ? kept(v.cycles, night.day, () => sleepCycle(src, night)) : sleepCycle(src, night);
}

/** `mealSummary(src, meal)`, built once per kept source (a meal is a pure function of the source, its day and index). */
export function readMealSummary(src: SourceCtx, meal: Parameters<typeof mealSummary>[1]): MealSummary {
  const v = views(src);
  return v ? kept(v.meals, meal.day * 3 + meal.index, () => mealSummary(src, meal)) : mealSummary(src, meal);
}

function sameParts(a: readonly Range[], b: readonly Range[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as Range;
    const y = b[i] as Range;
    if (x[0] !== y[0] || x[1] !== y[1]) return false;
  }
  return true;
}

/** `activitySummary(src, day, ranges, now)`: as first sent, built once per kept source, part of the day and instant (any instant once settled). */
export function readActivitySummary(src: SourceCtx, day: number, ranges: readonly Range[], now: number): ActivitySummary | null {
  const v = views(src);
  let first: ActivitySummary | null;
  if (!v) first = activityAsSent(src, day, ranges, now);
  else {
    const zone = src.subject.zone;
    const dayEnd = localMidnight(zone, day + 1);
    const parts = clip(ranges, localMidnight(zone, day), Math.min(dayEnd - 1, now));
    const settled = now >= dayEnd + SETTLED;
    const kept = v.activities.get(day);
    if (kept !== undefined && (kept.at === now || (kept.settled && settled)) && sameParts(kept.parts, parts)) first = kept.view;
    else {
      first = activityAsSent(src, day, parts, now);
      if (kept === undefined && v.activities.size >= VIEWS_PER_SOURCE) v.activities.clear();
      v.activities.set(day, { parts, at: now, settled, view: first });
    }
  }
  return first && src.revisionRate > 0 ? reviseActivity(src, day, first, now) : first;
}

/** `workoutStream(src, w)`, built once per kept source and sealed (rendered once). */
export function readWorkoutStream(src: SourceCtx, w: PlannedWorkout): WorkoutStream {
  const v = views(src);
  return v ? kept(v.streams, w.day * 8 + w.index, () => sealView(workoutStream(src, w))) : workoutStream(src, w);
}
