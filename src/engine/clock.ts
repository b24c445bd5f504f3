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
  /** Starts held at `startAt` (a realtime clock runs from `releaseDrift()`): a world being built. */
  held?: boolean;
}

export class Clock {
  readonly mode: ClockMode;
  readonly scale: number;
  private readonly source: () => number;
  /**
   * Sees every wall-clock read made through `wall()` or a `wallFor` reader, with the reader's key
   * (a world's log records them, or answers them while replaying).
   */
  private wallHook: ((raw: () => number, key?: string) => number) | null = null;
  private readonly startAt: number;
  private wallStart: number;
  /** While a world is rebuilt from its log, the realtime drift is held (time moves only as the log says). */
  private heldDrift: number | null = null;
  private offsetMs = 0;
  /** While a scheduled job runs, `now()` answers the job's due time. */
  private pinned: number | null = null;

  constructor(options: ClockOptions) {
    this.mode = options.mode;
    this.scale = options.scale;
    this.source = options.wall;
    this.startAt = options.startAt;
    this.wallStart = options.mode === 'realtime' ? options.wall() : 0;
    if (options.held) this.heldDrift = 0;
  }

  /** Wall-clock time (webhook signature timestamps, latencies): through the hook when one is set. Bound: it is passed around. */
  readonly wall = (): number => (this.wallHook ? this.wallHook(this.source) : this.source());

  /**
   * The wall clock itself, past the hook: for timing that never reaches an answer (an attempt's
   * deadline), so it takes no read from a saved world's replayed ones.
   */
  readonly rawWall = (): number => this.source();

  /**
   * A wall-clock reader for one piece of work (a webhook attempt), keyed to it: a saved world's
   * replay answers each key its own reads, in the order they were made under that key, whatever
   * order pieces of work in flight at once finished in. The key names the work in this world
   * (the same on replay), e.g. message, endpoint and attempt number.
   */
  wallFor(key: string): () => number {
    return () => (this.wallHook ? this.wallHook(this.source, key) : this.source());
  }

  setWallHook(hook: ((raw: () => number, key?: string) => number) | null): void {
    this.wallHook = hook;
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
    return Math.floor(this.startAt + this.offsetMs + this.drift());
  }

  private drift(): number {
    if (this.mode !== 'realtime') return 0;
    return this.heldDrift ?? (this.source() - this.wallStart) * this.scale;
  }

  /** Holds realtime drift: the clock moves only by `shift` until `releaseDrift` (a world being replayed). */
  holdDrift(): void {
    if (this.heldDrift === null) this.heldDrift = this.drift();
  }

  /** Lets realtime drift run again from where it was held (time paused while held does not jump). */
  releaseDrift(): void {
    if (this.heldDrift === null) return;
    this.wallStart = this.source() - this.heldDrift / this.scale;
    this.heldDrift = null;
  }

  /** Moves sandbox time forward by `ms` (never backwards). */
  shift(ms: number): void {
    if (ms > 0) this.offsetMs += ms;
  }

  /** The sandbox time a saved world keeps (engine/world-state.ts). */
  saveState(): { base: number } {
    return { base: this.base() };
  }

  /** Moves a world being loaded to its saved sandbox time (its drift is held meanwhile). */
  loadState(state: { base: number }): void {
    this.offsetMs = state.base - this.startAt - this.drift();
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
