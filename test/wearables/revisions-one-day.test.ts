import { expect, it } from 'vitest';
import { forAnyPerson } from '../support/person-property.js';
import { providerBySlug, type ProviderInfo } from '../../src/fixtures/wearables/providers.js';
import { activityRevisedAt, workoutRevisedAt } from '../../src/fixtures/wearables/revisions.js';
import { activitySummary } from '../../src/fixtures/wearables/summaries.js';
import { sourceCtx, type SourceCtx } from '../../src/fixtures/wearables/timeseries-table.js';
import { Subject } from '../../src/fixtures/wearables/wearable-profile.js';
import { DAY, HOUR, localMidnight } from '../../src/fixtures/wearables/wearable-time.js';
import { workoutSummary } from '../../src/fixtures/wearables/workouts.js';

const ZONES = ['UTC', 'America/New_York', 'Europe/Berlin', 'Asia/Tokyo', 'Australia/Sydney'];
const NOW = Date.parse('2026-11-20T12:00:00Z');
const TODAY = Math.floor(NOW / DAY) - 1;

let revisedDays = 0;
let revisedWorkouts = 0;

function sources(seed: number, user: string, zone: string, birth: number | null, slug: string): [SourceCtx, SourceCtx] {
  const provider = providerBySlug(slug) as ProviderInfo;
  const plain = sourceCtx(new Subject(seed, user, zone, birth), provider);
  const revised = sourceCtx(new Subject(seed, user, zone, birth), provider);
  revised.revisionRate = 1;
  return [plain, revised];
}

function checkPerson(seed: number, user: string, zone: string, birth: number | null, slug: string): void {
  const [plain, src] = sources(seed, user, zone, birth, slug);
  const has = (r: string) => src.provider.resources.includes(r);
  for (let day = TODAY - 30; day < TODAY; day++) {
    const from = localMidnight(zone, day);
    const to = localMidnight(zone, day + 1) - 1;
    const at = activityRevisedAt(src, day) as number;
    expect(at - (to + 1)).toBeGreaterThanOrEqual(3 * HOUR);
    expect(at - (to + 1)).toBeLessThanOrEqual(12 * HOUR);
    const first = activitySummary(plain, day, [[from, to]], NOW);
    const activity = activitySummary(src, day, [[from, to]], NOW);
    // Before the later sync, the day is as first sent.
    expect(activitySummary(src, day, [[from, to]], at - 1)).toEqual(activitySummary(plain, day, [[from, to]], at - 1));
    if (first && activity) {
      revisedDays++;
      expect(activity.updated_at).toBe(new Date(at).toISOString().replace('.000Z', '+00:00'));
      expect(activity.calories_total as number).toBeGreaterThan(first.calories_total as number);
      expect(activity.calories_total as number).toBeGreaterThanOrEqual(activity.calories_active as number);
      const basal = (first.calories_total as number) - (first.calories_active as number);
      expect((activity.calories_total as number) - (first.calories_total as number)).toBeLessThanOrEqual(Math.max(0.1, basal * 0.04) + 0.1);
      const minutes = (a: typeof first) => (a.low as number) + (a.medium as number) + (a.high as number);
      expect(minutes(activity)).toBe(minutes(first));
      expect(activity.low as number).toBeGreaterThanOrEqual(0);
      expect({ ...activity, calories_total: 0, low: 0, medium: 0, updated_at: '' }).toEqual({
        ...first,
        calories_total: 0,
        low: 0,
        medium: 0,
        updated_at: '',
      });
    }
    if (!has('workouts')) continue;
    for (const w of src.subject.workoutsOn(day)) {
      const wAt = workoutRevisedAt(src, w.day, w.index, w.end) as number;
      expect(wAt - w.end).toBeGreaterThanOrEqual(3 * HOUR);
      const before = workoutSummary(plain, w);
      expect(workoutSummary(src, w, wAt - 1)).toEqual(before);
      const ws = workoutSummary(src, w, NOW);
      revisedWorkouts++;
      expect(ws.hr_zones).toHaveLength(6);
      expect((ws.hr_zones ?? []).reduce((a: number, b: number) => a + b, 0)).toBe(ws.moving_time);
      if ((before.calories as number) > 0) expect(ws.calories as number).toBeLessThan(before.calories as number);
      expect(ws.calories as number).toBeGreaterThanOrEqual(Math.floor((before.calories as number) * 0.92 * 10) / 10 - 0.1);
      expect({ ...ws, calories: 0, updated_at: '' }).toEqual({ ...before, calories: 0, updated_at: '' });
      if (activity) {
        // The day still counts the whole workout (its buckets hold the first estimate).
        expect(activity.calories_active as number).toBeGreaterThanOrEqual(ws.calories as number);
        if (ws.distance !== null && activity.distance !== null) expect(activity.distance).toBeGreaterThanOrEqual(ws.distance);
        if (ws.steps !== null && activity.steps !== null) expect(activity.steps).toBeGreaterThanOrEqual(ws.steps);
        if (activity.heart_rate) expect(activity.heart_rate.max_bpm).toBeGreaterThanOrEqual(ws.max_hr as number);
      }
    }
  }
}

it('a revised day and its revised workouts still tell one story, for any seed, user and demo provider', () => {
  forAnyPerson(checkPerson, 16, ZONES);
  expect(revisedDays).toBeGreaterThan(100);
  expect(revisedWorkouts).toBeGreaterThan(20);
});

it('rate 0 revises nothing; a rate revises about that share, from the seed', () => {
  let days = 0;
  let revised = 0;
  for (let i = 0; i < 30; i++) {
    const [off, src] = sources(i, `user-${i}`, 'Europe/Berlin', 1985, 'fitbit');
    src.revisionRate = 0.3;
    for (let day = TODAY - 40; day < TODAY; day++) {
      days++;
      expect(activityRevisedAt(off, day)).toBeNull();
      if (activityRevisedAt(src, day) !== null) revised++;
      if (day % 8 !== 0) continue;
      const from = localMidnight('Europe/Berlin', day);
      const to = localMidnight('Europe/Berlin', day + 1) - 1;
      expect(activitySummary(off, day, [[from, to]], Number.POSITIVE_INFINITY)?.updated_at).toBe(
        new Date(to + 1).toISOString().replace('.000Z', '+00:00'),
      );
      for (const w of off.subject.workoutsOn(day)) {
        expect(workoutRevisedAt(off, w.day, w.index, w.end)).toBeNull();
        expect(workoutSummary(off, w, Number.POSITIVE_INFINITY)).toEqual(workoutSummary(off, w));
      }
    }
  }
  expect(revised / days).toBeGreaterThan(0.25);
  expect(revised / days).toBeLessThan(0.35);
  // The same seed gives the same revisions.
  const [, a] = sources(5, 'same', 'Asia/Tokyo', null, 'oura');
  const [, b] = sources(5, 'same', 'Asia/Tokyo', null, 'oura');
  a.revisionRate = 0.3;
  b.revisionRate = 0.3;
  for (let day = TODAY - 30; day < TODAY; day++) expect(activityRevisedAt(a, day)).toBe(activityRevisedAt(b, day));
});
