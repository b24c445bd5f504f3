/**
 * What bounds the work queued to one endpoint that does not answer (issue 11; invented, the real
 * service documents neither rule; docs/simulated/webhooks.md "A receiver that hangs"):
 *
 * - **The timeout breaker.** When an attempt to an endpoint times out, the scheduled attempts that
 *   were queued to that endpoint before that moment and have not started are *not sent*: each is
 *   recorded at once as a failed attempt with `error: NOT_SENT_AFTER_TIMEOUT` and no response,
 *   and gets its retry as a timed-out attempt would (the ladder, throttled to at least 60 s). The
 *   attempts queued after the timeout (the next retry step, new events) are sent for real again:
 *   the first of them that times out opens the breaker once more. So a receiver that never
 *   answers costs one attempt timeout per endpoint per sandbox time at which attempts to it are
 *   due, however many messages wait for it, in manual and realtime mode alike, and the queue
 *   behind it empties at each timeout. Manual attempts (resend, recover) are always sent; their
 *   timeouts open the breaker too. An HTTP answer from the endpoint closes it.
 * - **The pending cap.** A *failing* endpoint (its last attempt failed: `failing_since` is set)
 *   holds at most MAX_PENDING_PER_ENDPOINT messages still to be delivered (queued, in flight or
 *   waiting for a retry). A message that finds it full is not queued to it: its destination fails
 *   at once, `failure_reason: BACKLOG_FULL`, with no attempt (recover can replay it later, like
 *   any failed message). Without it a receiver that hangs while clients keep writing grows the
 *   process without bound: in manual mode with no advance a pending message never retires. A
 *   healthy endpoint is not capped (a burst of events to a receiver that answers drains).
 */

/** The error recorded for an attempt the breaker did not send. */
export const NOT_SENT_AFTER_TIMEOUT = 'not sent: the previous attempt to this endpoint timed out';

/** Most messages pending to one endpoint; beyond it new messages fail at once for that endpoint. */
export const MAX_PENDING_PER_ENDPOINT = 10_000;

/** The failure reason of a message refused by a full endpoint. */
export const BACKLOG_FULL = 'endpoint_backlog_full';

export class TimeoutBreaker {
  /** Tickets handed out so far (one per queued scheduled attempt, in queue order). */
  private issued = 0;
  /** Endpoint id -> the last ticket the breaker stops (every ticket up to it, queued before the timeout). */
  private readonly openUpTo = new Map<string, number>();

  /** A ticket for a scheduled attempt queued now. */
  ticket(): number {
    return ++this.issued;
  }

  /** An attempt to the endpoint timed out: the attempts queued to it so far are not sent. */
  timedOut(endpointId: string): void {
    this.openUpTo.set(endpointId, this.issued);
  }

  /** Whether the attempt holding `ticket` must not be sent. */
  stops(endpointId: string, ticket: number): boolean {
    const upTo = this.openUpTo.get(endpointId);
    return upTo !== undefined && ticket <= upTo;
  }

  /** The endpoint answered, or is gone: later attempts are sent. */
  close(endpointId: string): void {
    this.openUpTo.delete(endpointId);
  }
}
