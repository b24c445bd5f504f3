/**
 * The plain ECG voltage list's bytes (src/state/wearables/voltage-json.ts) against
 * `JSON.stringify` of the samples built as objects and sorted as the list was before (by time,
 * then source order, then as grouped by provider), the objects' values rounded from the exact
 * trace (`ecgTrace`) as well as taken from the grouped variant's samples:
 * - every user of three seeds, for a wide window, one cutting sessions and one ending mid-session;
 * - sessions made to overlap (two providers recording at once, equal instants with equal and
 *   different source orders, a provider's sessions split by another's in the input), and sessions
 *   whose instants have no plain timestamp (before 1970, past year 9999).
 * Engine-level: the HTTP answer is these bytes (ecg-voltage-bytes.test.ts, on express and msw).
 */
import { describe, expect, it } from 'vitest';
import { SLOW_TESTS } from '../support/run-size.js';
import { createSandbox } from '../../src/index.js';
import { type EcgSession, ecgSampleTime } from '../../src/fixtures/wearables/ecg.js';
import { ecgTrace } from '../../src/fixtures/wearables/ecg-trace.js';
import { iso, tzOffsetSeconds } from '../../src/fixtures/wearables/wearable-time.js';
import { usersOf } from '../../src/state/users/users.js';
import { MAX_VOLTAGE_SESSIONS, type Rendered, voltageSamples, voltageSessions } from '../../src/state/wearables/timeseries.js';
import { type VoltageSource, voltageJson, voltageListJson } from '../../src/state/wearables/voltage-json.js';

const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

/** The list as it was built before, from the world: objects, sorted, stringified. */
function objectsJson(map: Map<string, { data: Rendered[] }>): string {
  const all: Rendered[] = [];
  for (const g of map.values()) for (const r of g.data) all.push(r);
  all.sort((a, b) => a.t - b.t || a.order - b.order);
  return JSON.stringify(all.map((r) => r.body));
}

/** The same for sessions given directly: grouped by provider, sample objects as ecgVoltages builds them, a stable sort. */
function sourcesJson(sources: VoltageSource[], from: number, to: number): string {
  const groups = new Map<string, VoltageSource[]>();
  for (const s of sources) groups.set(s.provider, [...(groups.get(s.provider) ?? []), s]);
  const all: Array<{ t: number; order: number; body: unknown }> = [];
  for (const { session, order, zone } of [...groups.values()].flat()) {
    const trace = ecgTrace(session);
    const offset = tzOffsetSeconds(zone, session.start);
    for (let i = 0; i < session.samples; i++) {
      const t = ecgSampleTime(session, i);
      if (t < from || t > to) continue;
      const value = Math.round((trace[i] as number) * 1000) / 1000;
      all.push({ t, order, body: { timestamp: iso(t), timezone_offset: offset, type: 'lead_1', unit: 'mV', value } });
    }
  }
  all.sort((a, b) => a.t - b.t || a.order - b.order);
  return JSON.stringify(all.map((r) => r.body));
}

