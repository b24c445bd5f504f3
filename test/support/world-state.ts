/**
 * The world's export by part, to check that a request changed nothing: `snapshotWorld` (the
 * in-process equivalent of `GET /_sandbox/world`'s state) split into sections, world slots and
 * partition slots, plus the id counters, less the request journal (every request writes it).
 */
import { snapshotWorld } from '../../src/engine/snapshot.js';
import type { World } from '../../src/engine/world.js';

export type Parts = Map<string, string>;

/** The world's export by part, less the request journal. */
export function stateOf(world: World): Parts {
  const dump = JSON.parse(snapshotWorld(world)) as Record<string, unknown>;
  const parts: Parts = new Map();
  for (const [k, v] of Object.entries(dump)) if (k !== 'worldSlots' && k !== 'partitions') parts.set(k, JSON.stringify(v));
  for (const [k, v] of Object.entries(dump.worldSlots as Record<string, unknown>))
    if (k !== 'journal') parts.set(`world.${k}`, JSON.stringify(v));
  for (const p of dump.partitions as Array<{ id: string; slots: Record<string, unknown> }>)
    for (const [k, v] of Object.entries(p.slots)) parts.set(`${p.id}.${k}`, JSON.stringify(v));
  const counters = (world.ids as unknown as { counters: Map<string, number> }).counters;
  parts.set('ids', JSON.stringify([...counters]));
  return parts;
}

/** An empty store, as a store slot first read creates it (a lazily made empty store holds nothing). */
const EMPTY = new Set(['{"$map":[]}', '{"$set":[]}', '[]', '{}']);

/** The parts that differ between two exports (a store first made empty by a read aside). */
export function changedParts(a: Parts, b: Parts): string[] {
  return [...new Set([...a.keys(), ...b.keys()])].filter(
    (k) => a.get(k) !== b.get(k) && !(a.get(k) === undefined && EMPTY.has(b.get(k) ?? '')),
  );
}
