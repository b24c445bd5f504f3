/**
 * Users of one team environment: keyed by id, indexed by client_user_id, listed in creation
 * order. Deletion starts a 7-day grace period on the sandbox clock; undo within it restores
 * the user; after it the user is purged.
 */
import type { Partition } from '../../engine/tenancy.js';
import { sealView } from '../../engine/render-cache.js';
import { partitionSlot, type World } from '../../engine/world.js';
import type { User as UserAnswer } from '../../wire/types.js';

export const DELETION_GRACE_MS = 7 * 24 * 3600 * 1000;
export const SANDBOX_USER_CAP = 50;

export interface TimeZoneValue {
  id: string;
  source_slug: string;
  updated_at: string;
}

export interface BirthDateValue {
  value: string;
  source_slug: string;
  updated_at: string;
}

export interface User {
  user_id: string;
  team_id: string;
  client_user_id: string;
  created_on: string;
  /** Creation order within the partition. */
  seq: number;
  fallback_time_zone: TimeZoneValue | null;
  fallback_birth_date: BirthDateValue | null;
  ingestion_start: string | null;
  ingestion_end: string | null;
  /** Set while the user is scheduled for deletion (the purge is queued in deletion-grace.ts). */
  deletion: { scheduled_at: string; purge_at: string } | null;
}

export class UserStore {
  private readonly users = new Map<string, User>();
  /** client_user_id -> user_id, for live users and users in their grace period. */
  private readonly byClientId = new Map<string, string>();
  /** client_user_id -> the deleted user (in its grace period) whose id a new user took (it can no longer be undeleted). */
  private readonly reusedFrom = new Map<string, string>();
  /** Live (not scheduled for deletion) users in creation order. */
  private readonly live: User[] = [];
  private seq = 0;

  nextSeq(): number {
    return ++this.seq;
  }

  /** Canonical state for world snapshots (the field names of the plain store). */
  toJSON(): unknown {
    return { byId: this.users, byClientId: this.byClientId, reusedFrom: this.reusedFrom, live: this.live, seq: this.seq };
  }

  /** The user with this id, live or in its grace period. */
  get(userId: string): User | undefined {
    return this.users.get(userId);
  }

  /** How many users the store holds (live or in their grace period). */
  get size(): number {
    return this.users.size;
  }

  /** Whether a user with this id exists (live or in its grace period). */
  has(userId: string): boolean {
    return this.users.has(userId);
  }

  /** The deleted user (in its grace period) whose client_user_id a newer user took, if any. */
  reusedDeletion(clientUserId: string): string | undefined {
    return this.reusedFrom.get(clientUserId);
  }

  /** The id of the user (live or in its grace period) holding this client_user_id. */
  clientIdHolder(clientUserId: string): string | undefined {
    return this.byClientId.get(clientUserId);
  }

  add(user: User): void {
    const previous = this.byClientId.get(user.client_user_id);
    if (previous !== undefined && this.users.get(previous)?.deletion) this.reusedFrom.set(user.client_user_id, previous);
    this.users.set(user.user_id, user);
    this.byClientId.set(user.client_user_id, user.user_id);
    this.insertLive(user);
  }

  get liveCount(): number {
    return this.live.length;
  }

  /** A page of live users in creation order. */
  page(offset: number, limit: number): User[] {
    return this.live.slice(offset, offset + limit);
  }

  /** Every live user (seeding and sweeps). */
  all(): readonly User[] {
    return this.live;
  }

  /** The index in the live list of the first user created at or after `seq` (cursor pages). */
  liveIndexFrom(seq: number): number {
    return this.lowerBound(seq);
  }

