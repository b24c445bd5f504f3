/**
 * The request journal (design.md rule 14): the most recent requests the sandbox answered, in a
 * bounded ring, recorded through dispatch's `observe` seam. Recording is cheap on purpose: a
 * small record holding references (headers, and the bodies of errors, or of every request with
 * `bodies`), with times kept as numbers, filled in place once the ring is full (a request leaves
 * nothing for the young-generation collector to promote); masking, decoding and formatting happen
 * only when the journal is read (`journal-view.ts`). Near misses of a 404/405 no route matched are computed
 * when the record is first read (`journal-near.ts`), never on the request path. The ring is
 * bounded in entries (`size`) and in the bytes of the bodies it keeps (BODY_BUDGET: past it the
 * oldest records lose their bodies, which a read says). The journal is the sandbox's, not the world's: it survives
 * `/_sandbox/reset` and scenario loads (it is what happened), and nothing in it ever changes an
 * API answer.
 */
import type { Exchange } from './dispatch.js';
import type { SimRequest, SimResponse } from './http-types.js';
import type { Route } from './route.js';
import { type World, worldSlot } from './world.js';
import { JournalRecord, type RequestRecord } from './journal-record.js';

export type { RequestRecord } from './journal-record.js';

/**
 * The sandbox's journal, kept across its worlds (`kept` slot: every world of a sandbox shares one
 * `kept` map); empty in a world built without a sandbox.
 */
const JOURNAL = worldSlot<RequestJournal | null>('request-journal', () => null, 'kept');

/** Options of the request journal (`createSandbox({ requests })`, CLI `--request-log-size`, `--request-log-bodies`). */
export interface RequestLogOptions {
  /** Most recent requests kept (default 1000; 0 records nothing). */
  size?: number;
  /** Keep request and response bodies of every request, not only of 4xx/5xx answers (default false). */
  bodies?: boolean;
  /** Wall clock, epoch ms (default: the sandbox's `wallClock`, itself `Date.now` by default). */
  wallClock?: () => number;
  /** A monotonic timer in ms for durations (default `performance.now`, given by `createSandbox`). */
  timer?: () => number;
}

const REQUEST_LOG_DEFAULT_SIZE = 1000;
/** Bytes of one body kept in the journal; the rest is cut (the record says how long it was). */
export const BODY_CAP = 64 * 1024;
/** Bytes of bodies the whole ring keeps: past it the oldest records' bodies are let go (their sizes stay). */
export const BODY_BUDGET = 4 * 1024 * 1024;
/** Header a client sends to keep its requests out of the journal and out of the fault rules (the inspector's own requests). */
export const QUIET_HEADER = 'x-sandbox-inspector';
/** Longest monotonic span the default wall clock is derived over before it is read again (ms). */
const WALL_RESYNC_MS = 1000;

type RequestListener = (record: RequestRecord) => void;

/** The journal a sandbox keeps across its worlds. */
export class RequestJournal {
  readonly size: number;
  readonly bodies: boolean;
  private readonly ring: Array<JournalRecord | undefined>;
  private next = 0;
  private seq = 0;
  private readonly listeners: RequestListener[] = [];
  private lastHeaders: Record<string, string> | undefined;
  private lastNames: string[] = [];
  private lastBody: Uint8Array | undefined;
  private readonly emptyQuery: Record<string, string[]> = {};
  private readonly wallClock: () => number;
  private readonly timer: () => number;
  /** The wall time is derived from the timer between readings of the wall clock (`wallAt`). */
  private readonly wallFromTimer: boolean;
  private wallOrigin = 0;
  private monoOrigin = Number.NEGATIVE_INFINITY;
  private lastMethod = '';
  private lastUpper = '';
  /** Records holding bodies, oldest first (from `bodiesHead`), and the bytes they hold. */
  private withBodies: JournalRecord[] = [];
  private bodiesHead = 0;
  private bodyBytes = 0;

  constructor(
    options: RequestLogOptions &
      Required<Pick<RequestLogOptions, 'wallClock' | 'timer'>> & {
        /** The wall clock and the timer are the defaults (`Date.now`, `performance.now`): the wall time may be derived from the timer. */
        defaultClocks?: boolean;
      },
    /** The sandbox's current world (sandbox time) and its route table (near misses). */
    private readonly env: { readonly world: World; readonly router: { readonly routes: readonly Route[] } },
  ) {
    const size = options.size ?? REQUEST_LOG_DEFAULT_SIZE;
    if (!Number.isInteger(size) || size < 0 || size > 1_000_000) throw new Error(`requests.size must be 0 to 1000000, got ${size}`);
    this.size = size;
    this.bodies = options.bodies ?? false;
    this.ring = new Array<JournalRecord | undefined>(size);
    this.wallClock = options.wallClock;
    this.timer = options.timer;
    this.wallFromTimer = options.defaultClocks === true;
  }

