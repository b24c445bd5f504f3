/**
 * Webhook delivery (design.md section 4, `../shared/reference/webhooks.md` section 2): each event
 * that passed the team allowlist becomes one Svix-style message (`msg_` id, the exact JSON body
 * that is signed), delivered to every enabled endpoint of its team environment whose
 * `filter_types` match. Every attempt is a real HTTP POST through the global `fetch` (looked up at
 * call time, so msw intercepts it), recorded in full; failures are retried on the sandbox clock at
 * 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then the message fails for that endpoint.
 *
 * Timing: the first attempt starts at once (tracked, so `settle()` waits for it; in manual clock
 * mode a zero-delay scheduler job also waits for it, so an `advance` never overtakes an attempt
 * in flight). Retries are scheduler jobs: in manual mode the job awaits the POST (one advance walks
 * the whole ladder in order); in realtime mode it only tracks it, so a slow receiver never blocks.
 * Attempts to one endpoint are queued: one at a time, in event order.
 *
 * Retry delays have no jitter by default (Svix adds +-20%), so attempt times are exact and tests
 * can assert them; `PUT /_sandbox/webhooks/settings {"jitter": true}` turns seeded jitter on.
 *
 * Retention: the log keeps the most recent `retention` messages per team environment (default
 * 5000); finished ones beyond it are dropped with their attempts, pending ones never.
 */
import type { JournalEntry } from '../../engine/events.js';
import { stableToken } from '../../engine/ids.js';
import { unitFloat } from '../../engine/rng.js';
import type { JobHandle } from '../../engine/scheduler.js';
import { signatureHeader, signingHeaders, svixId } from './signing.js';
import type { Environment, Partition } from '../../engine/tenancy.js';
import { DEFAULT_RETENTION, webhooksOf, type WebhookEndpoint } from './webhooks.js';

export { DEFAULT_RETENTION, MAX_RETENTION } from './webhooks.js';
import { pipelinesOf } from './pipelines.js';
import { worldSlot, type World } from '../../engine/world.js';
import { concatBytes, utf8Decode } from '../../engine/bytes.js';

/** Delay after each failed scheduled attempt, seconds (Svix / Vital retry policy). */
export const RETRY_SCHEDULE_S = [5, 300, 1800, 7200, 18000, 36000, 36000] as const;
/** The first attempt plus seven retries. */
export const MAX_ATTEMPTS = RETRY_SCHEDULE_S.length + 1;
/** Wall-clock timeout of one attempt (Vital: 15 s). */
export const ATTEMPT_TIMEOUT_MS = 15_000;
/** After a timeout or a 429 the next delay is at least this (Svix OSS throttling). */
export const THROTTLE_MIN_MS = 60_000;
/** An endpoint failing without a success this long (sandbox time) is disabled. */
export const AUTO_DISABLE_AFTER_MS = 5 * 24 * 3600 * 1000;
/** Svix caps recovery windows at 14 days. */
export const RECOVER_MAX_WINDOW_MS = 14 * 24 * 3600 * 1000;
/** How much of a response body is kept. */
export const RESPONSE_EXCERPT_BYTES = 1024;
export const USER_AGENT = 'Svix-Webhooks/1.0 (health-sandbox)';
/** Svix OSS randomises each delay by up to this fraction when jitter is on. */
export const JITTER_DELTA = 0.2;

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
  destinations: Map<string, Destination>;
}

export interface Destination {
  message: Message;
  endpoint_id: string;
  status: DestinationStatus;
  failure_reason: string | null;
  /** Scheduled (non-manual) attempts made so far. */
  scheduled_attempts: number;
  attempts: AttemptRecord[];
  next_attempt_at: number | null;
  job: JobHandle | null;
  failing_notified: boolean;
}

export type OperationalType = 'message.attempt.failing' | 'message.attempt.exhausted' | 'message.attempt.recovered' | 'endpoint.disabled';

export interface OperationalEvent {
  seq: number;
  type: OperationalType;
  at: string;
  team_id: string;
  environment: Environment;
  endpoint_id: string;
  msg_id: string | null;
  detail: string;
}

export interface MessageFilter {
  team_id?: string;
  environment?: string;
  endpoint_id?: string;
  event_type?: string;
  status?: DestinationStatus;
  after?: number;
}

export interface AttemptFilter {
  team_id?: string;
  environment?: string;
  endpoint_id?: string;
  msg_id?: string;
  event_type?: string;
  status?: 'success' | 'failed';
  trigger?: Trigger;
  after?: number;
}

