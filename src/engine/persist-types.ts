/** The saved world's shapes (engine/persist.ts): its build, its log entries, its document. */
import type { Surface } from './http-types.js';

export const WORLD_FORMAT = 'health-sandbox-world';
/**
 * 3: the world's saved state (`state`, engine/world-state.ts) and the inputs since it; 2: the build
 * and every input, wall-clock reads keyed to the work that made them (`wk`); 1: every read in one
 * ordered stream. 1 and 2 are read by replaying their log (and a world restored from a version 1
 * document keeps writing version 1).
 */
export const WORLD_VERSION = 3;
/** Versions this build reads (docs/simulated/engine.md "Versions"). */
export const WORLD_VERSIONS: readonly number[] = [1, 2, 3];

/** A world's state as saved (engine/world-state.ts): the form's version and the state in it. */
export interface SavedState {
  form: number;
  state: unknown;
}

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

/**
 * Wall-clock reads made since the entry before: `wk`, by the key of the work that read them (a
 * webhook attempt's signature timestamp and latency, `Clock.wallFor`), replayed to that work in
 * the order it read them; `w`, the unkeyed ones (an advance's barrier, a test receiver's
 * verification; in a version 1 document, all of them), replayed in the order they were read.
 */
/**
 * Wall-clock reads alone, written when work read the wall clock and no other entry followed before
 * an answer left (an attempt's latency, read after its receiver's answer was logged): so a kill
 * right after that answer keeps them.
 */
export interface WallsEntry {
  k: 'wall';
}

export type LogEntry = (RequestEntry | AdvanceEntry | OutcomeEntry | WallsEntry) & { w?: number[]; wk?: Record<string, number[]> };

export interface WorldDocument {
  format: typeof WORLD_FORMAT;
  version: number;
  build: WorldBuild;
  /** Version 3: the world's state when it was saved; `log` holds the inputs since (absent: since the build). */
  state?: SavedState;
  log: LogEntry[];
  /**
   * What stores that change on requests the log does not keep saved at the save (engine/store-state.ts),
   * by store key; loaded over the replayed world. Absent: none had any.
   */
  stores?: Record<string, unknown>;
}

/**
 * Entries a live world keeps in memory (issue 27 item 5, docs/simulated/engine.md "Worlds that
 * last"): past it the in-memory copy is dropped and the world can no longer be saved from memory
 * (snapshots and `GET /_sandbox/world` answer 409); a state file still gets every entry. Without
 * it the log of a long-running server grows with every request and delivery for as long as it runs.
 */
export const WORLD_LOG_LIMIT = 50_000;

/**
 * Bytes of entries (their JSON) a live world keeps in memory (issue 40 item 1): past it the
 * in-memory log is dropped as past WORLD_LOG_LIMIT (saving from memory answers 409 naming it).
 */
export const WORLD_LOG_BYTES = 64 * 1024 * 1024;

/**
 * Largest one input the world log takes (its JSON, the body base64): a request whose entry would
 * be larger is refused with 413 before its handler runs (nothing applied). A body the routes
 * ignore is still kept whole (the replay needs the bytes that were sent). 16 MiB: a lab report
 * upload takes files up to 10 MB as the real one does (13.4 MiB in base64), so every body the
 * sandbox accepts fits; what bounds the memory is WORLD_LOG_BYTES (and STATE_FILE_BYTES).
 */
export const WORLD_ENTRY_BYTES = 16 * 1024 * 1024;

/**
 * Largest state file (`--state-file`): an input that would take the file past it is refused with
 * 413 before its handler runs; a reset, scenario load, restore or import starts the file again.
 */
export const STATE_FILE_BYTES = 256 * 1024 * 1024;

/**
 * Bytes of inputs a state file takes after its checkpoint before it is compacted (issue 47): at the
 * next quiet moment the file is written again as the world's state and no inputs (a temporary
 * file, fsync, rename: a kill at any point leaves the old file or the new one, each whole).
 */
export const STATE_FILE_COMPACT_BYTES = 8 * 1024 * 1024;

/**
 * What a world document may ask for (issue 40 item 3): the same bounds as the CLI (`--users`,
 * `--seed`) and `POST /_sandbox/clock/advance` (one advance at most 366 days), a start time a
 * date can show, and what a live world keeps in memory (entries, bytes; a state file may hold
 * more entries, within STATE_FILE_BYTES). test/persistence/document-limits.test.ts checks them
 * against the CLI's and the route's.
 */
export const DOCUMENT_LIMITS = {
  users: 1_000_000,
  usersElsewhere: 1_000_000,
  seedMin: -2147483648,
  seedMax: 2147483647,
  advanceMs: 366 * 86_400 * 1000,
  /** 1970-01-01 to 9999-12-31 (ISO strings of four-digit years). */
  startAtMin: 0,
  startAtMax: 253_402_300_799_999,
  entries: WORLD_LOG_LIMIT,
  bytes: WORLD_LOG_BYTES,
} as const;

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

/**
 * Where a live world's entries also go (the state file); synchronous: durable when it returns.
 * An entry it cannot make durable (or that would pass its size) throws a LogSinkError and leaves
 * the sink as it was before the call.
 */
export interface LogSink {
  /** Appends an entry; answers the bytes it wrote (what the state file's compaction counts), when it knows them. */
  append(entry: LogEntry): number | undefined;
  /** Records the stores' state (engine/store-state.ts) when it changed on a request the log did not keep. */
  checkpoint?(stores: Record<string, unknown> | undefined): void;
  /** Takes back the last entry appended (its handler refused it); false when it cannot (the entry stays). */
  retract?(): boolean;
  /**
   * Writes a whole world (its state and the inputs since), replacing what the sink held,
   * atomically; `sameWorld`: the world the sink holds, compacted (a failure leaves the sink taking
   * inputs as before, where a new world's failure makes it refuse them).
   */
  write?(doc: WorldDocument, sameWorld?: boolean): void;
}

/** Why a sink did not take an entry: 413 (a limit, named) or 503 (the cause, named). */
export class LogSinkError extends Error {
  constructor(
    readonly status: 413 | 503,
    message: string,
  ) {
    super(message);
  }
}

/** About the bytes of a request entry's JSON (no JSON is built: counted on every write). */
export function entrySize(e: RequestEntry): number {
  let n = 64 + e.p.length + e.b.length;
  for (const name in e.h) n += name.length + (e.h[name] as string).length + 6;
  for (const key in e.q) for (const v of e.q[key] as string[]) n += key.length + v.length + 6;
  return n;
}
