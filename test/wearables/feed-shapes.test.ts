/**
 * The objects the feed's bucket loops read per bucket are built with one set of keys in one order
 * (issue 42, the feed's cost per event): timeseries rows, sources with and without a memo,
 * samples of interval and instant rows, and ECG sessions whose beats are drawn when first read
 * (the same beats as an eager draw would give, whenever they are read).
 */
import { describe, expect, it } from 'vitest';
import { providerBySlug } from '../../src/fixtures/wearables/providers.js';
import { TIMESERIES, rowByResource, samplesOf, sourceCtx } from '../../src/fixtures/wearables/timeseries-table.js';
import { sourceMemo } from '../../src/fixtures/wearables/timeseries-model.js';
import { Subject } from '../../src/fixtures/wearables/wearable-profile.js';
import { ecgSessionOn } from '../../src/fixtures/wearables/ecg.js';
import { DAY } from '../../src/fixtures/wearables/wearable-time.js';

const T0 = Date.UTC(2026, 1, 10, 0, 0, 0);

describe('feed shapes', () => {
  it('every timeseries row has the same keys in the same order', () => {
    const keys = Object.keys(TIMESERIES[0] as object).join();
    for (const row of TIMESERIES) expect(Object.keys(row).join(), row.resource).toBe(keys);
  });

  it('a source with a memo and one without have the same keys in the same order', () => {
    const provider = providerBySlug('oura')!;
    const plain = sourceCtx(new Subject(3, 'shape-person', 'Europe/Berlin', 1980), provider);
    const kept = sourceCtx(new Subject(3, 'shape-person', 'Europe/Berlin', 1980), provider, sourceMemo());
    expect(Object.keys(kept)).toEqual(Object.keys(plain));
    expect(plain.memo).toBeUndefined();
  });

  it('samples of interval and instant rows have the same keys in the same order', () => {
    const provider = providerBySlug('apple_health_kit')!;
    const src = sourceCtx(new Subject(5, 'shape-samples', 'America/New_York', 1975), provider);
    const shapes = new Set<string>();
    for (const resource of ['heartrate', 'steps', 'calories_basal', 'stand_hour', 'body_temperature_delta']) {
      const row = rowByResource(resource)!;
      for (const s of samplesOf(row, src, T0, T0 + DAY, T0 + DAY)) shapes.add(Object.keys(s).join());
    }
    expect([...shapes]).toEqual(['timestamp,start,end,value,type,extra,available']);
  });

  it('an ECG session draws the same beats whenever they are first read', () => {
    const provider = providerBySlug('apple_health_kit')!;
    const make = () => sourceCtx(new Subject(7, 'shape-ecg', 'Europe/London', 1970), provider);
    let compared = 0;
    for (let day = 20_500; day < 20_530; day++) {
      const a = ecgSessionOn(make(), day);
      const b = ecgSessionOn(make(), day);
      if (!a || !b) continue;
      const first = [...a.beats];
      expect(b.beats).toEqual(first);
      expect(a.beats).toBe(a.beats);
      compared++;
    }
    expect(compared).toBeGreaterThan(5);
  });
});
