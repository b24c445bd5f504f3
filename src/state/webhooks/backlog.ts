/**
 * What bounds the work queued to one endpoint that does not answer (issue 11; invented, the real
 * service documents neither rule; docs/simulated/webhooks.md "A receiver that hangs"):
 *
 * - **The timeout breaker.** When an attempt to an endpoint times out at sandbox time t, the
 *   breaker of that endpoint opens: every scheduled attempt to it that was queued before that
 *   moment, or that starts before t + 60 s (THROTTLE_MIN_MS, the least retry delay after a
 *   timeout), is *not sent*: it is recorded at once as a failed attempt with
 *   `error: NOT_SENT_AFTER_TIMEOUT` and no response, and gets its retry as a timed-out attempt
 *   would (the ladder, at least 60 s later). The first attempt queued after the timeout and due
 *   at t + 60 s or later (the next retry step) is sent for real: if it times out too, the breaker
 *   opens again. So a receiver that never answers costs one attempt timeout per endpoint per
 *   retry step (and at most one per 60 s of sandbox time), however many messages wait for it,
 *   in manual and realtime mode alike, and the queue behind it empties at each timeout. Manual
 *   attempts (resend, recover) are always sent; their timeouts open the breaker too. An HTTP
 *   answer from the endpoint closes it.
 * - **The pending cap.** A *failing* endpoint (its last attempt failed: `failing_since` is set)
 *   holds at most MAX_PENDING_PER_ENDPOINT messages still to be delivered (queued, in flight or
 *   waiting for a retry). A message that finds it full is not queued to it: its destination fails
 *   at once, `failure_reason: BACKLOG_FULL`, with no attempt (recover can replay it later, like
 *   any failed message). Without it a receiver that hangs while clients keep writing grows the
 *   process without bound: in manual mode with no advance a pending message never retires. A
 *   healthy endpoint has a cap five times larger (MAX_PENDING_HEALTHY): a burst of events to a
 *   receiver that answers drains, a load it can never catch up with is bounded.
 */
import { THROTTLE_MIN_MS } from './retry-policy.js';
import { dataClass } from '../../engine/world-codec.js';

/** The error recorded for an attempt the breaker did not send. */
export const NOT_SENT_AFTER_TIMEOUT = 'not sent: the previous attempt to this endpoint timed out';

/** Most messages pending to one endpoint; beyond it new messages fail at once for that endpoint. */
export const MAX_PENDING_PER_ENDPOINT = 10_000;

/**
 * Most messages pending to one endpoint that answers (issue 27): a burst drains, but a receiver
 * slower than the event rate for good (or starved by back-to-back advances) would otherwise grow
 * the process without bound; beyond it new messages fail at once for that endpoint, as above.
 */
export const MAX_PENDING_HEALTHY = 50_000;

/** The failure reason of a message refused by a full endpoint. */
export const BACKLOG_FULL = 'endpoint_backlog_full';

export class TimeoutBreaker {
  /** Tickets handed out so far (one per queued scheduled attempt, in queue order). */
  private issued = 0;
  /**
   * Endpoint id -> what the open breaker stops: every ticket up to `upTo` (queued before the
   * timeout), and every attempt starting before sandbox time `until`.
   */
  private readonly open = new Map<string, { upTo: number; until: number }>();

  /** A ticket for a scheduled attempt queued now. */
  ticket(): number {
    return ++this.issued;
  }

  /** An attempt to the endpoint timed out at sandbox time `now`: opens its breaker. */
  timedOut(endpointId: string, now: number): void {
    this.open.set(endpointId, { upTo: this.issued, until: now + THROTTLE_MIN_MS });
  }

  /** Whether the attempt holding `ticket`, starting at sandbox time `now`, must not be sent. */
  stops(endpointId: string, ticket: number, now: number): boolean {
    const open = this.open.get(endpointId);
    return open !== undefined && (ticket <= open.upTo || now < open.until);
  }

  /** The endpoint answered, or is gone: later attempts are sent. */
  close(endpointId: string): void {
    this.open.delete(endpointId);
  }
}
dataClass('TimeoutBreaker', TimeoutBreaker);
