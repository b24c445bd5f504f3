/**
 * The retry policy of webhook delivery (Svix / Vital): pure functions of the attempt number, the
 * response status and `Retry-After`. No state, no clock: the engine passes what it knows.
 */

/** Delay after each failed scheduled attempt, seconds (Svix / Vital retry policy). */
const RETRY_SCHEDULE_S = [5, 300, 1800, 7200, 18000, 36000, 36000] as const;
/** The first attempt plus seven retries. */
export const MAX_ATTEMPTS = RETRY_SCHEDULE_S.length + 1;
/** Wall-clock timeout of one attempt (Vital: 15 s); `deliveryTimeout` shortens it. */
export const ATTEMPT_TIMEOUT_MS = 15_000;
/** After a timeout or a 429 the next delay is at least this (Svix OSS throttling). */
export const THROTTLE_MIN_MS = 60_000;
/** An endpoint failing without a success this long (sandbox time) is disabled. */
export const AUTO_DISABLE_AFTER_MS = 5 * 24 * 3600 * 1000;
/** Svix caps recovery windows at 14 days. */
export const RECOVER_MAX_WINDOW_MS = 14 * 24 * 3600 * 1000;
/** Svix OSS randomises each delay by up to this fraction when jitter is on. */
const JITTER_DELTA = 0.2;

/** Parses `Retry-After` (seconds or an HTTP date, relative to the wall clock) into ms. */
export function parseRetryAfter(value: string | undefined, wallNow: number): number | null {
  if (value === undefined) return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  // Whole seconds, so the schedule stays on round sandbox times.
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - wallNow) / 1000) * 1000);
}

/** The delay before the next scheduled attempt after the `failures`-th failure (1-based). */
export function retryDelayMs(failures: number, status: number | null, timedOut: boolean, retryAfterMs: number | null): number {
  let delay = (RETRY_SCHEDULE_S[failures - 1] ?? 36000) * 1000;
  if (status === 429 || timedOut) delay = Math.max(delay, THROTTLE_MIN_MS);
  if (retryAfterMs !== null) delay = Math.min(Math.max(retryAfterMs, delay), 2 * delay);
  return delay;
}

/** Applies jitter: `unit` in [0, 1) maps to a factor in [1 - delta, 1 + delta). */
export function jittered(delayMs: number, unit: number): number {
  return Math.round(delayMs * (1 - JITTER_DELTA + 2 * JITTER_DELTA * unit));
}

type RetryDecision = { kind: 'done'; reason: 'exhausted' | 'aborted_by_receiver' } | { kind: 'retry'; delayMs: number };

/**
 * What follows a failed scheduled attempt: the `failures`-th in a row (1-based), with the
 * receiver's status (null: no HTTP answer), whether it timed out, and its `Retry-After` and
 * `webhook-delivery` headers.
 */
export function afterFailure(input: {
  failures: number;
  status: number | null;
  timedOut: boolean;
  retryAfter: string | undefined;
  directive: string | undefined;
  wallNow: number;
}): RetryDecision {
  if (input.directive === 'abort-message') return { kind: 'done', reason: 'aborted_by_receiver' };
  if (input.failures >= MAX_ATTEMPTS) return { kind: 'done', reason: 'exhausted' };
  const retryAfter = parseRetryAfter(input.retryAfter, input.wallNow);
  return { kind: 'retry', delayMs: retryDelayMs(input.failures, input.status, input.timedOut, retryAfter) };
}
