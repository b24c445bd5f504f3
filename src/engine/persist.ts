/**
 * A world's lasting form (docs/simulated/engine.md "Worlds that last"): how it was built (seed,
 * scenario, world options) plus the log of every input that changed it since, in the order they
 * were accepted: mutating requests (with the sandbox time they ran at), in-process clock advances
 * and the answers webhook receivers gave. The engine is deterministic, so building the same world
 * and replaying the same inputs gives the same world, byte for byte, and every area is covered
 * without an area having to say how to save its stores (see DECISIONS.md 2026-11-26).
 *
 * Each world has one `WorldLog` (`worldLogOf`): it records while the world is live, and while a
 * world is being rebuilt from a document it replays (receivers' answers come from the log, nothing
 * leaves the sandbox) until `goLive()`.
 */
import { fromBase64, toBase64 } from './bytes.js';
import { apiError } from './errors.js';
import type { EventSubscriber } from './events.js';
import type { SimRequest, SimResponse, Surface } from './http-types.js';
import type { World } from './world.js';

export const WORLD_FORMAT = 'health-sandbox-world';
export const WORLD_VERSION = 1;

/** What a world is built from before its log is replayed. */
export interface WorldBuild {
  seed: number;
  /** The scenario applied at build (its parsed form), or null. */
  scenario: unknown;
  users: number;
  usersElsewhere: number;
  limits: boolean;
  feed: 'auto' | 'on' | 'off';
  world: 'default' | 'empty';
  /** Sandbox time at build, epoch ms. */
  startAt: number;
  /** How lab orders move (absent: `clock`). */
  labsProgression?: 'clock' | 'manual';
}

/** A mutating request: `at` is the sandbox time it ran at; `b` the body (base64). */
export interface RequestEntry {
  k: 'req';
  at: number;
  m: string;
  s: Surface;
  p: string;
  q: Record<string, string[]>;
  h: Record<string, string>;
  b: string;
  /** Set when it arrived while an advance ran (e.g. a delivery to the sandbox's own receiver): replayed inside that advance. */
  d?: true;
}

/** An in-process clock advance (`sandbox.advance`), ms. */
export interface AdvanceEntry {
  k: 'adv';
  ms: number;
}

/** What a webhook receiver answered to one attempt (`key`: url, message id, nth call). */
export interface OutcomeEntry {
  k: 'out';
  key: string;
  /** The answer, or `e`: the transport's error message, or `t`: it timed out. */
  r?: { status: number; headers: Record<string, string>; body: string };
  /** The error's message, and its cause's code and message (what the attempt record says). */
  e?: { message: string; code?: string; cause?: string };
  t?: true;
}

/** `w`: the wall-clock reads made since the entry before (signature timestamps, latencies), replayed in order. */
export type LogEntry = (RequestEntry | AdvanceEntry | OutcomeEntry) & { w?: number[] };

export interface WorldDocument {
  format: typeof WORLD_FORMAT;
  version: number;
  build: WorldBuild;
  log: LogEntry[];
}

/**
 * Entries a live world keeps in memory (issue 27 item 5, docs/simulated/engine.md "Worlds that
 * last"): past it the in-memory copy is dropped and the world can no longer be saved from memory
 * (snapshots and `GET /_sandbox/world` answer 409); a state file still gets every entry. Without
 * it the log of a long-running server grows with every request and delivery for as long as it runs.
 */
export const WORLD_LOG_LIMIT = 50_000;

/** What the control plane shows of a snapshot. */
export interface SnapshotInfo {
  name: string;
  /** Sandbox time of the world when it was saved. */
  now: string;
  seed: number;
  /** Inputs replayed to restore it (requests, advances, receivers' answers). */
  inputs: number;
}

/** The sandbox's saved worlds, as the control routes reach them (`ctx.worlds`). */
export interface WorldControl {
  snapshot(name: string): SnapshotInfo;
  /** Resolves with the world now served. */
  restore(name: string): Promise<{ seed: number; now: string }>;
  list(): SnapshotInfo[];
  remove(name: string): boolean;
  export(): WorldDocument;
  import(doc: unknown): Promise<{ seed: number; now: string }>;
}

/** Where a live world's entries also go (the state file); synchronous: durable when it returns. */
export interface LogSink {
  append(entry: LogEntry): void;
}

/** Paths whose requests replace the world or the sandbox rather than change it: never logged. */
const UNLOGGED = ['/_sandbox/reset', '/_sandbox/scenario', '/_sandbox/snapshots', '/_sandbox/world'];

/** Kept of a receiver's body: more than an attempt record keeps (transport.ts RESPONSE_EXCERPT_BYTES). */
const BODY_KEPT = 2048;

