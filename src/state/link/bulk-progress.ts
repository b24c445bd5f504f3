/**
 * The progress of a Link bulk historical trigger, read on the sandbox clock: each pull the op
 * started is pending until the connection's historical pull has finished every resource (the
 * pull plans of the wearables area, forced outcomes included), or until that connection ended
 * (paused, replaced by a newer trigger, the user deleted). Nothing is stored per pull but the
 * user and the connection's start time; the op's `pending`, `processed`, `status` and
 * `ended_at` are derived from them when read.
 */
import { providerBySlug } from '../../fixtures/wearables/providers.js';
import type { Partition } from '../../engine/tenancy.js';
import type { World } from '../../engine/world.js';
import { pulledResources, wearablesOf, type Connection } from '../wearables/connections.js';
import { finishedAt, pullPlan } from '../wearables/pulls.js';

/** A pull a bulk op started: the user's connection to the op's provider made at `created_at`. */
export interface BulkPull {
  user_id: string;
  created_at: number;
}

function connectionOf(world: World, partition: Partition, provider: string, pull: BulkPull): Connection | undefined {
  const info = providerBySlug(provider);
  const link = wearablesOf(world).get(partition, pull.user_id)?.links.find((l) => l.provider === info);
  if (!link) return undefined;
  if (link.current?.created_at === pull.created_at) return link.current;
  for (let i = link.past.length - 1; i >= 0; i--) if (link.past[i]?.created_at === pull.created_at) return link.past[i];
  return undefined;
}

/**
 * When the pull finished or will finish (epoch ms): its last resource's end, or the end of its
 * connection if that came first. A connection that is gone (the user purged) counts as ended
 * when the pull started.
 */
export function bulkPullEnd(world: World, partition: Partition, provider: string, pull: BulkPull): number {
  const conn = connectionOf(world, partition, provider, pull);
  if (!conn) return pull.created_at;
  let end = conn.created_at;
  for (const r of pulledResources(conn)) end = Math.max(end, finishedAt(pullPlan(world.seed, pull.user_id, conn, r)));
  return conn.ended_at === null ? end : Math.min(end, conn.ended_at);
}

/** How many of the pulls are still running at `now`, and when the last finished one ended. */
export function bulkPullProgress(world: World, partition: Partition, provider: string, pulls: readonly BulkPull[], now: number): { pending: number; lastEnd: number | null } {
  let pending = 0;
  let lastEnd: number | null = null;
  for (const p of pulls) {
    const end = bulkPullEnd(world, partition, provider, p);
    if (end > now) pending++;
    else lastEnd = lastEnd === null ? end : Math.max(lastEnd, end);
  }
  return { pending, lastEnd };
}
