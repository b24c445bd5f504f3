/**
 * The feed's measurement sources, kept between ticks. A source (a person observed through one
 * provider) is a pure function of (seed, user id, zone, birth year, provider); its subject
 * memoises nights, workouts and quarter-hour activity, and the source memoises the values of
 * cadence buckets. Successive ticks (and the activity summary of a day, recomputed at each tick
 * with the data so far) read the same buckets again, so keeping them makes a tick cost what is
 * new since the previous one. Memos never change a value: a rebuilt source yields the same.
 *
 * Memory stays bounded: a user's sources are rebuilt once their memos pass FEED_MEMO entries
 * (a few days of data), and a world keeps the sources of its FEED_KEPT_USERS most recently fed
 * users (one tick feeds at most FEED_ACTIVE_USERS + FEED_USERS); they go with the world.
 */
import { sourceCtx, type SourceCtx } from '../../fixtures/wearables/timeseries-table.js';
import { sourceMemo } from '../../fixtures/wearables/timeseries-model.js';
import type { ProviderInfo } from '../../fixtures/wearables/providers.js';
import type { Subject } from '../../fixtures/wearables/wearable-profile.js';
import { type World, worldSlot } from '../../engine/world.js';
import type { User } from '../users/users.js';
import { subjectOf, zoneOf } from './wearable-data.js';

/** Memo entries a user's kept sources may hold before they are rebuilt. */
const FEED_MEMO = 6_000;
/** Users whose sources a world keeps (least recently fed dropped first). */
const FEED_KEPT_USERS = 800;

interface Kept {
  seed: number;
  zone: string;
  birth: number | null;
  subject: Subject;
  sources: Map<string, SourceCtx>;
}

/** Per world, users in the order they were last fed (a Map re-inserted on use: least recent first). */
const keptOf = worldSlot('feed sources', (): Map<User, Kept> => new Map(), 'aside');

function memoSize(k: Kept): number {
  let n = k.subject.memoSize();
  for (const src of k.sources.values()) n += src.memo?.size ?? 0;
  return n;
}

/** The user's source through `provider` for the feed (kept between ticks, memoised). */
export function feedSource(world: World, user: User, provider: ProviderInfo): SourceCtx {
  const birth = user.fallback_birth_date ? Number(user.fallback_birth_date.value.slice(0, 4)) : null;
  const zone = zoneOf(user);
  const kept = keptOf(world);
  let k = kept.get(user);
  if (k) kept.delete(user);
  if (!k || k.seed !== world.seed || k.zone !== zone || k.birth !== birth || memoSize(k) > FEED_MEMO) {
    k = { seed: world.seed, zone, birth, subject: subjectOf(world, user), sources: new Map() };
  }
  kept.set(user, k);
  if (kept.size > FEED_KEPT_USERS) {
    const oldest = kept.keys().next().value;
    if (oldest) kept.delete(oldest);
  }
  let src = k.sources.get(provider.slug);
  if (!src || src.provider !== provider) {
    src = sourceCtx(k.subject, provider, sourceMemo());
    k.sources.set(provider.slug, src);
  }
  return src;
}