/** The webhook transport's shape (state/webhooks/transport.ts), restated: the engine imports no area. */
interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}
type Transport = ((request: {
  url: string;
  method: 'POST';
  headers: Record<string, string>;
  body: string;
  signal: AbortSignal;
}) => Promise<Answer>) & {
  sharesSignals?: boolean;
};

export class WorldLog {
  readonly entries: LogEntry[];
  /** `replay` while the world is rebuilt from a document. */
  private mode: 'replay' | 'live';
  private readonly outcomes = new Map<string, OutcomeEntry>();
  private readonly calls = new Map<string, number>();
  /** Attempts the log has no answer for (in flight when it was saved): sent once live. */
  private deferred: Array<() => void> = [];
  /** Wall-clock reads not yet attached to an entry (live), or still to answer (replay). */
  private walls: number[] = [];
  private wallAt = 0;
  /** Outcomes handed out since the last `answered()`. */
  private handed = 0;
  sink: LogSink | null = null;
  /** Sandbox time each request in flight started at (its entry's `at`), and whether an advance was running. */
  private readonly started = new WeakMap<SimRequest, { at: number; during: boolean }>();
  /** While replaying: dispatches a logged request into the world being rebuilt. */
  replayDispatch: ((e: RequestEntry) => Promise<unknown>) | null = null;
  /** Requests that arrived during an advance, by log index, not replayed yet. */
  private readonly nested = new Map<number, RequestEntry>();
  private readonly outIndex = new Map<string, number>();
  /** Entries kept in memory at most (WORLD_LOG_LIMIT; a test may lower it). */
  limit = WORLD_LOG_LIMIT;
  /** Set once the in-memory log passed `limit` and was dropped: the world cannot be saved from memory. */
  overflowed = false;

  constructor(
    readonly build: WorldBuild,
    replaying: readonly LogEntry[] | null,
  ) {
    this.mode = replaying ? 'replay' : 'live';
    this.entries = replaying ? [...replaying] : [];
    if (replaying)
      for (const [i, e] of replaying.entries()) {
        if (e.k === 'out') {
          this.outcomes.set(e.key, e);
          this.outIndex.set(e.key, i);
        }
        if (e.k === 'req' && e.d) this.nested.set(i, e);
        if (e.w) this.walls.push(...e.w);
      }
  }

  /** A wall-clock read: recorded live; while replaying, answered from the log in the order it was read. */
  wallRead(raw: () => number): number {
    if (this.overflowed && this.sink === null) return raw();
    if (this.mode === 'replay') return this.wallAt < this.walls.length ? (this.walls[this.wallAt++] as number) : raw();
    const v = raw();
    this.walls.push(v);
    return v;
  }

  get replaying(): boolean {
    return this.mode === 'replay';
  }

  private add(entry: LogEntry): void {
    if (this.mode === 'replay') return;
    if (this.walls.length > 0) {
      entry.w = this.walls;
      this.walls = [];
    }
    if (!this.overflowed) {
      this.entries.push(entry);
      if (this.entries.length > this.limit) this.drop();
    }
    this.sink?.append(entry);
  }

  /** Past the limit: the in-memory entries go (a state file keeps them), and without a file what only they needed. */
  private drop(): void {
    this.overflowed = true;
    this.entries.length = 0;
    if (this.sink === null) this.calls.clear();
  }

  /** Notes when a request started (the time it is replayed at). */
  begin(req: SimRequest, at: number, during: boolean): void {
    this.started.set(req, { at, during });
  }

  /** Whether a replayed entry waits for the advance it arrived during (the attempt before whose answer it came dispatches it). */
  nestedAt(index: number): boolean {
    return this.nested.has(index);
  }

  /** Dispatches the nested requests logged before `limit` (all when undefined), in order. */
  async replayNested(limit = Number.POSITIVE_INFINITY): Promise<void> {
    for (const [i, e] of [...this.nested]) {
      if (i >= limit) break;
      this.nested.delete(i);
      await this.replayDispatch?.(e);
    }
  }

  /** Records a request dispatch answered, if it may have changed the world. */
  request(world: World, req: SimRequest, res: SimResponse, exchange: { route?: { auth: string }; faultId?: string }): void {
    if (!exchange.route || exchange.faultId !== undefined) return;
    const method = req.method.toUpperCase();
    // A read is logged when it answered: some reads hand out what later requests rely on (ids of
    // listed sleeps, OAuth sessions). Control-plane reads change nothing, but a test receiver's (it creates the receiver).
    const controlRead = exchange.route.auth === 'control' && !req.path.startsWith('/_sandbox/receiver/');
    if ((method === 'GET' || method === 'HEAD') && (res.status >= 400 || controlRead)) return;
    if (UNLOGGED.some((p) => req.path === p || req.path.startsWith(`${p}/`))) return;
    const start = this.started.get(req);
    this.add({
      ...(start?.during ? { d: true as const } : {}),
      k: 'req',
      at: start?.at ?? world.clock.now(),
      m: method,
      s: req.surface,
      p: req.path,
      q: req.query,
      h: req.headers,
      b: toBase64(req.rawBody),
    });
  }

