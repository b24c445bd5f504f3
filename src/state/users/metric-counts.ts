/**
 * The counts behind `GET /v2/user/metrics` (issue 45), kept beside the stores instead of walked
 * per request: per team environment, the current connections of its live users, those in error,
 * and how many were connected in each week (Monday 00:00 UTC). A world of 100k users answers the
 * metrics as fast as one of 1k.
 *
 * The counts are an `aside` slot (never part of a saved world, gone with its world): made from
 * the stores at the first read of a team environment's metrics, then kept by every write that
 * changes a user's part in them (a connection made, ended, errored, reconnected or paused; a user
 * deleted, restored or purged), which calls `recountUser`. Before the first read nothing is kept
 * and a write costs nothing. A user's part is worked out again from its record on each such
 * write, so a write site only says whose part may have changed, not how.
 */
import type { Partition } from '../../engine/tenancy.js';
import { worldSlot } from '../../engine/world.js';
import type { Domain } from '../domain-context.js';
import { wearablesOf } from '../wearables/connections.js';
import { usersOf } from './users.js';

const DAY_MS = 86_400_000;

/** The week (Monday 00:00 UTC to the next) of an instant: 1970-01-05, a Monday, starts week 0. */
export function weekOf(t: number): number {
  return Math.floor((Math.floor(t / DAY_MS) - 4) / 7);
}

/** A user's part in the counts: its current connections' weeks, and how many are in error. */
interface Part {
  weeks: number[];
  errored: number;
}

/** The counts of one team environment, and the stores they were made from. */
export interface MetricCounts {
  readonly users: object;
  readonly wearables: object;
  /** Live users with current connections -> their part. */
  readonly parts: Map<string, Part>;
  connected: number;
  errored: number;
  /** Week -> current connections of live users connected in it (no zero entries). */
  readonly byWeek: Map<number, number>;
}

const countsOf = worldSlot('users.metric-counts', (): Map<Partition, MetricCounts> => new Map(), 'aside');

/** The part of a user as the stores hold it now (null: not live, or no current connection). */
function partOf(d: Domain, userId: string): Part | null {
  const { world, partition } = d;
  if (!usersOf(partition, world).liveUser(userId)) return null;
  const rec = wearablesOf(world).get(partition, userId);
  if (!rec) return null;
  let part: Part | null = null;
  for (const link of rec.links) {
    const conn = link.current;
    if (!conn) continue;
    part ??= { weeks: [], errored: 0 };
    part.weeks.push(weekOf(conn.connected_at ?? conn.created_at));
    if (conn.status === 'error') part.errored++;
  }
  return part;
}

function apply(counts: MetricCounts, part: Part, sign: 1 | -1): void {
  counts.connected += sign * part.weeks.length;
  counts.errored += sign * part.errored;
  for (const week of part.weeks) {
    const n = (counts.byWeek.get(week) ?? 0) + sign;
    if (n === 0) counts.byWeek.delete(week);
    else counts.byWeek.set(week, n);
  }
}

/** Whether kept counts were made from the stores the world holds now (a loaded world has others). */
function current(d: Domain, counts: MetricCounts): boolean {
  const { world, partition } = d;
  return counts.users === usersOf(partition, world) && counts.wearables === wearablesOf(world);
}

/** The team environment's counts: kept, or made from its live users (the first read). */
export function metricCounts(d: Domain): MetricCounts {
  const { world, partition } = d;
  const all = countsOf(world);
  const kept = all.get(partition);
  if (kept && current(d, kept)) return kept;
  const counts: MetricCounts = {
    users: usersOf(partition, world),
    wearables: wearablesOf(world),
    parts: new Map(),
    connected: 0,
    errored: 0,
    byWeek: new Map(),
  };
  for (const user of usersOf(partition, world).all()) {
    const part = partOf(d, user.user_id);
    if (!part) continue;
    counts.parts.set(user.user_id, part);
    apply(counts, part, 1);
  }
  all.set(partition, counts);
  return counts;
}

/**
 * After a write that may change a user's part (its connections, their status, whether it is
 * live): the kept counts of its team environment follow. Nothing when none are kept.
 */
export function recountUser(d: Domain, userId: string): void {
  const { world, partition } = d;
  const all = countsOf.peek(world);
  const counts = all?.get(partition);
  if (!all || !counts) return;
  if (!current(d, counts)) {
    all.delete(partition);
    return;
  }
  const before = counts.parts.get(userId);
  if (before) apply(counts, before, -1);
  const after = partOf(d, userId);
  if (after) {
    counts.parts.set(userId, after);
    apply(counts, after, 1);
  } else counts.parts.delete(userId);
}
