/**
 * The built-in test receiver behind `/_sandbox/receiver/:name`: records every POST it gets,
 * answers with a configurable status (and optional body, Retry-After and extra headers), and
 * verifies each delivery's signature itself against the secrets of the endpoints whose URL
 * points at it, the way the `svix` library would.
 */
import { verify } from './signing.js';
import { MASKED_VALUE } from './message.js';
import { DEFAULT_RETENTION, isSensitiveHeader, webhooksOf } from './webhooks.js';
import { worldSlot, type World } from '../../engine/world.js';
import { utf8Decode } from '../../engine/bytes.js';
import { dataClass } from '../../engine/world-codec.js';

export interface ReceiverConfig {
  status: number;
  body: unknown;
  retry_after: string | null;
  headers: Record<string, string>;
  /**
   * Deliveries left to answer this way; after them the receiver answers the default 200 again
   * (a receiver that fails N times, then succeeds). Absent: until changed.
   */
  times?: number;
}

export interface ReceivedDelivery {
  seq: number;
  received_at: string;
  msg_id: string | null;
  event_type: string | null;
  headers: Record<string, string>;
  body: string;
  /** Whether the signature verified against one of the matching endpoints' current keys. */
  verified: boolean;
  /** Which endpoint's key verified it. */
  endpoint_id: string | null;
  verification_error: string | null;
  answered_status: number;
}

export interface Receiver {
  name: string;
  config: ReceiverConfig;
  deliveries: ReceivedDelivery[];
}

export function defaultReceiverConfig(): ReceiverConfig {
  return { status: 200, body: { ok: true }, retry_after: null, headers: {} };
}

/** Receivers kept per world (names are free-form, and a GET creates one): the oldest-created goes first. */
export const MAX_RECEIVERS = 64;
/** Body characters kept per receiver across its deliveries (the latest delivery is always kept). */
export const RECEIVER_BODY_BUDGET = 8 * 1024 * 1024;

class ReceiverStore {
  private readonly receivers = new Map<string, Receiver>();
  /** Body characters held, per deliveries array (a cleared receiver gets a fresh array). */
  private held = new WeakMap<ReceivedDelivery[], number>();

  /** A store loaded from a saved world counts its bodies again (the count is a cache). */
  forgetCounts(): void {
    this.held = new WeakMap();
  }
  private seq = 0;
  /** Deliveries kept per receiver (the most recent ones). */
  retention = DEFAULT_RETENTION;

  constructor(private readonly world: World) {}

  get(name: string): Receiver {
    let r = this.receivers.get(name);
    if (!r) {
      if (this.receivers.size >= MAX_RECEIVERS) this.receivers.delete(this.receivers.keys().next().value as string);
      this.receivers.set(name, (r = { name, config: defaultReceiverConfig(), deliveries: [] }));
    }
    return r;
  }

  /** The named receiver if it exists, else a fresh one that is not kept (a read creates nothing). */
  peek(name: string): Receiver {
    return this.receivers.get(name) ?? { name, config: defaultReceiverConfig(), deliveries: [] };
  }

  /** Canonical state for world snapshots (signature headers are wall-clock, so left out). */
  toJSON(): unknown {
    return [...this.receivers.values()].map((r) => ({
      name: r.name,
      config: r.config,
      deliveries: r.deliveries.map((d) => ({
        seq: d.seq,
        msg_id: d.msg_id,
        event_type: d.event_type,
        body: d.body,
        verified: d.verified,
        answered_status: d.answered_status,
      })),
    }));
  }

  names(): string[] {
    return [...this.receivers.keys()];
  }

  /** Records one POST and answers what the receiver is configured to answer. */
  receive(name: string, headers: Record<string, string>, rawBody: Uint8Array): ReceivedDelivery {
    const receiver = this.get(name);
    const body = utf8Decode(rawBody);
    const store = webhooksOf(this.world);
    const nowSeconds = Math.floor(this.world.clock.wall() / 1000);
    let verified = false;
    let endpointId: string | null = null;
    let error: string | null = null;
    const endpoints = store.forReceiver(name);
    if (endpoints.length === 0) error = `No webhook endpoint points at /_sandbox/receiver/${name}`;
    for (const ep of endpoints) {
      const result = verify(store.signingKeys(ep), headers, body, nowSeconds);
      if (result.ok) {
        verified = true;
        endpointId = ep.id;
        error = null;
        break;
      }
      error = result.error;
    }
    let eventType: string | null = null;
    try {
      const parsed = JSON.parse(body) as { event_type?: unknown };
      if (typeof parsed.event_type === 'string') eventType = parsed.event_type;
    } catch {
      // Not JSON: recorded as is.
    }
    const delivery: ReceivedDelivery = {
      seq: ++this.seq,
      received_at: this.world.clock.iso(),
      msg_id: headers['svix-id'] ?? headers['webhook-id'] ?? null,
      event_type: eventType,
      // Credentials sent as custom headers are masked here too, as in the attempt log.
      headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, isSensitiveHeader(k) ? MASKED_VALUE : v])),
      body,
      verified,
      endpoint_id: endpointId,
      verification_error: error,
      answered_status: receiver.config.status,
    };
    const held = this.heldBy(receiver);
    receiver.deliveries.push(delivery);
    this.held.set(receiver.deliveries, held + body.length);
    this.trim(receiver);
    const left = receiver.config.times;
    if (left !== undefined) receiver.config = left > 1 ? { ...receiver.config, times: left - 1 } : defaultReceiverConfig();
    return delivery;
  }

  private heldBy(receiver: Receiver): number {
    let n = this.held.get(receiver.deliveries);
    if (n === undefined) {
      n = 0;
      for (const d of receiver.deliveries) n += d.body.length;
    }
    return n;
  }

  /** Drops a receiver's oldest deliveries beyond the retention and the body budget. */
  trim(receiver: Receiver): void {
    const list = receiver.deliveries;
    let bytes = this.heldBy(receiver);
    let over = Math.max(0, list.length - this.retention);
    for (let i = 0; i < over; i++) bytes -= (list[i] as ReceivedDelivery).body.length;
    while (bytes > RECEIVER_BODY_BUDGET && over < list.length - 1) bytes -= (list[over++] as ReceivedDelivery).body.length;
    if (over > 0) list.splice(0, over);
    this.held.set(list, bytes);
  }

  /** Changes the retention and applies it at once. */
  setRetention(limit: number): void {
    this.retention = limit;
    for (const r of this.receivers.values()) this.trim(r);
  }
}
dataClass('ReceiverStore', ReceiverStore, { skip: ['held'], revive: (store) => store.forgetCounts() });

export const receiversOf = worldSlot('webhook-receivers', (world) => new ReceiverStore(world));

/** `POST /_sandbox/receiver/:name`: records and verifies a delivery; answers the configuration it met (a `times` countdown may end with it). */
export function receiveDelivery(world: World, name: string, headers: Record<string, string>, rawBody: Uint8Array): ReceiverConfig {
  const store = receiversOf(world);
  const { config } = store.get(name);
  store.receive(name, headers, rawBody);
  return config;
}

/** What a receiver got after a sequence number, oldest first, and its configuration. */
export function receiverDeliveries(world: World, name: string, after: number): { receiver: Receiver; deliveries: ReceivedDelivery[] } {
  const receiver = receiversOf(world).peek(name);
  return { receiver, deliveries: receiver.deliveries.filter((d) => d.seq > after) };
}
