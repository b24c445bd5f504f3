/**
 * Custom webhook headers (management API; `WebhookHeadersResponse`, `UpdateWebhookHeadersBody`):
 * headers sent with every delivery to an endpoint. PUT replaces the whole set; GET shows the
 * non-sensitive ones with their values and only the names of the sensitive ones (Svix's rule).
 *
 * LIMITATIONS
 * - Sensitive names are Svix's list (authorization, proxy-authorization, www-authenticate,
 *   proxy-authenticate, x-auth-token) plus any name containing token, secret, key, password,
 *   cookie or auth; the real service's exact list is not published.
 * - Forbidden names and prefixes follow the Svix server (user-agent, content-*, svix-*, x-amz-*,
 *   ...); the sandbox also forbids the white-label `webhook-id/-timestamp/-signature` names.
 */
import { z } from 'zod';
import { noContent } from '../../engine/http-types.js';
import { defineRoute, reply } from '../../engine/route.js';
import { headersView, replaceHeaders } from '../../state/webhooks/rules.js';
import { managedEndpoint, managedPartition, webhookParams } from './params.js';
import { WebhookHeaders, res } from '../../wire/schemas.js';
import { lazySchema } from '../../engine/lazy-schema.js';

const PATH = '/v1/org/:org_id/team/:team_id/:environment/webhook/:webhook_id/headers';

export const webhookHeaderRoutes = [
  defineRoute({
    id: 'webhooks.headers.get',
    method: 'GET',
    path: PATH,
    auth: 'management',
    summary: 'Custom delivery headers: {headers (non-sensitive, with values), sensitive (names only)}.',
    request: { params: webhookParams },
    access: managedPartition,
    responses: { 200: res(WebhookHeaders, 'WebhookHeadersResponse'), 404: 'Webhook or team not found' },
    handle(ctx, { params, access: partition }) {
      return reply(200, headersView(managedEndpoint(ctx, partition, params.webhook_id)));
    },
  }),

  defineRoute({
    id: 'webhooks.headers.put',
    method: 'PUT',
    path: PATH,
    auth: 'management',
    summary: 'Replace the custom delivery headers.',
    request: { params: webhookParams, body: lazySchema(() => z.object({ headers: z.record(z.string(), z.string()) })) },
    access: managedPartition,
    responses: { 204: 'Replaced', 404: 'Webhook or team not found', 422: 'Forbidden or invalid header' },
    handle(ctx, { params, body, access: partition }) {
      replaceHeaders(ctx.world, managedEndpoint(ctx, partition, params.webhook_id), body.headers);
      return noContent();
    },
  }),
];
