/**
 * The delivery log: every retained message with its destinations and attempts, the operational
 * events, and their retention (the most recent `retention` messages per team environment;
 * finished ones beyond it are dropped with their attempts, pending ones never).
 */
import type { Environment } from '../../engine/tenancy.js';
import {
  type AttemptRecord,
  attemptOf,
  type Destination,
  type DestinationStatus,
  KeptAttempt,
  type LoggedAttempt,
  type Message,
  type Trigger,
} from './message.js';
import { AttemptTimes } from './attempt-times.js';
import { SeqHeap } from './seq-heap.js';
import { DEFAULT_RETENTION } from './webhooks.js';
import { dataClass } from '../../engine/world-codec.js';

export type OperationalType = 'message.attempt.failing' | 'message.attempt.exhausted' | 'message.attempt.recovered' | 'endpoint.disabled';

interface OperationalEvent {
  seq: number;
  type: OperationalType;
  at: string;
  team_id: string;
  environment: Environment;
  endpoint_id: string;
  msg_id: string | null;
  detail: string;
}

interface MessageFilter {
  team_id?: string;
  environment?: string;
  endpoint_id?: string;
  event_type?: string;
  status?: DestinationStatus;
  after?: number;
}

interface AttemptFilter {
  team_id?: string;
  environment?: string;
  endpoint_id?: string;
  msg_id?: string;
  event_type?: string;
  status?: 'success' | 'failed';
  trigger?: Trigger;
  after?: number;
}

function busy(msg: Message): boolean {
  return msg.destinations.busy();
}

/** What an operational event names of its endpoint. */
export interface OperationalEndpoint {
  id: string;
  team_id: string;
  environment: Environment;
}

export class DeliveryLog {
  /** Every retained message by id, in creation order. */
  readonly messages = new Map<string, Message>();
  /** Every retained attempt by seq, in creation order (final ones in their kept form). */
  private readonly attempts = new Map<number, LoggedAttempt>();
  /** Partition id -> its retained messages in creation order. */
  private readonly byPartition = new Map<string, Set<Message>>();
  /** Endpoint id -> its destinations in message order. */
  private readonly byEndpoint = new Map<string, Set<Destination>>();
  /**
   * Partition id -> its messages that finished (every destination done), oldest first, so
   * retention drops the oldest finished message without walking the busy ones ahead of it.
   * Entries are checked when taken: a message retried since (busy again) is skipped and comes
   * back when it finishes again.
   */
  private readonly finishedByPartition = new Map<string, SeqHeap<Message>>();
  readonly operational: OperationalEvent[] = [];
  /** The logged attempts counted per team environment and five minutes (the delivery metric): not state, rebuilt from `attempts`. */
  private times = new AttemptTimes();
  private retentionLimit = DEFAULT_RETENTION;
  /** How many finished messages retention has dropped so far. */
  evicted = 0;
  private opSeq = 0;

  get retention(): number {
    return this.retentionLimit;
  }

  /** Changes the retention and applies it at once. */
  setRetention(limit: number): void {
    this.retentionLimit = limit;
    for (const id of [...this.byPartition.keys()]) this.prune(id);
    if (this.operational.length > limit) this.operational.splice(0, this.operational.length - limit);
  }

  addMessage(msg: Message): void {
    this.messages.set(msg.id, msg);
    let list = this.byPartition.get(msg.partition_id);
    if (!list) this.byPartition.set(msg.partition_id, (list = new Set()));
    list.add(msg);
  }

  addDestination(dest: Destination): void {
    dest.message.destinations.set(dest.endpoint_id, dest);
    const list = this.byEndpoint.get(dest.endpoint_id);
    if (list) list.add(dest);
    else this.byEndpoint.set(dest.endpoint_id, new Set([dest]));
  }

