/**
 * Team metrics, on-demand refresh, devices, sign-in tokens and user-portal links (data `user`
 * tag). Refresh is rate limited at 8 per user per hour on the sandbox clock (429 with
 * Retry-After) and answers 202 while a source's historical pull still runs, 200 when every
 * source is up to date, 400 when the user has no source or every source is in error. Devices
 * are one per current connection. The portal URL opens a small page on the sandbox.
 *
 * LIMITATIONS
 * - Refresh does not fetch extra data: the sandbox's data is a function of time, so it is
 *   always as fresh as the clock. `timeout` is accepted (5 to 60) and not waited on.
 * - `number_of_connected_sources_by_week` covers the last 12 weeks (`value`: sources connected
 *   in the week, `all`: by its end; the reference does not define them).
 * - The sign-in token is opaque; the mobile SDK's exchange is not served.
 */
import { z } from 'zod';
import { binary } from '../../engine/http-types.js';
import { defineRoute, reply } from '../../engine/route.js';
import { num, uuid } from '../../engine/schemas.js';
import { createPortalUrl, portalView, refreshUser, signInToken, teamMetrics, userDevice, userDevices } from '../../state/users/activity.js';
import { Device, ExpiringUrl, RefreshRefused, RefreshResult, SignInToken, TeamMetrics, res } from '../../wire/schemas.js';
import { lazySchema } from '../../engine/lazy-schema.js';

const userIdParams = lazySchema(() => z.object({ user_id: uuid() }));
const encoder = new TextEncoder();
const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const page = (title: string, text: string, status: number) => ({
  ...binary(
    encoder.encode(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p></body></html>`,
    ),
    'text/html; charset=utf-8',
    { 'cache-control': 'no-store' },
  ),
  status,
});

export const activityRoutes = [
  defineRoute({
    id: 'users.metrics',
    method: 'GET',
    path: '/v2/user/metrics',
    auth: 'team',
    summary: "Counts of the team environment's users, connections and lab orders (MetricsResult).",
    request: {},
    responses: { 200: res(TeamMetrics, 'MetricsResult') },
    handle: (ctx) => reply(200, teamMetrics(ctx)),
  }),
  defineRoute({
    id: 'users.refresh',
    method: 'POST',
    path: '/v2/user/refresh/:user_id',
    auth: 'team',
    summary: 'On-demand refresh of every connected source (8 per user per hour).',
    request: { params: userIdParams, query: lazySchema(() => z.object({ timeout: num({ min: 5, max: 60 }).default(10) })) },
    responses: {
      200: res(RefreshResult, 'Refreshed'),
      202: res(RefreshResult, 'Some sources still pulling'),
      400: res(RefreshRefused, 'No sources, or all in error'),
      404: 'Unknown user',
      429: 'Rate limited',
    },
    handle(ctx, { params }) {
      const answer = refreshUser(ctx, params.user_id);
      return answer.status === 400 ? reply(400, answer.body) : reply(answer.status, answer.body);
    },
  }),
  defineRoute({
    id: 'users.devices',
    method: 'GET',
    path: '/v2/user/:user_id/device',
    auth: 'team',
    summary: "The user's devices (one per current connection).",
    request: { params: userIdParams },
    responses: {
      200: res(
        lazySchema(() => z.array(Device)),
        'Array of ClientFacingDevice',
      ),
      404: 'Unknown user',
    },
    handle: (ctx, { params }) => reply(200, userDevices(ctx, params.user_id)),
  }),
  defineRoute({
    id: 'users.device',
    method: 'GET',
    path: '/v2/user/:user_id/device/:device_id',
    auth: 'team',
    summary: 'One device of the user.',
    request: { params: lazySchema(() => z.object({ user_id: uuid(), device_id: uuid() })) },
    responses: { 200: res(Device, 'ClientFacingDevice'), 404: 'Unknown user or device' },
    handle: (ctx, { params }) => reply(200, userDevice(ctx, params.user_id, params.device_id)),
  }),
  defineRoute({
    id: 'users.sign_in_token',
    method: 'POST',
    path: '/v2/user/:user_id/sign_in_token',
    auth: 'team',
    summary: 'A sign-in token for the mobile SDK.',
    request: { params: userIdParams },
    responses: { 200: res(SignInToken, 'UserSignInTokenResponse'), 404: 'Unknown user' },
    handle: (ctx, { params }) => reply(200, signInToken(ctx, params.user_id)),
  }),
  defineRoute({
    id: 'users.portal_url',
    method: 'POST',
    path: '/v2/user/:user_id/create_portal_url',
    auth: 'team',
    summary: 'A user-portal URL: launch (10 minutes) or communications (14 days).',
    request: {
      params: userIdParams,
      body: lazySchema(() => z.object({ context: z.enum(['launch', 'communications']), order_id: uuid().nullish() })),
    },
    responses: { 200: res(ExpiringUrl, 'CreateUserPortalURLResponse'), 404: 'Unknown user or order', 422: 'Validation error' },
    handle: (ctx, { params, body }) => reply(200, createPortalUrl(ctx, params.user_id, body.context, body.order_id ?? null)),
  }),
  defineRoute({
    id: 'users.portal_page',
    method: 'GET',
    path: '/portal/:team_id/:environment/:code',
    auth: 'none',
    summary: "The sandbox's user-portal page behind a portal URL (HTML).",
    request: { params: lazySchema(() => z.object({ team_id: z.string(), environment: z.string(), code: z.string() })) },
    responses: { 200: { description: 'HTML page', contentType: 'text/html' }, 404: 'Unknown or expired link' },
    handle(ctx, { params }) {
      const view = portalView(ctx.world, params.team_id, params.environment, params.code);
      const order = view.link.order_id ? ` Order ${view.link.order_id}.` : '';
      return page('User portal (sandbox)', `Signed in as ${view.client_user_id}.${order}`, 200);
    },
  }),
];
