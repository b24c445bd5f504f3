/**
 * The signed message: one per event that passed the team allowlist (Svix `msg_` id, the exact
 * JSON body that is signed), its destinations (one per matching endpoint) and the records of
 * their attempts; and the signed request an attempt sends (`../shared/reference/webhooks.md`).
 */
import type { JournalEntry } from '../../engine/events.js';
import type { JobHandle } from '../../engine/scheduler.js';
import type { Environment, Partition } from '../../engine/tenancy.js';
import type { World } from '../../engine/world.js';
import { signatureHeader, svixId } from './signing.js';
import type { LoggedAttempt } from './kept-attempt.js';
import type { WebhookEndpoint } from './webhooks.js';

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
}

export interface Destination {
  message: Message;
  endpoint_id: string;
  status: DestinationStatus;
  failure_reason: string | null;
  /** Scheduled (non-manual) attempts made so far. */
  scheduled_attempts: number;
  /** Every attempt, oldest first; final ones in their kept form (kept-attempt.ts). */
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
export function createMessage(world: World, seq: number, entry: JournalEntry, partition: Partition): Message {
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
