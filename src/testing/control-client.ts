/**
 * The typed control client of `health-sandbox/testing`: one interface over the control plane
 * (`/_sandbox/*`), whether the sandbox runs in this process or in a CLI server elsewhere. It
 * only sends requests the control plane serves; every answer is the control plane's own.
 */
import type { Credentials } from '../engine/credentials.js';
import { durationSeconds, type Duration } from '../engine/duration.js';
import type { EventFilter, JournalEntry } from '../engine/events.js';
import type { ReceivedDelivery } from '../state/webhooks/webhook-receiver.js';
import type { ScenarioInput } from '../scenario/schema.js';

/** Sends one control-plane request; answers status and parsed JSON. */
export type ControlTransport = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: unknown }>;

export interface ClockView {
  now: string;
  mode: 'manual' | 'realtime';
  scale: number;
}

export interface ReceiverHandle {
  name: string;
  /** The URL to give a webhook endpoint. */
  url: string;
  /** Deliveries received so far, each with whether its signature verified. */
  deliveries(): Promise<ReceivedDelivery[]>;
  /**
   * What it answers: e.g. `{ status: 500 }` to fail, `{ status: 429, retry_after: 60 }`;
   * `times: N` answers that for the next N deliveries only, then 200 again (fails N times, then succeeds).
   */
  answer(config: { status: number; body?: unknown; retry_after?: number | string | null; headers?: Record<string, string>; times?: number }): Promise<void>;
  /** Forgets its deliveries and answers 200 again. */
  clear(): Promise<void>;
}

export class ControlError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    what: string,
  ) {
    super(`${what} answered ${status}: ${JSON.stringify(body)}`);
    this.name = 'ControlError';
  }
}

export class SandboxControl {
  constructor(
    private readonly send: ControlTransport,
    /** The sandbox's base URL (data API); the management API is at `<url>/management`. */
    readonly url: string,
  ) {}

  get managementUrl(): string {
    return `${this.url}/management`;
  }

  /** Any control-plane request (lab, connection, webhook controls): answers the parsed body or throws ControlError. */
  async request<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await this.send(method, path, body);
    if (res.status >= 300) throw new ControlError(res.status, res.body, `${method} ${path}`);
    return res.body as T;
  }

  credentials(): Promise<Credentials> {
    return this.request('GET', '/_sandbox/credentials');
  }

  clock(): Promise<ClockView> {
    return this.request('GET', '/_sandbox/clock');
  }

  /** Moves the clock: seconds, `'90s'`, `'15m'`, `'2h'`, `'3d'` or ISO 8601 (`'P1DT2H'`). */
  advance(duration: Duration): Promise<ClockView> {
    const body = typeof duration === 'number' ? { seconds: durationSeconds(duration) } : { duration };
    return this.request('POST', '/_sandbox/clock/advance', body);
  }

  /** A fresh world (same options and scenario), optionally with another seed. */
  async reset(options: { seed?: number } = {}): Promise<void> {
    await this.request('POST', '/_sandbox/reset', options.seed === undefined ? {} : { seed: options.seed });
  }

  /** Replaces the world with one built from a scenario (kept across resets); `null` drops it. */
  async loadScenario(scenario: ScenarioInput | null): Promise<void> {
    if (scenario === null) await this.request('DELETE', '/_sandbox/scenario');
    else await this.request('PUT', '/_sandbox/scenario', scenario);
  }

  /** Journal entries, oldest first. */
  async events(filter: EventFilter & { limit?: number } = {}): Promise<JournalEntry[]> {
    const query = new URLSearchParams(Object.entries(filter).filter(([, v]) => v !== undefined).map(([k, v]) => [k, String(v)]));
    const res = await this.request<{ events: JournalEntry[] }>('GET', `/_sandbox/events${query.size ? `?${query}` : ''}`);
    return res.events;
  }

  /**
   * Waits for an event matching the predicate (for realtime clocks; with a manual clock, advance
   * instead). Looks at events emitted from now on, every `interval` ms, until `timeout` ms.
   */
  async waitForEvent(predicate: (entry: JournalEntry) => boolean, options: { timeout?: number; interval?: number; filter?: EventFilter } = {}): Promise<JournalEntry> {
    const timeout = options.timeout ?? 5000;
    const interval = options.interval ?? 50;
    const deadline = Date.now() + timeout;
    const last = await this.events({ ...options.filter, limit: 10000 });
    let after = last.length ? (last[last.length - 1] as JournalEntry).seq : 0;
    for (;;) {
      const batch = await this.events({ ...options.filter, after_seq: after, limit: 10000 });
      for (const e of batch) {
        if (predicate(e)) return e;
        after = e.seq;
      }
      if (Date.now() >= deadline) throw new Error(`No matching event within ${timeout} ms`);
      await new Promise((r) => setTimeout(r, Math.min(interval, Math.max(1, deadline - Date.now()))));
    }
  }

  /** The built-in test receiver of that name. */
  receiver(name: string): ReceiverHandle {
    const path = `/_sandbox/receiver/${encodeURIComponent(name)}`;
    return {
      name,
      url: `${this.url}${path}`,
      deliveries: async () => (await this.request<{ deliveries: ReceivedDelivery[] }>('GET', path)).deliveries,
      answer: async (config) => {
        await this.request('PUT', path, config);
      },
      clear: async () => {
        await this.request('DELETE', path);
      },
    };
  }

  /** The periodic wearable feed: auto, on or off. */
  async feed(mode: 'auto' | 'on' | 'off'): Promise<void> {
    await this.request('POST', '/_sandbox/wearables/feed', { mode });
  }

  /** Puts a connection into error (provider.connection.error). */
  connectionError(userId: string, provider: string, body: { error_type?: string; message?: string } = {}): Promise<unknown> {
    return this.request('POST', `/_sandbox/connections/${userId}/${provider}/error`, body);
  }

  /** Brings an errored connection back. */
  reconnect(userId: string, provider: string): Promise<unknown> {
    return this.request('POST', `/_sandbox/connections/${userId}/${provider}/reconnect`);
  }

  /** Forces historical-pull outcomes of a connection (current or next). */
  historicalPull(userId: string, provider: string, body: { outcome: string; resources?: string[]; error_details?: string; finish_in_seconds?: number }): Promise<unknown> {
    return this.request('POST', `/_sandbox/historical_pulls/${userId}/${provider}`, body);
  }

  /** Webhook messages, attempts and endpoints the sandbox recorded. */
  webhookAttempts(query = ''): Promise<unknown> {
    return this.request('GET', `/_sandbox/webhooks/attempts${query ? `?${query}` : ''}`);
  }
}
