/**
 * Webhook management (management API, May 2025; api-facts A.15; management OpenAPI `Webhook`,
 * `CreateWebhookBody`, `PatchWebhookBody`, `WebhookSecretResponse`, `RotateWebhookSecretBody`):
 * create, list, get, patch and delete the Svix endpoints of a team environment; read and rotate
 * their signing secret. Deliveries to these endpoints are `src/state/delivery.ts`.
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
import { valueError, notFound } from '../../engine/errors.js';
import { json, noContent } from '../../engine/http-types.js';
import { requireTeam } from '../../state/management/access.js';
import { defineRoute, type Ctx } from '../../engine/route.js';
import { int, uuid } from '../../engine/schemas.js';
import { deliveryOf } from '../../state/webhooks/delivery.js';
import { normaliseSecret } from '../../state/webhooks/signing.js';
import type { Environment, Partition } from '../../engine/tenancy.js';
import { webhooksOf, webhookView, type WebhookEndpoint } from '../../state/webhooks/webhooks.js';

export const WEBHOOK_MESSAGES = {
  notFound: 'Webhook not found',
  badCursor: 'Unknown next_cursor: pass a value returned by a previous page',
} as const;

const BASE = '/v1/org/:org_id/team/:team_id/:environment/webhook';
const EVENT_TYPE = /^[a-zA-Z0-9\-_.]+$/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

export const teamEnvParams = z.object({
  org_id: uuid(),
  team_id: uuid(),
  environment: z.enum(['production', 'sandbox']),
});
export const webhookParams = teamEnvParams.extend({ webhook_id: z.string() });

type TeamEnv = z.output<typeof teamEnvParams>;

/** The team environment a management call acts on (access rules first). */
export function managedPartition(ctx: Ctx, params: TeamEnv): Partition {
  const team = requireTeam(ctx, params.org_id, params.team_id);
  return ctx.world.tenancy.partition(team, params.environment as Environment);
}

/** The endpoint named in the path, within the caller's team environment. */
export function managedEndpoint(ctx: Ctx, params: z.output<typeof webhookParams>): WebhookEndpoint {
  const partition = managedPartition(ctx, params);
  const ep = webhooksOf(ctx.world).get(partition, params.webhook_id);
  if (!ep) throw notFound(WEBHOOK_MESSAGES.notFound);
  return ep;
}

function checkUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw valueError(['body', 'url'], 'Endpoint URLs must be valid', url);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw valueError(['body', 'url'], 'Endpoint URL schemes must be http or https', url);
  return url;
}

function checkDescription(description: string): string {
  if (CONTROL.test(description)) throw valueError(['body', 'description'], 'Control characters are not allowed', description);
  return description;
}

function checkRateLimit(rateLimit: number | null): number | null {
  if (rateLimit !== null && (rateLimit < 1 || rateLimit > 65535)) {
    throw valueError(['body', 'rate_limit'], 'Endpoint rate limits must be between 1 and 65535 if set', rateLimit);
  }
  return rateLimit;
}

function checkFilterTypes(types: string[] | null): string[] | null {
  if (types === null) return null;
  if (types.length === 0) throw valueError(['body', 'filter_types'], "filter_types can't be empty: give at least one event type, or null for all", types);
  types.forEach((t, i) => {
    if (t.length === 0 || t.length > 256 || !EVENT_TYPE.test(t)) {
      throw valueError(['body', 'filter_types', i], 'Event types are 1 to 256 characters of [a-zA-Z0-9-_.]', t);
    }
  });
  return [...new Set(types)];
}

function checkSecret(secret: string, field: string): string {
  const result = normaliseSecret(secret);
  if ('error' in result) throw valueError(['body', field], result.error, secret);
  return result.key;
}

const createBody = z.object({
  url: z.string(),
  description: z.string().default(''),
  rate_limit: int().nullable().optional(),
  disabled: z.boolean().default(false),
  filter_types: z.array(z.string()).nullable().optional(),
  secret: z.string().nullable().optional(),
  whitelabel_headers: z.boolean().optional(),
});

const patchBody = z.object({
  description: z.string().nullable().optional(),
  rate_limit: int().nullable().optional(),
  url: z.string().nullable().optional(),
  disabled: z.boolean().nullable().optional(),
  filter_types: z.array(z.string()).nullable().optional(),
  whitelabel_headers: z.boolean().optional(),
});

