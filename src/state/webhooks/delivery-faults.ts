/**
 * Webhook delivery faults in the delivery engine (issue 42; the rules: src/state/sandbox/faults-webhooks.ts):
 * how a new destination's first attempt is queued when a rule matches it. A duplicate is the
 * scheduled attempt plus a second one of the same message (same `svix-id`, freshly signed);
 * `delayed` and `out_of_order` put the first attempt on the clock (an out-of-order one is sent as
 * soon as the next message to its endpoint is queued, behind it); a stale timestamp signs the first
 * attempt `seconds` in the past.
 */
import type { World } from '../../engine/world.js';
import { takeWebhookFault } from '../sandbox/faults-webhooks.js';
import type { Destination } from './message.js';
import type { WebhookEndpoint } from './webhooks.js';

/** What the delivery engine does for the faults. */
export interface FaultActions {
  /** Queues a scheduled attempt now. */
  start(dest: Destination): void;
  /** Schedules the first attempt at `at` (sandbox ms). */
  startAt(dest: Destination, at: number): void;
  /** Queues a second delivery of the message (behind the first). */
  again(dest: Destination, ep: WebhookEndpoint): void;
}

/** What the faults keep between attempts (the delivery engine holds it: it is saved with the engine's state). */
export interface FaultState {
  /** Messages held back by an `out_of_order` fault, per endpoint, until the next message to it is queued. */
  held: Map<string, Destination[]>;
  /** First attempts signed with a stale timestamp: how many seconds old (until the first attempt is made). */
  stale: Map<Destination, number>;
}

export function faultState(): FaultState {
  return { held: new Map(), stale: new Map() };
}

export class DeliveryFaults {
  private readonly held: FaultState['held'];
  private readonly stale: FaultState['stale'];

  constructor(
    private readonly world: World,
    private readonly act: FaultActions,
    state: FaultState,
  ) {
    this.held = state.held;
    this.stale = state.stale;
  }

  /** Queues a new destination's first attempt, faulted when a rule matches it. */
  queue(dest: Destination, ep: WebhookEndpoint, eventType: string): void {
    const fault = takeWebhookFault(this.world, ep.id, eventType);
    if (fault === null) this.act.start(dest);
    else {
      const at = this.world.clock.now() + (fault.seconds ?? 0) * 1000;
      if (fault.fault === 'duplicate') {
        this.act.start(dest);
        this.act.again(dest, ep);
      } else if (fault.fault === 'delayed') this.act.startAt(dest, at);
      else if (fault.fault === 'stale_timestamp') {
        this.stale.set(dest, fault.seconds ?? 0);
        this.act.start(dest);
      } else {
        this.act.startAt(dest, at);
        const list = this.held.get(ep.id);
        if (list === undefined) this.held.set(ep.id, [dest]);
        else list.push(dest);
        return;
      }
    }
    if (this.held.size > 0) this.release(ep.id);
  }

  /** The seconds to move the signature timestamp of this attempt back (a stale timestamp fault's first attempt). */
  skew(dest: Destination): number {
    if (dest.attempts.length === 0) return this.stale.get(dest) ?? 0;
    this.stale.delete(dest);
    return 0;
  }

  /** Sends the messages held for the endpoint, behind the one just queued. */
  private release(endpointId: string): void {
    const list = this.held.get(endpointId);
    if (list === undefined) return;
    this.held.delete(endpointId);
    for (const dest of list) {
      if (dest.status !== 'pending' || dest.job === null) continue;
      dest.job.cancel();
      dest.job = null;
      this.act.start(dest);
    }
  }
}
