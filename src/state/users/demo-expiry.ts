/**
 * Demo users expire with their data 7 days after their first demo connection (api-facts H). Each
 * expiry is visible: a log line (the world's logger) and the count in the advance's
 * `caused.expired_users` (advance-report.ts). As
 * with deletion grace, the lifetime is the same for everyone and the clock only moves forward, so
 * the order of becoming a demo user is the order of expiry: a Map in insertion order is the
 * queue, and one scheduler job (`users.demo_expiry`), due at the head's time, expires everyone due
 * and re-arms. A world with many demo users holds one job, not one per user.
 */
import { jobKind } from '../../engine/job-kinds.js';
import type { JobHandle } from '../../engine/scheduler.js';
import type { Partition } from '../../engine/tenancy.js';
import type { Domain } from '../domain-context.js';
import { partitionSlot, worldSlot, type World } from '../../engine/world.js';
import { dataClass } from '../../engine/world-codec.js';
import { expireUser } from './deletion-grace.js';
import { usersOf } from './users.js';
import { addNotice } from '../sandbox/notices.js';

class DemoQueue {
  /** user_id -> expiry time, in expiry order. */
  readonly waiting = new Map<string, number>();
  sweep: JobHandle | null = null;
}

dataClass('DemoQueue', DemoQueue);

const demoQueueOf = partitionSlot('users.demo_expiry', () => new DemoQueue());

/** Demo users expired in the world so far (the advance's `caused.expired_users` counts the difference). */
const expiredCounter = worldSlot('users.demo_expired', () => ({ count: 0 }));

export function demoUsersExpired(world: World): number {
  return expiredCounter(world).count;
}

/** Queues a demo user's expiry at `at` (nothing when it is queued already). */
export function scheduleDemoExpiry(d: Domain, userId: string, at: number): void {
  const { world, partition } = d;
  const queue = demoQueueOf(partition, world);
  if (queue.waiting.has(userId)) return;
  queue.waiting.set(userId, at);
  arm(d, queue);
}

/** Takes a purged user off the queue. */
export function forgetDemoExpiry(d: Domain, userId: string): void {
  const { world, partition } = d;
  const queue = demoQueueOf(partition, world);
  if (!queue.waiting.delete(userId)) return;
  if (queue.waiting.size === 0 && queue.sweep) {
    queue.sweep.cancel();
    queue.sweep = null;
  }
}

function arm(d: Domain, queue: DemoQueue): void {
  const { world, partition } = d;
  const head = queue.waiting.values().next().value;
  if (head === undefined) return;
  if (queue.sweep && queue.sweep.at === head) return;
  queue.sweep?.cancel();
  queue.sweep = world.scheduler.at(head, DEMO_EXPIRY, { partition, queue }, 'users.demo_expiry');
}

/** Expires every demo user of a team environment whose time has come, then re-arms for the next. */
const DEMO_EXPIRY = jobKind<{ partition: Partition; queue: DemoQueue }>('users.demo_expiry', (world, { partition, queue }) => {
  const d: Domain = { world, partition };
  queue.sweep = null;
  const now = world.clock.now();
  for (const [userId, at] of queue.waiting) {
    if (at > now) break;
    queue.waiting.delete(userId);
    const user = usersOf(partition, world).get(userId);
    if (!user) continue;
    expireUser(d, userId);
    expiredCounter(world).count++;
    const text = `Demo user ${user.client_user_id} (${userId}, team ${partition.team.id} ${partition.environment}) expired 7 days after its first demo connection: the user, its connections, data and lab orders are deleted`;
    world.log(text);
    addNotice(world, {
      kind: 'demo_user_expired',
      team_id: partition.team.id,
      environment: partition.environment,
      user_id: userId,
      text,
    });
  }
  arm(d, queue);
});
