import { expect, it } from 'vitest';
import { forAnyPerson } from '../support/person-property.js';
import { providerBySlug, type ProviderInfo } from '../../src/fixtures/wearables/providers.js';
import { activitySummary, sleepSummary } from '../../src/fixtures/wearables/summaries.js';
import { rowByResource, samplesOf, sourceCtx, type TimeseriesRow } from '../../src/fixtures/wearables/timeseries-table.js';
import { sourceNight } from '../../src/fixtures/wearables/timeseries-model.js';
import { Subject } from '../../src/fixtures/wearables/wearable-profile.js';
import { DAY, HOUR, localMidnight } from '../../src/fixtures/wearables/wearable-time.js';
import { workoutSummary } from '../../src/fixtures/wearables/workouts.js';

const NOW = Date.parse('2026-11-20T12:00:00Z');
const TS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/;

let checkedWorkouts = 0;
const row = (r: string): TimeseriesRow => rowByResource(r) as TimeseriesRow;

function checkPerson(seed: number, user: string, zone: string, birth: number | null, slug: string): void {
  const subject = new Subject(seed, user, zone, birth);
  const provider = providerBySlug(slug) as ProviderInfo;
  const src = sourceCtx(subject, provider);
  const has = (r: string) => provider.resources.includes(r);
  const today = Math.floor(NOW / DAY) - 1;
  for (let day = today - 30; day < today; day++) {
    const from = localMidnight(zone, day);
    const to = localMidnight(zone, day + 1) - 1;
    const night = sourceNight(src, day);
    if (night && has('sleep')) {
      const sleep = sleepSummary(src, night);
      expect(sleep.bedtime_start).toMatch(TS);
      expect(sleep.hr_lowest).toBeLessThanOrEqual(sleep.hr_resting as number);
      expect(sleep.hr_resting).toBeLessThanOrEqual(sleep.hr_average as number);
      if (has('hypnogram')) {
        const hyp = samplesOf(row('hypnogram'), src, night.start - HOUR, night.end + HOUR, NOW);
        const secs = [0, 0, 0, 0, 0];
        for (const s of hyp) {
          expect(s.start as number).toBeGreaterThanOrEqual(night.start);
          expect(s.end as number).toBeLessThanOrEqual(night.end);
          secs[s.value] = (secs[s.value] ?? 0) + ((s.end as number) - (s.start as number)) / 1000;
        }
        expect(secs.slice(1)).toEqual([sleep.deep, sleep.light, sleep.rem, sleep.awake]);
      }
      // Nothing a sleeper would not do: no steps, distance or active calories in the night.
      for (const r of ['steps', 'distance', 'calories_active'])
        for (const s of samplesOf(row(r), src, night.start, night.end, NOW))
          if ((s.start as number) >= night.start && (s.end as number) <= night.end) expect([r, s.value]).toEqual([r, 0]);
    }
    const activity = activitySummary(src, day, [[from, to]], NOW);
    const workouts = subject.workoutsOn(day);
    let prevEnd = Number.NEGATIVE_INFINITY;
    for (const w of workouts) {
      expect(w.start).toBeGreaterThanOrEqual(from);
      expect(w.end).toBeLessThanOrEqual(to);
      expect(w.start).toBeGreaterThan(prevEnd);
      prevEnd = w.end;
      for (const d of [day, day + 1]) {
        const n = subject.night(d);
        if (n) expect(w.end <= n.start || w.start >= n.end).toBe(true);
      }
      if (!has('workouts')) continue;
      const ws = workoutSummary(src, w);
      checkedWorkouts++;
      expect(ws.time_start).toMatch(TS);
      expect(ws.hr_zones).toHaveLength(6);
      expect((ws.hr_zones ?? []).reduce((a: number, b: number) => a + b, 0)).toBe(ws.moving_time);
      if (activity) {
        expect(activity.calories_active).toBeGreaterThanOrEqual(ws.calories as number);
        if (ws.distance !== null && activity.distance !== null) expect(activity.distance).toBeGreaterThanOrEqual(ws.distance);
        if (ws.steps !== null && activity.steps !== null) expect(activity.steps).toBeGreaterThanOrEqual(ws.steps);
        if (activity.heart_rate) expect(activity.heart_rate.max_bpm).toBeGreaterThanOrEqual(ws.max_hr as number);
      }
      if (has('heartrate')) {
        const hr = samplesOf(row('heartrate'), src, w.start, w.end - 1, NOW);
        if (hr.length >= 3) {
          const mean = hr.reduce((a, s) => a + s.value, 0) / hr.length;
          expect(Math.abs(mean - (ws.average_hr as number))).toBeLessThan(12);
        }
      }
    }
  }
}

it('the invariants of one body, one day hold for any seed, user and demo provider', () => {
  forAnyPerson(checkPerson, 24);
  expect(checkedWorkouts).toBeGreaterThan(50);
});

it('two providers of one person give close but not identical nights', () => {
  const subject = new Subject(7, 'u-1', 'Europe/Berlin', 1990);
  const oura = sourceCtx(subject, providerBySlug('oura') as ProviderInfo);
  const fitbit = sourceCtx(subject, providerBySlug('fitbit') as ProviderInfo);
  let differ = 0;
  for (let d = 20400; d < 20430; d++) {
    const a = sourceNight(oura, d);
    const b = sourceNight(fitbit, d);
    if (!a || !b) continue;
    expect(Math.abs(a.start - b.start)).toBeLessThanOrEqual(10 * 60_000);
    if (a.start !== b.start || a.end !== b.end) differ++;
  }
  expect(differ).toBeGreaterThan(10);
});
