/**
 * The sleep and workout ids the periodic feed hands out, remembered for the stream lookups
 * (`streams.ts`): indexed by user (a purge drops them) and by sandbox day (the window drops them).
 */
import { dataClass } from '../../engine/world-codec.js';
/**
 * A Map of handed-out ids that also indexes them by user, so a purge drops a user's ids without a
 * scan, and by the sandbox day they belong to, so the ids older than a window go without a scan
 * (`dropDaysBefore`).
 */
export class ByUserMap<V extends { userId: string; day: number }> extends Map<string, V> {
  private readonly byUser = new Map<string, Set<string>>();
  private readonly byDay = new Map<number, Set<string>>();

  override set(id: string, value: V): this {
    const prev = super.get(id);
    if (prev) {
      if (prev.userId !== value.userId) this.byUser.get(prev.userId)?.delete(id);
      if (prev.day !== value.day) this.byDay.get(prev.day)?.delete(id);
    }
    super.set(id, value);
    // `?.`: Map's constructor calls `set` before the fields exist (never with entries here).
    indexed(this.byUser, value.userId)?.add(id);
    indexed(this.byDay, value.day)?.add(id);
    return this;
  }

  override delete(id: string): boolean {
    const prev = super.get(id);
    if (prev) {
      this.byUser.get(prev.userId)?.delete(id);
      this.byDay.get(prev.day)?.delete(id);
    }
    return super.delete(id);
  }

  /** Drops every id handed out for a user. */
  dropUser(userId: string): void {
    for (const id of this.byUser.get(userId) ?? []) {
      const prev = super.get(id);
      if (prev) this.byDay.get(prev.day)?.delete(id);
      super.delete(id);
    }
    this.byUser.delete(userId);
  }

  /** The days that hold ids, oldest first. */
  days(): number[] {
    return [...this.byDay.keys()].sort((a, b) => a - b);
  }

  /** Drops every id of a day before `day` (a handful of day buckets to look at, never the ids of the days kept). */
  dropDaysBefore(day: number): void {
    for (const [d, ids] of this.byDay) {
      if (d >= day) continue;
      for (const id of ids) {
        const prev = super.get(id);
        const mine = prev && this.byUser.get(prev.userId);
        if (prev && mine) {
          mine.delete(id);
          if (mine.size === 0) this.byUser.delete(prev.userId);
        }
        super.delete(id);
      }
      this.byDay.delete(d);
    }
  }
}

/**
 * Sandbox days the feed's handed-out sleep and workout ids are remembered. An older id is found
 * again in the partition's data, as an id a summary listing handed out is (`streams.ts`): the same
 * answer, by a scan instead of a keyed lookup, and only while the user still has the connection.
 */
export const FEED_ID_DAYS = 7;
/** At most this many remembered ids of each kind per world: past it the oldest days go first (the newest day stays). */
export const FEED_ID_LIMIT = 50_000;

/** The set under `key` of an index, made when missing (undefined while the owner is being constructed). */
function indexed<K>(index: Map<K, Set<string>> | undefined, key: K): Set<string> | undefined {
  if (!index) return undefined;
  let ids = index.get(key);
  if (!ids) index.set(key, (ids = new Set()));
  return ids;
}
dataClass('ByUserMap', ByUserMap);
