/**
 * Users (spec 2.1, 4.3, 4.4, 4.5, 4.10, 7; reference api-facts A.4 to A.9).
 *
 * Simulates create (idempotent on client_user_id), list, get, resolve, patch, delete with a
 * 7-day grace period on the sandbox clock, and undo. The sandbox environment caps live users
 * at 50 per team unless limits are off.
 *
 * LIMITATIONS
 * - `POST /v2/user/refresh/:user_id` and link tokens are not simulated (404 like any unknown route).
 * - Ingestion bounds are stored and validated; the paused-connection effect at the end bound
 *   is not simulated.
 */
import { z } from 'zod';
import { MESSAGES, ApiError, conflict, invalidRequest, notFound, valueError, badRequest } from '../../engine/errors.js';
import { json, noContent } from '../../engine/http-types.js';
import { defineRoute, type Ctx } from '../../engine/route.js';
import { int, isTimeZone, isoDate, timeZone, uuid } from '../../engine/schemas.js';
import {
  DELETION_GRACE_MS,
  SANDBOX_USER_CAP,
  capApplies,
  userView,
  usersOf,
  type User,
  type UserStore,
} from '../../state/users/users.js';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[\d\s().-]{7,20}$/;

/** Whether a client_user_id looks like personal data (an e-mail address or a phone number). */
export function looksPersonal(id: string): 'email' | 'phone' | null {
  if (EMAIL.test(id.trim())) return 'email';
  const digits = id.replace(/\D/g, '');
  if (PHONE.test(id.trim()) && digits.length >= 7 && digits.length <= 15) return 'phone';
  return null;
}

const clientUserId = z
  .string()
  .min(1)
  .max(256)
  .superRefine((v, ctx) => {
    const kind = looksPersonal(v);
    if (kind) {
      ctx.addIssue({
        code: 'custom',
        message: `client_user_id must not contain personal data: it looks like ${kind === 'email' ? 'an e-mail address' : 'a phone number'}. Use an opaque id from your own system.`,
      });
    }
  });

const userIdParams = z.object({ user_id: uuid() });

const createBody = z.object({
  client_user_id: clientUserId,
  fallback_time_zone: timeZone().nullish(),
  fallback_birth_date: isoDate().nullish(),
  ingestion_start: isoDate().nullish(),
  ingestion_end: isoDate().nullish(),
});

const patchBody = z
  .object({
    fallback_time_zone: z.string().nullish(),
    fallback_birth_date: isoDate().nullish(),
    ingestion_start: isoDate().nullish(),
    ingestion_end: isoDate().nullish(),
    client_user_id: z.string().nullish(),
  })
  .nullish();

const listQuery = z.object({
  offset: int({ min: 0 }).default(0),
  limit: int({ min: 1, max: 500 }).default(100),
});

const undoQuery = z.object({
  user_id: uuid().optional(),
  client_user_id: z.string().min(1).optional(),
});

function requireLive(store: UserStore, userId: string, missing: string): User {
  const user = store.byId.get(userId);
  if (!user) throw notFound(missing);
  if (user.deletion) throw notFound(MESSAGES.userScheduledForDeletion);
  return user;
}

function checkBounds(start: string | null, end: string | null): void {
  if (start !== null && end !== null && start > end) {
    throw valueError(['body', 'ingestion_start'], `ingestion_start (${start}) must be on or before ingestion_end (${end})`, start);
  }
}

function tzValue(id: string, now: string) {
  return { id, source_slug: 'manual', updated_at: now };
}

function birthValue(value: string, now: string) {
  return { value, source_slug: 'manual', updated_at: now };
}

function scheduleDeletion(ctx: Ctx, store: UserStore, user: User): void {
  const { world } = ctx;
  const partition = ctx.partition;
  const purgeAt = ctx.now() + DELETION_GRACE_MS;
  const job = world.scheduler.at(purgeAt, `user.purge ${user.user_id}`, () => {
    if (!user.deletion) return;
    store.purge(user);
    world.hooks.userPurged.run(partition, user.user_id);
  });
  store.markDeleted(user, { scheduled_at: ctx.iso(), purge_at: new Date(purgeAt).toISOString(), job });
  world.hooks.userDeleted.run(partition, user.user_id);
}

