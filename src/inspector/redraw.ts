/**
 * How the page's redraws run (main.ts's `refresh`): one at a time. A redraw asked for while one
 * runs (a tab clicked, an action done, the two-second tick) is never dropped and never run beside
 * it: it runs once, right after, and reads everything again. So an answer read before an action
 * (a reset, a restore) is never drawn after the redraw that action asked for; at worst the older
 * drawing shows until the next one replaces it. Every drawing is kept, even one superseded
 * meanwhile: on a slow machine a redraw can take longer than the tick, and dropping superseded
 * drawings would then draw nothing at all.
 */
export function oneAtATime(draw: () => Promise<void>): () => Promise<void> {
  let busy = false;
  /** Callers waiting for the next drawing (asked for while one ran). */
  let waiting: Array<() => void> = [];
  const run = async (): Promise<void> => {
    if (busy) return new Promise<void>((done) => waiting.push(done));
    busy = true;
    const covered = waiting;
    waiting = [];
    try {
      await draw();
    } finally {
      busy = false;
      for (const done of covered) done();
      if (waiting.length) void run();
    }
  };
  return run;
}