  advance(ms: number): void {
    this.add({ k: 'adv', ms });
  }

  /** Whether outcomes were handed out since the last call (the replay then lets their attempts finish). */
  answered(): boolean {
    const had = this.handed > 0;
    this.handed = 0;
    return had;
  }

  /** The world's transport: records what receivers answer; while replaying, answers from the log. */
  transport(real: Transport): Transport {
    const wrapped: Transport = (request) => {
      // Nothing will replay this world from memory or from a file: its receivers' answers need no key.
      if (this.overflowed && this.sink === null && this.mode === 'live') return real(request);
      const id = request.headers['svix-id'] ?? request.headers['webhook-id'] ?? '';
      const base = `${request.url}\u241f${id}`;
      const n = (this.calls.get(base) ?? 0) + 1;
      this.calls.set(base, n);
      const key = `${base}\u241f${n}`;
      if (this.mode === 'replay') {
        const known = this.outcomes.get(key);
        if (known) {
          this.handed++;
          // What arrived while this attempt was out (its receiver's request, when it is the sandbox's own) first.
          const nested = this.replayNested(this.outIndex.get(key));
          if (known.r) return nested.then(() => known.r as Answer);
          if (known.e) return nested.then(() => Promise.reject(errorOf(known.e as NonNullable<OutcomeEntry['e']>)));
          return new Promise<Answer>(() => undefined); // it timed out: so it does again (send's deadline)
        }
        return new Promise<Answer>((resolve, reject) => this.deferred.push(() => this.live(real, request, key).then(resolve, reject)));
      }
      return this.live(real, request, key);
    };
    if (real.sharesSignals) wrapped.sharesSignals = true;
    return wrapped;
  }

  private live(real: Transport, request: Parameters<Transport>[0], key: string): Promise<Answer> {
    return real(request).then(
      (r) => {
        this.add({ k: 'out', key, r: { status: r.status, headers: r.headers, body: r.body.slice(0, BODY_KEPT) } });
        return r;
      },
      (error: unknown) => {
        if (request.signal.aborted) this.add({ k: 'out', key, t: true });
        else this.add({ k: 'out', key, e: describe(error) });
        throw error;
      },
    );
  }

  /** A file sink that appends nothing while replaying (the lines were written the first time). */
  fileSink<S extends { append(name: string, text: string): Promise<void> }>(real: S | null): S | null {
    if (real === null) return null;
    return { ...real, append: (name: string, text: string) => (this.mode === 'replay' ? Promise.resolve() : real.append(name, text)) };
  }

  /** In-process subscribers hear nothing while replaying (they heard it the first time). */
  subscriber(real: EventSubscriber): EventSubscriber {
    return (entry, partition) => {
      if (this.mode === 'live') real(entry, partition);
    };
  }

  /** Ends the replay: from now on inputs are recorded, and attempts the log had no answer for are sent. */
  goLive(): void {
    if (this.mode === 'live') return;
    this.mode = 'live';
    this.walls = [];
    const waiting = this.deferred;
    this.deferred = [];
    for (const go of waiting) go();
  }

  document(): WorldDocument {
    if (this.overflowed)
      throw apiError(
        409,
        `This world accepted more than ${this.limit} inputs: its log is no longer kept in memory, so it cannot be saved (reset starts a new one; a --state-file keeps every input)`,
      );
    return { format: WORLD_FORMAT, version: WORLD_VERSION, build: this.build, log: [...this.entries] };
  }
}

const logs = new WeakMap<World, WorldLog>();

export function attachWorldLog(world: World, log: WorldLog): void {
  logs.set(world, log);
}

export function worldLogOf(world: World): WorldLog | undefined {
  return logs.get(world);
}

/** The request an entry records. */
export function entryRequest(e: RequestEntry): SimRequest {
  return { method: e.m, surface: e.s, path: e.p, query: e.q, headers: e.h, rawBody: fromBase64(e.b) };
}

function describe(error: unknown): NonNullable<OutcomeEntry['e']> {
  if (!(error instanceof Error)) return { message: String(error) };
  const cause = (error as { cause?: unknown }).cause;
  const out: NonNullable<OutcomeEntry['e']> = { message: error.message };
  if (cause instanceof Error) out.cause = cause.message;
  if (typeof cause === 'object' && cause !== null && 'code' in cause) out.code = String((cause as { code: unknown }).code);
  return out;
}

function errorOf(e: NonNullable<OutcomeEntry['e']>): Error {
  if (e.cause === undefined && e.code === undefined) return new Error(e.message);
  const cause = e.cause === undefined ? {} : new Error(e.cause);
  if (e.code !== undefined) Object.assign(cause, { code: e.code });
  return new Error(e.message, { cause });
}
