/**
 * Users of one team environment: keyed by id, indexed by client_user_id, listed in creation
 * order. Deletion starts a 7-day grace period on the sandbox clock; undo within it restores
 * the user; after it the user is purged.
 */
import type { Domain } from '../domain-context.js';
import { sealView } from '../../engine/render-cache.js';
import { partitionSlot } from '../../engine/world.js';
import type { User as UserAnswer } from '../../wire/types.js';
import { dataClass } from '../../engine/world-codec.js';

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

/**
 * A user record. Its fields are written only by the store (`UserStore`: `add`, `update`,
 * `changeClientId`, `markDeleted`, `restore`, `purge`), which moves its `version` on every write:
 * a kept view (`keptUserView`) is handed out without reading the record while the version stands.
 */
export interface User {
  readonly user_id: string;
  readonly team_id: string;
  readonly client_user_id: string;
  readonly created_on: string;
  /** Creation order within the partition. */
  readonly seq: number;
  readonly fallback_time_zone: TimeZoneValue | null;
  readonly fallback_birth_date: BirthDateValue | null;
  readonly ingestion_start: string | null;
  readonly ingestion_end: string | null;
  /** Set while the user is scheduled for deletion (the purge is queued in deletion-grace.ts). */
  readonly deletion: { scheduled_at: string; purge_at: string } | null;
}

/** The fields a patch writes (user-ops.ts `patchUser`, through `UserStore.update`). */
export type UserFields = Pick<User, 'fallback_time_zone' | 'fallback_birth_date' | 'ingestion_start' | 'ingestion_end'>;

/** The record as the store writes it. */
type Writable<T> = { -readonly [K in keyof T]: T[K] };

export class UserStore {
  private readonly users = new Map<string, User>();
  /** client_user_id -> user_id, for live users and users in their grace period. */
  private readonly byClientId = new Map<string, string>();
  /** client_user_id -> the deleted user (in its grace period) whose id a new user took (it can no longer be undeleted). */
  private readonly reusedFrom = new Map<string, string>();
  /** Live (not scheduled for deletion) users in creation order. */
  private readonly live: User[] = [];
  private seq = 0;
  /**
   * Moves on every write to a record this store holds, and on every deletion, undo and purge (not
   * on `add`: a new user changes no other user's view): a view kept at a version is still the
   * user's view, and the user still live, while the version stands.
   */
  private version = 0;
  /**
   * The views of users read lately, keyed by the id string of the request that read them (not the
   * record's: a hit then touches no record of a large world; issue 33's keyed reads). `null`: read
   * once (a world read once per user keeps nothing; the second read keeps the view). At most
   * VIEWS_KEPT, then the map starts over. Not state: it is not in `toJSON`.
   */
  private views = new Map<string, KeptView | null>();

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

  /** Writes a patch's fields (checked by the caller). */
  update(user: User, fields: UserFields): void {
    this.version++;
    Object.assign(user as Writable<User>, fields);
  }

  changeClientId(user: User, clientUserId: string): void {
    this.version++;
    this.byClientId.delete(user.client_user_id);
    (user as Writable<User>).client_user_id = clientUserId;
    this.byClientId.set(clientUserId, user.user_id);
  }

  markDeleted(user: User, deletion: NonNullable<User['deletion']>): void {
    this.version++;
    (user as Writable<User>).deletion = deletion;
    const i = this.indexOf(user);
    if (i >= 0) this.live.splice(i, 1);
  }

  restore(user: User): void {
    this.version++;
    (user as Writable<User>).deletion = null;
    this.insertLive(user);
  }

  purge(user: User): void {
    this.version++;
    this.users.delete(user.user_id);
    if (this.byClientId.get(user.client_user_id) === user.user_id) this.byClientId.delete(user.client_user_id);
    if (this.reusedFrom.get(user.client_user_id) === user.user_id) this.reusedFrom.delete(user.client_user_id);
    const i = this.indexOf(user);
    if (i >= 0) this.live.splice(i, 1);
  }

  /** The view kept for this id, if the store has not been written since it was kept and `sources` is the same. */
  keptView(userId: string, sources: number): UserAnswer | undefined {
    const kept = this.views.get(userId);
    return kept && kept.version === this.version && kept.sources === sources ? kept.view : undefined;
  }

  /**
   * The view to hand out for `user` (live, read under `key`): the kept one when it still shows the
   * record (the same field values: fields are replaced, never written into) and the same
   * connections, stamped with the store's version again; else `make()`'s, kept from the second read.
   * A user scheduled for deletion is never kept (a kept view stands for a live user).
   */
  viewOf(user: User, key: string, sources: number, make: () => UserAnswer): UserAnswer {
    if (user.deletion) return make();
    const kept = this.views.get(key);
    if (kept && kept.sources === sources && sameFields(kept.view, user)) {
      kept.version = this.version;
      return kept.view;
    }
    const view = make();
    if (kept === undefined) {
      if (this.views.size >= VIEWS_KEPT) this.views = new Map();
      this.views.set(key, null);
    } else {
      this.views.set(key, { view: sealView(view), sources, version: this.version });
    }
    return view;
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
dataClass('UserStore', UserStore);

export const usersOf = partitionSlot('users', () => new UserStore());

/** Views kept per store (each partition's users) before its map starts over. */
const VIEWS_KEPT = 4096;
interface KeptView {
  view: UserAnswer;
  /** `connectedSourcesVersion()` when the view was made. */
  sources: number;
  /** The store's version when the view was last found to show the record. */
  version: number;
}

/**
 * A user's view kept from an earlier read, by the request's id, without reading the user's record
 * (issue 33's keyed reads: in a world of 100k users a read then touches none of the world's
 * 100k-entry maps or records): only while the partition's users store has not been written since
 * (the user is still live and its fields the same) and no connection changed in the world (its
 * `connectedSourcesVersion` hook). Otherwise undefined: read the user and call `userView`.
 */
export function keptUserView(d: Domain, userId: string): UserAnswer | undefined {
  const { world, partition } = d;
  return usersOf(partition, world).keptView(userId, world.hooks.connectedSourcesVersion());
}

/**
 * The user object of spec 2.1 / the SDK's ClientFacingUser (sealed once kept: nothing may write
 * to it). `key`: the id as the request gave it (a read by id keeps the view under it).
 */
export function userView(d: Domain, user: User, key: string = user.user_id): UserAnswer {
  const { world, partition } = d;
  return usersOf(partition, world).viewOf(user, key, world.hooks.connectedSourcesVersion(), () => ({
    user_id: user.user_id,
    team_id: user.team_id,
    client_user_id: user.client_user_id,
    created_on: user.created_on,
    connected_sources: world.hooks.connectedSources(partition, user.user_id),
    fallback_time_zone: user.fallback_time_zone,
    fallback_birth_date: user.fallback_birth_date,
    ingestion_start: user.ingestion_start,
    ingestion_end: user.ingestion_end,
  }));
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
export function capApplies(d: Domain): boolean {
  const { world, partition } = d;
  return world.options.limits && partition.environment === 'sandbox';
}
