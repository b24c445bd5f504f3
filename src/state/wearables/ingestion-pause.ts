/**
 * Ingestion bounds' end (docs: wearables/providers/data-ingestion-bounds): "When the user
 * ingestion end date is reached, a 7-day late delivery catchment period starts. Once the
 * catchment period expires, all connections of the user are automatically de-registered and
 * marked as paused." The pause falls at the end of the catchment (the end of `ingestion_end`,
 * local day of the user's zone, plus 7 days), whenever it is first looked at (the providers list,
 * the feed): the connection's data ends there, its pulls stop. Paused stays paused (extending
 * `ingestion_end` afterwards does not resume it; the user reconnects through Link).
 */
import type { Domain } from '../domain-context.js';
import { DAY, dayNumber, localMidnight } from '../../fixtures/wearables/wearable-time.js';
import type { User } from '../users/users.js';
import { wearablesOf } from './connections.js';
import { zoneOf } from './wearable-data.js';
import { recountUser } from '../users/metric-counts.js';

/** The late-delivery catchment after the ingestion end date. */
const INGESTION_CATCHMENT = 7 * DAY;

/** When the user's connections are paused (end of the catchment), or null without an ingestion end. */
function ingestionPauseAt(user: User): number | null {
  if (!user.ingestion_end) return null;
  return localMidnight(zoneOf(user), dayNumber(user.ingestion_end) + 1) + INGESTION_CATCHMENT;
}

/** Pauses the user's current connections once the catchment after their ingestion end has passed. */
export function pauseAfterIngestionEnd(d: Domain, user: User): void {
  const { world, partition } = d;
  const at = ingestionPauseAt(user);
  if (at === null || world.clock.now() < at) return;
  const rec = wearablesOf(world).get(partition, user.user_id);
  if (!rec) return;
  let paused = false;
  for (const link of rec.links) {
    const conn = link.current;
    if (!conn || conn.status === 'paused') continue;
    conn.pullJob?.cancel();
    conn.pullJob = null;
    const end = Math.max(conn.created_at, at);
    conn.ended_at = conn.status === 'error' && conn.error ? Math.min(end, conn.error.errored_at) : end;
    conn.status = 'paused';
    paused = true;
  }
  if (paused) recountUser(d, user.user_id);
}
