/**
 * Sleep and workout streams (`GET /v2/timeseries/sleep/:id/stream`,
 * `/v2/timeseries/workouts/:id/stream`): the lookups of the handed-out ids and their 404s. The
 * feed remembers the ids its events hand out; an id handed out by a read (the summaries) is found
 * again in the partition's visible data, so reads change no state. Demo
 * users' streams are empty (demo data is summaries only, api-facts H).
 */
import { sourceNight } from '../../fixtures/wearables/timeseries-model.js';
import type { Domain } from '../domain-context.js';
import { providerBySlug } from '../../fixtures/wearables/providers.js';
import { sleepId as sleepIdOf, sleepStream } from '../../fixtures/wearables/sleep-cycle.js';
import { workoutId as workoutIdOf, type workoutStream } from '../../fixtures/wearables/workouts.js';
import { localDay } from '../../fixtures/wearables/wearable-time.js';
import { usersOf } from '../users/users.js';
import { wearablesError } from './errors.js';
import { sleepRef, workoutRef } from './operations.js';
import { visibleNight, visibleWorkouts } from './summaries.js';
import { dataSources, type DataSource } from './wearable-data.js';
import { readSource } from './read-sources.js';
import { readWorkoutStream } from './read-views.js';
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

/** The first `(source, day)` of the partition's visible data of `resource` for which `match` finds something. */
function findInData<T>(d: Domain, resource: string, match: (s: DataSource, day: number, now: number) => T | undefined) {
  const { world, partition } = d;
  const now = world.clock.now();
  const users = usersOf(partition, world);
  for (const user of users.all()) {
    if (!users.liveUser(user.user_id)) continue;
    for (const s of dataSources(world, user, resource, '', now)) {
      const zone = s.src.subject.zone;
      const [first, last] = [s.ranges[0], s.ranges[s.ranges.length - 1]];
      if (!first || !last) continue;
      for (let day = localDay(zone, first[0]); day <= localDay(zone, last[1]) + 1; day++) {
        const found = match(s, day, now);
        if (found) return { ...found, partitionId: partition.id, userId: user.user_id, provider: s.link.provider.slug };
      }
    }
  }
  return undefined;
}

/** A sleep id handed out by a sleep summary: the feed remembered it, or the partition's data holds it. */
function findSleep(d: Domain, id: string) {
  return (
    sleepRef(d, id) ??
    findInData(d, 'sleep', (s, day, now) => {
      const night = visibleNight(s, day, now);
      return night && sleepIdOf(s.src, night) === id ? { day: night.day } : undefined;
    })
  );
}

/** A workout id handed out by a workout summary: the feed remembered it, or the partition's data holds it. */
function findWorkout(d: Domain, id: string) {
  return (
    workoutRef(d, id) ??
    findInData(d, 'workouts', (s, day, now) => {
      const w = visibleWorkouts(s, day, now).find((x) => workoutIdOf(s.src, x) === id);
      return w ? { day: w.day, index: w.index } : undefined;
    })
  );
}

/** The stream of a handed-out sleep id of a live user, or the sleep's 404. */
export function sleepStreamOf(d: Domain, sleepId: string): ReturnType<typeof sleepStream> {
  const { world, partition } = d;
  const ref = findSleep(d, sleepId);
  const provider = ref ? providerBySlug(ref.provider) : undefined;
  const user = ref ? usersOf(partition, world).liveUser(ref.userId) : undefined;
  if (!ref || !provider || !user) throw wearablesError.sleepNotFound();
  const src = readSource(world, user, provider);
  const night = sourceNight(src, ref.day);
  if (!night) throw wearablesError.sleepNotFound();
  const stream = sleepStream(src, night, world.clock.now());
  // Demo data is summaries only (api-facts H): every stream of a demo user's sleep is empty.
  return hasDemoConnection(d, user.user_id) ? Object.fromEntries(Object.keys(stream).map((k) => [k, []])) : stream;
}

/** The stream of a handed-out workout id of a live user (all-empty arrays for a provider without streams), or the workout's 404. */
export function workoutStreamOf(d: Domain, workoutId: string): ReturnType<typeof workoutStream> | typeof EMPTY_STREAM {
  const { world, partition } = d;
  const ref = findWorkout(d, workoutId);
  const provider = ref ? providerBySlug(ref.provider) : undefined;
  const user = ref ? usersOf(partition, world).liveUser(ref.userId) : undefined;
  if (!ref || !provider || !user) throw wearablesError.workoutNotFound();
  const src = readSource(world, user, provider);
  const w = src.subject.workoutsOn(ref.day).find((x) => x.index === ref.index);
  if (!w) throw wearablesError.workoutNotFound();
  if (!provider.resources.includes('workout_stream') || hasDemoConnection(d, user.user_id)) return EMPTY_STREAM;
  return readWorkoutStream(src, w);
}
