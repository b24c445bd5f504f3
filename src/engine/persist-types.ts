/** The saved world's shapes (engine/persist.ts): its build, its log entries, its document. */
import type { Surface } from './http-types.js';

export const WORLD_FORMAT = 'health-sandbox-world';
/** 2: wall-clock reads keyed to the work that made them (`wk`); 1 (read, kept as it is): every read in one ordered stream. */
export const WORLD_VERSION = 2;
/** Versions this build reads (docs/simulated/engine.md "Versions"). */
export const WORLD_VERSIONS: readonly number[] = [1, 2];

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