const noop = (): void => undefined;

/** Parses `Retry-After` (seconds or an HTTP date, relative to the wall clock) into ms. */
export function parseRetryAfter(value: string | undefined, wallNow: number): number | null {
  if (value === undefined) return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  // Whole seconds, so the schedule stays on round sandbox times.
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - wallNow) / 1000) * 1000);
}

/** The delay before the next scheduled attempt after the `failures`-th failure (1-based). */
export function retryDelayMs(failures: number, status: number | null, timedOut: boolean, retryAfterMs: number | null): number {
  let delay = (RETRY_SCHEDULE_S[failures - 1] ?? 36000) * 1000;
  if (status === 429 || timedOut) delay = Math.max(delay, THROTTLE_MIN_MS);
  if (retryAfterMs !== null) delay = Math.min(Math.max(retryAfterMs, delay), 2 * delay);
  return delay;
}

async function readExcerpt(res: Response): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let have = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      have += value.byteLength;
      if (have >= RESPONSE_EXCERPT_BYTES) {
        await reader.cancel().catch(noop);
        break;
      }
    }
  } catch {
    // A body cut short still leaves what arrived.
  }
  return utf8Decode(concatBytes(chunks).subarray(0, RESPONSE_EXCERPT_BYTES));
}

function describeError(error: unknown): { message: string; timedOut: boolean } {
  if (error instanceof Error) {
    if (error.name === 'TimeoutError' || error.name === 'AbortError') return { message: `timeout: no answer within ${ATTEMPT_TIMEOUT_MS / 1000} s`, timedOut: true };
    const cause = (error as { cause?: unknown }).cause;
    const code = typeof cause === 'object' && cause !== null && 'code' in cause ? String((cause as { code: unknown }).code) : undefined;
    const detail = cause instanceof Error ? cause.message : error.message;
    return { message: `connection error${code ? ` (${code})` : ''}: ${detail}`, timedOut: false };
  }
  return { message: `connection error: ${String(error)}`, timedOut: false };
}

function matchesFilter(filterTypes: string[] | null, eventType: string): boolean {
  return filterTypes === null || filterTypes.includes(eventType);
}

export class DeliveryEngine {
  /** Every retained message by id, in creation order. */
  readonly messages = new Map<string, Message>();
  /** Every retained attempt by seq, in creation order. */
  private readonly attemptLog = new Map<number, AttemptRecord>();
  /** Partition id -> its retained messages in creation order (retention is per team environment). */
  private readonly byPartition = new Map<string, Set<Message>>();
  /** Endpoint id -> its destinations in message order. */
  private readonly byEndpoint = new Map<string, Set<Destination>>();
  /** Endpoint id -> destinations still pending (so disable/delete can stop them). */
  private readonly pendingByEndpoint = new Map<string, Set<Destination>>();
  /** Endpoint id -> the tail of its attempt queue. */
  private readonly tails = new Map<string, Promise<void>>();
  readonly operational: OperationalEvent[] = [];
  /**
   * Svix's +-20% retry jitter. Off by default so attempt times are round; when on, it is drawn
   * from the seed (message, endpoint, attempt), so runs stay reproducible.
   */
  jitter = false;
  /** Messages kept per team environment (see DEFAULT_RETENTION). */
  private retentionLimit = DEFAULT_RETENTION;
  /** How many finished messages retention has dropped so far. */
  evicted = 0;
  private msgSeq = 0;
  private attemptSeq = 0;
  private opSeq = 0;

  constructor(private readonly world: World) {}

  /** The event-bus subscriber: one message per event, one destination per matching endpoint. */
  onEvent(entry: JournalEntry, partition: Partition): void {
    const store = webhooksOf(this.world);
    if (!store.has(partition.id)) return;
    if (!pipelinesOf(this.world).svixEnabled(partition.team.id, partition.environment)) return;
    const type = entry.envelope.event_type;
    const targets = store.list(partition.id).filter((ep) => !ep.disabled && matchesFilter(ep.filter_types, type));
    if (targets.length === 0) return;
    const msg: Message = {
      id: svixId(this.world, 'msg_'),
      seq: ++this.msgSeq,
      journal_seq: entry.seq,
      partition_id: partition.id,
      team_id: partition.team.id,
      environment: partition.environment,
      event_type: type,
      user_id: entry.envelope.user_id,
      created_at: entry.occurred_at,
      created_ms: Date.parse(entry.occurred_at),
      body: JSON.stringify(entry.envelope),
      destinations: new Map(),
    };
    this.messages.set(msg.id, msg);
    let list = this.byPartition.get(partition.id);
    if (!list) this.byPartition.set(partition.id, (list = new Set()));
    list.add(msg);
    for (const ep of targets) this.startFirst(this.destination(msg, ep.id), ep);
    this.prune(partition.id);
  }

