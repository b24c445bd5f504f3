/**
 * Runs due jobs in (time, sequence) order when the clock moves. Lab-order progression,
 * historical pulls, new wearable data, deletion grace periods, webhook retries and
 * secret-rotation grace all run here. Runs are serialised: one job at a time, awaited.
 *
 * A job is data (issue 47): a kind (`jobKind`, registered once by the module that runs it) and
 * its arguments, so a world's pending jobs are saved with its state (engine/world-codec.ts) and
 * rebuilt by a world loaded from it. The arguments are state like a store's: plain data, or the
 * store objects the job works on (saved as references to them).
 */
import type { Clock } from './clock.js';
import { dataClass } from './world-codec.js';

/**
 * A kind of scheduled job: its name (what a saved world names it by) and what it runs, with its
 * world (`W`: engine/world.ts's World; engine/job-kinds.ts `jobKind` registers kinds typed with it),
 * its arguments and the job itself.
 */
export interface JobKind<A, W = never> {
  readonly name: string;
  readonly run: (world: W, args: A, job: Job) => void | Promise<void>;
}

const KINDS = new Map<string, JobKind<never, never>>();

/** Registers a kind of job (once per name, at module load). */
export function registerJobKind<A, W>(kind: JobKind<A, W>): JobKind<A, W> {
  KINDS.set(kind.name, kind as unknown as JobKind<never, never>);
  return kind;
}

/** The job kinds registered so far. */
export function jobKindNames(): string[] {
  return [...KINDS.keys()];
}

/** What a job is: when, its place among jobs due at once, what it shows, its kind and arguments. */
interface JobSpec {
  at: number;
  seq: number;
  label: string;
  kind: string;
  args: unknown;
  /**
   * The run (advance) whose requests caused this job, or -1: a job scheduled by a request served
   * while that run waited (or by such a job) is not that run's own work (`foreignNow`).
   */
  taint: number;
}

/** One scheduled job (its handle: `cancel()`). */
export class Job implements JobSpec {
  /** `pending` until it runs or is cancelled. */
  state: 'pending' | 'cancelled' | 'done' = 'pending';
  readonly at: number;
  readonly seq: number;
  readonly label: string;
  readonly kind: string;
  readonly args: unknown;
  readonly taint: number;
  constructor(
    readonly owner: Scheduler,
    spec: JobSpec,
  ) {
    this.at = spec.at;
    this.seq = spec.seq;
    this.label = spec.label;
    this.kind = spec.kind;
    this.args = spec.args;
    this.taint = spec.taint;
  }

  cancel(): void {
    this.owner.cancel(this);
  }

  /** What a canonical dump of the world shows of a store's job handle (engine/snapshot.ts): when, and what. */
  toJSON(): { at: number; label: string } {
    return { at: this.at, label: this.label };
  }
}
dataClass('Job', Job);

/** What a saved scheduler holds (with the world's state). */
export interface SchedulerState {
  seq: number;
  jobs: Job[];
}

/** Cancelled jobs tolerated in the heap before it is rebuilt without them (and at most half of it). */
export const CANCELLED_SLACK = 1024;

export type JobHandle = Pick<Job, 'at' | 'label' | 'cancel'>;

export class Scheduler {
  private readonly heap: Job[] = [];
  private seq = 0;
  private chain: Promise<void> = Promise.resolve();
  private depth = 0;
  /** Jobs in the heap that will still run. */
  private live = 0;
  /** Counts runs (advances): names the run a foreign job belongs to. */
  private epoch = 0;
  /** The job whose synchronous part is running now, if any. */
  private current: Job | null = null;
  /** The world whose jobs these are (what a job's kind runs with). */
  private world: unknown = null;

  constructor(
    private readonly clock: Clock,
    private readonly onError: (label: string, error: unknown) => void = () => undefined,
  ) {}

  /** Binds the scheduler to its world (engine/build-world.ts, once). */
  attach(world: object): void {
    this.world = world;
  }

  /**
   * Schedules a job of `kind` with `args` at sandbox time `at` (epoch ms). `foreign` (default
   * `foreignNow()`): the job is not the running advance's own work (it still runs when due; see
   * `foreignNow`).
   */
  at<A, W>(at: number, kind: JobKind<A, W>, args: A, label: string = kind.name, foreign: boolean = this.foreignNow()): Job {
    if (!KINDS.has(kind.name)) throw new Error(`Job kind ${kind.name} is not registered`);
    const job = new Job(this, { at, seq: this.seq++, label, kind: kind.name, args, taint: foreign && this.depth > 0 ? this.epoch : -1 });
    this.push(job);
    this.live++;
    return job;
  }

  /** Schedules a job of `kind` `delayMs` after the current sandbox time. */
  after<A, W>(delayMs: number, kind: JobKind<A, W>, args: A, label?: string): Job {
    return this.at(this.clock.now() + Math.max(0, delayMs), kind, args, label);
  }

  /** The pending jobs and the sequence counter, as the world's state saves them (the jobs are data). */
  save(): SchedulerState {
    return { seq: this.seq, jobs: this.heap.filter((j) => j.state === 'pending').sort(compare) };
  }

  /** Puts saved jobs back (a world loaded from its state; nothing runs meanwhile). */
  load(state: SchedulerState): void {
    this.heap.length = 0;
    // A job's taint names a run of the world it was saved from: none runs in this one yet.
    for (const job of [...state.jobs].sort(compare)) this.heap.push(Object.assign(job, { taint: -1 }));
    this.live = this.heap.length;
    this.seq = state.seq;
  }

