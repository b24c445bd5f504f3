import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { boundHeapGrowth, HEAP_GROWING_PERCENT } from '../../src/adapters/heap-growth.js';

describe('the served process bounds its heap growth (issue 40, the soak)', () => {
  it('sets a fixed growing factor unless the user chose one', () => {
    const set: string[] = [];
    expect(boundHeapGrowth({}, [], (f) => set.push(f))).toBe(true);
    expect(set).toEqual([`--heap-growing-percent=${HEAP_GROWING_PERCENT}`]);
    expect(boundHeapGrowth({ NODE_OPTIONS: '--heap-growing-percent=30' }, [], (f) => set.push(f))).toBe(false);
    expect(boundHeapGrowth({}, ['--heap_growing_percent=30'], (f) => set.push(f))).toBe(false);
    // The build's run that writes the code cache: V8 keys the cache on its flags (scripts/cli-boot.mjs).
    expect(boundHeapGrowth({ HEALTH_SANDBOX_CODE_CACHE_OUT: '/tmp/x' }, [], (f) => set.push(f))).toBe(false);
    expect(set).toHaveLength(1);
  });

  it('the flag takes effect in a running process: a churning live set stays within 3.5x', () => {
    // A ring of live objects replaced as they age (what a failing endpoint's backlog does): with
    // V8's own factor the old generation grows to about 4.5x the live set between collections (2.6x bounded).
    const script = `
      const { boundHeapGrowth } = await import(${JSON.stringify(new URL('../../src/adapters/heap-growth.ts', import.meta.url).href)});
      if (process.argv[1] === 'bounded') boundHeapGrowth({}, []);
      const ring = new Array(200000); let max = 0;
      for (let i = 0; i < 3000000; i++) {
        ring[i % ring.length] = { a: 'x'.repeat(100) + i, b: [i, i + 1] };
        if (i % 20000 === 0) max = Math.max(max, process.memoryUsage().heapTotal);
      }
      globalThis.gc(); const live = process.memoryUsage().heapUsed; if (ring.length === 0) throw new Error('kept alive');
      process.stdout.write(JSON.stringify({ ratio: max / live }));`;
    const run = (mode: string) => {
      const out = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', script, mode], {
        encoding: 'utf8',
      });
      expect(out.status, out.stderr).toBe(0);
      return (JSON.parse(out.stdout) as { ratio: number }).ratio;
    };
    expect(run('bounded')).toBeLessThan(3.5);
  }, 60_000);
});