  /** Records an attempt on its destination, and in the log while its message is retained. */
  addAttempt(dest: Destination, record: AttemptRecord): void {
    // The attempt before is final now (its next attempt time was set): kept in its compact form.
    this.keep(dest, dest.attempts.length - 1);
    dest.attempts.push(record);
    if (this.messages.get(dest.message.id) !== dest.message) return;
    this.attempts.set(record.seq, record);
    this.times.count(record.team_id, record.environment, record.created_at, record.status === 'success', 1);
  }

  /** Counts a logged attempt in `times` (`delta` 1) or takes it out (-1): its team environment, start and outcome as `attemptOutcomes` reads them. */
  private countTime(a: LoggedAttempt, delta: 1 | -1): void {
    if (a instanceof KeptAttempt) this.times.count(a.dest.message.team_id, a.dest.message.environment, a.createdAt, a.ok, delta);
    else this.times.count(a.team_id, a.environment, a.created_at, a.status === 'success', delta);
  }

  /** Rebuilds `times` from the log (a saved world read back). */
  recountTimes(): void {
    this.times = new AttemptTimes();
    for (const a of this.attempts.values()) this.countTime(a, 1);
  }

  /** Replaces a final attempt record by its kept form (`KeptAttempt`, message.ts), in the destination and in the log. */
  private keep(dest: Destination, index: number): void {
    const a = dest.attempts[index];
    if (a === undefined || a instanceof KeptAttempt || !KeptAttempt.fits(dest, a)) return;
    const kept = new KeptAttempt(dest, a);
    dest.attempts[index] = kept;
    if (this.attempts.get(a.seq) === a) this.attempts.set(a.seq, kept);
  }

  /** Called when a destination finishes: a message with every destination done may be dropped by retention. */
  finished(msg: Message): void {
    if (busy(msg)) return;
    for (const d of msg.destinations.values()) this.keep(d, d.attempts.length - 1);
    if (this.messages.get(msg.id) !== msg) return;
    let heap = this.finishedByPartition.get(msg.partition_id);
    if (heap === undefined) this.finishedByPartition.set(msg.partition_id, (heap = new SeqHeap()));
    heap.push(msg);
  }

  /** Records an operational event of an endpoint (`at`: the sandbox time, ISO). */
  addOperationalOf(type: OperationalType, ep: OperationalEndpoint, msgId: string | null, detail: string, at: string): void {
    this.addOperational({ type, at, team_id: ep.team_id, environment: ep.environment, endpoint_id: ep.id, msg_id: msgId, detail });
  }

  addOperational(event: Omit<OperationalEvent, 'seq'>): void {
    this.operational.push({ seq: ++this.opSeq, ...event });
    // Operational events are few (a handful per failing message): the most recent N in all.
    if (this.operational.length > this.retentionLimit) this.operational.splice(0, this.operational.length - this.retentionLimit);
  }

  /** Drops the oldest finished messages of a team environment beyond the retention. */
  prune(partitionId: string): void {
    const list = this.byPartition.get(partitionId);
    if (!list || list.size <= this.retentionLimit) return;
    const heap = this.finishedByPartition.get(partitionId);
    while (heap !== undefined && heap.size > 0 && list.size > this.retentionLimit) {
      const msg = heap.pop() as Message;
      if (!list.has(msg) || busy(msg)) continue;
      list.delete(msg);
      this.messages.delete(msg.id);
      for (const d of msg.destinations.values()) {
        const dests = this.byEndpoint.get(d.endpoint_id);
        dests?.delete(d);
        if (dests?.size === 0) this.byEndpoint.delete(d.endpoint_id);
        for (const a of d.attempts) {
          const logged = this.attempts.get(a.seq);
          if (logged === undefined) continue;
          this.attempts.delete(a.seq);
          this.countTime(logged, -1);
        }
      }
      this.evicted++;
    }
    if (heap !== undefined && heap.size === 0) this.finishedByPartition.delete(partitionId);
    if (list.size === 0) this.byPartition.delete(partitionId);
  }

