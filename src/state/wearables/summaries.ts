/**
 * Summary building (spec 2.3, 4.2; api-facts A.2, D): what one data source gives for one local
 * day of each summary resource, the one place that turns the fixture models into summaries for
 * the API (`/v2/summary/*`); the feed and the aggregate rows build on the same fixture functions.
 * Reading summaries changes no state: the sleep and workout ids handed out are found again from
 * the data (streams.ts), not remembered on read.
 *
 * Summaries are filtered by their local calendar date against the dates of `start_date` and
 * `end_date` (inclusive; `end_date` defaults to today), and by `provider`. Data exists only
 * inside the user's connection spans: history appears once the historical pull succeeds, new
 * data as the clock moves; an errored connection stops delivering; ingestion bounds clip.
 */
import { ecgSessionOn, ecgSummary } from '../../fixtures/wearables/ecg.js';
import { cycleStartingOn, menstrualCycle } from '../../fixtures/wearables/menstrual.js';
import { mealsOn } from '../../fixtures/wearables/meals.js';
import { rawRecord } from '../../fixtures/wearables/raw.js';
import type { Range } from '../../fixtures/wearables/summaries.js';
import { bodySummary } from '../../fixtures/wearables/summaries.js';
import { sourceNight } from '../../fixtures/wearables/timeseries-model.js';
import type { SourceCtx } from '../../fixtures/wearables/timeseries-table.js';
import { DAY, localDay, localMidnight } from '../../fixtures/wearables/wearable-time.js';
import type {
  ActivitySummary,
  BodySummary,
  ElectrocardiogramSummary,
  MealSummary,
  MenstrualCycle,
  SleepCycle,
  SleepSummary,
  WorkoutSummary,
} from '../../wire/types.js';
import type { Domain } from '../domain-context.js';
import { liveUser } from '../users/user-ops.js';
import { checkProvider, dataSources, queryWindow, windowDays, type DataSource } from './wearable-data.js';
import { hasDemoConnection } from './wearable-link.js';
import { keptAnswer } from './read-answers.js';
import { readActivitySummary, readMealSummary, readSleepCycle, readSleepSummary, readWorkoutSummary } from './read-views.js';

/** The answer of each summary kind (`/v2/summary/<name>/:user_id`), as the wire declares it. */
interface SummaryAnswers {
  activity: ActivitySummary;
  sleep: SleepSummary;
  body: BodySummary;
  workouts: WorkoutSummary;
  meal: MealSummary;
  menstrual_cycle: MenstrualCycle;
  sleep_cycle: SleepCycle;
  electrocardiogram: ElectrocardiogramSummary;
}

export type SummaryName = keyof SummaryAnswers;

/** One summary of a source, with its sort key among the other sources' summaries. */
interface Item<B = Record<string, unknown>> {
  sort: string;
  /** The summary's index instant (what the aggregate queries window on). */
  at: number;
  body: B;
}

/** What one source gives for one local day. */
type Build<B> = (s: DataSource, day: number, now: number) => Item<B>[];

/** A summary as its raw record (RawActivity, RawSleep, RawBody, RawWorkout). */
type Raw = (src: SourceCtx, summary: Record<string, unknown>) => Record<string, unknown>;

const inRanges = (ranges: readonly Range[], t: number) => ranges.some(([a, b]) => t >= a && t <= b);

const item = <B>(sort: string, at: number, body: B | null): Item<B>[] => (body ? [{ sort, at, body }] : []);

const rawAt =
  (field: string): Raw =>
  (src, summary) =>
    rawRecord(src, summary, summary[field] as string);

interface SummaryKind<B> {
  /** The data resource whose sources and ranges the summaries come from. */
  resource: string;
  build: Build<B>;
  raw?: Raw;
  /** Whether a kept source's summaries are kept between reads (read-views.ts; a revised one is built anew): their raw records are kept with them. */
  kept?: boolean;
}

/** The sleep of a source's night ending on `day`, when it is visible at `now`. */
export function visibleNight(s: DataSource, day: number, now: number) {
  const night = sourceNight(s.src, day);
  return night && night.end <= now && inRanges(s.ranges, night.end) ? night : undefined;
}

/** The workouts of a source on `day` that are visible at `now`. */
export function visibleWorkouts(s: DataSource, day: number, now: number) {
  return s.src.subject.workoutsOn(day).filter((w) => w.end <= now && inRanges(s.ranges, w.end));
}