  get retention(): number {
    return this.retentionLimit;
  }

  /** Changes the retention and applies it at once. */
  setRetention(limit: number): void {
    this.retentionLimit = limit;
    for (const id of [...this.byPartition.keys()]) this.prune(id);
    if (this.operational.length > limit) this.operational.splice(0, this.operational.length - limit);
  }

  /** Drops the oldest finished messages of a team environment beyond the retention. */
  private prune(partitionId: string): void {
    const list = this.byPartition.get(partitionId);
    if (!list || list.size <= this.retentionLimit) return;
    for (const msg of list) {
      if (list.size <= this.retentionLimit) break;
      let busy = false;
      for (const d of msg.destinations.values()) if (d.status === 'pending' || d.status === 'sending') busy = true;
      if (busy) continue;
      list.delete(msg);
      this.messages.delete(msg.id);
      for (const d of msg.destinations.values()) {
        const dests = this.byEndpoint.get(d.endpoint_id);
        dests?.delete(d);
        if (dests?.size === 0) this.byEndpoint.delete(d.endpoint_id);
        for (const a of d.attempts) this.attemptLog.delete(a.seq);
      }
      this.evicted++;
    }
    if (list.size === 0) this.byPartition.delete(partitionId);
  }

  /** Stops every pending attempt of an endpoint (disabled or deleted). */
  stopPending(endpointId: string, reason: string): void {
    const pending = this.pendingByEndpoint.get(endpointId);
    if (!pending) return;
    for (const dest of [...pending]) this.finish(dest, 'failed', reason);
    this.pendingByEndpoint.delete(endpointId);
  }

  /** Re-delivers one message to one endpoint now (a manual attempt: not retried if it fails). */
  async resend(msg: Message, ep: WebhookEndpoint): Promise<AttemptRecord | null> {
    const dest = msg.destinations.get(ep.id) ?? this.destination(msg, ep.id, 'failed');
    const p = this.enqueue(ep.id, () => this.perform(dest, 'manual'));
    this.world.track(p);
    return p;
  }

  /** Failed messages of an endpoint created in [since, until), oldest first. */
  failedSince(ep: WebhookEndpoint, since: number, until: number): Message[] {
    const out: Message[] = [];
    for (const dest of this.byEndpoint.get(ep.id) ?? []) {
      const ms = dest.message.created_ms;
      if (dest.status === 'failed' && ms >= since && ms < until) out.push(dest.message);
    }
    return out;
  }

  /** Replays every failed message of an endpoint in the window, in order; waits for the attempts. */
  async recover(ep: WebhookEndpoint, since: number, until: number): Promise<AttemptRecord[]> {
    const out: AttemptRecord[] = [];
    for (const msg of this.failedSince(ep, since, until)) {
      const attempt = await this.resend(msg, ep);
      if (attempt) out.push(attempt);
    }
    return out;
  }

  listMessages(filter: MessageFilter, limit: number): Message[] {
    const byEndpoint = filter.endpoint_id !== undefined ? (this.byEndpoint.get(filter.endpoint_id) ?? new Set<Destination>()) : null;
    const source: Iterable<Message> = byEndpoint ? (function* () { for (const d of byEndpoint) yield d.message; })() : this.messages.values();
    const out: Message[] = [];
    for (const msg of source) {
      if (out.length >= limit) break;
      if (filter.after !== undefined && msg.seq <= filter.after) continue;
      if (filter.team_id !== undefined && msg.team_id !== filter.team_id) continue;
      if (filter.environment !== undefined && msg.environment !== filter.environment) continue;
      if (filter.event_type !== undefined && msg.event_type !== filter.event_type) continue;
      if (filter.status !== undefined) {
        const dests = filter.endpoint_id !== undefined ? [msg.destinations.get(filter.endpoint_id)] : [...msg.destinations.values()];
        if (!dests.some((d) => d?.status === filter.status)) continue;
      }
      out.push(msg);
    }
    return out;
  }