export const webhookRoutes = [
  defineRoute({
    id: 'webhooks.list',
    method: 'GET',
    path: BASE,
    auth: 'management',
    summary: 'List the webhook endpoints of a team environment, oldest first ({data, next_cursor}).',
    request: {
      params: teamEnvParams,
      query: z.object({ next_cursor: z.string().optional(), limit: int({ min: 1, max: 250 }).default(50) }),
    },
    responses: { 200: 'WebhookListResponse', 403: 'Key not allowed', 404: 'Team not found', 422: 'Validation error' },
    handle(ctx, { params, query }) {
      const partition = managedPartition(ctx, params);
      const all = webhooksOf(ctx.world).list(partition.id);
      let start = 0;
      if (query.next_cursor !== undefined && query.next_cursor !== '') {
        const i = all.findIndex((ep) => ep.id === query.next_cursor);
        if (i < 0) throw valueError(['query', 'next_cursor'], WEBHOOK_MESSAGES.badCursor, query.next_cursor);
        start = i + 1;
      }
      const page = all.slice(start, start + query.limit);
      const more = start + page.length < all.length;
      return json({ data: page.map(webhookView), next_cursor: more && page.length > 0 ? (page[page.length - 1] as WebhookEndpoint).id : null });
    },
  }),

  defineRoute({
    id: 'webhooks.create',
    method: 'POST',
    path: BASE,
    auth: 'management',
    summary: 'Create a webhook endpoint (secret generated unless given; optional whitelabel_headers sandbox extension).',
    request: { params: teamEnvParams, body: createBody },
    responses: { 200: 'Webhook', 403: 'Key not allowed', 404: 'Team not found', 422: 'Validation error' },
    handle(ctx, { params, body }) {
      const partition = managedPartition(ctx, params);
      const input = {
        url: checkUrl(body.url),
        description: checkDescription(body.description),
        rate_limit: checkRateLimit(body.rate_limit ?? null),
        disabled: body.disabled,
        filter_types: checkFilterTypes(body.filter_types ?? null),
        whitelabel_headers: body.whitelabel_headers ?? false,
        secret: body.secret === undefined || body.secret === null ? null : checkSecret(body.secret, 'secret'),
      };
      const ep = webhooksOf(ctx.world).create(partition, input);
      return json(webhookView(ep));
    },
  }),

  defineRoute({
    id: 'webhooks.get',
    method: 'GET',
    path: `${BASE}/:webhook_id`,
    auth: 'management',
    summary: 'One webhook endpoint.',
    request: { params: webhookParams },
    responses: { 200: 'Webhook', 404: 'Webhook or team not found' },
    handle(ctx, { params }) {
      return json(webhookView(managedEndpoint(ctx, params)));
    },
  }),

  defineRoute({
    id: 'webhooks.patch',
    method: 'PATCH',
    path: `${BASE}/:webhook_id`,
    auth: 'management',
    summary: 'Change url, description, disabled, filter_types, rate_limit (and whitelabel_headers). Disabling stops pending attempts.',
    request: { params: webhookParams, body: patchBody },
    responses: { 200: 'Webhook', 404: 'Webhook or team not found', 422: 'Validation error' },
    handle(ctx, { params, body }) {
      const ep = managedEndpoint(ctx, params);
      // Validate everything first: nothing changes on a 4xx.
      const url = body.url === undefined || body.url === null ? undefined : checkUrl(body.url);
      const description = body.description === undefined || body.description === null ? undefined : checkDescription(body.description);
      const rateLimit = body.rate_limit === undefined ? undefined : checkRateLimit(body.rate_limit);
      const filterTypes = body.filter_types === undefined ? undefined : checkFilterTypes(body.filter_types);
      const store = webhooksOf(ctx.world);
      if (url !== undefined && url !== ep.url) store.setUrl(ep, url);
      if (description !== undefined) ep.description = description;
      if (rateLimit !== undefined) ep.rate_limit = rateLimit;
      if (filterTypes !== undefined) ep.filter_types = filterTypes;
      if (body.whitelabel_headers !== undefined) ep.whitelabel_headers = body.whitelabel_headers;
      if (body.disabled === true && !ep.disabled) {
        ep.disabled = true;
        ep.disabled_reason = null;
        deliveryOf(ctx.world).stopPending(ep.id, 'endpoint_disabled');
      } else if (body.disabled === false && ep.disabled) {
        ep.disabled = false;
        ep.disabled_reason = null;
        ep.failing_since = null;
      }
      ep.updated_at = ctx.iso();
      return json(webhookView(ep));
    },
  }),

  defineRoute({
    id: 'webhooks.delete',
    method: 'DELETE',
    path: `${BASE}/:webhook_id`,
    auth: 'management',
    summary: 'Delete a webhook endpoint; its pending attempts stop.',
    request: { params: webhookParams },
    responses: { 204: 'Deleted', 404: 'Webhook or team not found' },
    handle(ctx, { params }) {
      const ep = managedEndpoint(ctx, params);
      webhooksOf(ctx.world).delete(ep);
      deliveryOf(ctx.world).stopPending(ep.id, 'endpoint_deleted');
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
    responses: { 200: 'WebhookSecretResponse', 404: 'Webhook or team not found' },
    handle(ctx, { params }) {
      return json({ key: managedEndpoint(ctx, params).secret });
    },
  }),

  defineRoute({
    id: 'webhooks.secret.rotate',
    method: 'POST',
    path: `${BASE}/:webhook_id/secret/rotate`,
    auth: 'management',
    summary: 'Rotate the signing secret ({key?}; generated when omitted). The old key keeps signing for 24 h of sandbox time.',
    request: { params: webhookParams, body: z.object({ key: z.string().nullable().optional() }) },
    responses: { 204: 'Rotated', 404: 'Webhook or team not found', 422: 'Invalid key' },
    handle(ctx, { params, body }) {
      const ep = managedEndpoint(ctx, params);
      const next = body.key === undefined || body.key === null ? null : checkSecret(body.key, 'key');
      webhooksOf(ctx.world).rotate(ep, next);
      return noContent();
    },
  }),
];