/** The summary kinds, by the name of their route (`/v2/summary/<name>/:user_id`). */
const KINDS: { [N in SummaryName]: SummaryKind<SummaryAnswers[N]> } = {
  activity: {
    resource: 'activity',
    raw: rawAt('date'),
    kept: true,
    build(s, day, now) {
      const a = readActivitySummary(s.src, day, s.ranges, now);
      return item(`${a?.calendar_date as string}|${s.order}`, localMidnight(s.src.subject.zone, day), a);
    },
  },
  sleep: {
    resource: 'sleep',
    raw: rawAt('bedtime_start'),
    kept: true,
    build(s, day, now) {
      const night = visibleNight(s, day, now);
      return night ? item(`${night.day}|${s.order}`, night.end, readSleepSummary(s.src, night, now)) : []; // by night, then source priority
    },
  },
  body: {
    resource: 'body',
    raw: rawAt('created_at'),
    build(s, day, now) {
      const b = bodySummary(s.src, day, s.ranges, now);
      return item(`${b?.created_at as string}|${s.order}`, b ? Date.parse(b.created_at as string) : 0, b);
    },
  },
  workouts: {
    resource: 'workouts',
    kept: true,
    raw(src, w) {
      const sport = w.sport as { id: number };
      return rawRecord(src, w, w.time_start as string, { sport_id: sport.id, sport });
    },
    build: (s, day, now) =>
      visibleWorkouts(s, day, now).map((w) => ({ sort: `${w.start}|${s.order}`, at: w.start, body: readWorkoutSummary(s.src, w, now) })),
  },
  meal: {
    resource: 'meal',
    build: (s, day, now) =>
      mealsOn(s.src, day).flatMap((m) =>
        m.at > now || !inRanges(s.ranges, m.at) ? [] : item(`${m.at}|${s.order}`, m.at, readMealSummary(s.src, m)),
      ),
  },
  menstrual_cycle: {
    resource: 'menstrual_cycle',
    build(s, day, now) {
      const cycle = cycleStartingOn(s.src, day);
      const at = cycle ? localMidnight(s.src.subject.zone, day) : 0;
      if (!cycle || at > now || !inRanges(s.ranges, at)) return [];
      return item(`${at}|${s.order}`, at, menstrualCycle(s.src, cycle, localDay(s.src.subject.zone, now)));
    },
  },
  sleep_cycle: {
    resource: 'sleep',
    build(s, day, now) {
      if (!s.link.provider.resources.includes('hypnogram')) return [];
      const night = visibleNight(s, day, now);
      return night ? item(`${night.day}|${s.order}`, night.end, readSleepCycle(s.src, night)) : [];
    },
  },
  electrocardiogram: {
    resource: 'electrocardiogram',
    build(s, day, now) {
      const session = ecgSessionOn(s.src, day);
      if (!session || session.end > now || !inRanges(s.ranges, session.end)) return [];
      return item(`${session.start}|${s.order}`, session.start, ecgSummary(s.src, session));
    },
  },
};

/**
 * The summaries of one kind a source gives for one local day, visible at `now`, each with its
 * index instant: what the summaries API lists and the aggregate rows are made of.
 */
export function summariesOn(
  name: SummaryName,
  s: DataSource,
  day: number,
  now: number,
): Array<{ at: number; body: Record<string, unknown> }> {
  return KINDS[name].build(s, day, now);
}

/** Local days a source's ranges touch, within the query's days. */
function days(src: DataSource, lo: number, hi: number): [number, number] {
  const zone = src.src.subject.zone;
  const first = src.ranges[0] as Range;
  const last = src.ranges[src.ranges.length - 1] as Range;
  return [Math.max(lo, localDay(zone, first[0])), Math.min(hi, localDay(zone, last[1]) + 1)];
}

export interface SummaryQuery {
  provider: string;
  /** Epoch ms. */
  start: number;
  /** Epoch ms; absent: today. */
  end: number | null | undefined;
  /** Each summary as the raw record it was derived from. */
  raw?: boolean;
}

/** A summary counts for this many timeseries samples among a user's kept answers (read-answers.ts). */
const SUMMARY_SAMPLES = 10;

