/**
 * A set of lab orders kept in creation order (created_at, then seq: unique per store), the order
 * every `GET /v3/orders` listing by `created_at` answers in. The order store keeps one for all
 * orders, one per current status, one per user and one for the orders with a critical result,
 * so a listing filtered by any of them reads a slice (binary search on the creation range) and
 * never copies or sorts the pool.
 *
 * Orders usually arrive in creation order (appended). Out-of-order arrivals (a seeded world, a
 * status change moving an older order into another status, an import) wait in a small pending
 * list that is folded in at the next read: a few by binary insertion, many by one sort and merge.
 */
import type { Order } from './order-model.js';
import { dataClass } from '../../engine/world-codec.js';

export const byCreation = (a: Order, b: Order): number => a.created_at - b.created_at || a.seq - b.seq;

/** Folding in more pending orders than this sorts and merges instead of inserting one by one. */
const INSERT_ONE_BY_ONE = 32;

export class CreationIndex {
  private items: Order[] = [];
  private pending: Order[] = [];

  get size(): number {
    return this.items.length + this.pending.length;
  }

  add(order: Order): void {
    const last = this.items[this.items.length - 1];
    if (this.pending.length === 0 && (!last || byCreation(last, order) < 0)) this.items.push(order);
    else this.pending.push(order);
  }

  /** Removes an order (no-op when absent). */
  remove(order: Order): void {
    const sorted = this.sorted();
    const at = this.position(order);
    if (sorted[at] === order) sorted.splice(at, 1);
  }

  /** Removes every order of `gone` in one pass. */
  removeAll(gone: ReadonlySet<Order>): void {
    this.items = this.sorted().filter((o) => !gone.has(o));
  }

  /** The export's form: every order in creation order, pending ones folded in (a read changes nothing seen here). */
  toJSON(): readonly Order[] {
    return this.sorted();
  }

  /** The orders, oldest first. */
  sorted(): readonly Order[] & Order[] {
    if (this.pending.length > 0) this.fold();
    return this.items;
  }

  /** The index range [from, to) of the orders created within [start, end] (ms, inclusive) in `sorted()`. */
  range(start: number | undefined, end: number | undefined): { from: number; to: number } {
    const sorted = this.sorted();
    const lower = (t: number, inclusive: boolean): number => {
      let lo = 0;
      let hi = sorted.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        const at = (sorted[mid] as Order).created_at;
        if (inclusive ? at < t : at <= t) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    };
    return { from: start === undefined ? 0 : lower(start, true), to: end === undefined ? sorted.length : lower(end, false) };
  }

  /** Where `order` is, or would go, in `items` (binary search on created_at, then seq). */
  private position(order: Order): number {
    let lo = 0;
    let hi = this.items.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (byCreation(this.items[mid] as Order, order) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private fold(): void {
    const pending = this.pending;
    this.pending = [];
    if (pending.length <= INSERT_ONE_BY_ONE) {
      for (const order of pending) this.items.splice(this.position(order), 0, order);
      return;
    }
    pending.sort(byCreation);
    const merged: Order[] = new Array<Order>(this.items.length + pending.length);
    let i = 0;
    let j = 0;
    let k = 0;
    while (i < this.items.length && j < pending.length) {
      const a = this.items[i] as Order;
      const b = pending[j] as Order;
      if (byCreation(a, b) <= 0) (merged[k++] = a), i++;
      else (merged[k++] = b), j++;
    }
    while (i < this.items.length) merged[k++] = this.items[i++] as Order;
    while (j < pending.length) merged[k++] = pending[j++] as Order;
    this.items = merged;
  }
}
dataClass('CreationIndex', CreationIndex);