  /** The index of the first live user whose `seq` is at least `seq` (the live list is in `seq` order). */
  private lowerBound(seq: number): number {
    let lo = 0;
    let hi = this.live.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.live[mid] as User).seq < seq) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The live user with this id, if any. */
  liveUser(userId: string): User | undefined {
    const u = this.users.get(userId);
    return u && !u.deletion ? u : undefined;
  }

  changeClientId(user: User, clientUserId: string): void {
    this.byClientId.delete(user.client_user_id);
    user.client_user_id = clientUserId;
    this.byClientId.set(clientUserId, user.user_id);
  }

  markDeleted(user: User, deletion: NonNullable<User['deletion']>): void {
    user.deletion = deletion;
    const i = this.indexOf(user);
    if (i >= 0) this.live.splice(i, 1);
  }

  restore(user: User): void {
    user.deletion = null;
    this.insertLive(user);
  }

  purge(user: User): void {
    this.users.delete(user.user_id);
    if (this.byClientId.get(user.client_user_id) === user.user_id) this.byClientId.delete(user.client_user_id);
    if (this.reusedFrom.get(user.client_user_id) === user.user_id) this.reusedFrom.delete(user.client_user_id);
    const i = this.indexOf(user);
    if (i >= 0) this.live.splice(i, 1);
  }

  private insertLive(user: User): void {
    const last = this.live[this.live.length - 1];
    if (!last || last.seq < user.seq) {
      this.live.push(user);
      return;
    }
    this.live.splice(this.lowerBound(user.seq), 0, user);
  }

  private indexOf(user: User): number {
    const at = this.lowerBound(user.seq);
    return this.live[at] === user ? at : -1;
  }
}

export const usersOf = partitionSlot('users', () => new UserStore());

/**
 * The last view made of each user read lately (at most VIEWS_KEPT users, all worlds together, then
 * the cache starts over): handed out again, sealed (render-cache.ts: rendered once), while the
 * record's fields are the same values and no connection changed anywhere (the world's
 * `connectedSourcesVersion` hook; issue 33's keyed reads: a read in a world of 100k users then
 * touches the user's record and nothing else of the world's). The record's fields change only
 * through this area (user-ops.ts, the store), by assignment.
 */
const VIEWS_KEPT = 4096;
interface KeptView {
  view: UserAnswer;
  /** `connectedSourcesVersion()` when the view was made. */
  sources: number;
}
/** A user seen once is only noted (null): a world read once per user keeps nothing; the second read keeps the view. */
let views = new Map<User, KeptView | null>();

/** The user object of spec 2.1 / the SDK's ClientFacingUser (sealed once kept: nothing may write to it). */
export function userView(world: World, partition: Partition, user: User): UserAnswer {
  const version = world.hooks.connectedSourcesVersion();
  const kept = views.get(user);
  if (kept !== undefined && kept !== null && kept.sources === version && sameFields(kept.view, user)) return kept.view;
  const view: UserAnswer = {
    user_id: user.user_id,
    team_id: user.team_id,
    client_user_id: user.client_user_id,
    created_on: user.created_on,
    connected_sources: world.hooks.connectedSources(partition, user.user_id),
    fallback_time_zone: user.fallback_time_zone,
    fallback_birth_date: user.fallback_birth_date,
    ingestion_start: user.ingestion_start,
    ingestion_end: user.ingestion_end,
  };
  if (kept === undefined) {
    if (views.size >= VIEWS_KEPT) views = new Map();
    views.set(user, null);
  } else {
    views.set(user, { view: sealView(view), sources: version });
  }
  return view;
}

/** Whether a view shows the record's fields as they are (the same values: fields are replaced, never written into). */
function sameFields(view: UserAnswer, user: User): boolean {
  return (
    view.client_user_id === user.client_user_id &&
    view.fallback_time_zone === user.fallback_time_zone &&
    view.fallback_birth_date === user.fallback_birth_date &&
    view.ingestion_start === user.ingestion_start &&
    view.ingestion_end === user.ingestion_end
  );
}

/** Whether the partition is under the sandbox's user cap. */
export function capApplies(world: World, partition: Partition): boolean {
  return world.options.limits && partition.environment === 'sandbox';
}
