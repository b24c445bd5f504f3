/**
 * The rows a query reads: the user's summaries (or timeseries samples) of the query's table
 * whose index falls in the window, generated on read from the same models the summary and
 * timeseries endpoints answer (nothing stored), per provider.
 *
 * Index of a row (what the window, `date_trunc` and `date_part` look at): sleep = the session's
 * end; derived_readiness and activity = the local midnight of their date; workout = session
 * start; body = measurement time; meal = meal time; menstrual_cycle = the local midnight of
 * the period start; timeseries = the sample's timestamp (interval samples: their start);
 * profile = one row (the current profile), whatever the window.
 */

import type { ProviderInfo } from '../../fixtures/wearables/providers.js';
import { activitySummary, clip, type Range } from '../../fixtures/wearables/summaries.js';
import { readSleepSummary, readWorkoutSummary } from '../wearables/read-views.js';
import { renderSample, rowByResource, samplesOf, type SourceCtx } from '../../fixtures/wearables/timeseries-table.js';
import type { Night } from '../../fixtures/wearables/wearable-profile.js';
import { localDay, localMidnight, iso, tzOffsetSeconds } from '../../fixtures/wearables/wearable-time.js';
import type { World } from '../../engine/world.js';
import type { User } from '../users/users.js';
import { summariesOn, visibleNight, visibleWorkouts } from '../wearables/summaries.js';
import { dataSources, type DataSource } from '../wearables/wearable-data.js';
import { userProfile } from '../wearables/profile.js';
import type { Fields } from './columns.js';
import type { Plan } from './plan.js';

export interface Row {
  at: number;
  provider: ProviderInfo;
  fields: Fields;
}

function sourceFields(p: ProviderInfo, extra: { workout?: string | null; sport?: string | null } = {}): Fields {
  return {
    source_provider: p.slug,
    source_type: p.device,
    source_app_id: null,
    source_device_id: null,
    source_workout_id: extra.workout ?? null,
    source_sport: extra.sport ?? null,
  };
}

/** Local days of a source's visible data within `[from, to)`. */
function daysOf(s: DataSource, from: number, to: number, pad = 0): number[] {
  const zone = s.src.subject.zone;
  const parts = clip(s.ranges, from - pad, to - 1);
  const first = parts[0];
  const last = parts[parts.length - 1];
  if (!first || !last) return [];
  const out: number[] = [];
  for (let d = localDay(zone, first[0]); d <= localDay(zone, last[1]); d++) out.push(d);
  return out;
}

/** Awake runs between falling asleep and waking up. */
function awakenings(night: Night): number {
  const st = night.stages;
  let first = -1;
  let last = -1;
  for (let i = 0; i < st.length; i++) {
    if (st[i] !== 4) {
      if (first < 0) first = i;
      last = i;
    }
  }
  let n = 0;
  for (let i = first + 1; i <= last; i++) if (st[i] === 4 && st[i - 1] !== 4) n++;
  return n;
}

/** Chronotype from the sleep midpoint (local time): before 03:00 early, after 04:30 late. */
function chronotype(zone: string, night: Night): string {
  const mid = (night.start + night.end) / 2;
  const local = ((mid + tzOffsetSeconds(zone, mid) * 1000) / 60_000 + 720) % 1440; // minutes since noon
  const minutes = local - 720;
  return minutes < 180 ? 'early' : minutes > 270 ? 'late' : 'intermediate';
}

const zoneOfScore = (score: number) => (score >= 67 ? 'green' : score >= 34 ? 'yellow' : 'red');

function sleepFields(src: SourceCtx, night: Night, now: number, withActivity: boolean, ranges: readonly Range[]): Fields {
  const zone = src.subject.zone;
  const s = readSleepSummary(src, night, now);
  const score = s.score as number;
  const hrv = (s.average_hrv as number | null) ?? src.subject.hrv;
  const recovery =
    (s.recovery_readiness_score as number | null) ?? Math.round(Math.max(1, Math.min(99, score * 0.6 + (hrv / src.subject.hrv) * 35)));
  const out: Fields = {
    ...s,
    _source: sourceFields(src.provider),
    _zone: zone,
    _hr_max: null,
    _chronotype: chronotype(zone, night),
    _asleep_at: iso(night.start + night.latencyMin * 60_000),
    _awakenings: awakenings(night),
    _recovery_score: recovery,
    _recovery_zone: zoneOfScore(recovery),
  };
  if (withActivity) {
    // Strain of the day before the night (0-21, Whoop-like), stress from the night's heart rate.
    const act = activitySummary(src, night.day - 1, ranges, now);
    const active = (act?.calories_active as number | undefined) ?? 0;
    const strain = Math.round(Math.min(21, (21 * active) / (active + 600)) * 10) / 10;
    out._strain_score = act ? strain : null;
    out._strain_zone = act ? (strain >= 14 ? 'high' : strain >= 8 ? 'moderate' : 'light') : null;
    out._stress_score = Math.round(
      Math.max(0, Math.min(100, ((s.hr_average as number) - src.subject.restingHr) * 6 + (100 - recovery) * 0.4)),
    );
  }
  return out;
}

type Gen = (world: World, user: User, s: DataSource, from: number, to: number, now: number) => Row[];

