/**
 * Ordering and timing of attempts. Each endpoint has a lane: its attempts start in the order they
 * were queued (event order), one at a time by default (`deliveryWindow` lets up to N run at once,
 * still started in order); different endpoints run concurrently, so one dead receiver costs one
 * timeout, not one per endpoint.
 *
 * In manual clock mode the clock must not pass the sandbox time at which an attempt started before
 * that attempt has finished (its retry time depends on its outcome). `Steps` keeps that promise
 * with one barrier job per sandbox time: every attempt started at time t joins the step of t, and
 * the barrier (a scheduler job at t, after the jobs that started them) waits for all of them
 * together. An advance over a hanging receiver therefore costs at most one attempt timeout per
 * retry step, however many endpoints are due at once (and, with the timeout breaker of
 * `backlog.ts`, however many messages wait for each).
 *
 * Only work the advance caused joins a step: attempts started by its jobs, and attempts started
 * before it (a barrier already on the clock). These are the clock's own attempts. A request served
 * while a barrier waits, or a job such a request scheduled that the same advance now runs
 * (`Scheduler.foreignNow`), starts a *deferred* attempt: it never joins the running advance, and in
 * its endpoint's lane it must not delay the clock's own attempts either, however many such
 * requests arrive. So each lane keeps two queues:
 *
 * - While an advance runs (the scheduler is running), the lane starts the clock's own attempts
 *   first, each group in its own order, and gives them their own window: up to N own attempts in
 *   flight whatever deferred attempts are in flight too (so during an advance up to 2N attempts to
 *   one endpoint can be in flight). A deferred attempt starts only when no own attempt is waiting
 *   and fewer than N attempts are in flight. An own attempt therefore never waits for a deferred
 *   one in the lane: the advance costs only its own attempts' time (a transport that pipelines
 *   over one connection, the CLI's, can still make it wait for the at most N deferred attempts
 *   ahead on that connection: at most one attempt timeout).
 * - While no advance runs, whatever is queued starts in queue order again (both queues merged by
 *   the order they were queued), at most N in flight.
 *
 * Per-endpoint order, exactly: attempts to one endpoint start in the order they were queued,
 * except that while an advance runs an own attempt can start before deferred attempts queued
 * earlier (by requests served during that advance or an earlier one) that have not started yet.
 * Own attempts keep their order among themselves, deferred ones among themselves. In realtime
 * mode nothing is deferred; in manual mode with no advance running nothing new is deferred and
 * whatever waits starts in queue order: order is then strict.
 */
import { jobKind } from '../../engine/job-kinds.js';
import type { JobHandle, Scheduler } from '../../engine/scheduler.js';

const noop = (): void => undefined;

/** Attempts waiting in one lane, oldest first, each with its queue number. */
class Fifo {
  private runs: Array<() => void> = [];
  private seqs: number[] = [];
  private head = 0;

  get empty(): boolean {
    return this.head === this.runs.length;
  }

  get size(): number {
    return this.runs.length - this.head;
  }

  /** Queue number of the oldest waiting attempt (only when not empty). */
  get first(): number {
    return this.seqs[this.head] as number;
  }

  push(seq: number, run: () => void): void {
    this.runs.push(run);
    this.seqs.push(seq);
  }

  shift(): () => void {
    const run = this.runs[this.head] as () => void;
    this.runs[this.head++] = noop;
    if (this.head === this.runs.length) {
      this.runs.length = 0;
      this.seqs.length = 0;
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.runs.length) {
      this.runs.splice(0, this.head);
      this.seqs.splice(0, this.head);
      this.head = 0;
    }
    return run;
  }
}

interface Lane {
  /** Attempts started and not finished. */
  active: number;
  /** Of those, the clock's own. */
  ownActive: number;
  /** The clock's own attempts waiting (and every attempt when nothing is deferred). */
  own: Fifo;
  /** Attempts queued by requests served while an advance waited at a barrier. */
  deferred: Fifo;
}

export class EndpointQueues {
  /** Endpoint id -> its lane (dropped when idle). */
  private readonly lanes = new Map<string, Lane>();
  /** Queue numbers: the order attempts were queued in, across both queues of a lane. */
  private seq = 0;

