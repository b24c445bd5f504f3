/**
 * The signed message: one per event that passed the team allowlist (Svix `msg_` id, the exact
 * JSON body that is signed), its destinations (one per matching endpoint) and the records of
 * their attempts (final ones kept compactly: `KeptAttempt`); and the signed request an attempt sends
 * (`../shared/reference/webhooks.md`).
 */
import type { JournalEntry } from '../../engine/events.js';
import type { JobHandle } from '../../engine/scheduler.js';
import type { Environment } from '../../engine/tenancy.js';
import type { Domain } from '../domain-context.js';
import { signatureHeader, svixId } from './signing.js';
import type { WebhookEndpoint } from './webhooks.js';
import { dataClass } from '../../engine/world-codec.js';

const USER_AGENT = 'Svix-Webhooks/1.0 (health-sandbox)';

export type DestinationStatus = 'pending' | 'sending' | 'success' | 'failed';
export type Trigger = 'scheduled' | 'manual';

export interface AttemptRecord {
  id: string;
  seq: number;
  msg_id: string;
  endpoint_id: string;
  team_id: string;
  environment: Environment;
  event_type: string;
  url: string;
  trigger: Trigger;
  /** 1-based, counting every attempt of this message to this endpoint. */
  attempt_number: number;
  status: 'success' | 'failed';
  /** Sandbox time the attempt started. */
  created_at: string;
  /** The signature timestamp sent (wall-clock Unix seconds). */
  timestamp: number;
  request: { method: 'POST'; headers: Record<string, string>; body: string };
  response: { status_code: number; headers: Record<string, string>; body: string } | null;
  /** Transport failure (timeout, refused connection, ...), null when an HTTP answer came back. */
  error: string | null;
  /** Wall-clock milliseconds from sending to the end of the response excerpt. */
  latency_ms: number;
  /** When the next scheduled attempt will run (sandbox time), if one was scheduled. */
  next_attempt_at: string | null;
}

export interface Message {
  id: string;
  seq: number;
  journal_seq: number;
  partition_id: string;
  team_id: string;
  environment: Environment;
  event_type: string;
  user_id: string;
  created_at: string;
  created_ms: number;
  /** The exact JSON that is signed and sent. */
  body: string;
  destinations: Destinations;
}

const NONE: readonly Destination[] = [];

/**
 * A message's destinations by endpoint id, in insertion order: what a `Map` does, without one per
 * message for the common case of a single endpoint (a message is kept until retention drops it).
 */
export class Destinations {
  private one: Destination | null = null;
  private more: Map<string, Destination> | null = null;

  get(endpointId: string): Destination | undefined {
    if (this.more !== null) return this.more.get(endpointId);
    return this.one !== null && this.one.endpoint_id === endpointId ? this.one : undefined;
  }

  set(endpointId: string, dest: Destination): this {
    if (this.more !== null) this.more.set(endpointId, dest);
    else if (this.one === null || this.one.endpoint_id === endpointId) this.one = dest;
    else {
      this.more = new Map([
        [this.one.endpoint_id, this.one],
        [endpointId, dest],
      ]);
      this.one = null;
    }
    return this;
  }

  values(): IterableIterator<Destination> {
    if (this.more !== null) return this.more.values();
    return (this.one !== null ? [this.one] : NONE).values();
  }

  get size(): number {
    return this.more !== null ? this.more.size : this.one !== null ? 1 : 0;
  }

  /** Whether one of them is pending or sending (no iterator for the common single destination). */
  busy(): boolean {
    if (this.more === null) return this.one !== null && (this.one.status === 'pending' || this.one.status === 'sending');
    for (const d of this.more.values()) if (d.status === 'pending' || d.status === 'sending') return true;
    return false;
  }
}
dataClass('Destinations', Destinations);

export interface Destination {
  message: Message;
  endpoint_id: string;
  status: DestinationStatus;
  failure_reason: string | null;
  /** Scheduled (non-manual) attempts made so far. */
  scheduled_attempts: number;
  /** Every attempt, oldest first; final ones in their kept form (`KeptAttempt` below). */
  attempts: LoggedAttempt[];
  next_attempt_at: number | null;
  job: JobHandle | null;
  failing_notified: boolean;
}

/** The last `occurred_at` parsed (events of one tick share their instant). */
let lastIso = '';
let lastMs = 0;

function isoMs(iso: string): number {
  if (iso !== lastIso) {
    lastMs = Date.parse(iso);
    lastIso = iso;
  }
  return lastMs;
}

/** A new message for an event of a partition. */
export function createMessage(d: Domain, seq: number, entry: JournalEntry): Message {
  const { world, partition } = d;
  return {
    id: svixId(world, 'msg_'),
    seq,
    journal_seq: entry.seq,
    partition_id: partition.id,
    team_id: partition.team.id,
    environment: partition.environment,
    event_type: entry.envelope.event_type,
    user_id: entry.envelope.user_id,
    created_at: entry.occurred_at,
    created_ms: isoMs(entry.occurred_at),
    body: world.events.render(entry),
    destinations: new Destinations(),
  };
}

