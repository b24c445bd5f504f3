/**
 * The one place domain changes become events (design.md section 4). An event passes the
 * team's `event_type_prefixes` allowlist, lands on the partition's journal, then goes to each
 * subscriber (webhook delivery, pipelines, in-process test subscribers) in emission order.
 */
import type { Partition } from './tenancy.js';

/** The envelope of spec section 6. */
export interface EventEnvelope {
  event_type: string;
  data: unknown;
  team_id: string;
  user_id: string;
  client_user_id: string;
}

/** A journal entry: the envelope plus where and when it happened. */
export interface JournalEntry {
  /** Monotonic per sandbox. */
  seq: number;
  /** Sandbox time of emission (ISO). */
  occurred_at: string;
  team_id: string;
  environment: Partition['environment'];
  envelope: EventEnvelope;
}

export type EventSubscriber = (entry: JournalEntry, partition: Partition) => void;

/**
 * Whether a listener (webhook endpoint, pipeline, in-process subscriber) would receive some event
 * whose type starts with `prefix` in a team environment. Generators of optional events (the
 * wearable feed) ask before doing work nobody can observe (design rule 11).
 */
type EventWatcher = (partition: Partition, prefix: string) => boolean;

export interface EventFilter {
  team_id?: string;
  environment?: string;
  event_type?: string;
  event_type_prefix?: string;
  user_id?: string;
  after_seq?: number;
}

/** Journal entries kept by default (the newest; older ones drop off the ring). */
export const JOURNAL_LIMIT = 10_000;

/**
 * A fixed-capacity ring of journal entries. Entries arrive with consecutive `seq` numbers, so the
 * slot of a `seq` is arithmetic: no search, no shifting, O(1) push.
 */
class JournalRing {
  private readonly slots: JournalEntry[] = [];
  private head = 0;
  readonly capacity: number;

  constructor(capacity: number) {
    this.capacity = Math.max(1, Math.floor(capacity));
  }

  get length(): number {
    return this.slots.length;
  }

  push(entry: JournalEntry): void {
    if (this.slots.length < this.capacity) {
      this.slots.push(entry);
      return;
    }
    this.slots[this.head] = entry;
    this.head = (this.head + 1) % this.capacity;
  }

  /** The i-th kept entry, oldest first. */
  at(i: number): JournalEntry {
    return this.slots[(this.head + i) % this.slots.length] as JournalEntry;
  }

  /** Index of the first kept entry with a `seq` greater than `seq`. */
  indexAfter(seq: number): number {
    if (this.slots.length === 0) return 0;
    const first = this.at(0).seq;
    return Math.min(this.slots.length, Math.max(0, seq - first + 1));
  }
}

export class EventBus {
  private seq = 0;
  private readonly journal: JournalRing;
  private readonly subscribers: EventSubscriber[] = [];
  private readonly watchers: EventWatcher[] = [];
  /** Events journaled but not yet handed to the subscribers (emits nested in a subscriber wait here). */
  private readonly undelivered: Array<[JournalEntry, Partition]> = [];
  private delivering = false;
  /** Events dropped by a team allowlist (kept for inspection). */
  private filteredCount = 0;

  /**
   * @param limit journal entries kept (oldest dropped first, a ring of fixed size); delivery and
   *   subscribers still see every event.
   */
  constructor(
    private readonly nowIso: () => string,
    limit = JOURNAL_LIMIT,
  ) {
    this.journal = new JournalRing(limit);
  }

  /** Emits an event for a partition. Returns the journal entry, or null when the allowlist drops it. */
  emit(partition: Partition, envelope: EventEnvelope): JournalEntry | null {
    const prefixes = partition.team.settings[partition.environment].event_type_prefixes;
    if (prefixes && prefixes.length > 0 && !prefixes.some((p) => envelope.event_type.startsWith(p))) {
      this.filteredCount++;
      return null;
    }
    const entry: JournalEntry = {
      seq: ++this.seq,
      occurred_at: this.nowIso(),
      team_id: partition.team.id,
      environment: partition.environment,
      envelope,
    };
    this.journal.push(entry);
    // An event emitted by a subscriber (e.g. lab-derived data following a lab order event)
    // reaches every subscriber after the event being delivered: delivery follows journal order.
    this.undelivered.push([entry, partition]);
    if (this.delivering) return entry;
    this.delivering = true;
    try {
      for (let next = this.undelivered.shift(); next; next = this.undelivered.shift()) {
        for (const sub of this.subscribers) sub(next[0], next[1]);
      }
    } catch (error) {
      this.undelivered.length = 0;
      throw error;
    } finally {
      this.delivering = false;
    }
    return entry;
  }

  /** Adds a subscriber; returns a function that removes it. */
  subscribe(fn: EventSubscriber): () => void {
    this.subscribers.push(fn);
    return () => {
      const i = this.subscribers.indexOf(fn);
      if (i >= 0) this.subscribers.splice(i, 1);
    };
  }

  /** Registers a listener test for `listening` (webhooks and pipelines register theirs). */
  watch(fn: EventWatcher): () => void {
    this.watchers.push(fn);
    return () => {
      const i = this.watchers.indexOf(fn);
      if (i >= 0) this.watchers.splice(i, 1);
    };
  }

  /**
   * Whether anyone would receive an event of a type starting with `prefix` in this team
   * environment: the team's allowlist lets some through and a watcher says it listens.
   */
  listening(partition: Partition, prefix: string): boolean {
    const allow = partition.team.settings[partition.environment].event_type_prefixes;
    if (allow && allow.length > 0 && !allow.some((p) => p.startsWith(prefix) || prefix.startsWith(p))) return false;
    for (const w of this.watchers) if (w(partition, prefix)) return true;
    return false;
  }

  /** Journal entries matching a filter, oldest first. */
  list(filter: EventFilter = {}, limit = 1000): JournalEntry[] {
    const out: JournalEntry[] = [];
    const start = filter.after_seq ? this.journal.indexAfter(filter.after_seq) : 0;
    for (let i = start; i < this.journal.length && out.length < limit; i++) {
      const e = this.journal.at(i);
      if (filter.team_id && e.team_id !== filter.team_id) continue;
      if (filter.environment && e.environment !== filter.environment) continue;
      if (filter.event_type && e.envelope.event_type !== filter.event_type) continue;
      if (filter.event_type_prefix && !e.envelope.event_type.startsWith(filter.event_type_prefix)) continue;
      if (filter.user_id && e.envelope.user_id !== filter.user_id) continue;
      out.push(e);
    }
    return out;
  }

  /** The most journal entries kept. */
  get capacity(): number {
    return this.journal.capacity;
  }

  /** Journal entries currently kept. */
  get size(): number {
    return this.journal.length;
  }

  /** Events emitted since the world began (the last `seq`), kept or not. */
  get emitted(): number {
    return this.seq;
  }

  get dropped(): number {
    return this.filteredCount;
  }
}
