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
import { fromBase64 } from './bytes.js';
import type { EventSubscriber } from './events.js';
import type { SimRequest } from './http-types.js';
import { LogCore } from './persist-log.js';
import { type World, worldSlot } from './world.js';

export * from './persist-types.js';

import type { LogEntry, OutcomeEntry, RequestEntry, SavedState, WorldBuild } from './persist-types.js';
import { WORLD_VERSION } from './persist-types.js';

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

export class WorldLog extends LogCore {
  private readonly outcomes = new Map<string, OutcomeEntry>();
  /** Attempts the log has no answer for (in flight when it was saved): sent once live. */
  private deferred: Array<() => void> = [];
  private wallAt = 0;
  /** Keyed wall-clock reads still to answer (replay), by key. */
  private keyed = new Map<string, number[]>();
  /** Whether reads are keyed (version 2); a world restored from a version 1 document keeps one ordered stream all its life. */
  private readonly keyedReads: boolean;
  /** Outcomes handed out since the last `answered()`. */
  private handed = 0;
  /** While replaying: dispatches a logged request into the world being rebuilt. */
  replayDispatch: ((e: RequestEntry) => Promise<unknown>) | null = null;
  /** Requests that arrived during an advance, by log index, not replayed yet. */
  private readonly nested = new Map<number, RequestEntry>();
  private readonly outIndex = new Map<string, number>();
  /** The log indexes of receivers' answers, in order, and how many were given back: answers are given back in log order. */
  private readonly outOrder: number[] = [];
  private readonly outPos = new Map<number, number>();
  private outTurn = 0;
  private valveArmed = false;
  /** Answers asked for before their turn (an attempt that finished after another that started later), by log index. */
  private readonly heldOuts = new Map<number, () => void>();
  constructor(
    build: WorldBuild,
    replaying: readonly LogEntry[] | null,
    version: number = WORLD_VERSION,
    checkpoint: SavedState | null = null,
  ) {
    super(build, replaying, version, checkpoint);
    this.keyedReads = version >= 2;
    if (replaying)
      for (const [i, e] of replaying.entries()) {
        if (e.k === 'out') {
          this.outcomes.set(e.key, e);
          this.outIndex.set(e.key, i);
          this.outPos.set(i, this.outOrder.length);
          this.outOrder.push(i);
        }
        if (e.k === 'req' && e.d) this.nested.set(i, e);
        if (e.w) this.walls.push(...e.w);
        for (const [key, reads] of Object.entries(e.wk ?? {})) {
          const known = this.keyed.get(key);
          if (known) known.push(...reads);
          else this.keyed.set(key, [...reads]);
        }
      }
  }

  /**
   * A wall-clock read (`key`: the work that made it, see `Clock.wallFor`): recorded live; while
   * replaying, answered from the log: a keyed read from that key's reads in order, others in the
   * order they were read. A read the log has no answer for reads the wall clock.
   */
  wallRead(raw: () => number, key?: string): number {
    if (this.overflowed && this.sink === null) return raw();
    const keyed = key !== undefined && this.keyedReads;
    if (this.mode === 'replay') {
      if (!keyed) return this.wallAt < this.walls.length ? (this.walls[this.wallAt++] as number) : raw();
      return this.keyed.get(key)?.shift() ?? raw();
    }
    const v = raw();
    if (!keyed) this.walls.push(v);
    else {
      const pending = (this.pendingKeyed ??= Object.create(null) as Record<string, number[]>);
      const reads = pending[key];
      if (reads !== undefined) reads.push(v);
      else pending[key] = [v];
    }
    return v;
  }

  get replaying(): boolean {
    return this.mode === 'replay';
  }

  /** Whether a replayed entry waits for the advance it arrived during (the attempt before whose answer it came dispatches it). */
  nestedAt(index: number): boolean {
    return this.nested.has(index);
  }

