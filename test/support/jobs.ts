/**
 * A test's own scheduled work: a job kind that calls a function the test holds (a job is data in
 * the engine, engine/scheduler.ts; a test's closure stays in the test, named by a number). A world
 * holding such a job cannot be saved faithfully: tests that save worlds use the areas' own jobs.
 */
import { jobKind } from '../../src/engine/job-kinds.js';
import type { Job, Scheduler } from '../../src/engine/scheduler.js';

const calls = new Map<number, () => void | Promise<void>>();
let next = 0;

const CALL = jobKind<number>('test.call', (_world, id) => {
  const fn = calls.get(id);
  calls.delete(id);
  return fn?.();
});

/** Schedules `fn` at sandbox time `at` on `scheduler` (`foreign`: see `Scheduler.at`). */
export function callAt(scheduler: Scheduler, at: number, label: string, fn: () => void | Promise<void>, foreign?: boolean): Job {
  const id = next++;
  calls.set(id, fn);
  return scheduler.at(at, CALL, id, label, foreign);
}

/** Schedules `fn` `delayMs` after the scheduler's clock reads now. */
export function callAfter(scheduler: Scheduler, delayMs: number, label: string, fn: () => void | Promise<void>): Job {
  const id = next++;
  calls.set(id, fn);
  return scheduler.after(delayMs, CALL, id, label);
}