  /** Failed messages of an endpoint created in [since, until), oldest first. */
  failedSince(endpointId: string, since: number, until: number): Message[] {
    const out: Message[] = [];
    for (const dest of this.byEndpoint.get(endpointId) ?? []) {
      const ms = dest.message.created_ms;
      if (dest.status === 'failed' && ms >= since && ms < until) out.push(dest.message);
    }
    return out;
  }

  listMessages(filter: MessageFilter, limit: number): Message[] {
    const byEndpoint = filter.endpoint_id !== undefined ? (this.byEndpoint.get(filter.endpoint_id) ?? new Set<Destination>()) : null;
    const source: Iterable<Message> = byEndpoint ? [...byEndpoint].map((d) => d.message) : this.messages.values();
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
    let source: Iterable<LoggedAttempt> = this.attempts.values();
    if (filter.msg_id !== undefined) {
      const msg = this.messages.get(filter.msg_id);
      source = msg ? [...msg.destinations.values()].flatMap((d) => d.attempts).sort((a, b) => a.seq - b.seq) : [];
    }
    const out: AttemptRecord[] = [];
    for (const a of source) {
      if (out.length >= limit) break;
      if (filter.after !== undefined && a.seq <= filter.after) continue;
      const msg = a instanceof KeptAttempt ? a.dest.message : null;
      if (filter.team_id !== undefined && (msg ? msg.team_id : (a as AttemptRecord).team_id) !== filter.team_id) continue;
      if (filter.environment !== undefined && (msg ? msg.environment : (a as AttemptRecord).environment) !== filter.environment) continue;
      if (filter.endpoint_id !== undefined && (a instanceof KeptAttempt ? a.dest.endpoint_id : a.endpoint_id) !== filter.endpoint_id)
        continue;
      if (filter.event_type !== undefined && (msg ? msg.event_type : (a as AttemptRecord).event_type) !== filter.event_type) continue;
      if (filter.status !== undefined && (a instanceof KeptAttempt ? (a.ok ? 'success' : 'failed') : a.status) !== filter.status) continue;
      if (filter.trigger !== undefined && a.trigger !== filter.trigger) continue;
      out.push(attemptOf(a));
    }
    return out;
  }

  /**
   * The creation time and outcome of the first `limit` attempts of a team environment, in order
   * (what `listAttempts` with that filter lists), without building their records: the event
   * delivery metric counts them.
   */
  attemptOutcomes(team_id: string, environment: string, limit: number, visit: (createdAt: string, ok: boolean) => void): void {
    let n = 0;
    for (const a of this.attempts.values()) {
      if (n >= limit) break;
      if (a instanceof KeptAttempt) {
        const msg = a.dest.message;
        if (msg.team_id !== team_id || msg.environment !== environment) continue;
        visit(a.createdAt, a.ok);
      } else {
        if (a.team_id !== team_id || a.environment !== environment) continue;
        visit(a.created_at, a.status === 'success');
      }
      n++;
    }
  }

  /**
   * What `attemptOutcomes` counts for the event delivery metric, from the counts kept per five
   * minutes: the attempts of a team environment that started in each of `steps` steps of `stepS`
   * seconds from `firstS` (multiples of five minutes), by outcome; null when the team environment
   * holds more than `limit` attempts (only the first `limit` count: walk them with `attemptOutcomes`).
   */
  attemptsPerStep(
    team_id: string,
    environment: string,
    limit: number,
    firstS: number,
    stepS: number,
    steps: number,
  ): { success: number[]; failed: number[] } | null {
    if (this.times.size(team_id, environment) > limit) return null;
    return this.times.perStep(team_id, environment, firstS, stepS, steps);
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
          attempts: d.attempts.map(attemptOf).map((a) => ({
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
}
dataClass('DeliveryLog', DeliveryLog, { skip: ['times'], revive: (log) => log.recountTimes() });
