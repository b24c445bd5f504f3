/**
 * Users (spec 2.1, 4.3, 4.4, 4.5, 4.10, 7; reference api-facts A.4 to A.9).
 *
 * Simulates create (not idempotent: a live user's client_user_id again answers 400 with its
 * user_id), list, get, resolve, patch, delete with a 7-day grace period on the sandbox clock, and
 * undo. The sandbox environment caps live users
 * at 50 per team unless limits are off.
 *
 * LIMITATIONS
 * - Ingestion bounds are stored and validated; the paused-connection effect at the end bound
 *   is not simulated.
 */
import { z } from 'zod';
import { noContent } from '../../engine/http-types.js';
import { defineRoute, reply } from '../../engine/route.js';
import { EXAMPLE_TIME_ZONE, int, isoDate, timeZone, uuid } from '../../engine/schemas.js';
import { keptUserView, userView } from '../../state/users/users.js';
import {
  createUser,
  deleteUser,
  listUsers,
  liveUser,
  looksPersonal,
  patchUser,
  resolveUser,
  undoDelete,
} from '../../state/users/user-ops.js';
import { Success, User, UserList, res } from '../../wire/schemas.js';
import { USERS_ERRORS } from '../../state/users/errors.js';

const clientUserId = z
  .string()
  .min(1)
  .max(256)
  .superRefine((v, ctx) => {
    const kind = looksPersonal(v);
    if (kind) {
      ctx.addIssue({
        code: 'custom',
        message: USERS_ERRORS.personalDataCreate(kind),
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
    fallback_time_zone: z.string().meta({ example: EXAMPLE_TIME_ZONE }).nullish(),
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

export const userRoutes = [
  defineRoute({
    id: 'users.create',
    method: 'POST',
    path: '/v2/user',
    auth: 'team',
    summary:
      "Create a user. Not idempotent: a client_user_id a live user holds answers 400 with that user_id and created_on; a deleted user's may be reused.",
    request: { body: createBody },
    responses: {
      200: res(User, 'The created user'),
      400: 'client_user_id exists, or the sandbox user cap is reached',
      422: 'Validation error',
    },
    handle(ctx, { body }) {
      return reply(200, userView(ctx, createUser(ctx, body)));
    },
  }),

  defineRoute({
    id: 'users.list',
    method: 'GET',
    path: '/v2/user',
    auth: 'team',
    summary: "List the team environment's users, oldest first.",
    request: { query: listQuery },
    responses: { 200: res(UserList, '{users, total, offset, limit}'), 422: 'offset or limit out of bounds' },
    handle(ctx, { query }) {
      const { users, total } = listUsers(ctx, query.offset, query.limit);
      return reply(200, {
        users: users.map((u) => userView(ctx, u)),
        total,
        offset: query.offset,
        limit: query.limit,
      });
    },
  }),

  defineRoute({
    id: 'users.resolve',
    method: 'GET',
    path: '/v2/user/resolve/:client_user_id',
    auth: 'team',
    summary: 'Find a user by client_user_id.',
    request: { params: z.object({ client_user_id: z.string().min(1) }) },
    responses: { 200: res(User, 'The user'), 404: 'No such user' },
    handle(ctx, { params }) {
      return reply(200, userView(ctx, resolveUser(ctx, params.client_user_id)));
    },
  }),

  defineRoute({
    id: 'users.undo_delete',
    method: 'POST',
    path: '/v2/user/undo_delete',
    auth: 'team',
    summary: 'Undo a deletion within its 7-day grace period (query or JSON body: user_id or client_user_id).',
    request: { query: undoQuery, body: undoQuery.nullish() },
    responses: {
      200: res(Success, '{success: true}'),
      404: 'No deletion to undo',
      409: 'client_user_id taken meanwhile',
      422: 'Neither or both ids given',
    },
    handle(ctx, { query, body }) {
      const userId = query.user_id ?? body?.user_id;
      const clientId = query.client_user_id ?? body?.client_user_id;
      undoDelete(ctx, {
        ...(userId !== undefined ? { user_id: userId } : {}),
        ...(clientId !== undefined ? { client_user_id: clientId } : {}),
      });
      return reply(200, { success: true });
    },
  }),

  defineRoute({
    id: 'users.get',
    method: 'GET',
    path: '/v2/user/:user_id',
    auth: 'team',
    summary: 'Get a user.',
    request: { params: userIdParams },
    responses: { 200: res(User, 'The user'), 404: 'Unknown, or scheduled for deletion', 422: 'Malformed user_id' },
    handle(ctx, { params }) {
      const kept = keptUserView(ctx, params.user_id);
      return reply(200, kept ?? userView(ctx, liveUser(ctx, params.user_id), params.user_id));
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
      patchUser(ctx, params.user_id, body ?? {});
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
    responses: { 200: res(Success, '{success: true}'), 404: 'Unknown or already scheduled', 422: 'Malformed user_id' },
    handle(ctx, { params }) {
      deleteUser(ctx, params.user_id);
      return reply(200, { success: true });
    },
  }),
];
