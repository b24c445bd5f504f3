/**
 * Generator v2 (issue 17): the feed's fast paths give what the plain read path gives, and the
 * numeric per-sample draws behave like the draws they replaced (uniform, standard normal).
 */
import { describe, expect, it } from 'vitest';
import { hashAt } from '../../src/engine/rng.js';
import { cadenceStats, feedCadence, type Cadence } from '../../src/fixtures/wearables/cadence.js';
import { providerBySlug } from '../../src/fixtures/wearables/providers.js';
import { activitySummary } from '../../src/fixtures/wearables/summaries.js';
import {
  renderSample,
  rowByResource,
  samplesOf,
  scheduleOf,
  sourceCtx,
  type SourceCtx,
} from '../../src/fixtures/wearables/timeseries-table.js';
import { Subject, gaussAt, uAt } from '../../src/fixtures/wearables/wearable-profile.js';
import { localDay } from '../../src/fixtures/wearables/wearable-time.js';
import { workoutStream, workoutSummary } from '../../src/fixtures/wearables/workouts.js';

const T0 = Date.UTC(2026, 1, 10, 0, 30, 0);
const HOUR = 3_600_000;

function sources(slug: string, user: string): { plain: SourceCtx; memo: SourceCtx } {
  const provider = providerBySlug(slug)!;
  const plain = sourceCtx(new Subject(9, user, 'America/New_York', 1975), provider);
  const memo = { ...sourceCtx(new Subject(9, user, 'America/New_York', 1975), provider), memo: { values: new Map(), size: 0 } };
  return { plain, memo };
}

