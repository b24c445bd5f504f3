/**
 * The users domain: create, patch, delete with a grace period, undo and resolve. Each function
 * validates everything first, then changes state (a rejected request changes nothing), and
 * throws the typed errors of `errors.ts`. Handlers and the control plane call these.
 */
import { isTimeZone } from '../../engine/schemas.js';
import { usersError } from './errors.js';
import { startGrace, endGrace } from './deletion-grace.js';
import { SANDBOX_USER_CAP, capApplies, usersOf, type User, type UserStore } from './users.js';
import type { Domain } from '../domain-context.js';
import { recountUser } from './metric-counts.js';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[\d\s().-]{7,20}$/;

/** Whether a client_user_id looks like personal data (an e-mail address or a phone number). */
export function looksPersonal(id: string): 'email' | 'phone' | null {
  if (EMAIL.test(id.trim())) return 'email';
  const digits = id.replace(/\D/g, '');
  if (PHONE.test(id.trim()) && digits.length >= 7 && digits.length <= 15) return 'phone';
  return null;
}

function store(scope: Domain): UserStore {
  return usersOf(scope.partition, scope.world);
}

function nowIso(scope: Domain): string {
  return new Date(scope.world.clock.now()).toISOString();
}

function checkBounds(start: string | null, end: string | null): void {
  if (start !== null && end !== null && start > end) throw usersError.boundsOrder(start, end);
}

function checkCap(scope: Domain, users: UserStore): void {
  if (capApplies(scope) && users.liveCount >= SANDBOX_USER_CAP) throw usersError.sandboxUserCap();
}

interface NewUser {
  client_user_id: string;
  fallback_time_zone?: string | null;
  fallback_birth_date?: string | null;
  ingestion_start?: string | null;
  ingestion_end?: string | null;
}

/**
 * Creates a user; 400 with the existing user's id when a live user holds client_user_id. A user
 * in its deletion grace period does not hold it: the new user takes it, and the deleted one can
 * no longer be undeleted (api-facts J).
 */
export function createUser(scope: Domain, input: NewUser): User {
  const users = store(scope);
  const existingId = users.clientIdHolder(input.client_user_id);
  const existing = existingId ? users.get(existingId) : undefined;
  if (existing && !existing.deletion) throw usersError.clientUserIdExists(existing.user_id, existing.created_on);
  checkCap(scope, users);
  checkBounds(input.ingestion_start ?? null, input.ingestion_end ?? null);
  const now = nowIso(scope);
  const user: User = {
    user_id: scope.world.ids.uuid('user', scope.partition.id),
    team_id: scope.partition.team.id,
    client_user_id: input.client_user_id,
    created_on: now,
    seq: users.nextSeq(),
    fallback_time_zone: input.fallback_time_zone ? { id: input.fallback_time_zone, source_slug: 'manual', updated_at: now } : null,
    fallback_birth_date: input.fallback_birth_date ? { value: input.fallback_birth_date, source_slug: 'manual', updated_at: now } : null,
    ingestion_start: input.ingestion_start ?? null,
    ingestion_end: input.ingestion_end ?? null,
    deletion: null,
  };
  users.add(user);
  return user;
}

/** The live user with this id; `missing` picks the 404 text for an unknown id. */
/** `GET /v2/user`: a page of live users, oldest first, and how many live users there are. */
export function listUsers(scope: Domain, offset: number, limit: number): { users: User[]; total: number } {
  const store = usersOf(scope.partition, scope.world);
  return { users: store.page(offset, limit), total: store.liveCount };
}

export function liveUser(scope: Domain, userId: string, missing: 'notFound' | 'gone' = 'notFound'): User {
  const user = store(scope).get(userId);
  if (!user) throw missing === 'gone' ? usersError.userGone() : usersError.userNotFound();
  if (user.deletion) throw usersError.userScheduledForDeletion();
  return user;
}