/**
 * `{<key>: [...]}`, the answer of a summaries route: a live user's summaries of one kind whose
 * dates fall in `[start, end]`, oldest first (sources ordered by the team's source priorities; the
 * 404 of an unknown user, the 422 of an unknown provider), kept for a kept user while what
 * it is built from holds (read-answers.ts): the sources' providers, orders and visible ranges
 * from two days before the query's first date to two days after its last (a local day's items,
 * nights ending on it, its workouts and their revisions 3 to 12 hours after them all fall in
 * there), the team's revision rate, and the instant unless that span is settled. A menstrual
 * cycle's answer depends on today's date: kept for the instant only.
 */
export function summaryAnswer<N extends SummaryName, K extends string>(
  dom: Domain,
  userId: string,
  name: N,
  q: SummaryQuery & { raw?: false },
  key: K,
): { [P in K]: Array<SummaryAnswers[N]> };
export function summaryAnswer<N extends SummaryName, K extends string>(
  dom: Domain,
  userId: string,
  name: N,
  q: SummaryQuery,
  key: K,
): { [P in K]: Array<SummaryAnswers[N] | Record<string, unknown>> };
export function summaryAnswer<N extends SummaryName, K extends string>(
  dom: Domain,
  userId: string,
  name: N,
  q: SummaryQuery,
  key: K,
): { [P in K]: Array<SummaryAnswers[N] | Record<string, unknown>> } {
  checkProvider(q.provider);
  const user = liveUser(dom, userId);
  const now = dom.world.clock.now();
  const [dayLo, dayHi] = windowDays(queryWindow(q.start, q.end, now));
  const wrap = (list: Array<SummaryAnswers[N] | Record<string, unknown>>) => ({ [key]: list }) as { [P in K]: typeof list };
  // Demo data is summaries only (api-facts H): a demo user's raw records are an empty list.
  if (q.raw && hasDemoConnection(dom, user.user_id)) return wrap([]);
  const sources = dataSources(dom.world, user, KINDS[name].resource, q.provider, now);
  const rate = sources[0]?.src.revisionRate ?? 0;
  return keptAnswer(
    sources,
    `summary|${name}|${q.raw ? 'raw' : ''}|${q.provider}|${dayLo}|${dayHi}|${rate}|${key}`,
    { from: (dayLo - 2) * DAY, to: (dayHi + 3) * DAY - 1, now },
    () => {
      const list = summaryList(sources, name, q.raw === true, dayLo, dayHi, now);
      return { view: wrap(list), samples: list.length * SUMMARY_SAMPLES };
    },
    name !== 'menstrual_cycle',
  );
}

/** The summaries of one kind of the sources on the dates `[dayLo, dayHi]`, oldest first, raw or not. */
function summaryList<N extends SummaryName>(
  sources: readonly DataSource[],
  name: N,
  asRaw: boolean,
  dayLo: number,
  dayHi: number,
  now: number,
): Array<SummaryAnswers[N] | Record<string, unknown>> {
  const kind: SummaryKind<SummaryAnswers[N]> = KINDS[name];
  const items: Array<Item<SummaryAnswers[N]> & { src: SourceCtx }> = [];
  for (const s of sources) {
    const [lo, hi] = days(s, dayLo, dayHi);
    for (let day = lo; day <= hi; day++) for (const i of kind.build(s, day, now)) items.push({ ...i, src: s.src });
  }
  items.sort((a, b) => (a.sort < b.sort ? -1 : a.sort > b.sort ? 1 : 0));
  const raw = asRaw ? kind.raw : undefined;
  if (!raw) return items.map((i) => i.body);
  return items.map((i) =>
    kind.kept && i.src.memo ? rawOf(raw, i.src, i.body as Record<string, unknown>) : raw(i.src, i.body as Record<string, unknown>),
  );
}

/**
 * The raw records of summaries kept between reads (read-views.ts), by the summary (a pure
 * function of the summary and its source): each is wrapped once (issue 45). Summaries are never
 * changed once built (a revision builds a new one), and each is of one kind and one source.
 */
const raws = new WeakMap<object, { src: SourceCtx; record: Record<string, unknown> }>();

function rawOf(raw: Raw, src: SourceCtx, summary: Record<string, unknown>): Record<string, unknown> {
  const kept = raws.get(summary);
  if (kept !== undefined && kept.src === src) return kept.record;
  const record = raw(src, summary);
  raws.set(summary, { src, record });
  return record;
}
