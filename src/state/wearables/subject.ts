/**
 * The simulated person behind a user's wearable data (fixtures/wearables/wearable-profile.ts),
 * as the world sees the user: the seed, the user's zone and birth year, and whether the user is
 * the world's showcase person.
 */
import { Subject } from '../../fixtures/wearables/wearable-profile.js';
import { worldSlot, type World } from '../../engine/world.js';
import type { User } from '../users/users.js';

/** The user's zone for local days (fallback_time_zone, else UTC). */
export function zoneOf(user: User): string {
  return user.fallback_time_zone?.id ?? 'UTC';
}

/** The year of the user's fallback birth date, or null. */
export function birthYearOf(user: User): number | null {
  return user.fallback_birth_date ? Number(user.fallback_birth_date.value.slice(0, 4)) : null;
}

/**
 * Users of the default world who show every trait-bound resource (wheelchair pushes, sleep apnea
 * alerts, inhaler use, insulin, falls): each team environment's first seeded user, so the seeded
 * world has data behind every resource (issue 31).
 */
export const showcaseUsers = worldSlot('wearables.showcase', () => new Set<string>());

export function subjectOf(world: World, user: User): Subject {
  return new Subject(world.seed, user.user_id, zoneOf(user), birthYearOf(user), showcaseUsers(world).has(user.user_id));
}
