/**
 * The soak's counts (scripts/bench-soak.ts): the named structures that could grow under writes
 * (`retainedCounts`), and a census of every Map, Set and array reachable from a world, summed by
 * path (`[]` stands for any key), to find whatever else grows (`--census`).
 */
import { worldLogOf } from '../src/engine/persist.js';
import type { World } from '../src/engine/world.js';
import { pendingDeletions } from '../src/state/users/deletion-grace.js';
import { usersOf } from '../src/state/users/users.js';
import { wearablesOf } from '../src/state/wearables/connections.js';

/** The structures that could grow under writes, counted (every bound is in docs/simulated/engine.md). */
export function retainedCounts(world: World): Record<string, number> {
  let users = 0;
  let grace = 0;
  for (const p of world.tenancy.allPartitions()) {
    users += usersOf(p, world).size;
    grace += pendingDeletions({ world, partition: p });
  }
  const wearables = wearablesOf(world);
  // Deliveries waiting for their endpoint's turn (private to the delivery engine: read, not used).
  let pending = 0;
  let queued = 0;
  let deferred = 0;
  for (const [k, v] of world.slots) {
    if (k.description !== 'webhook-delivery') continue;
    const engine = v as { pendingByEndpoint?: Map<string, Set<unknown>>; queues?: { waiting?: () => { own: number; deferred: number } } };
    for (const set of engine.pendingByEndpoint?.values() ?? []) pending += set.size;
    const waiting = engine.queues?.waiting?.() ?? { own: 0, deferred: 0 };
    queued += waiting.own + waiting.deferred;
    deferred += waiting.deferred;
  }
  return {
    emitted: world.events.emitted,
    deliveriesPending: pending,
    attemptsQueued: queued,
    attemptsDeferred: deferred,
    journal: world.events.size,
    jobs: world.scheduler.pending(),
    jobsHeld: world.scheduler.held(),
    users,
    grace,
    wearableUsers: wearables.userCount,
    feedRing: wearables.ring.length,
    // The world's input log (persistence, src/engine/persist.ts): held in a WeakMap, so the census walk misses it.
    worldLog: worldLogOf(world)?.entries.length ?? 0,
  };
}

/** Entries of every collection reachable from the world, summed per path; at most `budget` objects visited. */
export function census(world: World, budget = 3_000_000): Map<string, number> {
  const sizes = new Map<string, number>();
  const seen = new Set<object>();
  let visited = 0;
  const add = (path: string, n: number) => sizes.set(path, (sizes.get(path) ?? 0) + n);
  const walk = (value: unknown, path: string, depth: number): void => {
    if (value === null || typeof value !== 'object' || depth > 12 || visited > budget) return;
    if (seen.has(value)) return;
    seen.add(value);
    visited++;
    if (ArrayBuffer.isView(value)) {
      add(`${path}#bytes`, (value as ArrayBufferView).byteLength);
      return;
    }
    if (value instanceof Map) {
      add(path, value.size);
      for (const [k, v] of value) walk(v, `${path}[${typeof k === 'symbol' ? (k.description ?? 'sym') : ''}]`, depth + 1);
      return;
    }
    if (value instanceof Set) {
      add(path, value.size);
      for (const v of value) walk(v, `${path}{}`, depth + 1);
      return;
    }
    if (Array.isArray(value)) {
      add(path, value.length);
      for (const v of value) walk(v, `${path}[]`, depth + 1);
      return;
    }
    if (value instanceof Promise || value instanceof WeakMap || value instanceof WeakSet) return;
    for (const key of Object.keys(value)) walk((value as Record<string, unknown>)[key], `${path}.${key}`, depth + 1);
  };
  walk(world, 'world', 0);
  add('#visited', visited);
  return sizes;
}

/** The paths whose totals grew most from `before` to `after`. */
export function growth(before: Map<string, number>, after: Map<string, number>, top = 15): string[] {
  const rows: Array<[string, number, number]> = [];
  for (const [path, n] of after) {
    const was = before.get(path) ?? 0;
    if (n > was) rows.push([path, was, n]);
  }
  rows.sort((a, b) => b[2] - b[1] - (a[2] - a[1]));
  return rows.slice(0, top).map(([p, a, b]) => `${p}: ${a} -> ${b}`);
}
