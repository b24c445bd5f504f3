/**
 * Ordering and timing of attempts. Each endpoint has a queue: its attempts start in event order,
 * one at a time by default (`deliveryWindow` lets up to N run at once, still started in order);
 * different endpoints run concurrently, so one dead receiver costs one timeout, not one per
 * endpoint.
 *
 * In manual clock mode the clock must not pass the sandbox time at which an attempt started before
 * that attempt has finished (its retry time depends on its outcome). `Steps` keeps that promise
 * with one barrier job per sandbox time: every attempt started at time t joins the step of t, and
 * the barrier (a scheduler job at t, after the jobs that started them) waits for all of them
 * together. An advance over a hanging receiver therefore costs at most one attempt timeout per
 * retry step, however many endpoints are due at once.
 *
 * Only work the advance caused joins a step: attempts started by its jobs, and attempts started
 * before it (a barrier already on the clock). A request served while a barrier waits starts its
 * attempt at once but never joins the running advance, so traffic during an advance cannot keep
 * it from answering; `settle()` still waits for everything.
 */
import type { JobHandle, Scheduler } from '../../engine/scheduler.js';

const noop = (): void => undefined;

interface Lane {
  /** Attempts started and not finished. */
  active: number;
  /** Attempts waiting for a free slot, oldest first (`head` is the next one). */
  waiting: Array<() => void>;
  head: number;
}

export class EndpointQueues {
  /** Endpoint id -> its lane (dropped when idle). */
  private readonly lanes = new Map<string, Lane>();

  /**
   * `window()`: how many attempts to one endpoint may be in flight at once (default 1: one at a
   * time). Above 1, attempts still start in event order; a transport that keeps one connection
   * per origin and pipelines (the CLI's) also delivers them in that order.
   */
  constructor(private readonly window: () => number = () => 1) {}

  /** Runs `fn` once it is the endpoint's turn: after every attempt queued before it has started and a slot is free. */
  enqueue<T>(endpointId: string, fn: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const run = (): Promise<void> => {
        let p: Promise<T>;
        try {
          p = fn();
        } catch (error) {
          p = Promise.reject(error);
        }
        return p.then(resolve, (error: unknown) => reject(error));
      };
      this.schedule(endpointId, run, noop);
    });
  }

  /**
   * Like `enqueue` without a promise for the caller (the delivery path's: one attempt per event):
   * `fn` runs on the endpoint's turn, `onDone` once the promise it returns has settled.
   */
  schedule(endpointId: string, fn: () => Promise<unknown>, onDone: () => void): void {
    let lane = this.lanes.get(endpointId);
    if (lane === undefined) this.lanes.set(endpointId, (lane = { active: 0, waiting: [], head: 0 }));
    const own = lane;
    const release = (): void => {
      own.active--;
      this.next(endpointId, own);
      onDone();
    };
    own.waiting.push(() => {
      own.active++;
      // Started in a microtask, as before: the caller's synchronous work comes first.
      queueMicrotask(() => {
        let p: Promise<unknown>;
        try {
          p = fn();
        } catch (error) {
          p = Promise.reject(error);
        }
        p.then(release, release);
      });
    });
    this.next(endpointId, own);
  }

  private next(endpointId: string, lane: Lane): void {
    const window = Math.max(1, this.window());
    while (lane.active < window && lane.head < lane.waiting.length) {
      const run = lane.waiting[lane.head] as () => void;
      lane.waiting[lane.head++] = noop;
      run();
    }
    if (lane.head === lane.waiting.length) {
      lane.waiting.length = 0;
      lane.head = 0;
      if (lane.active === 0 && this.lanes.get(endpointId) === lane) this.lanes.delete(endpointId);
    } else if (lane.head > 1024 && lane.head * 2 > lane.waiting.length) {
      lane.waiting.splice(0, lane.head);
      lane.head = 0;
    }
  }
}

interface Step {
  at: number;
  /** Work not finished yet. */
  remaining: number;
  started: boolean;
  job: JobHandle | null;
  /** Wakes the barrier once the last work finishes (set while it waits). */
  wake: (() => void) | null;
}

export class Steps {
  /** The step whose barrier has not started yet (at most one: jobs run in time order). */
  private open: Step | null = null;
  /** Barriers waiting right now: requests served meanwhile are not part of the advance. */
  private waiting = 0;

  constructor(private readonly scheduler: Scheduler) {}

  /**
   * Whether code running now belongs to the clock's own work: a job of a running advance, or
   * nothing running at all (a request before any advance: the next advance waits for it).
   * False for a request served while an advance waits on a barrier.
   */
  ownsNow(): boolean {
    return !this.scheduler.running || this.waiting === 0;
  }

  /**
   * Makes the clock wait at `at` for one piece of work (manual mode); returns the function to
   * call once that work has finished (later calls do nothing).
   */
  hold(at: number, label: () => string): () => void {
    let step = this.open;
    if (step === null || step.at !== at) {
      const fresh: Step = { at, remaining: 0, started: false, job: null, wake: null };
      fresh.job = this.scheduler.at(at, `webhook attempts at ${new Date(at).toISOString()} (${label()})`, async () => {
        fresh.started = true;
        if (this.open === fresh) this.open = null;
        if (fresh.remaining === 0) return;
        this.waiting++;
        try {
          await new Promise<void>((resolve) => (fresh.wake = resolve));
        } finally {
          this.waiting--;
        }
      });
      this.open = step = fresh;
    }
    const held = step;
    held.remaining++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--held.remaining > 0) return;
      if (held.started) held.wake?.();
      else {
        // Work that finished before its barrier ran needs no barrier any more.
        held.job?.cancel();
        if (this.open === held) this.open = null;
      }
    };
  }
}
