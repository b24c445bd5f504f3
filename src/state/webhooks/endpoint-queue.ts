/**
 * Ordering and timing of attempts. Each endpoint has a queue: its attempts run one at a time, in
 * event order; different endpoints run concurrently, so one dead receiver costs one timeout, not
 * one per endpoint.
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

export class EndpointQueues {
  /** Endpoint id -> the tail of its attempt queue. */
  private readonly tails = new Map<string, Promise<void>>();

  /** Runs `fn` after every attempt already queued for the endpoint. */
  enqueue<T>(endpointId: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.tails.get(endpointId) ?? Promise.resolve();
    const next = prev.then(fn);
    const tail = next.then(noop, noop);
    this.tails.set(endpointId, tail);
    void tail.then(() => {
      if (this.tails.get(endpointId) === tail) this.tails.delete(endpointId);
    });
    return next;
  }
}

interface Step {
  at: number;
  work: Set<Promise<unknown>>;
  /** Work not finished yet. */
  remaining: number;
  started: boolean;
  job: JobHandle | null;
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

  /** Makes the clock wait at `at` for `work` (manual mode). */
  hold(at: number, label: string, work: Promise<unknown>): void {
    let step = this.open;
    if (step === null || step.at !== at) {
      const fresh: Step = { at, work: new Set(), remaining: 0, started: false, job: null };
      fresh.job = this.scheduler.at(at, `webhook attempts at ${new Date(at).toISOString()} (${label})`, async () => {
        fresh.started = true;
        if (this.open === fresh) this.open = null;
        this.waiting++;
        try {
          await Promise.all(fresh.work);
        } finally {
          this.waiting--;
        }
      });
      this.open = step = fresh;
    }
    const held = step;
    held.remaining++;
    const settled = work.then(noop, noop).then(() => {
      // Work that finished before its barrier ran needs no barrier any more.
      if (--held.remaining === 0 && !held.started) {
        held.job?.cancel();
        if (this.open === held) this.open = null;
      }
    });
    held.work.add(settled);
  }
}
