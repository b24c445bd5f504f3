/**
 * World building as issue 33's keep list reads it (47 ms for the default world, 1 ms for an empty
 * one): the first build of a default world (a seed not built before in the process), a build of a
 * seed built before, and an empty world. Used by `npm run bench` (its first section) and by
 * scripts/bench-persist.ts.
 */
import { createSandbox } from '../src/sandbox.js';

/**
 * Times `rounds` runs of `run`: the fastest and the median (ms). On a machine shared with other
 * work the fastest is the cost itself, the median what a run met.
 */
export async function timed(rounds: number, run: () => Promise<void>): Promise<{ min: number; median: number }> {
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t = performance.now();
    await run();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return { min: times[0] ?? 0, median: times[Math.floor(times.length / 2)] ?? 0 };
}

let nextSeed = 1000;

/** One line: the default world's build (new seed and seed built before) and the empty world's. */
export async function worldBuildLine(rounds: number): Promise<string> {
  const first = nextSeed;
  const cold = await timed(rounds, async () => void createSandbox({ seed: nextSeed++, feed: 'off', logger: () => undefined }));
  const warm = await timed(rounds, async () => void createSandbox({ seed: first, feed: 'off', logger: () => undefined }));
  const empty = await timed(
    rounds,
    async () => void createSandbox({ seed: nextSeed++, feed: 'off', world: 'empty', logger: () => undefined }),
  );
  return `world build, default (new seed): fastest ${cold.min.toFixed(1)} ms, median ${cold.median.toFixed(1)} ms; seed built before: fastest ${warm.min.toFixed(1)} ms, median ${warm.median.toFixed(1)} ms; empty: fastest ${empty.min.toFixed(1)} ms, median ${empty.median.toFixed(1)} ms (keep: 47 ms default, 1 ms empty)`;
}
