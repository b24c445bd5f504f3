/**
 * The feed's revised data after a later sync (issue 42; fixtures/wearables/revisions.ts says which
 * days and workouts, and when): the tick after a revision sends `daily.data.activity.updated` /
 * `daily.data.workouts.updated` with the revised object (the one the summary endpoints serve from
 * then on). A day or workout pulled with the history can be revised too (an `.updated` without a
 * `.created`), as sleep is (wearable-feed.ts).
 */
import { activitySummary } from '../../fixtures/wearables/summaries.js';
import { activityRevisedAt, workoutRevisedAt } from '../../fixtures/wearables/revisions.js';
import type { PlannedWorkout } from '../../fixtures/wearables/wearable-profile.js';
import { HOUR, localDay } from '../../fixtures/wearables/wearable-time.js';
import { workoutId, workoutSummary } from '../../fixtures/wearables/workouts.js';
import { wearablesOf } from './connections.js';
import type { FeedTick } from './feed-other-summaries.js';

/** A later sync comes at most this long after what it revises ends (revisions.ts), with slack. */
const LATEST = 13 * HOUR;

/** Remembers a workout id the feed hands out (the stream endpoint resolves it) and returns it. */
export function rememberWorkout({ world, partition, user, link, src }: FeedTick, w: PlannedWorkout): string {
  const id = workoutId(src, w);
  wearablesOf(world).workouts.set(id, {
    partitionId: partition.id,
    userId: user.user_id,
    provider: link.provider.slug,
    day: w.day,
    index: w.index,
  });
  return id;
}

/** `daily.data.activity.updated` for the days revised in `(since, now]`, except those already `sent` this tick. */
export function feedActivityRevisions(tick: FeedTick, sent: ReadonlySet<number>): void {
  const { src, since, now, ranges, emit } = tick;
  if (src.revisionRate <= 0) return;
  const zone = src.subject.zone;
  const last = localDay(zone, now) - 1;
  for (let day = localDay(zone, since - LATEST) - 1; day <= last; day++) {
    if (sent.has(day)) continue;
    const at = activityRevisedAt(src, day);
    if (at === null || at <= since || at > now) continue;
    const revised = activitySummary(src, day, ranges('activity'), now);
    if (revised) emit('daily.data.activity.updated', revised);
  }
}

/** `daily.data.workouts.updated` for the visible workouts revised in `(since, now]`. */
export function feedWorkoutRevisions(tick: FeedTick): void {
  const { src, since, now, ranges, emit } = tick;
  if (src.revisionRate <= 0) return;
  const zone = src.subject.zone;
  const rs = ranges('workouts');
  const last = localDay(zone, now);
  for (let day = localDay(zone, since - LATEST) - 1; day <= last; day++) {
    for (const w of src.subject.workoutsOn(day)) {
      const at = workoutRevisedAt(src, w.day, w.index, w.end);
      if (at === null || at <= since || at > now || !rs.some(([a, b]) => w.end >= a && w.end <= b)) continue;
      rememberWorkout(tick, w);
      emit('daily.data.workouts.updated', workoutSummary(src, w, now));
    }
  }
}
