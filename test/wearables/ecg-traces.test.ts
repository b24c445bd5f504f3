/**
 * The ECG rules, measured on the traces the sandbox serves: a simple R-peak detector over the
 * lead-I voltages recovers the summary's heart_rate_mean within 3 bpm; atrial fibrillation has
 * irregular RR intervals and sinus rhythm regular ones; voltage_sample_count equals the samples
 * served at sampling_frequency_hz; every classification occurs in the seeded world and
 * inconclusive sessions carry a cause.
 *
 * One transport: the properties are the generator's, read through the engine (12 sessions of
 * voltages, a few MB); adapters-parity.test.ts proves every adapter relays the ECG voltage
 * answers byte-identically.
 */
import { describe, expect, it } from 'vitest';
import { createClient } from '../support/client.js';

/** R peaks: high-pass by subtracting a 150 ms moving average, threshold at half the peak, local maxima 200 ms apart. */
function rPeaks(values: number[], fs: number): number[] {
  const half = Math.round(0.075 * fs);
  const prefix = [0];
  for (const v of values) prefix.push((prefix[prefix.length - 1] as number) + v);
  const hp = values.map((v, i) => {
    const lo = Math.max(0, i - half);
    const hi = Math.min(values.length, i + half + 1);
    return v - ((prefix[hi] as number) - (prefix[lo] as number)) / (hi - lo);
  });
  const sorted = [...hp].sort((a, b) => a - b);
  const thr = 0.5 * (sorted[Math.floor(sorted.length * 0.995)] as number);
  const win = Math.round(0.2 * fs);
  const peaks: number[] = [];
  for (let i = 0; i < hp.length; i++) {
    const v = hp[i] as number;
    if (v < thr) continue;
    let isMax = true;
    for (let j = Math.max(0, i - win); j <= Math.min(hp.length - 1, i + win); j++) {
      if ((hp[j] as number) > v || ((hp[j] as number) === v && j < i)) {
        isMax = false;
        break;
      }
    }
    if (isMax) peaks.push(i / fs);
  }
  return peaks;
}

function rrStats(peaks: number[]): { hr: number; cv: number } {
  const rr = peaks.slice(1).map((t, i) => t - (peaks[i] as number));
  const mean = rr.reduce((a, b) => a + b, 0) / rr.length;
  const sd = Math.sqrt(rr.reduce((a, b) => a + (b - mean) ** 2, 0) / rr.length);
  return { hr: (60 * rr.length) / ((peaks[peaks.length - 1] as number) - (peaks[0] as number)), cv: sd / mean };
}

describe('ECG traces', () => {
  it('detected R peaks give heart_rate_mean within 3 bpm; afib irregular, sinus regular; every classification occurs', async () => {
    const c = createClient('fetch', { seed: 21 });
    const users = (await c.get('/v2/user', { query: { limit: 1 } })).body.users;
    const userId = users[0].user_id as string;
    const res = await c.get(`/v2/summary/electrocardiogram/${userId}`, { query: { start_date: '2025-11-01', end_date: '2026-01-05' } });
    expect(res.status).toBe(200);
    const sessions = res.body.electrocardiogram as any[];
    const classes = new Set(sessions.map((s) => s.classification));
    expect([...classes].sort()).toEqual(['atrial_fibrillation', 'inconclusive', 'sinus_rhythm']);
    for (const s of sessions) {
      if (s.classification === 'inconclusive')
        expect(['high_heart_rate', 'low_heart_rate', 'poor_reading']).toContain(s.inconclusive_cause);
      else expect(s.inconclusive_cause).toBeNull();
    }
    const measured = { sinus_rhythm: 0, atrial_fibrillation: 0, inconclusive: 0 } as Record<string, number>;
    for (const s of sessions.slice(0, 12)) {
      const v = await c.get(`/v2/timeseries/${userId}/electrocardiogram_voltage`, {
        query: { start_date: s.session_start, end_date: s.session_end },
      });
      expect(v.status).toBe(200);
      const samples = v.body as any[];
      expect(samples.length).toBe(s.voltage_sample_count);
      expect(samples.every((x) => x.type === 'lead_1' && x.unit === 'mV')).toBe(true);
      const span = (Date.parse(samples[samples.length - 1].timestamp) - Date.parse(samples[0].timestamp)) / 1000;
      expect(Math.abs(span - (samples.length - 1) / s.sampling_frequency_hz)).toBeLessThan(0.002);
      const peaks = rPeaks(
        samples.map((x) => x.value),
        s.sampling_frequency_hz,
      );
      const { hr, cv } = rrStats(peaks);
      expect(Math.abs(hr - s.heart_rate_mean), `${s.classification} ${s.inconclusive_cause}`).toBeLessThanOrEqual(3);
      if (s.classification === 'atrial_fibrillation') expect(cv).toBeGreaterThan(0.12);
      else expect(cv).toBeLessThan(0.08);
      if (s.inconclusive_cause === 'high_heart_rate') expect(s.heart_rate_mean).toBeGreaterThan(120);
      if (s.inconclusive_cause === 'low_heart_rate') expect(s.heart_rate_mean).toBeLessThan(50);
      measured[s.classification] = (measured[s.classification] ?? 0) + 1;
    }
    expect(measured.sinus_rhythm).toBeGreaterThan(0);
    expect(measured.atrial_fibrillation).toBeGreaterThan(0);
  });
});
