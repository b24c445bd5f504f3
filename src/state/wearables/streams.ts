/**
 * Sleep and workout streams (`GET /v2/timeseries/sleep/:id/stream`,
 * `/v2/timeseries/workouts/:id/stream`): the lookups of the handed-out ids and their 404s. Demo
 * users' streams are empty (demo data is summaries only, api-facts H).
 */
import { sourceNight } from '../../fixtures/wearables/timeseries-model.js';
import { providerBySlug } from '../../fixtures/wearables/providers.js';
import { sleepStream } from '../../fixtures/wearables/sleep-cycle.js';
import { sourceCtx } from '../../fixtures/wearables/timeseries-table.js';
import { workoutStream } from '../../fixtures/wearables/workouts.js';
import type { Partition } from '../../engine/tenancy.js';
import type { World } from '../../engine/world.js';
import { usersOf } from '../users/users.js';
import { wearablesError } from './errors.js';
import { sleepRef, workoutRef } from './operations.js';
import { subjectOf } from './wearable-data.js';
import { hasDemoConnection } from './wearable-link.js';

/** What a provider that records no streams answers (the reference's defaults). */
const EMPTY_STREAM = {
  time: [],
  heartrate: [],
  velocity_smooth: [],
  distance: [],
  altitude: [],
  lat: [],
  lng: [],
  cadence: [],
  power: [],
  resistance: [],
  temperature: [],
};

/** The stream of a handed-out sleep id of a live user, or the sleep's 404. */
export function sleepStreamOf(world: World, partition: Partition, sleepId: string): ReturnType<typeof sleepStream> {
  const ref = sleepRef(world, partition, sleepId);
  const provider = ref ? providerBySlug(ref.provider) : undefined;
  const user = ref ? usersOf(partition, world).liveUser(ref.userId) : undefined;
  if (!ref || !provider || !user) throw wearablesError.sleepNotFound();
  const src = sourceCtx(subjectOf(world, user), provider);
  const night = sourceNight(src, ref.day);
  if (!night) throw wearablesError.sleepNotFound();
  const stream = sleepStream(src, night, world.clock.now());
  // Demo data is summaries only (api-facts H): every stream of a demo user's sleep is empty.
  return hasDemoConnection(world, partition, user.user_id) ? Object.fromEntries(Object.keys(stream).map((k) => [k, []])) : stream;
}

/** The stream of a handed-out workout id of a live user (all-empty arrays for a provider without streams), or the workout's 404. */
export function workoutStreamOf(
  world: World,
  partition: Partition,
  workoutId: string,
): ReturnType<typeof workoutStream> | typeof EMPTY_STREAM {
  const ref = workoutRef(world, partition, workoutId);
  const provider = ref ? providerBySlug(ref.provider) : undefined;
  const user = ref ? usersOf(partition, world).liveUser(ref.userId) : undefined;
  if (!ref || !provider || !user) throw wearablesError.workoutNotFound();
  const subject = subjectOf(world, user);
  const w = subject.workoutsOn(ref.day).find((x) => x.index === ref.index);
  if (!w) throw wearablesError.workoutNotFound();
  if (!provider.resources.includes('workout_stream') || hasDemoConnection(world, partition, user.user_id)) return EMPTY_STREAM;
  return workoutStream(sourceCtx(subject, provider), w);
}