  /** Whether the journal records anything (size > 0, or someone listens). */
  get active(): boolean {
    return this.size > 0 || this.listeners.length > 0;
  }

  /** Requests recorded since the sandbox started (the last id's number). */
  get recorded(): number {
    return this.seq;
  }

  /** The time a request starts at (its duration counts from here; `Exchange.startedMs`), when recording. */
  begin(): number | undefined {
    return this.active ? this.timer() : undefined;
  }

  /** The `observe` hook of dispatch: records one answered request. */
  readonly observe = (req: SimRequest, res: SimResponse, exchange: Exchange): void => {
    if (!this.active || skipped(req)) return;
    const started = exchange.startedMs;
    const end = started !== undefined || this.wallFromTimer ? this.timer() : 0;
    const keep = this.bodies || res.status >= 400;
    const dropped = res.drop === true;
    const record = this.recordToFill();
    record.seq = ++this.seq;
    record.at = this.env.world.clock.now();
    record.wallAt = this.wallFromTimer ? this.wallAt(end) : this.wallClock();
    record.durationMs = started === undefined ? 0 : end - started;
    record.method = this.upper(req.method);
    record.surface = req.surface;
    record.path = req.path;
    record.query = this.sameQuery(req.query);
    record.routeId = exchange.route?.id ?? null;
    record.teamId = exchange.teamId ?? null;
    record.environment = exchange.environment ?? null;
    record.status = dropped ? null : res.status;
    record.dropped = dropped;
    record.headers = this.sameHeaders(req.headers);
    record.responseType = dropped ? null : (res.headers['content-type'] ?? null);
    // Lengths as `length`: the same for bytes, and a plain read (a typed array's `byteLength` is a call).
    record.requestBytes = req.rawBody.length;
    record.responseBytes = dropped ? 0 : res.body.length;
    record.bodiesDropped = false;
    record.invalid = exchange.invalid ?? null;
    record.faultId = exchange.faultId ?? null;
    record.fault = exchange.fault ?? null;
    const unmatched = exchange.route === undefined && (res.status === 404 || res.status === 405);
    record.unmatchedIn(unmatched ? this.env.router.routes : undefined);
    record.requestBody = keep ? capped(req.rawBody) : undefined;
    record.responseBody = keep && !dropped ? this.sameBody(res.body) : undefined;
    if (this.size > 0) {
      this.ring[this.next] = record;
      this.next = (this.next + 1) % this.size;
      if (keep) this.holdBodies(record);
    }
    // A late answer is told to the listeners once the adapter waited (its duration is then the client's).
    if (res.delayMs !== undefined && res.delayMs > 0) {
      record.shared = true;
      exchange.waited = (waitedMs) => {
        if (record.fault !== null) record.fault.waitedMs = waitedMs;
        if (started !== undefined) record.durationMs = this.timer() - started;
        for (const listener of this.listeners) listener(record);
      };
      return;
    }
    if (this.listeners.length === 0) return;
    record.shared = true;
    for (const listener of this.listeners) listener(record);
  };

  /**
   * The record the next request fills: the one leaving the ring (its bodies let go), unless it was
   * handed out, then a new one. Filling in place keeps the ring's records old: a request then
   * leaves nothing behind for the young-generation collector to copy and promote.
   */
  private recordToFill(): JournalRecord {
    const old = this.size > 0 ? this.ring[this.next] : undefined;
    if (old === undefined) return new JournalRecord();
    if (old.requestBody !== undefined || old.responseBody !== undefined) {
      // The queue of records holding bodies is in ring order: one leaving the ring is its head.
      if (this.withBodies[this.bodiesHead] === old) this.bodiesHead++;
      this.bodyBytes -= keptBytes(old);
      old.requestBody = undefined;
      old.responseBody = undefined;
    }
    return old.shared ? new JournalRecord() : old;
  }

  /**
   * Wall time, epoch ms, at the monotonic reading `now` when the wall clock is the default one:
   * the wall clock read once a second at most, monotonic time added to that reading in between
   * (the wall clock is read exactly for every request when a caller gave one).
   */
  private wallAt(now: number): number {
    if (now - this.monoOrigin >= WALL_RESYNC_MS || now < this.monoOrigin) {
      this.wallOrigin = this.wallClock();
      this.monoOrigin = now;
    }
    return Math.floor(this.wallOrigin + (now - this.monoOrigin));
  }

  /** A request's method upper-cased (the last one remembered: a client sends the same methods). */
  private upper(method: string): string {
    if (method !== this.lastMethod) {
      this.lastMethod = method;
      this.lastUpper = method.toUpperCase();
    }
    return this.lastUpper;
  }

