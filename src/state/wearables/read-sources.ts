/**
 * The measurement sources the reads derive from (summaries, timeseries, streams, introspection,
 * aggregate rows), kept between requests (issue 45). A source (a person observed through one
 * provider) is a pure function of (seed, user id, zone, birth year, showcase, provider); its
 * subject memoises nights, workouts and quarter-hour activity, the source memoises its nights,
 * cadence bucket values, daily sample times and the stats of a day's final buckets. A read of
 * the same days again (a dashboard's refresh, the next page, another resource of the same day)
 * then costs what its answer costs, not the generation of every day of its window.
 *
 * Memos never change a value (a rebuilt source yields the same bytes), and nothing here depends
 * on the clock, the connections, the ingestion bounds or the revision rate: those are applied on
 * every read (wearable-data.ts). The keeper is an `aside` slot: never part of a saved world, gone
 * with its world (reset, restore, load). A kept user whose seed, zone, birth year or showcase
 * flag changed is rebuilt on its next read.
 *
 * Memory stays bounded: the memo entries of every kept user together (READ_MEMO, a user's counted
 * again at the next read after its own) and the users kept (READ_USERS), least recently read
 * dropped first; a user past READ_USER_MEMO (its kept answers left out: read-answers.ts bounds
 * them) is rebuilt on its next read.
 */
import { sourceCtx, type SourceCtx } from '../../fixtures/wearables/timeseries-table.js';
import { sourceMemo } from '../../fixtures/wearables/timeseries-model.js';
import type { ProviderInfo } from '../../fixtures/wearables/providers.js';
import type { Subject } from '../../fixtures/wearables/wearable-profile.js';
import { type World, worldSlot } from '../../engine/world.js';
import type { User } from '../users/users.js';
import { viewCount } from './read-views.js';
import { keptAnswerSamples } from './read-answers.js';
import { birthYearOf, showcaseUsers, subjectOf, zoneOf } from './subject.js';

/** Memo entries all kept users may hold together (a cadence entry is 8 bytes of a typed array). */
const READ_MEMO = 2_000_000;
/** Memo entries one user may hold before its sources are rebuilt. */
const READ_USER_MEMO = 600_000;
/** Memo entries a kept summary counts for (a summary is a few hundred bytes to a few kilobytes). */
const VIEW_WEIGHT = 250;
/** Memo entries a sample of a kept answer counts for (read-answers.ts: its object and its bytes, about 300 bytes). */
const SAMPLE_WEIGHT = 40;
/** Users whose sources a world keeps for its reads. */
const READ_USERS = 256;

interface Kept {
  seed: number;
  zone: string;
  birth: number | null;
  showcase: boolean;
  subject: Subject;
  sources: Map<ProviderInfo, SourceCtx>;
  /** The memo entries counted for this user in the keeper's total (as of its last read). */
  counted: number;
  /** Of them, those of its sources and views (its kept answers have their own bound: read-answers.ts). */
  own: number;
}

interface Keeper {
  /** By user id, least recently read first (re-inserted on use). */
  users: Map<string, Kept>;
  /** Memo entries of the kept users, as counted at their last read. */
  total: number;
  /** The user read last: what its reads added is counted at the next read, whoever it is for. */
  last: Kept | null;
}

const keeperOf = worldSlot('wearables.read-sources', (): Keeper => ({ users: new Map(), total: 0, last: null }), 'aside');

/** A kept user's memo entries, its kept answers (bounded on their own, read-answers.ts) left out. */
function memoSize(k: Kept): number {
  let n = k.subject.memoSize();
  for (const src of k.sources.values()) n += (src.memo?.size ?? 0) + src.nights.size + viewCount(src) * VIEW_WEIGHT;
  return n;
}

/** The user's kept subject and sources (rebuilt when the person changed or its memo grew past its bound). */
function keptOf(world: World, user: User): Kept {
  const keeper = keeperOf(world);
  const birth = birthYearOf(user);
  const zone = zoneOf(user);
  const showcase = showcaseUsers(world).has(user.user_id);
  const last = keeper.last;
  if (last) {
    // What the last reads added (the keeper's bound holds between requests, whatever they read).
    const own = memoSize(last);
    const size = own + keptAnswerSamples(last.subject) * SAMPLE_WEIGHT;
    keeper.total += size - last.counted;
    last.counted = size;
    last.own = own;
  }
  let k = keeper.users.get(user.user_id);
  if (k) {
    keeper.users.delete(user.user_id);
    keeper.total -= k.counted;
    const same = k.seed === world.seed && k.zone === zone && k.birth === birth && k.showcase === showcase;
    if (!same || k.own > READ_USER_MEMO) k = undefined;
  }
  if (!k) k = { seed: world.seed, zone, birth, showcase, subject: subjectOf(world, user), sources: new Map(), counted: 0, own: 0 };
  keeper.users.set(user.user_id, k);
  keeper.total += k.counted;
  keeper.last = k;
  while (keeper.users.size > 1 && (keeper.users.size > READ_USERS || keeper.total > READ_MEMO)) {
    const [oldest, dropped] = keeper.users.entries().next().value as [string, Kept];
    keeper.users.delete(oldest);
    keeper.total -= dropped.counted;
  }
  return k;
}

/**
 * The user's source through `provider` for a read (kept between reads, memoised), its
 * `revisionRate` 0 as on a fresh source: `dataSources` sets the team's setting on it before each
 * use (one object per user and provider: its memos are keyed by it, workout-facts.ts).
 */
export function readSource(world: World, user: User, provider: ProviderInfo): SourceCtx {
  return sourceOf(keptOf(world, user), provider);
}

/** The kept source of one provider of a kept user, `revisionRate` 0. */
function sourceOf(k: Kept, provider: ProviderInfo): SourceCtx {
  let src = k.sources.get(provider);
  if (!src) {
    src = sourceCtx(k.subject, provider, sourceMemo());
    k.sources.set(provider, src);
  }
  src.revisionRate = 0;
  return src;
}

/** The user's sources for a read, looked up once per request: `source(provider)` for each provider it reads. */
export function readSources(world: World, user: User): { source: (provider: ProviderInfo) => SourceCtx } {
  const k = keptOf(world, user);
  return { source: (provider) => sourceOf(k, provider) };
}