  /**
   * Dispatches the nested requests logged before `limit` (all when undefined), in order. Several
   * attempts in flight at once (a delivery window above 1) ask at once: each request is
   * dispatched by the first that takes it, never twice.
   */
  async replayNested(limit = Number.POSITIVE_INFINITY): Promise<void> {
    for (const [i, e] of [...this.nested]) {
      if (i >= limit) break;
      if (!this.nested.delete(i)) continue;
      await this.replayDispatch?.(e);
    }
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
      // Counted by url, then id: no joined string built and kept per attempt (the id is the message's own).
      let byId = this.calls.get(request.url);
      if (byId === undefined) this.calls.set(request.url, (byId = new Map()));
      const n = (byId.get(id) ?? 0) + 1;
      byId.set(id, n);
      const key = `${request.url}\u241f${id}\u241f${n}`;
      if (this.mode === 'replay') {
        const known = this.outcomes.get(key);
        if (known) {
          this.handed++;
          // What arrived while this attempt was out (its receiver's request, when it is the sandbox's own) first,
          // then its answer in its turn: after the answers logged before it (attempts finish in the order they did).
          const index = this.outIndex.get(key) as number;
          return new Promise<Answer>((resolve, reject) => {
            const answer = (): void => {
              if (known.r) resolve(known.r);
              else if (known.e) reject(errorOf(known.e));
              // else it timed out: so it does again (send's deadline)
            };
            void this.replayNested(index).then(() => this.turn(index, answer));
          });
        }
        return new Promise<Answer>((resolve, reject) => this.deferred.push(() => this.live(real, request, key).then(resolve, reject)));
      }
      return this.live(real, request, key);
    };
    if (real.sharesSignals) wrapped.sharesSignals = true;
    return wrapped;
  }

  /** Gives an answer back (`go`) once every answer logged before it (`index`) was given back. */
  private turn(index: number, go: () => void): void {
    if ((this.outPos.get(index) ?? 0) < this.outTurn) return go(); // its turn was passed over: at once
    this.heldOuts.set(index, go);
    this.pump();
    this.armValve();
  }

  /**
   * While replaying: whether every answer the log holds was given back. An attempt still out then
   * has none (it was in flight when the world was saved): it is sent once the world is served, and
   * the replayed advance does not wait for it (state/webhooks/endpoint-queue.ts `Steps`).
   */
  answersGone(): boolean {
    return this.mode === 'replay' && this.outTurn >= this.outOrder.length && this.heldOuts.size === 0;
  }

  private goneWaiters: Array<() => void> = [];

  /** While replaying: calls `fn` once every answer the log holds was given back (or the replay is over); live, never. */
  whenAnswersGone(fn: () => void): void {
    if (this.mode !== 'replay') return;
    if (this.answersGone()) fn();
    else this.goneWaiters.push(fn);
  }

  private answersMaybeGone(): void {
    if (this.goneWaiters.length === 0 || (this.mode === 'replay' && !this.answersGone())) return;
    const waiting = this.goneWaiters;
    this.goneWaiters = [];
    for (const fn of waiting) fn();
  }

  private pump(): void {
    for (;;) {
      const next = this.outOrder[this.outTurn];
      const ready = next === undefined ? undefined : this.heldOuts.get(next);
      if (next === undefined || !ready) {
        this.answersMaybeGone();
        return;
      }
      this.heldOuts.delete(next);
      this.outTurn++;
      ready();
    }
  }

  /**
   * Answers held for one whose attempt has not come within a macrotask (the replay went another
   * way, e.g. an advance gave up on an attempt at another point) stop waiting for it: the turn
   * moves on to the first answer asked for. A faithful replay asks for every answer in the
   * microtasks of the work that made the attempts, so this only bounds an unfaithful one.
   */
  private armValve(): void {
    if (this.valveArmed || this.heldOuts.size === 0) return;
    this.valveArmed = true;
    const at = this.outTurn;
    setTimeout(() => {
      this.valveArmed = false;
      if (this.outTurn === at && this.heldOuts.size > 0) {
        this.outTurn = this.outPos.get(Math.min(...this.heldOuts.keys())) as number;
        this.pump();
      }
      this.armValve();
    }, 0);
  }

  /** Whether no answer is held for its turn (a replay may then let the event loop turn without moving the turn on). */
  get idle(): boolean {
    return this.heldOuts.size === 0;
  }

  /** The replay is over: answers still waiting for one whose attempt never came are given back, in log order. */
  releaseHeld(): void {
    const waiting = [...this.heldOuts].sort((x, y) => x[0] - y[0]);
    this.heldOuts.clear();
    this.outTurn = this.outOrder.length;
    for (const [, go] of waiting) go();
    this.answersMaybeGone();
  }

  /** The headers the last answer logged had, and their names in order: a receiver answers the same ones over and over (its `date` changes once a second). */
  private lastHeaders: Record<string, string> = {};
  private lastNames: string[] = [];

  /** `headers`, or the last answer's object when it holds the same names and values in the same order (the log keeps one copy, the same JSON). */
  private shared(headers: Record<string, string>): Record<string, string> {
    const last = this.lastHeaders;
    const names = this.lastNames;
    let i = 0;
    for (const name in headers) {
      if (names[i] !== name || last[name] !== headers[name]) return this.remember(headers);
      i++;
    }
    return i === names.length ? last : this.remember(headers);
  }

  private remember(headers: Record<string, string>): Record<string, string> {
    this.lastHeaders = headers;
    this.lastNames = Object.keys(headers);
    return headers;
  }

  private live(real: Transport, request: Parameters<Transport>[0], key: string): Promise<Answer> {
    return real(request).then(
      (r) => {
        this.safeAdd({ k: 'out', key, r: { status: r.status, headers: this.shared(r.headers), body: r.body.slice(0, BODY_KEPT) } });
        return r;
      },
      (error: unknown) => {
        if (request.signal.aborted) this.safeAdd({ k: 'out', key, t: true });
        else this.safeAdd({ k: 'out', key, e: describe(error) });
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
    this.answersMaybeGone();
    this.walls = [];
    this.keyed = new Map();
    this.pendingKeyed = null;
    const waiting = this.deferred;
    this.deferred = [];
    for (const go of waiting) go();
  }
}

/** The world's log, when it has one (beside its state: never part of its snapshot). */
const logSlot = worldSlot('world log', (): { log?: WorldLog } => ({}), 'aside');

export function attachWorldLog(world: World, log: WorldLog): void {
  logSlot(world).log = log;
  log.world = world;
  world.scheduler.betweenJobs = (target) => log.midAdvance(target);
}

export function worldLogOf(world: World): WorldLog | undefined {
  return logSlot(world).log;
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