/** The headers of one attempt: content type, user agent, signature set, then the custom headers. */
export function signedHeaders(ep: WebhookEndpoint, keys: string[], msg: Message, timestamp: number): Record<string, string> {
  const signature = signatureHeader(keys, msg.id, timestamp, msg.body);
  const headers: Record<string, string> = ep.whitelabel_headers
    ? {
        'content-type': 'application/json',
        'user-agent': USER_AGENT,
        'webhook-id': msg.id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signature,
      }
    : {
        'content-type': 'application/json',
        'user-agent': USER_AGENT,
        'svix-id': msg.id,
        'svix-timestamp': String(timestamp),
        'svix-signature': signature,
      };
  for (const name in ep.headers) headers[name] = ep.headers[name] as string;
  return headers;
}

/** What stands for a hidden header value in every control-plane answer and log. */
export const MASKED_VALUE = '********';

/**
 * The headers as recorded: custom headers whose names the management API hides (`isSensitive`)
 * keep their name and lose their value, so no control-plane answer or log shows a credential.
 */
export function recordedHeaders(
  sent: Record<string, string>,
  custom: Record<string, string>,
  isSensitive: (name: string) => boolean,
): Record<string, string> {
  let out: Record<string, string> | null = null;
  for (const name in custom) {
    if (isSensitive(name) && name in sent) {
      out ??= { ...sent };
      out[name] = MASKED_VALUE;
    }
  }
  // Nothing hidden: the record shares the sent headers (never changed after sending).
  return out ?? sent;
}

/**
 * What the delivery log keeps of an attempt once it is final (issue 27 item 5): a later attempt of
 * its destination superseded it, or its destination finished. An `AttemptRecord` as the delivery
 * engine builds it holds 19 fields, a request and a response wrapper, the next attempt's time as a
 * string and copies of what its message already holds (ids, team, event type), about 1 KB with its
 * strings; the kept form is one object of numbers and shared strings, and `full()` gives back the
 * same record, field for field (docs/simulated/webhooks.md "Caps").
 */
export class KeptAttempt {
  readonly seq: number;
  readonly id: string;
  readonly url: string;
  readonly trigger: Trigger;
  readonly n: number;
  readonly ok: boolean;
  readonly createdAt: string;
  readonly timestamp: number;
  readonly requestHeaders: Record<string, string>;
  /** -1: no HTTP answer. */
  readonly statusCode: number;
  readonly responseHeaders: Record<string, string> | null;
  readonly responseBody: string | null;
  readonly error: string | null;
  readonly latency: number;
  /** Epoch ms, NaN when none was scheduled. */
  readonly nextAt: number;

  constructor(
    readonly dest: Destination,
    a: AttemptRecord,
  ) {
    this.seq = a.seq;
    this.id = a.id;
    this.url = a.url;
    this.trigger = a.trigger;
    this.n = a.attempt_number;
    this.ok = a.status === 'success';
    this.createdAt = a.created_at;
    this.timestamp = a.timestamp;
    this.requestHeaders = a.request.headers;
    this.statusCode = a.response === null ? -1 : a.response.status_code;
    this.responseHeaders = a.response === null ? null : a.response.headers;
    this.responseBody = a.response === null ? null : a.response.body;
    this.error = a.error;
    this.latency = a.latency_ms;
    this.nextAt = a.next_attempt_at === null ? Number.NaN : Date.parse(a.next_attempt_at);
  }

  /** Whether the record can be kept in this form and give back the same fields (else it stays as it is). */
  static fits(dest: Destination, a: AttemptRecord): boolean {
    const msg = dest.message;
    return (
      a.msg_id === msg.id &&
      a.endpoint_id === dest.endpoint_id &&
      a.team_id === msg.team_id &&
      a.environment === msg.environment &&
      a.event_type === msg.event_type &&
      a.request.method === 'POST' &&
      a.request.body === msg.body &&
      (a.next_attempt_at === null || new Date(Date.parse(a.next_attempt_at)).toISOString() === a.next_attempt_at)
    );
  }

  /** The record as the delivery engine made it (a new object each time). */
  full(): AttemptRecord {
    const msg = this.dest.message;
    return {
      id: this.id,
      seq: this.seq,
      msg_id: msg.id,
      endpoint_id: this.dest.endpoint_id,
      team_id: msg.team_id,
      environment: msg.environment,
      event_type: msg.event_type,
      url: this.url,
      trigger: this.trigger,
      attempt_number: this.n,
      status: this.ok ? 'success' : 'failed',
      created_at: this.createdAt,
      timestamp: this.timestamp,
      request: { method: 'POST', headers: this.requestHeaders, body: msg.body },
      response:
        this.statusCode < 0 ? null : { status_code: this.statusCode, headers: this.responseHeaders ?? {}, body: this.responseBody ?? '' },
      error: this.error,
      latency_ms: this.latency,
      next_attempt_at: Number.isNaN(this.nextAt) ? null : new Date(this.nextAt).toISOString(),
    };
  }
}
dataClass('KeptAttempt', KeptAttempt);

/** An attempt as the log holds it. */
export type LoggedAttempt = AttemptRecord | KeptAttempt;

/** The record of a logged attempt. */
export function attemptOf(a: LoggedAttempt): AttemptRecord {
  return a instanceof KeptAttempt ? a.full() : a;
}
