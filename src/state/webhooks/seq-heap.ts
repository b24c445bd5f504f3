/** A binary min-heap of items by their `seq` (the delivery log's finished messages, oldest first). */
import { dataClass } from '../../engine/world-codec.js';
export class SeqHeap<T extends { seq: number }> {
  private readonly items: T[] = [];

  get size(): number {
    return this.items.length;
  }

  push(item: T): void {
    const a = this.items;
    let i = a.length;
    a.push(item);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const p = a[parent] as T;
      if (p.seq <= item.seq) break;
      a[i] = p;
      i = parent;
    }
    a[i] = item;
  }

  /** Removes and returns the item with the lowest `seq`. */
  pop(): T | undefined {
    const a = this.items;
    const top = a[0];
    const last = a.pop();
    if (top === undefined || last === undefined || a.length === 0) return top;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= a.length) break;
      const r = l + 1;
      const c = r < a.length && (a[r] as T).seq < (a[l] as T).seq ? r : l;
      if ((a[c] as T).seq >= last.seq) break;
      a[i] = a[c] as T;
      i = c;
    }
    a[i] = last;
    return top;
  }
}
dataClass('SeqHeap', SeqHeap);