  listAttempts(filter: AttemptFilter, limit: number): AttemptRecord[] {
    let source: Iterable<AttemptRecord> = this.attemptLog.values();
    if (filter.msg_id !== undefined) {
      const msg = this.messages.get(filter.msg_id);
      source = msg ? [...msg.destinations.values()].flatMap((d) => d.attempts).sort((a, b) => a.seq - b.seq) : [];
    }
    const out: AttemptRecord[] = [];
    for (const a of source) {
      if (out.length >= limit) break;
      if (filter.after !== undefined && a.seq <= filter.after) continue;
      if (filter.team_id !== undefined && a.team_id !== filter.team_id) continue;
      if (filter.environment !== undefined && a.environment !== filter.environment) continue;
      if (filter.endpoint_id !== undefined && a.endpoint_id !== filter.endpoint_id) continue;
      if (filter.event_type !== undefined && a.event_type !== filter.event_type) continue;
      if (filter.status !== undefined && a.status !== filter.status) continue;
      if (filter.trigger !== undefined && a.trigger !== filter.trigger) continue;
      out.push(a);
    }
    return out;
  }

  /**
   * Canonical state for world snapshots: no back-references and nothing wall-clock (signature
   * timestamps, latencies), so the same seed and requests give the same snapshot.
   */
  toJSON(): unknown {
    return {
      messages: [...this.messages.values()].map((m) => ({
        id: m.id,
        seq: m.seq,
        journal_seq: m.journal_seq,
        partition_id: m.partition_id,
        event_type: m.event_type,
        created_at: m.created_at,
        body: m.body,
        destinations: [...m.destinations.values()].map((d) => ({
          endpoint_id: d.endpoint_id,
          status: d.status,
          failure_reason: d.failure_reason,
          scheduled_attempts: d.scheduled_attempts,
          next_attempt_at: d.next_attempt_at,
          attempts: d.attempts.map((a) => ({
            id: a.id,
            trigger: a.trigger,
            attempt_number: a.attempt_number,
            status: a.status,
            created_at: a.created_at,
            status_code: a.response?.status_code ?? null,
            next_attempt_at: a.next_attempt_at,
          })),
        })),
      })),
      operational: this.operational,
    };
  }

  // -------------------------------------------------------------------------------------------

  private destination(msg: Message, endpointId: string, status: DestinationStatus = 'pending'): Destination {
    const dest: Destination = {
      message: msg,
      endpoint_id: endpointId,
      status,
      failure_reason: null,
      scheduled_attempts: 0,
      attempts: [],
      next_attempt_at: status === 'pending' ? this.world.clock.now() : null,
      job: null,
      failing_notified: false,
    };
    msg.destinations.set(endpointId, dest);
    const list = this.byEndpoint.get(endpointId);
    if (list) list.add(dest);
    else this.byEndpoint.set(endpointId, new Set([dest]));
    if (status === 'pending') this.markPending(dest);
    return dest;
  }

  private markPending(dest: Destination): void {
    let set = this.pendingByEndpoint.get(dest.endpoint_id);
    if (!set) this.pendingByEndpoint.set(dest.endpoint_id, (set = new Set()));
    set.add(dest);
  }

  private finish(dest: Destination, status: 'success' | 'failed', reason: string | null): void {
    dest.status = status;
    dest.failure_reason = reason;
    dest.next_attempt_at = null;
    dest.job?.cancel();
    dest.job = null;
    this.pendingByEndpoint.get(dest.endpoint_id)?.delete(dest);
    // A finished message may now be dropped by retention.
    this.prune(dest.message.partition_id);
  }

  private startFirst(dest: Destination, ep: WebhookEndpoint): void {
    const { world } = this;
    const p = this.enqueue(ep.id, () => this.perform(dest, 'scheduled'));
    world.track(p);
    if (world.clock.mode === 'manual') {
      // An advance must not move the clock past an attempt still in flight.
      const barrier = world.scheduler.at(world.clock.now(), `webhook attempt ${dest.message.id} -> ${ep.id}`, () => p.then(noop, noop));
      p.then(() => barrier.cancel(), () => barrier.cancel());
    }
  }

  private enqueue<T>(endpointId: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.tails.get(endpointId) ?? Promise.resolve();
    const next = prev.then(fn);
    const tail = next.then(noop, noop);
    this.tails.set(endpointId, tail);
    void tail.then(() => {
      if (this.tails.get(endpointId) === tail) this.tails.delete(endpointId);
    });
    return next;
  }

