/**
 * The periodic feed's summaries beyond activity, sleep, body, workouts and ECG (see
 * wearable-feed.ts for the tick): what one connection brings between two ticks.
 *
 * - `daily.data.meal.created`: each meal once it is eaten (its time passed since the last tick);
 * - `daily.data.menstrual_cycle.created` on the first day of a cycle, then
 *   `daily.data.menstrual_cycle.updated` with the same `id` on each later local day that changes
 *   it (flow, temperatures, ovulation tests, period and cycle end), up to the day it ends;
 * - `daily.data.sleep_cycle.created`: each night's stage runs when the night ends, from the
 *   providers that record stages (alongside `daily.data.sleep.created`);
 * - `daily.data.profile.created`: the provider's profile, on the first tick of a new connection.
 *
 * Same rules as the other summaries: only inside the connection's visible data ranges, only for
 * resources someone listens to.
 */
import type { EventData, EventType } from '../../wire/events.js';
import { sourceNight } from '../../fixtures/wearables/timeseries-model.js';
import { mealSummary, mealsOn } from '../../fixtures/wearables/meals.js';
import { cycleStartingOn, menstrualCycle, tracksCycles, type Cycle } from '../../fixtures/wearables/menstrual.js';
import { sleepCycle } from '../../fixtures/wearables/sleep-cycle.js';
import type { Range } from '../../fixtures/wearables/summaries.js';
import type { SourceCtx } from '../../fixtures/wearables/timeseries-table.js';
import { localDay, localMidnight } from '../../fixtures/wearables/wearable-time.js';
import type { Partition } from '../../engine/tenancy.js';
import type { World } from '../../engine/world.js';
import type { User } from '../users/users.js';
import type { ProviderLink } from './connections.js';
import { userProfile } from './profile.js';

/** The longest cycle the model makes (days), to find the cycle a day belongs to. */
const MAX_CYCLE_DAYS = 36;

const inRanges = (rs: readonly Range[], t: number) => rs.some(([a, b]) => t >= a && t <= b);

/** The cycle local day `day` belongs to, if the person tracks cycles. */
function cycleOn(src: SourceCtx, day: number): Cycle | null {
  if (!tracksCycles(src.subject.key)) return null;
  for (let d = day; d > day - MAX_CYCLE_DAYS; d--) {
    const c = cycleStartingOn(src, d);
    if (c) return c.next > day ? c : null;
  }
  return null;
}

/** One connection of a user at one feed tick: what arrived in `(since, now]`. */
export interface ConnectionTick {
  world: World;
  partition: Partition;
  user: User;
  link: ProviderLink;
  since: number;
  now: number;
}

/** A connection's tick as the summaries read it: its source, its visible ranges per resource, its event emitter. */
export interface FeedTick extends ConnectionTick {
  src: SourceCtx;
  ranges: (resource: string) => Range[];
  emit: <T extends EventType>(type: T, data: EventData<T>) => void;
}

/** The summaries of `tick` for the resources someone has `heard` of. */
export function feedOtherSummaries(
  { world, user, link, src, ranges, since, now, emit }: FeedTick,
  heard: (resource: string) => boolean,
): void {
  const conn = link.current;
  if (!conn) return;
  const zone = src.subject.zone;
  const first = localDay(zone, since);
  const last = localDay(zone, now);
  if (heard('meal')) {
    const rs = ranges('meal');
    for (let day = first; day <= last; day++) {
      for (const m of mealsOn(src, day))
        if (m.at > since && m.at <= now && inRanges(rs, m.at)) emit('daily.data.meal.created', mealSummary(src, m));
    }
  }
  if (heard('menstrual_cycle') && last > first) {
    // A cycle changes at local midnight: the days that began since the last tick.
    const rs = ranges('menstrual_cycle');
    const apple = link.provider.slug === 'apple_health_kit';
    const changed = new Map<number, Cycle>();
    for (let day = first + 1; day <= last; day++) {
      const c = cycleOn(src, day);
      // Flow and the period's end, daily temperatures and tests (Apple HealthKit), the cycle's end.
      if (c && (day < c.start + c.periodDays || apple || day === c.next - 1)) changed.set(c.start, c);
    }
    for (const c of changed.values()) {
      if (!inRanges(rs, localMidnight(zone, c.start))) continue;
      emit(`daily.data.menstrual_cycle.${c.start > first ? 'created' : 'updated'}`, menstrualCycle(src, c, last));
    }
  }
  if (heard('sleep_cycle') && link.provider.resources.includes('hypnogram')) {
    const rs = ranges('sleep');
    for (let day = first; day <= last + 1; day++) {
      const night = sourceNight(src, day);
      if (night && night.end > since && night.end <= now && inRanges(rs, night.end))
        emit('daily.data.sleep_cycle.created', sleepCycle(src, night));
    }
  }
  if (heard('profile') && conn.mark === conn.created_at && ranges('profile').length > 0) {
    emit('daily.data.profile.created', userProfile(world, user, link.provider.slug));
  }
}
