/**
 * The memos and fast paths the wearable feed uses give exactly what the plain code gives
 * (issue 17: the feed's cost per event went down without an event changing by a byte).
 */
import { describe, expect, it } from 'vitest';
import { hash32, hashParts } from '../../src/engine/rng.js';
import { iso } from '../../src/fixtures/wearables/wearable-time.js';
import { providerBySlug } from '../../src/fixtures/wearables/providers.js';
import { rowByResource, samplesOf, sourceCtx, valuesOf } from '../../src/fixtures/wearables/timeseries-table.js';
import { Subject } from '../../src/fixtures/wearables/wearable-profile.js';
import { pullPlan } from '../../src/state/wearables/pulls.js';
import type { Connection } from '../../src/state/wearables/connections.js';

const T0 = Date.UTC(2026, 1, 10, 0, 0, 0);

describe('feed memos', () => {
  it('hashParts equals hash32 of the joined parts', () => {
    const parts: Array<string | number> = ['', 'hr', 'g1', 0, -0, -7, 1.25, T0, 1e21, Number.NaN, '\u241f', 'é漢'];
    for (const prefix of ['', '1\u241fuser', '7\u241fabc\u241foura']) {
      for (const a of parts)
        for (const b of parts)
          for (const c of parts) expect(hashParts(prefix, a, b, c)).toBe(hash32(`${prefix}\u241f${a}\u241f${b}\u241f${c}`));
    }
  });

  it('iso is toISOString in the documented +00:00 form (microseconds only when not whole seconds), also outside its fast path', () => {
    const at = [0, 1, 999, 86_399_999, 86_400_000, T0, T0 + 123, 253_402_300_799_999, 253_402_300_800_000, -1, -62_198_755_200_000, 1.5];
    for (let i = 0; i < 20_000; i++) at.push(T0 + i * 61_003 + (i % 1000));
    const python = (ms: number) =>
      new Date(Math.floor(ms))
        .toISOString()
        .replace(/\.000Z$/, '+00:00')
        .replace(/\.(\d{3})Z$/, '.$1000+00:00');
    for (const ms of at) expect(iso(ms)).toBe(python(ms));
    expect(iso(T0 + 4)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.004000\+00:00$/);
  });

  it('valuesOf gives the values samplesOf gives, with or without a memo, open buckets included', () => {
    const provider = providerBySlug('apple_health_kit')!;
    // Generator v2 (issue 17): a person whose morning has floors climbed in the window.
    const subject = new Subject(5, 'memo-person', 'Europe/Berlin', 1980);
    const plain = sourceCtx(subject, provider);
    const memo = { ...sourceCtx(new Subject(5, 'memo-person', 'Europe/Berlin', 1980), provider), memo: { values: new Map(), size: 0 } };
    const now = T0 + 13 * 3_600_000 + 17 * 60_000;
    const ranges = [
      [T0 - 3_600_000, T0 + 5 * 3_600_000],
      [T0 + 6 * 3_600_000 + 1, now],
    ] as const;
    for (const resource of ['heartrate', 'steps', 'calories_active', 'distance', 'floors_climbed', 'hrv']) {
      const row = rowByResource(resource)!;
      const expected = ranges.flatMap(([a, b]) => samplesOf(row, plain, a, b, now).map((s) => s.value));
      expect(expected.length, resource).toBeGreaterThan(0);
      // Twice through the memo: filled, then read back.
      expect(valuesOf(row, memo, ranges, now), resource).toEqual(expected);
      expect(valuesOf(row, memo, ranges, now), resource).toEqual(expected);
      expect(
        ranges.flatMap(([a, b]) => samplesOf(row, memo, a, b, now)),
        resource,
      ).toEqual(ranges.flatMap(([a, b]) => samplesOf(row, plain, a, b, now)));
    }
    expect(memo.memo.size).toBeGreaterThan(0);
  });

  it('pull plans follow every input of the connection, memo or not', () => {
    const conn = {
      provider: providerBySlug('oura')!,
      created_at: T0,
      demo: false,
      pullMinutes: 10,
      overrides: null,
    } as unknown as Connection;
    const first = pullPlan(3, 'u1', conn, 'sleep');
    expect(pullPlan(3, 'u1', conn, 'sleep')).toEqual(first);
    conn.pullMinutes = 600;
    const longer = pullPlan(3, 'u1', conn, 'sleep');
    expect(longer.attemptEnd).toBeGreaterThan(first.attemptEnd);
    conn.pullMinutes = 10;
    expect(pullPlan(3, 'u1', conn, 'sleep')).toEqual(first);
    expect(pullPlan(4, 'u1', conn, 'sleep')).not.toEqual(first);
    conn.overrides = new Map([['sleep', { outcome: 'failure', endAt: T0 + 60_000 } as never]]);
    const forced = pullPlan(3, 'u1', conn, 'sleep');
    expect(forced.outcome).toBe('failure');
    expect(forced.attemptEnd).toBe(T0 + 60_000);
    conn.overrides = null;
    expect(pullPlan(3, 'u1', conn, 'sleep')).toEqual(first);
  });
});
