/**
 * The progress of a Link bulk historical trigger, read on the sandbox clock: each pull the op
 * started is pending until the connection's historical pull has finished every resource (the
 * pull plans of the wearables area, forced outcomes included), or until that connection ended
 * (paused, replaced by a newer trigger, the user deleted). Nothing is stored per pull but the
 * user and the connection's start time; the op's `pending`, `processed`, `status` and
 * `ended_at` are derived from them when read, until a scheduler job at the planned end of its
 * last pull finds them all finished and settles the op (a finished pull cannot restart, so the
 * settled values are what any later read would compute; reads never change the op).
 */
import { providerBySlug } from '../../fixtures/wearables/providers.js';
import type { Domain } from '../domain-context.js';
import { pulledResources, wearablesOf, type Connection } from '../wearables/connections.js';
import { finishedAt, pullPlan } from '../wearables/pulls.js';

/** A pull a bulk op started: the user's connection to the op's provider made at `created_at`. */
export interface BulkPull {
  user_id: string;
  created_at: number;
}

function connectionOf(d: Domain, provider: string, pull: BulkPull): Connection | undefined {
  const { world, partition } = d;
  const info = providerBySlug(provider);
  const link = wearablesOf(world)
    .get(partition, pull.user_id)
    ?.links.find((l) => l.provider === info);
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
function bulkPullEnd(d: Domain, provider: string, pull: BulkPull): number {
  const { world } = d;
  const conn = connectionOf(d, provider, pull);
  if (!conn) return pull.created_at;
  let end = conn.created_at;
  for (const r of pulledResources(conn)) end = Math.max(end, finishedAt(pullPlan(world.seed, pull.user_id, conn, r)));
  return conn.ended_at === null ? end : Math.min(end, conn.ended_at);
}

interface BulkProgress {
  /** Pulls still running at `now`. */
  pending: number;
  /** When the last finished pull ended (null: none finished). */
  lastEnd: number | null;
  /** When the last running pull is planned to end (null: none running). */
  plannedEnd: number | null;
}

/** How many of the pulls are still running at `now`, when the finished ones ended, when the rest will. */
export function bulkPullProgress(d: Domain, provider: string, pulls: readonly BulkPull[], now: number): BulkProgress {
  let pending = 0;
  let lastEnd: number | null = null;
  let plannedEnd: number | null = null;
  for (const p of pulls) {
    const end = bulkPullEnd(d, provider, p);
    if (end > now) {
      pending++;
      plannedEnd = plannedEnd === null ? end : Math.max(plannedEnd, end);
    } else lastEnd = lastEnd === null ? end : Math.max(lastEnd, end);
  }
  return { pending, lastEnd, plannedEnd };
}
