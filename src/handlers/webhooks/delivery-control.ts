/**
 * Control plane for webhook delivery (`/_sandbox/webhooks/*`, auth control): every message and
 * every attempt, filterable; resend one message to one endpoint; recover every failed message of
 * an endpoint since a time; the endpoints with their delivery state; and the operational events
 * Svix would send to Vital (failing, exhausted, recovered, endpoint disabled).
 *
 * LIMITATIONS
 * - Resend and recover answer when their attempts have finished (Svix answers 202 and works in
 *   the background); both make manual attempts, which are not retried when they fail.
 * - Listings scan the log in order (indexes only by endpoint and message); fine for a sandbox.
 * - Retention: the log keeps the most recent `retention` messages per team environment (default
 *   5000; finished ones are dropped with their attempts, pending ones never), so a long realtime
 *   run stays bounded. A dropped message answers 404 here and cannot be resent or recovered. The
 *   same number bounds each pipeline stream's records per team environment, each test receiver's
 *   deliveries and the operational events. Like jitter, it resets with the world.
 */
import { z } from 'zod';
import { defineRoute, reply } from '../../engine/route.js';
import { dateOrDateTime, int } from '../../engine/schemas.js';
import { MAX_RETENTION } from '../../state/webhooks/delivery.js';
import { endpointState, listAttempts, listMessages, messageDetail, operationalEvents } from '../../state/webhooks/delivery-views.js';
import { allEndpoints, deliverySettings, recoverEndpoint, resendMessage, updateDeliverySettings } from '../../state/webhooks/rules.js';
import {
  ControlEndpointList,
  DeliveryAttemptPage,
  DeliveryMessageDetail,
  DeliveryMessagePage,
  DeliverySettings,
  OperationalEvents,
  RecoverDone,
  ResendDone,
  res,
} from '../../wire/schemas.js';
import { lazySchema } from '../../engine/lazy-schema.js';

const environment = lazySchema(() => z.enum(['sandbox', 'production']));

