/**
 * The world's export, to check that a request changed nothing: `snapshotWorld` (the in-process
 * equivalent of `GET /_sandbox/world`'s state) and the id counters; by part (sections, world slots,
 * partition slots) to name what changed. The request journal, which every request writes, is
 * the sandbox's, not the world's: it is not in the export.
 */
import { snapshotWorld } from '../../src/engine/snapshot.js';
import type { World } from '../../src/engine/world.js';

export type Parts = Map<string, string>;

/**
 * The world's export as one string: `snapshotWorld` (the request journal is the sandbox's, not the
 * world's, so it is not in it) and the id counters. Equal strings: nothing changed.
 */
export function exportOf(world: World): string {
  const counters = (world.ids as unknown as { counters: Map<string, number> }).counters;
  return `${snapshotWorld(world)}\n${JSON.stringify([...counters])}`;
}

/** An export (`exportOf`) by part: sections, world slots, partition slots, id counters. */
export function partsOf(exported: string): Parts {
  const [snapshot = '{}', counters = '[]'] = exported.split('\n');
  const dump = JSON.parse(snapshot) as Record<string, unknown>;
  const parts: Parts = new Map();
  for (const [k, v] of Object.entries(dump)) if (k !== 'worldSlots' && k !== 'partitions') parts.set(k, JSON.stringify(v));
  for (const [k, v] of Object.entries((dump.worldSlots ?? {}) as Record<string, unknown>)) parts.set(`world.${k}`, JSON.stringify(v));
  for (const p of (dump.partitions ?? []) as Array<{ id: string; slots: Record<string, unknown> }>)
    for (const [k, v] of Object.entries(p.slots)) parts.set(`${p.id}.${k}`, JSON.stringify(v));
  parts.set('ids', counters);
  return parts;
}

/**
 * The parts that differ between two exports (`exportOf`). Equal exports differ in no part: the
 * parse is skipped (it was a third of the saved-world property's time).
 */
export function differingParts(a: string, b: string): string[] {
  if (a === b) return [];
  const pa = partsOf(a);
  const pb = partsOf(b);
  return [...new Set([...pa.keys(), ...pb.keys()])].filter((k) => pa.get(k) !== pb.get(k));
}

/** Whether a part holds nothing: empty collections, zeros, nulls, false (a store as its slot first creates it). */
function holdsNothing(value: unknown): boolean {
  if (value === null || value === 0 || value === false || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.values(value as Record<string, unknown>).every(holdsNothing);
  return false;
}

/** The parts that differ between two exports (a store a read first made, holding nothing, aside). */
export function changedParts(a: Parts, b: Parts): string[] {
  return [...new Set([...a.keys(), ...b.keys()])].filter((k) => {
    const before = a.get(k);
    const after = b.get(k);
    return before !== after && !(before === undefined && after !== undefined && holdsNothing(JSON.parse(after)));
  });
}