  private scheduleRetry(dest: Destination, at: number): void {
    const { world } = this;
    const msg = dest.message;
    dest.status = 'pending';
    dest.next_attempt_at = at;
    this.markPending(dest);
    dest.job = world.scheduler.at(at, `webhook retry ${msg.id} -> ${dest.endpoint_id} (#${dest.scheduled_attempts + 1})`, () => {
      // dest.job stays set until the queued attempt starts, so a manual attempt ahead of it in
      // the endpoint queue knows a scheduled retry is still coming.
      const p = this.enqueue(dest.endpoint_id, () => this.perform(dest, 'scheduled'));
      if (world.clock.mode === 'manual') return p.then(noop);
      world.track(p);
      return undefined;
    });
  }

  private operationalEvent(type: OperationalType, ep: { id: string; team_id: string; environment: Environment }, msgId: string | null, detail: string): void {
    this.operational.push({
      seq: ++this.opSeq,
      type,
      at: this.world.clock.iso(),
      team_id: ep.team_id,
      environment: ep.environment,
      endpoint_id: ep.id,
      msg_id: msgId,
      detail,
    });
    // Operational events are few (a handful per failing message): the most recent N in all.
    if (this.operational.length > this.retentionLimit) this.operational.splice(0, this.operational.length - this.retentionLimit);
  }

  /** Disables an endpoint on the sandbox's own initiative and stops its pending attempts. */
  disableEndpoint(ep: WebhookEndpoint, reason: string): void {
    if (ep.disabled) return;
    ep.disabled = true;
    ep.disabled_reason = reason;
    ep.updated_at = this.world.clock.iso();
    this.stopPending(ep.id, 'endpoint_disabled');
    this.operationalEvent('endpoint.disabled', ep, null, reason);
  }

  private async perform(dest: Destination, trigger: Trigger): Promise<AttemptRecord | null> {
    try {
      return await this.attempt(dest, trigger);
    } catch (error) {
      this.world.log(`Webhook attempt for ${dest.message.id} -> ${dest.endpoint_id} failed inside the sandbox`, error);
      if (dest.status === 'sending') this.finish(dest, 'failed', 'internal_error');
      return null;
    }
  }

  private async attempt(dest: Destination, trigger: Trigger): Promise<AttemptRecord | null> {
    const { world } = this;
    const { clock } = world;
    const msg = dest.message;
    if (trigger === 'scheduled') {
      if (dest.status !== 'pending') return null;
      dest.job = null;
    }
    const store = webhooksOf(world);
    const ep = store.byId.get(dest.endpoint_id);
    if (!ep) {
      this.finish(dest, 'failed', 'endpoint_deleted');
      return null;
    }
    if (!world.tenancy.teams.has(msg.team_id)) {
      this.finish(dest, 'failed', 'team_deleted');
      return null;
    }
    if (ep.disabled) {
      if (trigger === 'scheduled') this.finish(dest, 'failed', 'endpoint_disabled');
      return null;
    }

    const before = dest.status;
    dest.status = 'sending';
    const createdAt = clock.iso();
    const timestamp = Math.floor(clock.wall() / 1000);
    const signature = signatureHeader(store.signingKeys(ep), msg.id, timestamp, msg.body);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      ...signingHeaders(ep.whitelabel_headers ? 'webhook' : 'svix', msg.id, timestamp, signature),
      ...ep.headers,
    };
    const url = ep.url;
    let response: AttemptRecord['response'] = null;
    let error: string | null = null;
    let timedOut = false;
    const wallStart = clock.wall();
    try {
      const res = await globalThis.fetch(url, {
        method: 'POST',
        headers,
        body: msg.body,
        redirect: 'manual',
        signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
      });
      const resHeaders: Record<string, string> = {};
      res.headers.forEach((value, name) => {
        resHeaders[name.toLowerCase()] = value;
      });
      response = { status_code: res.status, headers: resHeaders, body: await readExcerpt(res) };
    } catch (e) {
      const described = describeError(e);
      error = described.message;
      timedOut = described.timedOut;
    }
    const latency = Math.max(0, clock.wall() - wallStart);
    const ok = response !== null && response.status_code >= 200 && response.status_code < 300;
    const record: AttemptRecord = {
      // Derived from stable keys, not a counter: concurrent attempts finish in any order.
      id: `atmpt_${stableToken(27, world.seed, 'webhook-attempt', msg.id, ep.id, dest.attempts.length + 1)}`,
      seq: ++this.attemptSeq,
      msg_id: msg.id,
      endpoint_id: ep.id,
      team_id: msg.team_id,
      environment: msg.environment,
      event_type: msg.event_type,
      url,
      trigger,
      attempt_number: dest.attempts.length + 1,
      status: ok ? 'success' : 'failed',
      created_at: createdAt,
      timestamp,
      request: { method: 'POST', headers, body: msg.body },
      response,
      error,
      latency_ms: latency,
      next_attempt_at: null,
    };
    dest.attempts.push(record);
    // A message dropped by retention while this attempt was queued keeps its record on the message only.
    if (this.messages.get(msg.id) === msg) this.attemptLog.set(record.seq, record);
    const now = clock.now();
    const live = store.byId.get(ep.id) === ep;