export const userRoutes = [
  defineRoute({
    id: 'users.create',
    method: 'POST',
    path: '/v2/user',
    auth: 'team',
    summary: 'Create a user (idempotent on client_user_id).',
    request: { body: createBody },
    responses: { 200: 'The created user', 400: 'client_user_id exists, or the sandbox user cap is reached', 422: 'Validation error' },
    handle(ctx, { body }) {
      const store = usersOf(ctx.partition, ctx.world);
      const existingId = store.byClientId.get(body.client_user_id);
      if (existingId) {
        const existing = store.byId.get(existingId) as User;
        throw new ApiError(400, {
          detail: {
            error_type: 'INVALID_REQUEST',
            error_message: MESSAGES.clientUserIdExists,
            user_id: existing.user_id,
            created_on: existing.created_on,
          },
        });
      }
      if (capApplies(ctx.world, ctx.partition) && store.liveCount >= SANDBOX_USER_CAP) {
        throw invalidRequest(MESSAGES.sandboxUserCap);
      }
      checkBounds(body.ingestion_start ?? null, body.ingestion_end ?? null);
      const now = ctx.iso();
      const user: User = {
        user_id: ctx.world.ids.uuid('user', ctx.partition.id),
        team_id: ctx.partition.team.id,
        client_user_id: body.client_user_id,
        created_on: now,
        seq: store.nextSeq(),
        fallback_time_zone: body.fallback_time_zone ? tzValue(body.fallback_time_zone, now) : null,
        fallback_birth_date: body.fallback_birth_date ? birthValue(body.fallback_birth_date, now) : null,
        ingestion_start: body.ingestion_start ?? null,
        ingestion_end: body.ingestion_end ?? null,
        deletion: null,
      };
      store.add(user);
      return json(userView(ctx.world, ctx.partition, user));
    },
  }),

  defineRoute({
    id: 'users.list',
    method: 'GET',
    path: '/v2/user',
    auth: 'team',
    summary: 'List the team environment\'s users, oldest first.',
    request: { query: listQuery },
    responses: { 200: '{users, total, offset, limit}', 422: 'offset or limit out of bounds' },
    handle(ctx, { query }) {
      const store = usersOf(ctx.partition, ctx.world);
      const users = store.page(query.offset, query.limit).map((u) => userView(ctx.world, ctx.partition, u));
      return json({ users, total: store.liveCount, offset: query.offset, limit: query.limit });
    },
  }),

  defineRoute({
    id: 'users.resolve',
    method: 'GET',
    path: '/v2/user/resolve/:client_user_id',
    auth: 'team',
    summary: 'Find a user by client_user_id.',
    request: { params: z.object({ client_user_id: z.string().min(1) }) },
    responses: { 200: 'The user', 404: 'No such user' },
    handle(ctx, { params }) {
      const store = usersOf(ctx.partition, ctx.world);
      const id = store.byClientId.get(params.client_user_id);
      const user = id ? store.byId.get(id) : undefined;
      if (!user) throw notFound(MESSAGES.userResolveNotFound);
      if (user.deletion) throw notFound(MESSAGES.userScheduledForDeletion);
      return json(userView(ctx.world, ctx.partition, user));
    },
  }),

  defineRoute({
    id: 'users.undo_delete',
    method: 'POST',
    path: '/v2/user/undo_delete',
    auth: 'team',
    summary: 'Undo a deletion within its 7-day grace period (query or JSON body: user_id or client_user_id).',
    request: { query: undoQuery, body: undoQuery.nullish() },
    responses: { 200: '{success: true}', 404: 'No deletion to undo', 409: 'client_user_id taken meanwhile', 422: 'Neither or both ids given' },
    handle(ctx, { query, body }) {
      const userId = query.user_id ?? body?.user_id;
      const clientId = query.client_user_id ?? body?.client_user_id;
      if ((userId === undefined) === (clientId === undefined)) {
        throw valueError(['query'], 'Provide exactly one of user_id or client_user_id');
      }
      const store = usersOf(ctx.partition, ctx.world);
      const resolvedId = userId ?? store.byClientId.get(clientId as string);
      const user = resolvedId ? store.byId.get(resolvedId) : undefined;
      if (!user || !user.deletion) throw notFound('No user scheduled for deletion matches this id');
      const holder = store.byClientId.get(user.client_user_id);
      if (holder !== undefined && holder !== user.user_id) throw conflict(MESSAGES.clientUserIdTaken);
      if (capApplies(ctx.world, ctx.partition) && store.liveCount >= SANDBOX_USER_CAP) {
        throw invalidRequest(MESSAGES.sandboxUserCap);
      }
      user.deletion.job.cancel();
      store.restore(user);
      return json({ success: true });
    },
  }),

  defineRoute({
    id: 'users.get',
    method: 'GET',
    path: '/v2/user/:user_id',
    auth: 'team',
    summary: 'Get a user.',
    request: { params: userIdParams },
    responses: { 200: 'The user', 404: 'Unknown, or scheduled for deletion', 422: 'Malformed user_id' },
    handle(ctx, { params }) {
      const store = usersOf(ctx.partition, ctx.world);
      return json(userView(ctx.world, ctx.partition, requireLive(store, params.user_id, MESSAGES.userNotFound)));
    },
  }),

  defineRoute({
    id: 'users.patch',
    method: 'PATCH',
    path: '/v2/user/:user_id',
    auth: 'team',
    summary: 'Update fallback time zone, birth date, ingestion bounds or client_user_id.',
    request: { params: userIdParams, body: patchBody },
    responses: { 204: 'Updated', 400: 'Nothing to patch', 404: 'Unknown user', 409: 'client_user_id taken', 422: 'Validation error' },
    handle(ctx, { params, body }) {
      const store = usersOf(ctx.partition, ctx.world);
      const user = requireLive(store, params.user_id, MESSAGES.userGone);
      const patch = body ?? {};
      const keys = (['fallback_time_zone', 'fallback_birth_date', 'ingestion_start', 'ingestion_end', 'client_user_id'] as const).filter(
        (k) => patch[k] !== undefined,
      );
      if (keys.length === 0) throw badRequest(MESSAGES.nothingToPatch);
      // Validate everything before changing anything.
      if (patch.fallback_time_zone != null && !isTimeZone(patch.fallback_time_zone)) {
        throw valueError(['body', 'fallback_time_zone'], `Invalid time zone: ${patch.fallback_time_zone} is not an IANA time zone identifier`, patch.fallback_time_zone);
      }
      if (patch.client_user_id === null) {
        throw valueError(['body', 'client_user_id'], 'client_user_id cannot be reset to null', null);
      }
      if (patch.client_user_id !== undefined) {
        const kind = looksPersonal(patch.client_user_id);
        if (patch.client_user_id.length === 0 || kind) {
          throw valueError(['body', 'client_user_id'], kind ? `client_user_id must not contain personal data: it looks like ${kind === 'email' ? 'an e-mail address' : 'a phone number'}` : 'client_user_id must not be empty', patch.client_user_id);
        }
        const holder = store.byClientId.get(patch.client_user_id);
        if (holder !== undefined && holder !== user.user_id) throw conflict(MESSAGES.clientUserIdTaken);
      }
      const start = patch.ingestion_start !== undefined ? patch.ingestion_start : user.ingestion_start;
      const end = patch.ingestion_end !== undefined ? patch.ingestion_end : user.ingestion_end;
      checkBounds(start, end);
      const now = ctx.iso();
      if (patch.fallback_time_zone !== undefined) user.fallback_time_zone = patch.fallback_time_zone === null ? null : tzValue(patch.fallback_time_zone, now);
      if (patch.fallback_birth_date !== undefined) user.fallback_birth_date = patch.fallback_birth_date === null ? null : birthValue(patch.fallback_birth_date, now);
      user.ingestion_start = start;
      user.ingestion_end = end;
      if (patch.client_user_id !== undefined && patch.client_user_id !== user.client_user_id) store.changeClientId(user, patch.client_user_id);
      return noContent();
    },
  }),

  defineRoute({
    id: 'users.delete',
    method: 'DELETE',
    path: '/v2/user/:user_id',
    auth: 'team',
    summary: 'Delete a user: connections are deregistered at once; data is erased after a 7-day grace period.',
    request: { params: userIdParams },
    responses: { 200: '{success: true}', 404: 'Unknown or already scheduled', 422: 'Malformed user_id' },
    handle(ctx, { params }) {
      const store = usersOf(ctx.partition, ctx.world);
      const user = store.byId.get(params.user_id);
      if (!user) throw notFound(MESSAGES.userGone);
      if (user.deletion) throw notFound(MESSAGES.userAlreadyScheduled);
      scheduleDeletion(ctx, store, user);
      return json({ success: true });
    },
  }),
];
