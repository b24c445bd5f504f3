/**
 * A canonical JSON dump of a world's state (tenancy, every partition's stores, journal,
 * pending jobs), for determinism checks and `scripts/seed-dump.ts`. Maps become entry lists,
 * Sets arrays, functions are omitted.
 */
import type { World } from './world.js';

/** Serialises Maps and Sets; a partition referenced from inside a store is written as its id. */
function replacerFor(partitions: ReadonlySet<unknown>): (key: string, value: unknown) => unknown {
  return (_key, value) => {
    if (partitions.has(value)) return { $partition: (value as { id: string }).id };
    return replacer(value);
  };
}

function replacer(value: unknown): unknown {
  if (typeof value === 'function') return undefined;
  if (value instanceof Map) return { $map: [...value.entries()].map(([k, v]) => [typeof k === 'symbol' ? k.description : k, v]) };
  if (value instanceof Set) return { $set: [...value] };
  return value;
}

function slotsObject(slots: Map<symbol, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of slots) out[key.description ?? '?'] = value;
  return out;
}

export function snapshotWorld(world: World): string {
  const all = world.tenancy.allPartitions();
  const partitions = all.map((p) => ({ id: p.id, slots: slotsObject(p.slots) }));
  return JSON.stringify(
    {
      seed: world.seed,
      now: world.clock.iso(),
      orgs: world.tenancy.orgs,
      teams: world.tenancy.teams,
      apiKeys: world.tenancy.apiKeysById,
      managementKeys: world.tenancy.managementKeysById,
      accessTokens: world.tenancy.accessTokens,
      partitions,
      worldSlots: slotsObject(world.slots),
      jobs: world.scheduler.list(100_000),
      events: world.events.list({}, 100_000),
    },
    replacerFor(new Set(all)),
  );
}
