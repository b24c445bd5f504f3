/**
 * Webhook management (management API, May 2025; api-facts A.15; management OpenAPI `Webhook`,
 * `CreateWebhookBody`, `PatchWebhookBody`, `WebhookSecretResponse`, `RotateWebhookSecretBody`):
 * create, list, get, patch and delete the Svix endpoints of a team environment; read and rotate
 * their signing secret. Rules: `src/state/webhooks/rules.ts`;
 * deliveries: `src/state/webhooks/delivery.ts`; allowed destinations: `destinations.ts`.
 *
 * LIMITATIONS
 * - `rate_limit` is stored and returned but not enforced (the sandbox never throttles itself).
 * - `filter_types` entries are checked for Svix's event-type name syntax, not against the full
 *   Event Catalog (unknown names are accepted and simply never match).
 * - Sandbox extension: `whitelabel_headers: true` in the create/patch body makes deliveries carry
 *   the Standard Webhooks `webhook-id/-timestamp/-signature` set instead of `svix-*` (Svix's
 *   white-label option; the real Vital API ignores this field). It is echoed only when true.
 * - Explicit `null` in a patch clears `filter_types` (all types) and `rate_limit`; for `url`,
 *   `description` and `disabled` it means "unchanged".
 * - `limit` is bounded to 1..250 (Svix's own page bound); the real service's bound is not published.
 * - Re-enabling a disabled endpoint does not resume attempts that were stopped; use the control
 *   plane's recover.
 */
import { z } from 'zod';
import { noContent } from '../../engine/http-types.js';
import { defineRoute, reply } from '../../engine/route.js';
import { int } from '../../engine/schemas.js';
import { createWebhook, deleteWebhook, listWebhooks, patchWebhook, rotateSecret } from '../../state/webhooks/rules.js';
import { webhookView } from '../../state/webhooks/webhooks.js';
import { managedEndpoint, managedPartition, teamEnvParams, webhookParams } from './params.js';
import { WebhookEndpoint as WebhookEndpointWire, WebhookList, WebhookSecret, res } from '../../wire/schemas.js';
import { lazySchema } from '../../engine/lazy-schema.js';

const BASE = '/v1/org/:org_id/team/:team_id/:environment/webhook';

const createBody = lazySchema(() =>
  z.object({
    url: z.string(),
    description: z.string().default(''),
    rate_limit: int().nullable().optional(),
    disabled: z.boolean().default(false),
    filter_types: z.array(z.string()).nullable().optional(),
    secret: z.string().nullable().optional(),
    whitelabel_headers: z.boolean().optional(),
  }),
);

const patchBody = lazySchema(() =>
  z.object({
    description: z.string().nullable().optional(),
    rate_limit: int().nullable().optional(),
    url: z.string().nullable().optional(),
    disabled: z.boolean().nullable().optional(),
    filter_types: z.array(z.string()).nullable().optional(),
    whitelabel_headers: z.boolean().optional(),
  }),
);

export const webhookRoutes = [
  defineRoute({
    id: 'webhooks.list',
    method: 'GET',
    path: BASE,
    auth: 'management',
    summary: 'List the webhook endpoints of a team environment, oldest first ({data, next_cursor}).',
    request: {
      params: teamEnvParams,
      query: lazySchema(() => z.object({ next_cursor: z.string().optional(), limit: int({ min: 1, max: 250 }).default(50) })),
    },
    access: managedPartition,
    responses: { 200: res(WebhookList, 'WebhookListResponse'), 403: 'Key not allowed', 404: 'Team not found', 422: 'Validation error' },
    handle(ctx, { query, access: partition }) {
      const { page, next_cursor } = listWebhooks({ world: ctx.world, partition: partition }, query.next_cursor, query.limit);
      return reply(200, { data: page.map(webhookView), next_cursor });
    },
  }),

  defineRoute({
    id: 'webhooks.create',
    method: 'POST',
    path: BASE,
    auth: 'management',
    summary: 'Create a webhook endpoint (secret generated unless given; optional whitelabel_headers sandbox extension).',
    request: { params: teamEnvParams, body: createBody },
    access: managedPartition,
    responses: { 200: res(WebhookEndpointWire, 'Webhook'), 403: 'Key not allowed', 404: 'Team not found', 422: 'Validation error' },
    handle(ctx, { body, access: partition }) {
      const ep = createWebhook({ world: ctx.world, partition: partition }, body);
      return reply(200, webhookView(ep));
    },
  }),

  defineRoute({
    id: 'webhooks.get',
    method: 'GET',
    path: `${BASE}/:webhook_id`,
    auth: 'management',
    summary: 'One webhook endpoint.',
    request: { params: webhookParams },
    access: managedPartition,
    responses: { 200: res(WebhookEndpointWire, 'Webhook'), 404: 'Webhook or team not found' },
    handle(ctx, { params, access: partition }) {
      return reply(200, webhookView(managedEndpoint(ctx, partition, params.webhook_id)));
    },
  }),

  defineRoute({
    id: 'webhooks.patch',
    method: 'PATCH',
    path: `${BASE}/:webhook_id`,
    auth: 'management',
    summary: 'Change url, description, disabled, filter_types, rate_limit (and whitelabel_headers). Disabling stops pending attempts.',
    request: { params: webhookParams, body: patchBody },
    access: managedPartition,
    responses: { 200: res(WebhookEndpointWire, 'Webhook'), 404: 'Webhook or team not found', 422: 'Validation error' },
    handle(ctx, { params, body, access: partition }) {
      const ep = patchWebhook(ctx.world, managedEndpoint(ctx, partition, params.webhook_id), body);
      return reply(200, webhookView(ep));
    },
  }),

  defineRoute({
    id: 'webhooks.delete',
    method: 'DELETE',
    path: `${BASE}/:webhook_id`,
    auth: 'management',
    summary: 'Delete a webhook endpoint; its pending attempts stop.',
    request: { params: webhookParams },
    access: managedPartition,
    responses: { 204: 'Deleted', 404: 'Webhook or team not found' },
    handle(ctx, { params, access: partition }) {
      deleteWebhook(ctx.world, managedEndpoint(ctx, partition, params.webhook_id));
      return noContent();
    },
  }),

  defineRoute({
    id: 'webhooks.secret.get',
    method: 'GET',
    path: `${BASE}/:webhook_id/secret`,
    auth: 'management',
    summary: 'The current signing secret ({key}).',
    request: { params: webhookParams },
    access: managedPartition,
    responses: { 200: res(WebhookSecret, 'WebhookSecretResponse'), 404: 'Webhook or team not found' },
    handle(ctx, { params, access: partition }) {
      return reply(200, { key: managedEndpoint(ctx, partition, params.webhook_id).secret });
    },
  }),

  defineRoute({
    id: 'webhooks.secret.rotate',
    method: 'POST',
    path: `${BASE}/:webhook_id/secret/rotate`,
    auth: 'management',
    summary: 'Rotate the signing secret ({key?}; generated when omitted). The old key keeps signing for 24 h of sandbox time.',
    request: { params: webhookParams, body: lazySchema(() => z.object({ key: z.string().nullable().optional() })) },
    access: managedPartition,
    responses: { 204: 'Rotated', 404: 'Webhook or team not found', 422: 'Invalid key' },
    handle(ctx, { params, body, access: partition }) {
      rotateSecret(ctx.world, managedEndpoint(ctx, partition, params.webhook_id), body.key ?? null);
      return noContent();
    },
  }),
];