export const deliveryControlRoutes = [
  defineRoute({
    id: 'sandbox.webhooks.endpoints',
    method: 'GET',
    path: '/_sandbox/webhooks/endpoints',
    auth: 'control',
    summary: 'Every webhook endpoint with its delivery state (failing_since, disabled_reason, signing key count).',
    request: { query: lazySchema(() => z.object({ team_id: z.string().optional(), environment: environment.optional() })) },
    responses: { 200: res(ControlEndpointList, 'OK') },
    handle(ctx, { query }) {
      return reply(200, { endpoints: allEndpoints(ctx.world, query).map((ep) => endpointState(ctx.world, ep)) });
    },
  }),

  defineRoute({
    id: 'sandbox.webhooks.messages',
    method: 'GET',
    path: '/_sandbox/webhooks/messages',
    auth: 'control',
    summary:
      "Webhook messages, oldest first, with each destination's status; filters team_id, environment, endpoint_id, event_type, status; page with after (seq).",
    request: {
      query: lazySchema(() =>
        z.object({
          team_id: z.string().optional(),
          environment: environment.optional(),
          endpoint_id: z.string().optional(),
          event_type: z.string().optional(),
          status: z.enum(['pending', 'sending', 'success', 'failed']).optional(),
          after: int({ min: 0 }).optional(),
          limit: int({ min: 1, max: 1000 }).default(100),
        }),
      ),
    },
    responses: { 200: res(DeliveryMessagePage, 'OK') },
    handle(ctx, { query }) {
      const { limit, ...filter } = query;
      return reply(200, listMessages(ctx.world, filter, limit));
    },
  }),

  defineRoute({
    id: 'sandbox.webhooks.message',
    method: 'GET',
    path: '/_sandbox/webhooks/messages/:msg_id',
    auth: 'control',
    summary: 'One message with its destinations and every attempt.',
    request: { params: lazySchema(() => z.object({ msg_id: z.string() })) },
    responses: { 200: res(DeliveryMessageDetail, 'OK'), 404: 'Message not found' },
    handle: (ctx, { params }) => reply(200, messageDetail(ctx.world, params.msg_id)),
  }),

  defineRoute({
    id: 'sandbox.webhooks.attempts',
    method: 'GET',
    path: '/_sandbox/webhooks/attempts',
    auth: 'control',
    summary:
      'Delivery attempts, oldest first (request headers and body, response status, headers and first 1 KiB, latency, next attempt time, trigger).',
    request: {
      query: lazySchema(() =>
        z.object({
          team_id: z.string().optional(),
          environment: environment.optional(),
          endpoint_id: z.string().optional(),
          msg_id: z.string().optional(),
          event_type: z.string().optional(),
          status: z.enum(['success', 'failed']).optional(),
          trigger: z.enum(['scheduled', 'manual']).optional(),
          after: int({ min: 0 }).optional(),
          limit: int({ min: 1, max: 1000 }).default(100),
        }),
      ),
    },
    responses: { 200: res(DeliveryAttemptPage, 'OK') },
    handle(ctx, { query }) {
      const { limit, ...filter } = query;
      return reply(200, listAttempts(ctx.world, filter, limit));
    },
  }),

  defineRoute({
    id: 'sandbox.webhooks.resend',
    method: 'POST',
    path: '/_sandbox/webhooks/messages/:msg_id/endpoints/:endpoint_id/resend',
    auth: 'control',
    summary:
      'Re-deliver one message to one endpoint now: same msg id, fresh timestamp and signature; a failed manual attempt is not retried. Answers the attempt.',
    request: { params: lazySchema(() => z.object({ msg_id: z.string(), endpoint_id: z.string() })) },
    responses: { 200: res(ResendDone, '{attempt}'), 404: 'Message or endpoint not found', 409: 'Endpoint disabled' },
    async handle(ctx, { params }) {
      const attempt = await resendMessage(ctx.world, params.msg_id, params.endpoint_id);
      return reply(200, { attempt });
    },
  }),

  defineRoute({
    id: 'sandbox.webhooks.recover',
    method: 'POST',
    path: '/_sandbox/webhooks/endpoints/:endpoint_id/recover',
    auth: 'control',
    summary:
      'Re-deliver every failed message of an endpoint created in [since, until) (until defaults to now; at most 14 days back), oldest first.',
    request: {
      params: lazySchema(() => z.object({ endpoint_id: z.string() })),
      // The /docs page shows a window it accepts: until after since.
      body: lazySchema(() =>
        z.object({ since: dateOrDateTime('start'), until: dateOrDateTime('start').meta({ example: '2026-01-06' }).nullish() }),
      ),
    },
    responses: { 200: res(RecoverDone, '{recovered, attempts}'), 404: 'Endpoint not found', 409: 'Endpoint disabled', 422: 'Bad window' },
    async handle(ctx, { params, body }) {
      const attempts = await recoverEndpoint(ctx.world, params.endpoint_id, body.since, body.until ?? null);
      return reply(200, { recovered: attempts.length, attempts });
    },
  }),

  defineRoute({
    id: 'sandbox.webhooks.settings.get',
    method: 'GET',
    path: '/_sandbox/webhooks/settings',
    auth: 'control',
    summary: 'Delivery settings: {jitter, retention, evicted}.',
    responses: { 200: res(DeliverySettings, 'OK') },
    handle(ctx) {
      return reply(200, deliverySettings(ctx.world));
    },
  }),

  defineRoute({
    id: 'sandbox.webhooks.settings',
    method: 'PUT',
    path: '/_sandbox/webhooks/settings',
    auth: 'control',
    summary:
      "Delivery settings: {jitter} turns Svix's +-20% retry jitter on (seeded, reproducible) or off (the default: exact delays); {retention} is how many messages (and pipeline records, receiver deliveries) are kept per team environment (default 5000).",
    request: {
      body: lazySchema(() => z.object({ jitter: z.boolean().optional(), retention: int({ min: 1, max: MAX_RETENTION }).optional() })),
    },
    responses: { 200: res(DeliverySettings, 'OK') },
    handle(ctx, { body }) {
      updateDeliverySettings(ctx.world, body);
      return reply(200, deliverySettings(ctx.world));
    },
  }),

  defineRoute({
    id: 'sandbox.webhooks.operational',
    method: 'GET',
    path: '/_sandbox/webhooks/operational-events',
    auth: 'control',
    summary: 'What Svix would tell Vital: message.attempt.failing / exhausted / recovered, endpoint.disabled.',
    request: { query: lazySchema(() => z.object({ endpoint_id: z.string().optional(), type: z.string().optional() })) },
    responses: { 200: res(OperationalEvents, 'OK') },
    handle: (ctx, { query }) => reply(200, { events: operationalEvents(ctx.world, query) }),
  }),
];