  /** Number of pending (not cancelled) jobs. */
  pending(): number {
    return this.live;
  }

  /** Jobs held in the heap, cancelled ones not yet dropped included (bounded: see `cancel`). */
  held(): number {
    return this.heap.length;
  }

  /** Pending jobs, soonest first (for the control plane). */
  list(limit = 100): Array<{ at: number; label: string }> {
    return this.heap
      .filter((j) => j.state === 'pending')
      .sort(compare)
      .slice(0, limit)
      .map((j) => ({ at: j.at, label: j.label }));
  }

  /** Moves the clock forward by `ms`, running every job that falls due, in order. */
  advance(ms: number): Promise<void> {
    return this.serial(async () => {
      const target = this.clock.base() + Math.max(0, ms);
      await this.drain(target);
      const now = this.clock.base();
      if (target > now) this.clock.shift(target - now);
    });
  }

  /** Runs every job already due at the current time (realtime mode, or zero-delay jobs). */
  runDue(): Promise<void> {
    if (!this.hasDue()) return Promise.resolve();
    return this.serial(() => this.drain(this.clock.base()));
  }

  /** The run (advance) in progress, numbered from 1; 0 when none runs. */
  get run(): number {
    return this.depth > 0 ? this.epoch : 0;
  }

  /** Whether a run is in progress (a request made by a running job must not wait for it). */
  get running(): boolean {
    return this.depth > 0;
  }

  /**
   * Whether code running now is foreign to the running advance: a request served (or an I/O
   * callback run) while the advance waits, or a job such code scheduled that this same advance
   * now runs. False outside advances and inside the advance's own jobs (their synchronous part:
   * what an async job does after its first `await` counts as foreign). The webhook area keeps
   * the advance from waiting for what foreign code starts (docs/simulated/webhooks.md).
   */
  foreignNow(): boolean {
    if (this.depth === 0) return false;
    const job = this.current;
    return job === null || job.taint === this.epoch;
  }

  /** Whether a job is due now. */
  hasDue(): boolean {
    const top = this.heap[0];
    return top !== undefined && top.at <= this.clock.base();
  }

  private serial(task: () => Promise<void>): Promise<void> {
    const run = this.chain.then(async () => {
      this.depth++;
      this.epoch++;
      try {
        await task();
      } finally {
        this.depth--;
      }
    });
    this.chain = run.catch(() => undefined);
    return run;
  }

  private async drain(target: number): Promise<void> {
    for (;;) {
      const top = this.heap[0];
      if (top === undefined || top.at > target) break;
      this.pop();
      if (top.state !== 'pending') continue;
      top.state = 'done';
      this.live--;
      const now = this.clock.base();
      if (top.at > now) this.clock.shift(top.at - now);
      this.clock.pin(top.at);
      try {
        let result: void | Promise<void>;
        this.current = top;
        try {
          const kind = KINDS.get(top.kind);
          if (kind === undefined) throw new Error(`No job kind ${top.kind} to run it`);
          result = kind.run(this.world as never, top.args as never, top);
        } finally {
          this.current = null;
        }
        await result;
      } catch (error) {
        this.onError(top.label, error);
      } finally {
        this.clock.pin(null);
      }
      this.betweenJobs?.(target);
    }
  }

  /**
   * Called between two jobs of a run with the run's target time (the world's log may save the
   * world's state there: engine/persist-log.ts, a long advance's checkpoint).
   */
  betweenJobs: ((target: number) => void) | null = null;

  /** Whether a pending job is foreign to the running advance (see `foreignNow`): the advance's state is then not all in its jobs. */
  foreignPending(): boolean {
    if (this.depth === 0) return false;
    return this.heap.some((j) => j.state === 'pending' && j.taint === this.epoch);
  }

  /**
   * Cancels a pending job. Its heap slot is reclaimed lazily: when cancelled jobs outnumber both
   * CANCELLED_SLACK and the live ones, the heap is rebuilt without them (amortised O(1) per cancel),
   * so a world that keeps scheduling and cancelling does not grow.
   */
  cancel(job: Job): void {
    if (job.state !== 'pending') return;
    job.state = 'cancelled';
    this.live--;
    const dead = this.heap.length - this.live;
    if (dead > CANCELLED_SLACK && dead > this.live) {
      const kept = this.heap.filter((j) => j.state === 'pending').sort(compare);
      this.heap.length = 0;
      for (const j of kept) this.heap.push(j);
    }
  }

  private push(job: Job): void {
    const h = this.heap;
    h.push(job);
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const parent = h[p] as Job;
      if (compare(parent, job) <= 0) break;
      h[i] = parent;
      i = p;
    }
    h[i] = job;
  }

  private pop(): Job | undefined {
    const h = this.heap;
    const top = h[0];
    const last = h.pop();
    if (h.length === 0 || last === undefined) return top;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      let best = last;
      const left = h[l];
      const right = h[r];
      if (left !== undefined && compare(left, best) < 0) {
        m = l;
        best = left;
      }
      if (right !== undefined && compare(right, best) < 0) {
        m = r;
        best = right;
      }
      if (m === i) break;
      h[i] = best;
      i = m;
    }
    h[i] = last;
    return top;
  }
}

function compare(a: Job, b: Job): number {
  return a.at - b.at || a.seq - b.seq;
}