const GENERATORS: Record<string, Gen> = {
  sleep: (_w, _u, s, from, to, now) => sleepRows(s, from, to, now, false),
  derived_readiness: (_w, _u, s, from, to, now) => sleepRows(s, from, to, now, true),
  activity(_w, _u, s, from, to, now) {
    const out: Row[] = [];
    for (const day of daysOf(s, from, to)) {
      const [summary] = summariesOn('activity', s, day, now);
      if (!summary || summary.at < from || summary.at >= to) continue;
      const { at, body: a } = summary;
      const [low, medium, high] = [a.low as number, a.medium as number, a.high as number].map((m) => m * 60) as [number, number, number];
      out.push({
        at,
        provider: s.link.provider,
        fields: {
          ...a,
          _source: sourceFields(s.link.provider),
          _low_second: low,
          _medium_second: medium,
          _high_second: high,
          _active_second: low + medium + high,
          _sedentary_second: Math.max(0, 86_400 - low - medium - high),
        },
      });
    }
    return out;
  },
  workout(_w, _u, s, from, to, now) {
    const out: Row[] = [];
    for (const day of daysOf(s, from, to, 86_400_000)) {
      for (const w of visibleWorkouts(s, day, now)) {
        if (w.start < from || w.start >= to) continue;
        const summary = readWorkoutSummary(s.src, w, now);
        out.push({
          at: w.start,
          provider: s.link.provider,
          fields: {
            ...summary,
            _source: sourceFields(s.link.provider, { workout: summary.id as string, sport: w.sport.slug }),
            _zone: s.src.subject.zone,
            _hr_min: null,
            _power_source: null,
          },
        });
      }
    }
    return out;
  },
  body(_w, _u, s, from, to, now) {
    const out: Row[] = [];
    for (const day of daysOf(s, from, to)) {
      for (const { at, body } of summariesOn('body', s, day, now)) {
        if (at < from || at >= to) continue;
        out.push({ at, provider: s.link.provider, fields: { ...body, _source: sourceFields(s.link.provider), _zone: s.src.subject.zone } });
      }
    }
    return out;
  },
  meal(_w, _u, s, from, to, now) {
    const out: Row[] = [];
    for (const day of daysOf(s, from, to)) {
      for (const { at, body } of summariesOn('meal', s, day, now)) {
        if (at < from || at >= to) continue;
        out.push({ at, provider: s.link.provider, fields: { ...body, _source: sourceFields(s.link.provider) } });
      }
    }
    return out;
  },
  menstrual_cycle(_w, _u, s, from, to, now) {
    const out: Row[] = [];
    for (const day of daysOf(s, from, to)) {
      for (const { at, body } of summariesOn('menstrual_cycle', s, day, now)) {
        if (at < from || at >= to) continue;
        out.push({ at, provider: s.link.provider, fields: { ...body, _source: sourceFields(s.link.provider) } });
      }
    }
    return out;
  },
  profile(world, user, s) {
    const p = userProfile(world, user, s.link.provider.slug);
    return [
      { at: Date.parse(p.created_at as string), provider: s.link.provider, fields: { ...p, _source: sourceFields(s.link.provider) } },
    ];
  },
};

function sleepRows(s: DataSource, from: number, to: number, now: number, withActivity: boolean): Row[] {
  const out: Row[] = [];
  const zone = s.src.subject.zone;
  for (const day of daysOf(s, from, to, 86_400_000)) {
    const night = visibleNight(s, day, now);
    if (!night) continue;
    const at = withActivity ? localMidnight(zone, night.day) : night.end;
    if (at < from || at >= to) continue;
    out.push({ at, provider: s.link.provider, fields: sleepFields(s.src, night, now, withActivity, s.ranges) });
  }
  return out;
}

function timeseriesRows(resource: string, s: DataSource, from: number, to: number, now: number): Row[] {
  const row = rowByResource(resource);
  if (!row) return [];
  const out: Row[] = [];
  for (const [a, b] of clip(s.ranges, from, to - 1)) {
    for (const sample of samplesOf(row, s.src, a, b, now)) {
      const body = renderSample(row, s.src, sample);
      const duration = sample.start !== undefined && sample.end !== undefined ? (sample.end - sample.start) / 1000 : 0;
      out.push({
        at: sample.timestamp,
        provider: s.link.provider,
        fields: { ...body, _duration: duration, _source: sourceFields(s.link.provider) },
      });
    }
  }
  return out;
}

/** What readRows reads: a user's rows of a plan's table in `[from, to)` as of `now`. */
export interface RowsRead {
  world: World;
  user: User;
  plan: Plan;
  from: number;
  to: number;
  now: number;
  /** Provider slugs, preferred first. */
  priority: readonly string[];
  allSources: boolean;
}

/**
 * The rows of the plan's table in `[from, to)` per provider. Without `allSources`, one provider
 * is read: the first of `priority` with rows, else the provider with rows that comes first in
 * the catalogue.
 */
export function readRows({ world, user, plan, from, to, now, priority, allSources }: RowsRead): Row[] {
  const byProvider: Array<{ p: ProviderInfo; rows: Row[] }> = [];
  for (const s of dataSources(world, user, plan.dependency, '', now)) {
    const rows =
      plan.table === 'timeseries'
        ? timeseriesRows(plan.resource as string, s, from, to, now)
        : (GENERATORS[plan.table] as Gen)(world, user, s, from, to, now);
    if (rows.length) byProvider.push({ p: s.link.provider, rows });
  }
  byProvider.sort((a, b) => a.p.id - b.p.id);
  let chosen = byProvider;
  if (!allSources && byProvider.length > 1) {
    const rank = (slug: string) => {
      const i = priority.indexOf(slug);
      return i < 0 ? priority.length : i;
    };
    const best = [...byProvider].sort((a, b) => rank(a.p.slug) - rank(b.p.slug) || a.p.id - b.p.id)[0];
    chosen = best ? [best] : [];
  }
  const rows = chosen.flatMap((x) => x.rows);
  rows.sort((a, b) => a.at - b.at || a.provider.id - b.provider.id);
  return rows;
}
