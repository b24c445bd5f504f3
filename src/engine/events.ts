/**
 * The one place domain changes become events (design.md section 4). An event passes the
 * team's `event_type_prefixes` allowlist, lands on the partition's journal, then goes to each
 * subscriber (webhook delivery, pipelines, in-process test subscribers) in emission order.
 */
import { dataClass } from './world-codec.js';
import type { EventData, EventType } from '../wire/events.js';
import type { Partition } from './tenancy.js';

/** The envelope an emitter hands to `EventBus.emit`: its `data` typed by its `event_type` (src/wire/events.ts). */
export interface EmittedEnvelope<T extends EventType = EventType> {
  event_type: T;
  data: EventData<T>;
  team_id: string;
  user_id: string;
  client_user_id: string;
}

/** The envelope of spec section 6, as the journal and the subscribers read it. */
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

/** @public The filter of `EventBus.list` (the events API, `events()`). */
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
 * What the journal keeps of an entry. Once a subscriber has rendered the envelope's JSON (webhook
 * delivery signs and sends exactly that string), the journal keeps the string, shared with the
 * message, and drops the envelope object: a day of feed events is then a few thousand flat
 * strings for the garbage collector instead of a few hundred thousand sample objects. `list()`
 * parses the envelope back (the same JSON renders the same bytes).
 */
interface KeptEntry {
  seq: number;
  occurred_at: string;
  team_id: string;
  environment: Partition['environment'];
  event_type: string;
  user_id: string;
  envelope: EventEnvelope | null;
  json: string | null;
}

function materialise(k: KeptEntry): JournalEntry {
  return {
    seq: k.seq,
    occurred_at: k.occurred_at,
    team_id: k.team_id,
    environment: k.environment,
    envelope: k.envelope ?? (JSON.parse(k.json as string) as EventEnvelope),
  };
}

/**
 * A fixed-capacity ring of journal entries. Entries arrive with consecutive `seq` numbers, so the
 * slot of a `seq` is arithmetic: no search, no shifting, O(1) push.
 */
class JournalRing {
  private readonly slots: KeptEntry[] = [];
  private head = 0;
  readonly capacity: number;

  constructor(capacity: number) {
    this.capacity = Math.max(1, Math.floor(capacity));
  }

  get length(): number {
    return this.slots.length;
  }

  push(entry: KeptEntry): void {
    if (this.slots.length < this.capacity) {
      this.slots.push(entry);
      return;
    }
    this.slots[this.head] = entry;
    this.head = (this.head + 1) % this.capacity;
  }

  /** The i-th kept entry, oldest first. */
  at(i: number): KeptEntry {
    return this.slots[(this.head + i) % this.slots.length] as KeptEntry;
  }

  /** Index of the first kept entry with a `seq` greater than `seq`. */
  indexAfter(seq: number): number {
    if (this.slots.length === 0) return 0;
    const first = this.at(0).seq;
    return Math.min(this.slots.length, Math.max(0, seq - first + 1));
  }
}

dataClass('JournalRing', JournalRing);

/** What a saved world keeps of its event bus (engine/world-state.ts): the sequence, the journal, the filtered count. */
export interface EventBusState {
  seq: number;
  journal: unknown;
  filteredCount: number;
}

export class EventBus {
  private seq = 0;
  private readonly journal: JournalRing;
  private readonly subscribers: EventSubscriber[] = [];
  private readonly watchers: EventWatcher[] = [];
  /** Events journaled but not yet handed to the subscribers (emits nested in a subscriber wait here). */
  private readonly undelivered: Array<[JournalEntry, Partition, KeptEntry]> = [];
  /** The entry being handed to the subscribers and what the journal keeps of it (for `render`). */
  private current: JournalEntry | null = null;
  private currentKept: KeptEntry | null = null;
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

  /** The bus's state (its subscribers are code, wired when the world is built). */
  saveState(): EventBusState {
    return { seq: this.seq, journal: this.journal, filteredCount: this.filteredCount };
  }

  /** Puts saved state back (a world loaded from its state). */
  loadState(state: EventBusState): void {
    this.seq = state.seq;
    (this as unknown as { journal: JournalRing }).journal = state.journal as JournalRing;
    this.filteredCount = state.filteredCount;
  }

  /** Emits an event for a partition. Returns the journal entry, or null when the allowlist drops it. */
  emit<T extends EventType>(partition: Partition, envelope: EmittedEnvelope<T>): JournalEntry | null {
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
    const kept: KeptEntry = {
      seq: entry.seq,
      occurred_at: entry.occurred_at,
      team_id: entry.team_id,
      environment: entry.environment,
      event_type: envelope.event_type,
      user_id: envelope.user_id,
      envelope,
      json: null,
    };
    this.journal.push(kept);
    // An event emitted by a subscriber (e.g. lab-derived data following a lab order event)
    // reaches every subscriber after the event being delivered: delivery follows journal order.
    this.undelivered.push([entry, partition, kept]);
    if (this.delivering) return entry;
    this.delivering = true;
    try {
      for (let next = this.undelivered.shift(); next; next = this.undelivered.shift()) {
        this.current = next[0];
        this.currentKept = next[2];
        for (const sub of this.subscribers) sub(next[0], next[1]);
        // Rendered by a subscriber: the journal keeps the JSON only.
        if (next[2].json !== null) next[2].envelope = null;
      }
    } catch (error) {
      this.undelivered.length = 0;
      throw error;
    } finally {
      this.delivering = false;
      this.current = null;
      this.currentKept = null;
    }
    return entry;
  }

  /**
   * The envelope's JSON (`JSON.stringify(entry.envelope)`), rendered once per event: a subscriber
   * asking for it during delivery gets the string the journal then keeps instead of the object.
   */
  render(entry: JournalEntry): string {
    const kept = entry === this.current ? this.currentKept : null;
    if (kept !== null && kept.json !== null) return kept.json;
    const json = JSON.stringify(entry.envelope);
    if (kept !== null) kept.json = json;
    return json;
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
      if (filter.event_type && e.event_type !== filter.event_type) continue;
      if (filter.event_type_prefix && !e.event_type.startsWith(filter.event_type_prefix)) continue;
      if (filter.user_id && e.user_id !== filter.user_id) continue;
      out.push(materialise(e));
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