/** The live user with this client_user_id. */
export function resolveUser(scope: Domain, clientUserId: string): User {
  const users = store(scope);
  const id = users.clientIdHolder(clientUserId);
  const user = id ? users.get(id) : undefined;
  if (!user) throw usersError.userResolveNotFound();
  if (user.deletion) throw usersError.userScheduledForDeletion();
  return user;
}

interface UserPatch {
  fallback_time_zone?: string | null;
  fallback_birth_date?: string | null;
  ingestion_start?: string | null;
  ingestion_end?: string | null;
  client_user_id?: string | null;
}

const PATCH_KEYS = ['fallback_time_zone', 'fallback_birth_date', 'ingestion_start', 'ingestion_end', 'client_user_id'] as const;

/** Applies a partial update; every field is checked before any is written. */
export function patchUser(scope: Domain, userId: string, patch: UserPatch): User {
  const users = store(scope);
  const user = liveUser(scope, userId, 'gone');
  if (!PATCH_KEYS.some((k) => patch[k] !== undefined)) throw usersError.nothingToPatch();
  if (patch.fallback_time_zone != null && !isTimeZone(patch.fallback_time_zone)) throw usersError.badTimeZone(patch.fallback_time_zone);
  const clientId = patch.client_user_id;
  if (clientId === null) throw usersError.clientUserIdNull();
  if (clientId !== undefined) {
    const kind = looksPersonal(clientId);
    if (kind) throw usersError.personalData(kind, clientId);
    if (clientId.length === 0) throw usersError.clientUserIdEmpty(clientId);
    const holder = users.clientIdHolder(clientId);
    if (holder !== undefined && holder !== user.user_id) throw usersError.clientUserIdTaken();
  }
  const start = patch.ingestion_start !== undefined ? patch.ingestion_start : user.ingestion_start;
  const end = patch.ingestion_end !== undefined ? patch.ingestion_end : user.ingestion_end;
  checkBounds(start, end);
  const now = nowIso(scope);
  const tz = patch.fallback_time_zone;
  const birth = patch.fallback_birth_date;
  users.update(user, {
    fallback_time_zone:
      tz === undefined ? user.fallback_time_zone : tz === null ? null : { id: tz, source_slug: 'manual', updated_at: now },
    fallback_birth_date:
      birth === undefined ? user.fallback_birth_date : birth === null ? null : { value: birth, source_slug: 'manual', updated_at: now },
    ingestion_start: start,
    ingestion_end: end,
  });
  if (clientId !== undefined && clientId !== user.client_user_id) users.changeClientId(user, clientId);
  return user;
}

/** Schedules a user's deletion: connections go at once (userDeleted), data after the grace period. */
export function deleteUser(scope: Domain, userId: string): void {
  const users = store(scope);
  const user = users.get(userId);
  if (!user) throw usersError.userGone();
  if (user.deletion) throw usersError.userAlreadyScheduled();
  const { world, partition } = scope;
  startGrace({ world, partition }, user);
  world.hooks.userDeleted.run(partition, user.user_id);
}

/** Restores a user within the grace period (by user_id or by client_user_id, exactly one). */
export function undoDelete(scope: Domain, ids: { user_id?: string; client_user_id?: string }): User {
  if ((ids.user_id === undefined) === (ids.client_user_id === undefined)) throw usersError.undoNeedsOneId();
  const users = store(scope);
  const resolvedId = ids.user_id ?? users.clientIdHolder(ids.client_user_id as string);
  const user = resolvedId ? users.get(resolvedId) : undefined;
  if (ids.client_user_id !== undefined && !user?.deletion && users.reusedDeletion(ids.client_user_id)) throw usersError.undoAfterReuse();
  if (!user?.deletion) throw usersError.noDeletionToUndo();
  const holder = users.clientIdHolder(user.client_user_id);
  if (users.reusedDeletion(user.client_user_id) === user.user_id) throw usersError.undoAfterReuse();
  if (holder !== undefined && holder !== user.user_id) throw usersError.clientUserIdTaken();
  checkCap(scope, users);
  endGrace(scope, user);
  users.restore(user);
  recountUser(scope, user.user_id);
  return user;
}
