/**
 * The virtual clock of one sandbox. `manual` moves only when advanced (tests); `realtime`
 * follows an injected wall clock, optionally scaled (the local sandbox). Handlers read time
 * only from here.
 */
export type ClockMode = 'manual' | 'realtime';

interface ClockOptions {
  mode: ClockMode;
  /** Sandbox time at creation, epoch milliseconds. */
  startAt: number;
  /** Sandbox seconds per wall second in realtime mode. */
  scale: number;
  /** Wall clock source; only used in realtime mode (and for webhook signature timestamps). */
  wall: () => number;
}

export class Clock {
  readonly mode: ClockMode;
  readonly scale: number;
  readonly wall: () => number;
  private readonly startAt: number;
  private readonly wallStart: number;
  private offsetMs = 0;
  /** While a scheduled job runs, `now()` answers the job's due time. */
  private pinned: number | null = null;

  constructor(options: ClockOptions) {
    this.mode = options.mode;
    this.scale = options.scale;
    this.wall = options.wall;
    this.startAt = options.startAt;
    this.wallStart = options.mode === 'realtime' ? options.wall() : 0;
  }

  /** Current sandbox time, epoch milliseconds. */
  now(): number {
    if (this.pinned !== null) return this.pinned;
    return this.base();
  }

  /** Current sandbox time as an ISO string. */
  iso(): string {
    return new Date(this.now()).toISOString();
  }

  /** Sandbox time ignoring any pin. */
  base(): number {
    const drift = this.mode === 'realtime' ? (this.wall() - this.wallStart) * this.scale : 0;
    return Math.floor(this.startAt + this.offsetMs + drift);
  }

  /** Moves sandbox time forward by `ms` (never backwards). */
  shift(ms: number): void {
    if (ms > 0) this.offsetMs += ms;
  }

  /** Pins `now()` to a time while a job runs; `null` unpins. */
  pin(at: number | null): void {
    this.pinned = at;
  }
}

/** The clock's time as ISO, formatted once per instant (a feed tick emits thousands of events at one instant). */
export function isoNow(clock: { now(): number }): () => string {
  let at = Number.NaN;
  let text = '';
  return () => {
    const now = clock.now();
    if (now !== at) {
      text = new Date(now).toISOString();
      at = now;
    }
    return text;
  };
}