  /**
   * `window(endpointId)`: how many attempts to that endpoint may be in flight at once (default 1:
   * one at a time; `delivery-window.ts`). Above 1, attempts still start in queue order; a
   * transport that keeps one connection per endpoint and pipelines (the CLI's) also delivers them
   * in that order. `advancing()`: whether an advance is running now (own attempts go first).
   */
  constructor(
    private readonly window: (endpointId: string) => number = () => 1,
    private readonly advancing: () => boolean = () => false,
  ) {}

  /**
   * Runs `fn` once it is the endpoint's turn (see the top of this file); `own` false for a
   * deferred attempt.
   */
  enqueue<T>(endpointId: string, fn: () => Promise<T>, own = true): Promise<T> {
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
      this.schedule(endpointId, run, noop, own);
    });
  }

  /**
   * Like `enqueue` without a promise for the caller (the delivery path's: one attempt per event):
   * `fn` runs on the endpoint's turn, `onDone` once the promise it returns has settled.
   */
  schedule(endpointId: string, fn: () => Promise<unknown>, onDone: () => void, own = true): void {
    let lane = this.lanes.get(endpointId);
    if (lane === undefined) this.lanes.set(endpointId, (lane = { active: 0, ownActive: 0, own: new Fifo(), deferred: new Fifo() }));
    const at = lane;
    const release = (): void => {
      at.active--;
      if (own) at.ownActive--;
      this.next(endpointId, at);
      onDone();
    };
    (own ? at.own : at.deferred).push(this.seq++, () => {
      at.active++;
      if (own) at.ownActive++;
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
    this.next(endpointId, at);
  }

  /** Attempts waiting for their turn, the clock's own and deferred (for diagnostics: visits every busy lane). */
  waiting(): { own: number; deferred: number } {
    let own = 0;
    let deferred = 0;
    for (const lane of this.lanes.values()) {
      own += lane.own.size;
      deferred += lane.deferred.size;
    }
    return { own, deferred };
  }

  private next(endpointId: string, lane: Lane): void {
    const window = Math.max(1, this.window(endpointId));
    const { own, deferred } = lane;
    if (deferred.empty) {
      // The common case (no advance waited while requests came): one queue, strict order.
      while (lane.active < window && !own.empty) own.shift()();
    } else if (this.advancing()) {
      while (lane.ownActive < window && !own.empty) own.shift()();
      while (lane.active < window && own.empty && !deferred.empty) deferred.shift()();
    } else {
      while (lane.active < window) {
        if (own.empty && deferred.empty) break;
        const from = own.empty ? deferred : deferred.empty ? own : own.first < deferred.first ? own : deferred;
        from.shift()();
      }
    }
    if (lane.active === 0 && own.empty && deferred.empty && this.lanes.get(endpointId) === lane) this.lanes.delete(endpointId);
  }
}

interface Held {
  endpointId: string;
  release: () => void;
}

interface Step {
  at: number;
  /** Work not finished yet. */
  remaining: number;
  /** The work not finished yet, by endpoint (so a wait cut short knows whom it gave up on). */
  held: Set<Held>;
  started: boolean;
  /** Wall time the step's barrier started waiting, or its last piece of work finished since (see `Steps`). */
  progress: number;
  /** Wall ms of the barrier's wait between pieces of work finishing less than PROGRESS_MS apart (not charged). */
  productive: number;
  job: JobHandle | null;
  /** Wakes the barrier once the last work finishes (set while it waits). */
  wake: (() => void) | null;
}

/**
 * What one advance may still wait for (see `Steps`): its first wait opens a window of
 * FIRST_SHARE of an attempt timeout; once it is over, later barriers share LATE_SHARE of one.
 */
interface RunBudget {
  run: number;
  /** Wall time the first window ends (set by the first barrier that waits). */
  deadline: number | null;
  /** Wall ms of waiting left after the deadline. */
  late: number;
  /**
   * The advance's *waiting clock*: wall ms its barriers waited on work that had stopped finishing
   * (`deadline` is on this clock). Time between barriers (the advance's own CPU) and time a
   * barrier waited while its work kept finishing do not move it.
   */
  waited: number;
  /** Endpoints the advance gave up waiting for: their later attempts in this advance are not awaited. */
  trouble: Set<string>;
}

const FIRST_SHARE = 0.8;
const LATE_SHARE = 0.2;
/** A barrier whose work finished a piece within this many wall ms (at most a twentieth of the timeout) is making progress. */
const PROGRESS_MS = 250;

/**
 * The clock's barriers (manual mode), bounded per advance (issue 27): an advance waits for its
 * own attempts at most one attempt timeout in all, whatever receivers do. Its first barrier that
 * has to wait opens a window of FIRST_SHARE of the attempt timeout; attempts still in flight when
 * a barrier's window ends are *given up*: the barrier stops waiting for them (they keep running;
 * their outcome is recorded when it arrives and their retry goes on the simulated schedule) and
 * their endpoint is *in trouble* for the rest of the advance: its later attempts in this advance
 * start but are never awaited. After the first window, barriers share what is left (LATE_SHARE of
 * the timeout) for endpoints not in trouble (a failing endpoint that answers at once keeps getting
 * every attempt due in the window). So endpoints in trouble time out side by side, once per
 * advance, not once per retry step nor once per message.
 */
/**
 * The clock's barrier at one sandbox time: it waits for the attempts in flight (runtime work: a
 * world is saved only when none is, engine/world-state.ts, so no saved world holds one).
 */
const BARRIER = jobKind<{ steps: Steps; step: Step }>('webhooks.barrier', (_world, { steps, step }) => steps.barrier(step));

/** What a barrier asks of a saved world's replay (engine/persist.ts `WorldLog`). */
export interface ReplayAnswers {
  gone(): boolean;
  whenGone(fn: () => void): void;
}

export class Steps {
  /** The step whose barrier has not started yet (at most one: jobs run in time order). */
  private open: Step | null = null;
  private budget: RunBudget = { run: 0, deadline: null, late: 0, waited: 0, trouble: new Set() };

  constructor(
    private readonly scheduler: Scheduler,
    private readonly wall: () => number = () => 0,
    private readonly timeoutMs: () => number = () => Number.POSITIVE_INFINITY,
    /** A saved world's replay: whether it gave back every answer it holds, and a call once it has (engine/persist.ts). */
    private readonly replay: ReplayAnswers | null = null,
  ) {}

  /**
   * Whether code running now belongs to the clock's own work: a job of a running advance, or
   * nothing running at all (a request before any advance: the next advance waits for it).
   * False for a request served while an advance waits on a barrier, and for a job that such a
   * request scheduled and the same advance now runs (`Scheduler.foreignNow`).
   */
  ownsNow(): boolean {
    return !this.scheduler.foreignNow();
  }

  /** The running advance's budget (a fresh one for each advance). */
  private current(): RunBudget {
    const run = this.scheduler.run;
    if (this.budget.run !== run) this.budget = { run, deadline: null, late: LATE_SHARE * this.timeoutMs(), waited: 0, trouble: new Set() };
    return this.budget;
  }

  /**
   * Whether no barrier is pending and the running advance gave up on no endpoint (a checkpoint
   * here loses nothing: a world restored from it replays the rest of the advance with a fresh
   * budget, as a world replayed from its build always did).
   */
  pristine(): boolean {
    return this.open === null && (this.budget.run !== this.scheduler.run || this.budget.trouble.size === 0);
  }

  /** Whether the running advance gave up waiting for this endpoint (its attempts are not awaited). */
  inTrouble(endpointId: string): boolean {
    return this.scheduler.run !== 0 && this.current().trouble.has(endpointId);
  }

  /**
   * Makes the clock wait at `at` for one piece of work to `endpointId` (manual mode); returns the
   * function to call once that work has finished (later calls do nothing), or null when the
   * running advance no longer waits for that endpoint.
   */
  hold(at: number, label: () => string, endpointId = ''): (() => void) | null {
    if (this.inTrouble(endpointId)) return null;
    let step = this.open;
    if (step === null || step.at !== at) {
      const fresh: Step = { at, remaining: 0, held: new Set(), started: false, progress: 0, productive: 0, job: null, wake: null };
      fresh.job = this.scheduler.at(
        at,
        BARRIER,
        { steps: this, step: fresh },
        `webhook attempts at ${new Date(at).toISOString()} (${label()})`,
      );
      this.open = step = fresh;
    }
    const held = step;
    held.remaining++;
    let released = false;
    const item: Held = {
      endpointId,
      release: () => {
        if (released) return;
        released = true;
        held.held.delete(item);
        if (held.started) this.progressed(held);
        if (--held.remaining > 0) return;
        if (held.started) held.wake?.();
        else {
          // Work that finished before its barrier ran needs no barrier any more.
          held.job?.cancel();
          if (this.open === held) this.open = null;
        }
      },
    };
    held.held.add(item);
    return item.release;
  }

  /** A piece of a waiting step's work finished: the gap since the last counts as progress when short. */
  private progressed(step: Step): void {
    const now = this.wall();
    const gap = now - step.progress;
    if (gap < Math.min(PROGRESS_MS, this.timeoutMs() / 20)) step.productive += gap;
    step.progress = now;
  }

  /**
   * A step's barrier: waits for its work within the advance's budget, gives up on the rest. The
   * budget is kept on the advance's waiting clock (`RunBudget.waited`): the gaps between pieces of
   * work finishing less than PROGRESS_MS apart are not charged, so a receiver that keeps
   * answering, however many attempts a long advance gives it, is never given up; a receiver that
   * hangs, or answers slower than that, uses the budget as before.
   */
  async barrier(step: Step): Promise<void> {
    step.started = true;
    if (this.open === step) this.open = null;
    if (step.remaining === 0) return;
    // A replay that gave back every answer it holds: what is still out was in flight at the save (sent once live).
    if (this.replay?.gone()) return;
    const budget = this.current();
    const start = this.wall();
    step.progress = start;
    const timeout = this.timeoutMs();
    const w0 = budget.waited;
    if (budget.deadline === null && Number.isFinite(timeout)) budget.deadline = w0 + FIRST_SHARE * timeout;
    const progressMs = Math.min(PROGRESS_MS, timeout / 20);
    const deadline = budget.deadline;
    /**
     * Waiting-clock ms this barrier may still wait when the waiting clock reads `w`: a barrier
     * that starts within the first window waits to its end, a later one shares the late part.
     */
    const left = (w: number): number => {
      if (deadline === null) return Number.POSITIVE_INFINITY;
      return w0 < deadline ? deadline - w : budget.late - (w - w0);
    };
    /** The waiting clock at wall time `now`: this wait less its productive part (a short trailing gap counts as one). */
    const waitingAt = (now: number): number => {
      const trailing = now - step.progress;
      return w0 + Math.max(0, now - start - step.productive - (trailing < progressMs ? trailing : 0));
    };
    let timer: ReturnType<typeof setTimeout> | undefined;
    await new Promise<void>((resolve) => {
      step.wake = resolve;
      this.replay?.whenGone(resolve);
      const check = (): void => {
        const more = left(waitingAt(this.wall()));
        if (more <= 0) resolve();
        else timer = setTimeout(check, Math.max(1, more));
      };
      const limit = left(w0);
      if (limit <= 0) resolve();
      else if (Number.isFinite(limit)) timer = setTimeout(check, limit);
    });
    if (timer !== undefined) clearTimeout(timer);
    step.wake = null;
    // A barrier of the first window charges at most that window (its timer may fire late on a busy machine).
    const w = deadline !== null && w0 < deadline ? Math.min(waitingAt(this.wall()), deadline) : waitingAt(this.wall());
    budget.waited = w;
    if (deadline !== null && w0 >= deadline) budget.late = Math.max(0, budget.late - (w - w0));
    // Given up: whatever is still in flight is no longer awaited, and neither is its endpoint in this advance.
    for (const item of [...step.held]) {
      budget.trouble.add(item.endpointId);
      item.release();
    }
  }
}