  /** Counts a record's bodies against BODY_BUDGET, letting the oldest bodies go past it. */
  private holdBodies(record: JournalRecord): void {
    const bytes = keptBytes(record);
    if (bytes === 0) return;
    this.withBodies.push(record);
    this.bodyBytes += bytes;
    while (this.bodyBytes > BODY_BUDGET && this.bodiesHead < this.withBodies.length) {
      const oldest = this.withBodies[this.bodiesHead++] as JournalRecord;
      // A record overwritten in the ring was taken off the count then (its bodies let go).
      const bytes = keptBytes(oldest);
      if (bytes === 0) continue;
      this.bodyBytes -= bytes;
      oldest.requestBody = undefined;
      oldest.responseBody = undefined;
      oldest.bodiesDropped = true;
    }
    if (this.bodiesHead >= 1024 && this.bodiesHead * 2 > this.withBodies.length) {
      this.withBodies = this.withBodies.slice(this.bodiesHead);
      this.bodiesHead = 0;
    }
  }

  /** Bytes of bodies the ring holds now (at most BODY_BUDGET). */
  get heldBodyBytes(): number {
    return this.bodyBytes;
  }

  /**
   * The headers to keep for a request: the previous record's object when they are the same names
   * and values (a client sends the same head again and again), so what the ring keeps alive is
   * one object, not one per request (each kept object is copied by every young-generation
   * collection until it is old: the journal's main cost under load).
   */
  private sameHeaders(headers: Record<string, string>): Record<string, string> {
    const last = this.lastHeaders;
    if (last !== undefined && sameEntries(headers, last, this.lastNames)) return last;
    this.lastHeaders = headers;
    this.lastNames = Object.keys(headers);
    return headers;
  }

  /**
   * The response body to keep: the previous one when it has the same bytes and is short (a client
   * repeating a refused request gets the same error again), so a stream of errors keeps one body
   * alive, not one per request.
   */
  private sameBody(bytes: Uint8Array): Uint8Array | undefined {
    const last = this.lastBody;
    const n = bytes.length;
    if (n <= 512 && last !== undefined && last.length === n && sameBytes(last, bytes, n)) return last;
    const kept = capped(bytes);
    this.lastBody = kept;
    return kept;
  }

  /** The query to keep: one shared object for every request without one (most). */
  private sameQuery(query: Record<string, string[]>): Record<string, string[]> {
    for (const _ in query) return query;
    return this.emptyQuery;
  }

  /** Records, newest first. */
  *newestFirst(): Generator<RequestRecord> {
    for (let i = 1; i <= this.size; i++) {
      const record = this.ring[(this.next - i + this.size) % this.size];
      if (record === undefined) return;
      record.shared = true; // the reader may keep it: it is never filled again
      yield record;
    }
  }

  /** Calls `fn` with every request recorded from now on (the terminal log); answers the unsubscribe. */
  subscribe(fn: RequestListener): () => void {
    this.listeners.push(fn);
    return () => {
      const i = this.listeners.indexOf(fn);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  /** Forgets every record (numbering goes on). */
  clear(): void {
    this.ring.fill(undefined);
    this.next = 0;
    this.withBodies = [];
    this.bodiesHead = 0;
    this.bodyBytes = 0;
    this.lastBody = undefined;
  }
}

/** Whether `a` has the names of `b` (`names`, in its order), in the same order, with the same values. */
function sameEntries(a: Record<string, string>, b: Record<string, string>, names: readonly string[]): boolean {
  let i = 0;
  for (const name in a) {
    if (names[i] !== name || a[name] !== b[name]) return false;
    i++;
  }
  return i === names.length;
}

/** The journal's own reads and the inspector's polling are not recorded (they would drown the rest). */
function skipped(req: SimRequest): boolean {
  if (req.headers[QUIET_HEADER] !== undefined) return true;
  const { path } = req;
  return path.startsWith('/_sandbox/') && (path.startsWith('/_sandbox/requests') || path.startsWith('/_sandbox/ui'));
}

/** Whether `a` and `b` (both `n` long) hold the same bytes. */
function sameBytes(a: Uint8Array, b: Uint8Array, n: number): boolean {
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Bytes of the bodies a record holds. */
function keptBytes(record: RequestRecord): number {
  return (record.requestBody?.length ?? 0) + (record.responseBody?.length ?? 0);
}

/** A body as kept: a copy when it is a view of a larger buffer (a pool it would keep alive) or too long. */
function capped(bytes: Uint8Array): Uint8Array | undefined {
  const n = bytes.length;
  if (n === 0) return undefined;
  if (n > BODY_CAP) return bytes.slice(0, BODY_CAP);
  return n === bytes.buffer.byteLength ? bytes : bytes.slice();
}

/** Registers a sandbox's journal in its worlds' `kept` slot (one map all the sandbox's worlds share). */
export function keepJournal(world: World, journal: RequestJournal): void {
  JOURNAL.put(world, journal);
}

/** The journal of the sandbox this world belongs to (absent in a world built without one). */
export function journalOf(world: World): RequestJournal | undefined {
  return JOURNAL.peek(world) ?? undefined;
}