describe('ECG voltage list bytes', () => {
  it('are JSON.stringify of the sorted samples for every user of three seeds (one locally) and three windows', () => {
    let lists = 0;
    let multiProvider = 0;
    // One seed locally, three in CI (HEALTH_SANDBOX_SLOW_TESTS=1).
    for (const seed of SLOW_TESTS ? [3, 21, 58] : [3]) {
      const world = createSandbox({ seed, users: 5, usersElsewhere: 0, logger: () => undefined }).world;
      const now = world.clock.now();
      for (const team of world.tenancy.teams.values()) {
        for (const user of usersOf(world.tenancy.partition(team, 'sandbox'), world).all()) {
          const sessions = voltageSessions(world, user, '', now - 20 * 86_400_000, now, MAX_VOLTAGE_SESSIONS);
          const first = sessions[0]?.session;
          if (!first) continue;
          if (new Set(sessions.map((f) => f.s.link.provider.slug)).size > 1) multiProvider++;
          const windows: Array<[number, number]> = [
            [now - 20 * 86_400_000, now],
            [first.start + 12_345, now - 9 * 86_400_000],
            [first.start - 1000, first.start + 7_777],
          ];
          for (const [from, to] of windows) {
            const got = text(voltageJson(world, user, '', from, to, MAX_VOLTAGE_SESSIONS));
            const want = objectsJson(voltageSamples(world, user, '', from, to, MAX_VOLTAGE_SESSIONS));
            expect(got.length).toBe(want.length);
            expect(got === want).toBe(true);
            // And from the exact trace, as the list was first built (both lists round the same values).
            const sources = voltageSessions(world, user, '', from, to, MAX_VOLTAGE_SESSIONS).map(({ s, session }) => ({
              session,
              order: s.order,
              provider: s.link.provider.slug,
              zone: s.src.subject.zone,
            }));
            expect(got === sourcesJson(sources, from, to)).toBe(true);
            lists++;
          }
        }
      }
    }
    expect(lists).toBeGreaterThan(SLOW_TESTS ? 20 : 10);
    expect(multiProvider).toBeGreaterThan(0);
  });

  it('keep the sorted order when sessions overlap, and write instants without a plain timestamp', () => {
    const byRate = new Map<number, EcgSession[]>();
    for (const seed of [1, 77]) {
      const world = createSandbox({ seed, users: 12, usersElsewhere: 0, logger: () => undefined }).world;
      const now = world.clock.now();
      for (const team of world.tenancy.teams.values())
        for (const user of usersOf(world.tenancy.partition(team, 'sandbox'), world).all())
          for (const { session } of voltageSessions(world, user, '', now - 30 * 86_400_000, now, 4))
            byRate.set(session.fs, [...(byRate.get(session.fs) ?? []), session]);
    }
    const at = (fs: number, k: number): EcgSession => {
      const s = byRate.get(fs)?.[k];
      if (!s) throw new Error(`no ${fs} Hz session ${k}`);
      return s;
    };
    const a = at(512, 0);
    // A session's beats are drawn when first read (a getter, not an own field): carried over explicitly.
    const moved = (s: EcgSession, start: number): EcgSession => ({ ...s, beats: s.beats, start, end: start + 30_000 });
    const overlapping: VoltageSource[] = [
      { session: a, order: 1, provider: 'apple_health_kit', zone: 'Europe/Berlin' },
      { session: moved(at(300, 0), a.start + 5_003), order: 0, provider: 'kardia', zone: 'America/New_York' },
      { session: moved(at(250, 0), a.start), order: 1, provider: 'fitbit', zone: 'UTC' },
      { session: moved(at(300, 1), a.start + 8), order: 2, provider: 'withings', zone: 'Asia/Kolkata' },
      { session: moved(at(512, 1), a.start + 20_000), order: 1, provider: 'apple_health_kit', zone: 'Europe/Berlin' },
    ];
    const far: VoltageSource[] = [
      { session: moved(at(250, 1), -12_345), order: 0, provider: 'fitbit', zone: 'UTC' },
      { session: moved(at(512, 2), 253_402_300_800_000 - 10_500), order: 0, provider: 'apple_health_kit', zone: 'UTC' },
    ];
    const cases: Array<[VoltageSource[], number, number]> = [
      [overlapping, a.start - 1000, a.start + 60_000],
      [overlapping, a.start + 3_000, a.start + 25_000],
      [far, -1e15, 1e15],
      [far, -5_000, 253_402_300_800_000 + 3_000],
    ];
    for (const [sources, from, to] of cases) {
      const want = sourcesJson(sources, from, to);
      expect(want.length).toBeGreaterThan(2);
      const got = text(voltageListJson(sources, from, to));
      expect(got.length).toBe(want.length);
      expect(got === want).toBe(true);
    }
    // The overlap interleaves providers: the first samples are not all one provider's.
    const first = JSON.parse(sourcesJson(overlapping, a.start - 1000, a.start + 60_000)).slice(0, 40);
    expect(new Set(first.map((x: { timezone_offset: number }) => x.timezone_offset)).size).toBeGreaterThan(1);
  });
});
