/**
 * The plain voltage list's rounded trace (src/fixtures/wearables/ecg-thousandths.ts) is the
 * rounding of the exact trace (ecg-trace.ts) for every session of many users of three seeds:
 * all sampling rates, classifications and causes. Its approximation stays a hundred times
 * inside the margin that sends a sample to its exact value, that fallback is rare, and the
 * exact value of a single sample (`ecgSampleExact`, what the fallback computes) is the trace's
 * own double for every sample.
 */
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/index.js';
import type { EcgSession } from '../../src/fixtures/wearables/ecg.js';
import { MARGIN, ecgThousandths, ecgTraceApprox } from '../../src/fixtures/wearables/ecg-thousandths.js';
import { draws, ecgSampleExact, ecgTrace, traceParams } from '../../src/fixtures/wearables/ecg-trace.js';
import { usersOf } from '../../src/state/users/users.js';
import { voltageSessions } from '../../src/state/wearables/timeseries.js';

function sessionsOf(seeds: number[]): EcgSession[] {
  const out: EcgSession[] = [];
  for (const seed of seeds) {
    const world = createSandbox({ seed, users: 12, usersElsewhere: 0, logger: () => undefined }).world;
    const to = world.clock.now();
    for (const team of world.tenancy.teams.values())
      for (const user of usersOf(world.tenancy.partition(team, 'sandbox'), world).all())
        for (const { session } of voltageSessions(world, user, '', to - 40 * 86_400_000, to, 10)) out.push(session);
  }
  return out;
}

describe('ECG rounded trace', () => {
  const sessions = sessionsOf([1, 21, 77]);

  it('is Math.round(trace * 1000) of the exact trace for every session; the approximation within a hundredth of the margin', () => {
    const kinds = new Set<string>();
    let samples = 0;
    let exact = 0;
    let worst = 0;
    for (const session of sessions) {
      const trace = ecgTrace(session);
      const approx = ecgTraceApprox(session);
      const values = new Int32Array(session.samples);
      exact += ecgThousandths(session, 0, values);
      let differing = 0;
      for (let i = 0; i < trace.length; i++) {
        if (values[i] !== Math.round((trace[i] as number) * 1000)) differing++;
        worst = Math.max(worst, Math.abs((approx[i] as number) - (trace[i] as number)));
      }
      expect(differing, session.key).toBe(0);
      kinds.add(`${session.classification}/${session.cause}/${session.fs}`);
      samples += trace.length;
    }
    expect(kinds.size).toBeGreaterThanOrEqual(10);
    expect(samples).toBeGreaterThan(1_000_000);
    // In mV: the margin is MARGIN thousandths.
    expect(worst).toBeLessThan(MARGIN / 1000 / 100);
    expect(exact).toBeLessThan(samples / 10_000);
  });

  it('rounds a window starting mid-session, and every sample through its exact value when the margin is the whole interval', () => {
    for (const session of sessions.filter((_, k) => k % 15 === 0)) {
      const trace = ecgTrace(session);
      const first = 1234;
      const values = new Int32Array(session.samples - first - 100);
      const exact = ecgThousandths(session, first, values, 0.5);
      expect(exact).toBeGreaterThan(values.length * 0.99);
      let differing = 0;
      // `!==`: the list writes -0 as 0 (JSON.stringify does), and Int32Array holds no -0.
      for (let j = 0; j < values.length; j++) if (values[j] !== Math.round((trace[first + j] as number) * 1000)) differing++;
      expect(differing, session.key).toBe(0);
    }
  });

  it('computes each sample’s exact value alone, the trace’s own double', () => {
    for (const session of sessions.filter((_, k) => k % 10 === 0)) {
      const trace = ecgTrace(session);
      const p = traceParams(session);
      const xs = new Int32Array(p.samples);
      const ys = new Int32Array(p.samples);
      draws(p, xs, ys);
      let differing = 0;
      for (let i = 0; i < p.samples; i++) if (!Object.is(ecgSampleExact(p, i, xs[i] as number, ys[i] as number), trace[i])) differing++;
      expect(differing, session.key).toBe(0);
    }
  });
});