describe('generator v2: feed fast paths', () => {
  it('feedCadence renders what samplesOf + renderSample give, split into created and updated like the feed', () => {
    const { plain, memo } = sources('apple_health_kit', 'gen-user');
    let checked = 0;
    for (const resource of [
      'heartrate',
      'steps',
      'calories_active',
      'hrv',
      'floors_climbed',
      'stand_hour',
      'daylight_exposure',
      'stand_duration',
      'stress_level',
    ]) {
      const row = rowByResource(resource)!;
      const sched = scheduleOf(row, plain.provider) as Cadence;
      expect(sched.kind).toBe('cadence');
      // Ticks every two hours over two days, as the feed makes them.
      for (let tick = 1; tick <= 24; tick++) {
        const since = T0 + (tick - 1) * 2 * HOUR;
        const now = since + 2 * HOUR;
        const from = since - 2 * HOUR;
        const created: unknown[] = [];
        const updated: unknown[] = [];
        feedCadence({ row, src: memo, sched, from, to: now, now, since, created, updated });
        const wantCreated: unknown[] = [];
        const wantUpdated: unknown[] = [];
        for (const s of samplesOf(row, plain, from, now, now)) {
          if (row.cumulative) (s.timestamp < since ? wantUpdated : wantCreated).push(renderSample(row, plain, s));
          else if (s.available > since) wantCreated.push(renderSample(row, plain, s));
        }
        expect(JSON.stringify(created), `${resource} tick ${tick}`).toBe(JSON.stringify(wantCreated));
        expect(JSON.stringify(updated), `${resource} tick ${tick}`).toBe(JSON.stringify(wantUpdated));
        checked += created.length + updated.length;
      }
    }
    expect(checked).toBeGreaterThan(500);
  });

  it('cadenceStats continues its kept fold exactly: activity summaries read tick by tick equal the plain ones', () => {
    const { plain, memo } = sources('fitbit', 'gen-active');
    const zone = plain.subject.zone;
    const ranges = [[T0 - 30 * HOUR, T0 + 60 * HOUR]] as const;
    let compared = 0;
    for (let now = T0; now <= T0 + 48 * HOUR; now += 2 * HOUR + 7_000) {
      const day = localDay(zone, now);
      for (const d of [day - 1, day]) {
        const fast = activitySummary(memo, d, ranges, now);
        const slow = activitySummary(plain, d, ranges, now);
        expect(JSON.stringify(fast), `${d} at ${now}`).toBe(JSON.stringify(slow));
        if (fast) compared++;
      }
    }
    expect(compared).toBeGreaterThan(20);
    // Stats over two parts fold in order (no kept prefix for the second part).
    const row = rowByResource('heartrate')!;
    const sched = scheduleOf(row, plain.provider) as Cadence;
    const now = T0 + 30 * HOUR;
    const parts = [
      [T0, T0 + 5 * HOUR],
      [T0 + 9 * HOUR, now],
    ] as const;
    const stats = (src: SourceCtx) => {
      const st = { n: 0, sum: 0, min: Number.POSITIVE_INFINITY, max: Number.NEGATIVE_INFINITY };
      for (const [a, b] of parts) cadenceStats({ row, src, sched, from: a, last: b, now }, st);
      return st;
    };
    const values = parts.flatMap(([a, b]) => samplesOf(row, plain, a, b, now).map((s) => s.value));
    for (const src of [plain, memo, memo]) {
      const st = stats(src);
      expect(st.n).toBe(values.length);
      expect(st.sum).toBe(values.reduce((a, v) => a + v, 0));
      expect(st.min).toBe(Math.min(...values));
      expect(st.max).toBe(Math.max(...values));
    }
  });

  it('daily schedules give the same samples through the memo', () => {
    const { plain, memo } = sources('withings', 'gen-scale');
    for (const resource of ['weight', 'fat', 'blood_pressure', 'water', 'caffeine']) {
      const row = rowByResource(resource)!;
      const now = T0 + 10 * 24 * HOUR;
      for (let i = 0; i < 2; i++)
        expect(JSON.stringify(samplesOf(row, memo, T0, now, now)), resource).toBe(JSON.stringify(samplesOf(row, plain, T0, now, now)));
    }
  });

  it('a workout summary agrees with its stream', () => {
    let workouts = 0;
    for (const user of ['gen-runner', 'gen-cyclist', 'gen-swimmer', 'gen-walker']) {
      const src = sourceCtx(new Subject(9, user, 'Europe/Madrid', 1990), providerBySlug('strava')!);
      for (let day = localDay('Europe/Madrid', T0); day < localDay('Europe/Madrid', T0) + 10; day++) {
        for (const w of src.subject.workoutsOn(day)) {
          workouts++;
          const stream = workoutStream(src, w);
          const summary = workoutSummary(src, w) as Record<string, unknown>;
          expect(summary.average_hr).toBe(Math.round(stream.heartrate.reduce((a, b) => a + b, 0) / stream.heartrate.length));
          expect(summary.max_hr).toBe(Math.max(...stream.heartrate));
          expect(summary.distance).toBe(stream.distance.length ? stream.distance[stream.distance.length - 1] : null);
          expect(summary.max_speed).toBe(stream.velocity_smooth.length ? Math.max(...stream.velocity_smooth) : null);
          expect(summary.elev_high).toBe(stream.altitude.length ? Math.max(...stream.altitude) : null);
          expect(summary.max_watts).toBe(stream.power.length > 1 ? Math.max(...stream.power.slice(1)) : null);
          expect(stream.time.length).toBe(stream.heartrate.length);
          // The same summary twice (the scratch buffers are reused).
          expect(JSON.stringify(workoutSummary(src, w))).toBe(JSON.stringify(summary));
        }
      }
    }
    expect(workouts).toBeGreaterThan(5);
  });
});

describe('generator v2: numeric draws', () => {
  it('are uniform and standard normal, stable, and differ by key, salt and instant', () => {
    const n = 50_000;
    let sum = 0;
    let g = 0;
    let g2 = 0;
    const buckets = new Array<number>(10).fill(0);
    for (let i = 0; i < n; i++) {
      const t = T0 + i * 300_000;
      const x = uAt(12345, 678, t);
      expect(x >= 0 && x < 1).toBe(true);
      sum += x;
      buckets[Math.floor(x * 10)]!++;
      const z = gaussAt(12345, 678, t);
      g += z;
      g2 += z * z;
    }
    expect(Math.abs(sum / n - 0.5)).toBeLessThan(0.01);
    for (const b of buckets) expect(Math.abs(b / n - 0.1)).toBeLessThan(0.01);
    expect(Math.abs(g / n)).toBeLessThan(0.02);
    expect(Math.abs(g2 / n - 1)).toBeLessThan(0.03);
    expect(uAt(1, 2, T0)).toBe(uAt(1, 2, T0));
    expect(new Set([uAt(1, 2, T0), uAt(2, 2, T0), uAt(1, 3, T0), uAt(1, 2, T0 + 1)]).size).toBe(4);
    expect(hashAt(7, -1)).not.toBe(hashAt(7, 4294967295));
  });
});
