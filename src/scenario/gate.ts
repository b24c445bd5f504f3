/**
 * What a world being built from a scenario may let out of the sandbox: nothing until the whole
 * scenario applied. While the gate holds, events for in-process subscribers wait in order,
 * webhook attempts wait before they reach the transport, and pipeline file appends wait before
 * they reach the sink. `release()` lets them all out in the order they came (the scenario
 * applied); `discard()` drops them (the scenario failed: the world is thrown away, so nothing it
 * did was ever observed). The world's own state (journal, messages, attempts) needs no gate: a
 * discarded world is never served.
 */
import type { EventSubscriber, JournalEntry } from '../engine/events.js';
import type { SimRequest, SimResponse } from '../engine/http-types.js';
import { jsonResponse } from '../engine/render.js';
import type { Partition } from '../engine/tenancy.js';
import type { FileSink } from '../state/webhooks/options.js';
import type { TransportResponse, WebhookTransport } from '../state/webhooks/transport.js';

/** The error a held attempt or append ends with when its world is discarded. */
const DISCARDED = 'the scenario that caused it failed to load: nothing left the sandbox';

interface Held {
  go(): void;
  drop(): void;
}

export class OutputGate {
  private held: Held[] = [];
  private open: boolean;
  private discarded = false;

  constructor(holding: boolean) {
    this.open = !holding;
  }

  get holding(): boolean {
    return !this.open && !this.discarded;
  }

  private hold(h: Held): void {
    if (this.discarded) h.drop();
    else this.held.push(h);
  }

  /** The bus subscriber that hands events to the sandbox's in-process subscribers. */
  subscriber(subscribers: readonly EventSubscriber[]): EventSubscriber {
    const deliver = (entry: JournalEntry, partition: Partition): void => {
      for (const fn of subscribers) fn(entry, partition);
    };
    return (entry, partition) => {
      if (this.open) deliver(entry, partition);
      else this.hold({ go: () => deliver(entry, partition), drop: () => undefined });
    };
  }

  /** A transport that waits for the gate before sending. */
  transport(real: WebhookTransport): WebhookTransport {
    const gated: WebhookTransport = (request) => {
      if (this.open) return real(request);
      return new Promise<TransportResponse>((resolve, reject) => {
        this.hold({ go: () => real(request).then(resolve, reject), drop: () => reject(new Error(DISCARDED)) });
      });
    };
    if (real.sharesSignals) gated.sharesSignals = true;
    return gated;
  }

  /** A file sink that waits for the gate before appending. */
  sink(real: FileSink | null): FileSink | null {
    if (real === null) return null;
    return {
      append: (name, text) => {
        if (this.open) return real.append(name, text);
        return new Promise<void>((resolve, reject) => {
          this.hold({ go: () => real.append(name, text).then(resolve, reject), drop: () => reject(new Error(DISCARDED)) });
        });
      },
    };
  }

  /** Lets everything held out, in order; from now on nothing waits. */
  release(): void {
    this.open = true;
    const held = this.held;
    this.held = [];
    for (const h of held) h.go();
  }

  /** Drops everything held and all that comes later (attempts and appends end with an error inside the discarded world). */
  discard(): void {
    this.discarded = true;
    const held = this.held;
    this.held = [];
    for (const h of held) h.drop();
  }
}

/** The answer to every request while the sandbox's scenario failed to load. */
export function scenarioFailed(error: unknown): SimResponse {
  const why = error instanceof Error ? error.message : String(error);
  return jsonResponse(503, {
    detail: `The sandbox's scenario failed to load, so the sandbox serves no world: ${why}. Load another scenario (PUT /_sandbox/scenario, loadScenario) or fix it and reset.`,
  });
}

/** Requests answered even while the scenario failed: the ways out. */
export function isRecovery(request: SimRequest): boolean {
  const method = request.method.toUpperCase();
  return (
    (request.path === '/_sandbox/scenario' && (method === 'PUT' || method === 'DELETE')) ||
    (request.path === '/_sandbox/reset' && method === 'POST')
  );
}
