/**
 * Progress on stderr for the CLI, only on a terminal: building a large world, and a long clock
 * advance (`POST /_sandbox/clock/advance` of days or weeks, or a realtime clock catching up). The
 * advance line is redrawn once a second while the scheduler runs (it shows the sandbox time
 * reached and the jobs pending), then cleared with a summary. An advance that never yields to
 * the event loop (pure computation, no deliveries) shows nothing until it does.
 */
import type { Sandbox } from '../sandbox.js';

type Write = (text: string) => void;

/** Runs `build`, telling how long it took when it is large enough to notice. */
export function withBuildProgress<T>(users: number, write: Write | undefined, build: () => T): T {
  if (!write || users < 10_000) return build();
  write(`health-sandbox: building a world of ${users.toLocaleString('en')} users...`);
  const started = performance.now();
  const built = build();
  write(` done in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  return built;
}

/** Redraws one line on stderr while an advance runs for more than a second; answers the stop. */
export function watchAdvances(sandbox: Sandbox, write: Write, now: () => number = () => performance.now()): () => void {
  let since: number | null = null;
  let from = '';
  let drawn = false;
  const tick = () => {
    const { scheduler, clock } = sandbox.world;
    if (scheduler.running) {
      if (since === null) {
        since = now();
        from = clock.iso();
      } else if (now() - since >= 1000) {
        write(`\r\u001b[2Kadvancing the clock: sandbox time ${clock.iso()}, ${scheduler.pending().toLocaleString('en')} jobs pending`);
        drawn = true;
      }
    } else if (since !== null) {
      if (drawn) write(`\r\u001b[2Kadvanced the clock from ${from} to ${clock.iso()} in ${((now() - since) / 1000).toFixed(1)} s\n`);
      since = null;
      drawn = false;
    }
  };
  const timer = setInterval(tick, 250);
  timer.unref?.();
  return () => clearInterval(timer);
}
