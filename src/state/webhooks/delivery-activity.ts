/**
 * What the delivery engine has in flight (delivery.ts): scheduled attempts, queued or running, and
 * manual ones (resends). `settle()` waits for the scheduled ones through one tracked promise per
 * busy period (from the first queued attempt to the last one finished), not one per attempt; a
 * world is saved only when none is in flight (engine/world-state.ts `registerQuietCheck`).
 */
import type { World } from '../../engine/world.js';

export class DeliveryActivity {
  private busy = 0;
  private manualInFlight = 0;
  private idle: (() => void) | null = null;

  constructor(private readonly world: World) {}

  /** A scheduled attempt was queued. */
  begin(): void {
    if (this.busy++ === 0) this.world.track(new Promise<void>((resolve) => (this.idle = resolve)));
  }

  /** A scheduled attempt finished (or was dropped). */
  end(): void {
    if (--this.busy > 0) return;
    const idle = this.idle;
    this.idle = null;
    idle?.();
  }

  /** A manual attempt: tracked until it settles. */
  manual(attempt: Promise<unknown>): void {
    this.world.track(attempt);
    this.manualInFlight++;
    const done = (): void => void this.manualInFlight--;
    attempt.then(done, done);
  }

  /** Whether no attempt is in flight. */
  quiet(): boolean {
    return this.busy === 0 && this.manualInFlight === 0;
  }
}
