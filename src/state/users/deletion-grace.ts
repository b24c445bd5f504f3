/**
 * Deletion grace periods of one team environment, swept by one job. A deleted user waits
 * DELETION_GRACE_MS on the sandbox clock (undo restores it meanwhile), then is purged. Because the
 * grace is the same for everyone and the clock only moves forward, the order of deletion is the
 * order of purge: a Map in insertion order is the queue (O(1) add, undo and pop), and a single
 * scheduler job, due at the head's purge time, purges everyone due and re-arms itself. A world
 * that deletes many users holds one job, not one per user.
 *
 * Bound (invented, docs/simulated/users.md): at most MAX_PENDING_DELETIONS users wait per team
 * environment; a deletion past it purges the earliest-scheduled one at once, as if its grace had
 * ended.
 */
import { jobKind } from '../../engine/job-kinds.js';
import type { JobHandle } from '../../engine/scheduler.js';
import type { Partition } from '../../engine/tenancy.js';
import { dataClass } from '../../engine/world-codec.js';
import type { Domain } from '../domain-context.js';
import { partitionSlot } from '../../engine/world.js';
import { DELETION_GRACE_MS, usersOf, type User } from './users.js';
import { recountUser } from './metric-counts.js';

export const MAX_PENDING_DELETIONS = 10_000;

class GraceQueue {
  /** user_id -> user, in purge order. */
  readonly waiting = new Map<string, User>();
  sweep: JobHandle | null = null;
  /** Set by a test that lowers the bound (no own field otherwise, so world snapshots stay as they were). */
  declare limitOverride?: number;
  /** At most this many wait (MAX_PENDING_DELETIONS; a test may lower it to check the bound cheaply). */
  get limit(): number {
    return this.limitOverride ?? MAX_PENDING_DELETIONS;
  }
  set limit(n: number) {
    this.limitOverride = n;
  }
}
dataClass('GraceQueue', GraceQueue);

/** A team environment's grace queue (exported for tests). */
export const graceOf = partitionSlot('users.grace', () => new GraceQueue());

/** Users of this team environment waiting for their purge. */
export function pendingDeletions(d: Domain): number {
  const { world, partition } = d;
  return graceOf(partition, world).waiting.size;
}

/** Marks a user deleted and queues its purge DELETION_GRACE_MS from now. */
export function startGrace(d: Domain, user: User): void {
  const { world, partition } = d;
  const queue = graceOf(partition, world);
  const now = world.clock.now();
  usersOf(partition, world).markDeleted(user, {
    scheduled_at: new Date(now).toISOString(),
    purge_at: new Date(now + DELETION_GRACE_MS).toISOString(),
  });
  recountUser(d, user.user_id);
  queue.waiting.delete(user.user_id);
  queue.waiting.set(user.user_id, user);
  while (queue.waiting.size > queue.limit) {
    const oldest = queue.waiting.values().next().value as User;
    purge(d, queue, oldest);
  }
  arm(d, queue);
}

/** Takes a user off the queue (undo); the caller restores it. */
export function endGrace(d: Domain, user: User): void {
  const { world, partition } = d;
  const queue = graceOf(partition, world);
  queue.waiting.delete(user.user_id);
  if (queue.waiting.size === 0 && queue.sweep) {
    queue.sweep.cancel();
    queue.sweep = null;
  }
}

function purgeAt(user: User): number {
  return Date.parse(user.deletion?.purge_at ?? '');
}

function purge(d: Domain, queue: GraceQueue, user: User): void {
  const { world, partition } = d;
  queue.waiting.delete(user.user_id);
  if (!user.deletion) return;
  usersOf(partition, world).purge(user);
  recountUser(d, user.user_id);
  world.hooks.userPurged.run(partition, user.user_id);
}

/** Keeps one sweep job due at the head's purge time. */
function arm(d: Domain, queue: GraceQueue): void {
  const { world } = d;
  const head = queue.waiting.values().next().value as User | undefined;
  if (!head) return;
  const at = purgeAt(head);
  if (queue.sweep && queue.sweep.at === at) return;
  queue.sweep?.cancel();
  queue.sweep = world.scheduler.at(at, PURGE_DUE, { partition: d.partition, queue }, 'users.purge');
}

/** Purges every user of a team environment whose grace ended, then re-arms for the next. */
const PURGE_DUE = jobKind<{ partition: Partition; queue: GraceQueue }>('users.purge', (world, { partition, queue }) => {
  const d: Domain = { world, partition };
  queue.sweep = null;
  const now = world.clock.now();
  for (const user of queue.waiting.values()) {
    if (purgeAt(user) > now) break;
    purge(d, queue, user);
  }
  arm(d, queue);
});

/**
 * Deletes a user and its data at once, without a grace period (an expired demo user): its
 * connections end, then everything of it is purged. Nothing when the user is already gone.
 */
export function expireUser(d: Domain, userId: string): void {
  const { world, partition } = d;
  const user = usersOf(partition, world).get(userId);
  if (!user) return;
  endGrace(d, user);
  if (!user.deletion) world.hooks.userDeleted.run(partition, userId);
  usersOf(partition, world).purge(user);
  recountUser(d, userId);
  world.hooks.userPurged.run(partition, userId);
}
