/**
 * How big the generative runs are. `HEALTH_SANDBOX_SLOW_TESTS=1` (`.ci/run` sets it) runs the full
 * counts; a local run takes a smaller count that still covers every route (the fuzz run's first
 * requests are one per route), so `npm test` stays about a minute.
 */
export const SLOW_TESTS = process.env['HEALTH_SANDBOX_SLOW_TESTS'] === '1';

/** `full` under `HEALTH_SANDBOX_SLOW_TESTS=1`, else `quick`. */
export function runCount(full: number, quick: number): number {
  return SLOW_TESTS ? full : quick;
}
