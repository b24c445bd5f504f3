/**
 * One attempt's parts that need no delivery state (`delivery.ts` runs the attempt): what is sent
 * (headers signed at the attempt's wall time, the sandbox time it starts at) and the record the
 * attempt log keeps of it. Split from the delivery engine's `attempt` (issue 26 item 7).
 */
import { keyedToken } from '../../engine/ids.js';
import type { World } from '../../engine/world.js';
import { recordedHeaders, signedHeaders, type AttemptRecord, type Destination, type Trigger } from './message.js';
import type { SendOutcome } from './transport.js';
import { isSensitiveHeader, type WebhookEndpoint } from './webhooks.js';

/** The ISO string of the last instant asked (attempts started together share their instant). */
let isoAt = Number.NaN;
let isoText = '';
function isoOf(ms: number): string {
  if (ms !== isoAt) {
    isoText = new Date(ms).toISOString();
    isoAt = ms;
  }
  return isoText;
}

/** What one attempt sends, and when it starts. */
export interface Sending {
  /**
   * The sandbox time the attempt starts at: its retry is counted from it, even when the outcome
   * arrives after the clock moved on (an advance that gave up waiting for it, see `Steps`).
   */
  startedAt: number;
  /** The signature timestamp (wall-clock Unix seconds). */
  timestamp: number;
  /** Wall ms the attempt started at (its latency is counted from it). */
  wallStart: number;
  headers: Record<string, string>;
  /** This attempt's wall clock: its reads are keyed to it, so a saved world's replay gives each attempt its own (engine/persist.ts). */
  wall: () => number;
}

/** Signs the attempt of `dest`'s message to `ep` now (`skewSeconds`: a stale timestamp fault, that many seconds in the past). */
export function prepareSending(world: World, dest: Destination, ep: WebhookEndpoint, keys: string[], skewSeconds = 0): Sending {
  const { clock } = world;
  const startedAt = clock.now();
  const wall = clock.wallFor(`attempt\u241f${dest.message.id}\u241f${ep.id}\u241f${dest.attempts.length}`);
  // Two reads, in this order (a saved world replays each attempt's reads in order).
  const timestamp = Math.floor(wall() / 1000) - skewSeconds;
  const headers = signedHeaders(ep, keys, dest.message, timestamp);
  return { startedAt, timestamp, wallStart: wall(), headers, wall };
}

/** The outcome of an attempt that was not sent (refused destination, or stopped by the breaker). */
export function unsent(error: string, timedOut: boolean): SendOutcome {
  return { response: null, error, timedOut };
}

/** One attempt made: its destination, the endpoint it went to, why it was made, what was sent and what came of it. */
export interface AttemptMade {
  dest: Destination;
  ep: WebhookEndpoint;
  trigger: Trigger;
  sending: Sending;
  outcome: SendOutcome;
}

/** The attempt log's record of one attempt (`attemptSeq`: its place among every attempt made). */
export function attemptRecord(world: World, { dest, ep, trigger, sending, outcome }: AttemptMade, attemptSeq: number): AttemptRecord {
  const msg = dest.message;
  const res = outcome.response;
  const response = res === null ? null : { status_code: res.status, headers: res.headers, body: res.body };
  const ok = response !== null && response.status_code >= 200 && response.status_code < 300;
  const attemptNumber = dest.attempts.length + 1;
  return {
    // Derived from stable keys, not a counter: concurrent attempts finish in any order.
    id: keyedToken(27, 'atmpt_', world.seed, `webhook-attempt\u241f${msg.id}\u241f${ep.id}\u241f${attemptNumber}`),
    seq: attemptSeq,
    msg_id: msg.id,
    endpoint_id: ep.id,
    team_id: msg.team_id,
    environment: msg.environment,
    event_type: msg.event_type,
    url: ep.url,
    trigger,
    attempt_number: attemptNumber,
    status: ok ? 'success' : 'failed',
    created_at: isoOf(sending.startedAt),
    timestamp: sending.timestamp,
    request: { method: 'POST', headers: recordedHeaders(sending.headers, ep.headers, isSensitiveHeader), body: msg.body },
    response,
    error: outcome.error,
    latency_ms: Math.max(0, sending.wall() - sending.wallStart),
    next_attempt_at: null,
  };
}
