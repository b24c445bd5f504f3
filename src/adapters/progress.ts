/**
 * Progress on stderr for the CLI, only on a terminal: building a large world, and a long clock
 * advance (`POST /_sandbox/clock/advance` of days or weeks, or a realtime clock catching up). The
 * advance line is redrawn once a second while the scheduler runs (it shows the sandbox time
 * reached and the jobs pending), then cleared with a summary. An advance that never yields to
 * the event loop (pure computation, no deliveries) shows nothing until it does. The progress line
 * and the request log share one `Terminal`: a log line clears the progress line, is written
 * whole, and the progress line is drawn again under it, so the two never run into each other.
 */
import type { Sandbox } from '../sandbox.js';

type Write = (text: string) => void;

const CLEAR = '\r\u001b[2K';

/** One terminal for whole lines (the log) and one redrawn status line (progress) below them. */
export interface Terminal {
  /** Writes whole lines (ending in a newline) above the status line. */
  line(text: string): void;
  /** Draws the status line (no newline), replacing the one drawn. */
  status(text: string): void;
  /** Replaces the status line with a last line (ending in a newline): no status line after it. */
  done(text: string): void;
}

export function terminal(write: Write): Terminal {
  let shown = '';
  return {
    line(text) {
      write(shown ? `${CLEAR}${text}${shown}` : text);
    },
    status(text) {
      shown = text;
      write(`${CLEAR}${text}`);
    },
    done(text) {
      shown = '';
      write(`${CLEAR}${text}`);
    },
  };
}

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
export function watchAdvances(sandbox: Sandbox, out: Terminal | Write, now: () => number = () => performance.now()): () => void {
  const term = typeof out === 'function' ? terminal(out) : out;
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
        term.status(`advancing the clock: sandbox time ${clock.iso()}, ${scheduler.pending().toLocaleString('en')} jobs pending`);
        drawn = true;
      }
    } else if (since !== null) {
      if (drawn) term.done(`advanced the clock from ${from} to ${clock.iso()} in ${((now() - since) / 1000).toFixed(1)} s\n`);
      since = null;
      drawn = false;
    }
  };
  const timer = setInterval(tick, 250);
  timer.unref?.();
  return () => clearInterval(timer);
}
