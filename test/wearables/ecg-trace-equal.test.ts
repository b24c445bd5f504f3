/**
 * The ECG trace generator (src/fixtures/wearables/ecg.ts `ecgTrace`) gives, sample for sample, the
 * very doubles of the first generator (kept below as it was: noise through `Rng.normal`, every wave
 * tested on every sample of its beat's window), for every session of many users of several seeds:
 * all three sampling rates, every classification and inconclusive cause. Equal doubles mean equal
 * rounded values, so the served voltages keep every byte.
 */
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/index.js';
import { Rng } from '../../src/engine/rng.js';
import type { EcgSession } from '../../src/fixtures/wearables/ecg.js';
import { ecgTrace } from '../../src/fixtures/wearables/ecg-trace.js';
import { range, u } from '../../src/fixtures/wearables/wearable-profile.js';
import { usersOf } from '../../src/state/users/users.js';
import { voltageSessions } from '../../src/state/wearables/timeseries.js';

/** The first generator, verbatim. */
function firstTrace(session: EcgSession): Float64Array {
  const { fs, samples, beats, classification, cause } = session;
  const out = new Float64Array(samples);
  const rng = Rng.of(session.key, 'noise');
  const afib = classification === 'atrial_fibrillation';
  const poor = cause === 'poor_reading';
  const ampR = range(u(session.key, 'ampR'), 0.9, 1.4);
  const phase = u(session.key, 'phase') * 2 * Math.PI;
  for (let i = 0; i < samples; i++) {
    const t = i / fs;
    let v = 0.04 * Math.sin(2 * Math.PI * 0.25 * t + phase) + rng.normal(0, poor ? 0.06 : 0.012);
    if (afib) v += 0.045 * Math.sin(2 * Math.PI * 5.6 * t + 0.8 * Math.sin(2 * Math.PI * 0.3 * t));
    if (poor) v += 0.22 * Math.sin(2 * Math.PI * 0.45 * t + phase) + 0.04 * Math.sin(2 * Math.PI * 50 * t);
    out[i] = v;
  }
  for (let b = 0; b < beats.length; b++) {
    const r = beats[b] as number;
    const rr = (beats[b + 1] ?? r + 0.8) - r;
    const waves: Array<[number, number, number]> = [
      [-0.035, -0.12, 0.01],
      [0, ampR, 0.012],
      [0.035, -0.28, 0.012],
      [0.22 + 0.1 * (rr - 0.8), 0.28, 0.045],
    ];
    if (!afib) waves.push([-0.17, 0.12, 0.022]);
    const lo = Math.max(0, Math.floor((r - 0.3) * fs));
    const hi = Math.min(samples - 1, Math.ceil((r + 0.5) * fs));
    for (let i = lo; i <= hi; i++) {
      const t = i / fs - r;
      let v = 0;
      for (const [off, amp, width] of waves) {
        const d = (t - off) / width;
        if (d > -5 && d < 5) v += amp * Math.exp(-0.5 * d * d);
      }
      out[i] = (out[i] as number) + v;
    }
  }
  return out;
}

describe('ECG trace generator', () => {
  it('gives the first generator’s doubles for every session of many users and seeds', () => {
    const kinds = new Set<string>();
    const rates = new Set<number>();
    let sessions = 0;
    let samples = 0;
    for (const seed of [1, 21, 77]) {
      const sandbox = createSandbox({ seed, users: 12, usersElsewhere: 0, logger: () => undefined });
      const world = sandbox.world;
      for (const team of world.tenancy.teams.values()) {
        for (const user of usersOf(world.tenancy.partition(team, 'sandbox'), world).all()) {
          const to = world.clock.now();
          for (const { session } of voltageSessions(world, user, '', to - 40 * 86_400_000, to, 10)) {
            const got = ecgTrace(session);
            const want = firstTrace(session);
            expect(got.length).toBe(want.length);
            let differing = 0;
            for (let i = 0; i < want.length; i++) if (!Object.is(got[i], want[i])) differing++;
            expect(differing, `${session.key} ${session.classification} ${session.cause}`).toBe(0);
            kinds.add(`${session.classification}/${session.cause}`);
            rates.add(session.fs);
            sessions++;
            samples += want.length;
          }
        }
      }
    }
    expect([...kinds].sort()).toEqual([
      'atrial_fibrillation/null',
      'inconclusive/high_heart_rate',
      'inconclusive/low_heart_rate',
      'inconclusive/poor_reading',
      'sinus_rhythm/null',
    ]);
    expect([...rates].sort()).toEqual([250, 300, 512]);
    expect(sessions).toBeGreaterThan(100);
    expect(samples).toBeGreaterThan(1_000_000);
  });
});