    if (ok) {
      if (live) ep.failing_since = null;
      if (dest.failing_notified) this.operationalEvent('message.attempt.recovered', ep, msg.id, `Delivered on attempt ${record.attempt_number}`);
      this.finish(dest, 'success', null);
      return record;
    }

    if (live && ep.failing_since === null) ep.failing_since = now;
    const directive = response?.headers['webhook-delivery']?.trim().toLowerCase();
    if (live && directive === 'disable') this.disableEndpoint(ep, 'The receiver answered webhook-delivery: disable');
    if (live && !ep.disabled && ep.failing_since !== null && now - ep.failing_since >= AUTO_DISABLE_AFTER_MS) {
      this.disableEndpoint(ep, 'Every delivery failed for 5 days');
    }

    if (trigger === 'manual') {
      // A failed manual attempt is not retried; a scheduled retry already pending stays.
      if (dest.job !== null) dest.status = 'pending';
      else this.finish(dest, 'failed', before === 'failed' ? (dest.failure_reason ?? 'manual_attempt_failed') : 'manual_attempt_failed');
      return record;
    }

    dest.scheduled_attempts++;
    if (dest.scheduled_attempts === 4 && !dest.failing_notified) {
      dest.failing_notified = true;
      this.operationalEvent('message.attempt.failing', ep, msg.id, 'Four attempts in a row failed');
    }
    if (!live || ep.disabled) {
      this.finish(dest, 'failed', live ? 'endpoint_disabled' : 'endpoint_deleted');
    } else if (directive === 'abort-message') {
      this.finish(dest, 'failed', 'aborted_by_receiver');
    } else if (dest.scheduled_attempts >= MAX_ATTEMPTS) {
      this.finish(dest, 'failed', 'exhausted');
      this.operationalEvent('message.attempt.exhausted', ep, msg.id, `All ${MAX_ATTEMPTS} attempts failed`);
    } else {
      const retryAfter = parseRetryAfter(response?.headers['retry-after'], clock.wall());
      let delay = retryDelayMs(dest.scheduled_attempts, response?.status_code ?? null, timedOut, retryAfter);
      if (this.jitter) {
        const u = unitFloat(world.seed, 'webhook-jitter', msg.id, ep.id, dest.scheduled_attempts);
        delay = Math.round(delay * (1 - JITTER_DELTA + 2 * JITTER_DELTA * u));
      }
      const at = now + delay;
      record.next_attempt_at = new Date(at).toISOString();
      this.scheduleRetry(dest, at);
    }
    return record;
  }
}

export const deliveryOf = worldSlot('webhook-delivery', (world) => new DeliveryEngine(world));

// ---------------------------------------------------------------------------------------------
// Views for the control plane.

export function destinationView(dest: Destination, ep: WebhookEndpoint | undefined) {
  const last = dest.attempts[dest.attempts.length - 1];
  return {
    endpoint_id: dest.endpoint_id,
    url: ep?.url ?? last?.url ?? null,
    status: dest.status,
    failure_reason: dest.failure_reason,
    attempts: dest.attempts.length,
    scheduled_attempts: dest.scheduled_attempts,
    last_attempt_at: last?.created_at ?? null,
    next_attempt_at: dest.next_attempt_at === null ? null : new Date(dest.next_attempt_at).toISOString(),
  };
}

export function messageView(msg: Message, world: World, endpointId?: string) {
  const store = webhooksOf(world);
  const dests = [...msg.destinations.values()].filter((d) => endpointId === undefined || d.endpoint_id === endpointId);
  return {
    id: msg.id,
    seq: msg.seq,
    event_type: msg.event_type,
    team_id: msg.team_id,
    environment: msg.environment,
    user_id: msg.user_id,
    created_at: msg.created_at,
    payload: JSON.parse(msg.body) as unknown,
    destinations: dests.map((d) => destinationView(d, store.byId.get(d.endpoint_id))),
  };
}
