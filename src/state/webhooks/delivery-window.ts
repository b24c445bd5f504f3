/**
 * How many attempts to one endpoint may be in flight at once (issue 33). `deliveryWindow: N` /
 * `--delivery-window N` fixes it at N (1: one at a time). The default, `'auto'`, with a transport
 * that `pipelines` (the CLI's: one connection per endpoint, requests written in the order they
 * start, so they arrive in event order), makes it *adapt* to the receiver, so that pipelining
 * never makes an attempt time out that one at a time would not (with any other transport, the
 * in-process `fetch` and msw, `'auto'` is 1: concurrent requests there keep no order):
 *
 * - it starts at 1 and doubles (up to ADAPTIVE_MAX) after each answer that came back within an
 *   eighth of the attempt timeout (the answer's latency counts the time it waited behind the
 *   attempts pipelined before it);
 * - an answer slower than a quarter of the timeout halves it;
 * - a timeout or a connection error sets it back to 1 (one at a time, as before: the timeout
 *   breaker then stops the attempts queued behind a hanging receiver, see backlog.ts).
 *
 * So a receiver answering at once gets up to ADAPTIVE_MAX attempts in flight (the receiver still
 * reads them in event order), and a slow one stays near one at a time: the attempts pipelined
 * ahead of any attempt take at most about a quarter of its timeout. Every input of the window is
 * replayed with a saved world (each answer and its latency, from the world's log, in the order
 * they were logged), so a state file or a snapshot replays the same attempt log byte for byte
 * (DECISIONS.md 2026-11-27, test/persistence/pipelined-replay.test.ts).
 */

/** The largest window the adaptive default reaches. */
export const ADAPTIVE_MAX = 64;
/** Endpoints whose adapted window is kept (beyond it the oldest start again from 1). */
const KEPT = 4096;

export class DeliveryWindows {
  /** Endpoint id -> its adapted window (absent: 1). */
  private readonly adapted: Map<string, number>;

  /**
   * `setting()`: a fixed window or `'auto'`; `pipelines()`: whether the transport pipelines
   * (`'auto'` then adapts); `timeoutMs()`: the attempt timeout; `adapted`: the endpoints' adapted
   * windows (the delivery engine holds them: they are saved with its state).
   */
  constructor(
    private readonly setting: () => number | 'auto',
    private readonly pipelines: () => boolean,
    private readonly timeoutMs: () => number,
    adapted: Map<string, number> = new Map(),
  ) {
    this.adapted = adapted;
  }

  /** The window of an endpoint now. */
  of(endpointId: string): number {
    const setting = this.setting();
    if (setting !== 'auto') return setting;
    return this.pipelines() ? (this.adapted.get(endpointId) ?? 1) : 1;
  }

  /** An attempt to the endpoint got an HTTP answer after `latencyMs` (wall time, from its start). */
  answered(endpointId: string, latencyMs: number): void {
    if (this.setting() !== 'auto' || !this.pipelines()) return;
    const timeout = this.timeoutMs();
    const current = this.adapted.get(endpointId) ?? 1;
    if (latencyMs * 8 <= timeout) {
      if (current < ADAPTIVE_MAX) this.set(endpointId, Math.min(ADAPTIVE_MAX, current * 2));
    } else if (latencyMs * 4 > timeout && current > 1) this.set(endpointId, Math.max(1, current >> 1));
  }

  /** An attempt to the endpoint timed out or lost its connection: one at a time again. */
  troubled(endpointId: string): void {
    this.adapted.delete(endpointId);
  }

  private set(endpointId: string, window: number): void {
    if (window <= 1) {
      this.adapted.delete(endpointId);
      return;
    }
    if (!this.adapted.has(endpointId) && this.adapted.size >= KEPT) {
      const oldest = this.adapted.keys().next().value;
      if (oldest !== undefined) this.adapted.delete(oldest);
    }
    this.adapted.set(endpointId, window);
  }
}
