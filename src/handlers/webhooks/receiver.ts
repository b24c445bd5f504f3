/**
 * A test webhook receiver inside the sandbox: point an endpoint at
 * `<base_url>/_sandbox/receiver/<name>` and every delivery is recorded and verified (the svix
 * way: svix-* or webhook-* headers, 5-minute tolerance, any listed signature) against the current
 * keys of the endpoints whose URL points at that receiver. It answers with a configurable status,
 * so failures and retries can be staged without writing a server.
 *
 * Auth: POST needs none (deliveries carry no admin token); GET, PUT and DELETE are control plane.
 *
 * LIMITATIONS
 * - Verification only knows endpoints of this sandbox; a delivery from elsewhere reads unverified.
 * - Deliveries are kept in memory until the receiver is cleared or the world reset, at most the
 *   most recent `retention` per receiver (`PUT /_sandbox/webhooks/settings`, default 5000).
 */
import { z } from 'zod';
import { json, noContent, type Reply } from '../../engine/http-types.js';
import { defineRoute, reply } from '../../engine/route.js';
import { int, withRules } from '../../engine/schemas.js';
import { clearReceiver, configureReceiver, receiverHeadersRule } from '../../state/webhooks/rules.js';
import { receiveDelivery, receiverDeliveries } from '../../state/webhooks/webhook-receiver.js';
import { JsonObject, ReceiverConfigured, ReceiverState, res } from '../../wire/schemas.js';
import { lazySchema } from '../../engine/lazy-schema.js';

const nameParams = lazySchema(() => z.object({ name: z.string().regex(/^[A-Za-z0-9._~-]{1,100}$/) }));

export const receiverRoutes = [
  defineRoute({
    id: 'sandbox.receiver.receive',
    method: 'POST',
    path: '/_sandbox/receiver/:name',
    auth: 'none',
    summary: 'Test receiver: records and verifies a delivery, answers the configured status.',
    request: { params: nameParams },
    responses: {
      200: res(JsonObject, 'The configured answer: 200 {ok: true} unless PUT /_sandbox/receiver/:name set another status and JSON body'),
    },
    handle(ctx, { params }): Reply {
      const config = receiveDelivery(ctx.world, params.name, ctx.request.headers, ctx.request.rawBody);
      const headers: Record<string, string> = { ...config.headers };
      if (config.retry_after !== null) headers['retry-after'] = config.retry_after;
      if (config.body === null || config.status === 204 || config.status === 304) return { status: config.status, headers };
      // The status and body the test's PUT configured (any status, any JSON): not declarable per status, so unchecked.
      return json(config.body, config.status, headers);
    },
  }),

  defineRoute({
    id: 'sandbox.receiver.get',
    method: 'GET',
    path: '/_sandbox/receiver/:name',
    auth: 'control',
    summary: 'What the test receiver got, oldest first, each with verified true/false; and its configuration.',
    request: { params: nameParams, query: lazySchema(() => z.object({ after: int({ min: 0 }).optional() })) },
    responses: { 200: res(ReceiverState, 'OK') },
    handle(ctx, { params, query }) {
      const { receiver: r, deliveries } = receiverDeliveries(ctx.world, params.name, query.after ?? 0);
      return reply(200, {
        name: r.name,
        url: `${ctx.world.urls.base}/_sandbox/receiver/${encodeURIComponent(r.name)}`,
        config: r.config,
        count: deliveries.length,
        deliveries,
      });
    },
  }),

  defineRoute({
    id: 'sandbox.receiver.configure',
    method: 'PUT',
    path: '/_sandbox/receiver/:name',
    auth: 'control',
    summary:
      'Sets what the receiver answers: {status, body?, retry_after?, headers?, times?} (defaults 200, {"ok":true}; times: only the next N deliveries, then 200).',
    request: {
      params: nameParams,
      body: lazySchema(() =>
        withRules(
          z.object({
            status: int({ min: 200, max: 599 }),
            body: z.unknown().optional(),
            retry_after: z.union([int({ min: 0 }), z.string()]).nullish(),
            headers: z.record(z.string(), z.string()).optional(),
            times: int({ min: 1, max: 1000 }).optional(),
          }),
          receiverHeadersRule,
        ),
      ),
    },
    responses: { 200: res(ReceiverConfigured, 'OK') },
    handle(ctx, { params, body }) {
      const r = configureReceiver(ctx.world, params.name, body);
      return reply(200, { name: r.name, config: r.config });
    },
  }),

  defineRoute({
    id: 'sandbox.receiver.clear',
    method: 'DELETE',
    path: '/_sandbox/receiver/:name',
    auth: 'control',
    summary: 'Forgets what the receiver got and resets its configuration.',
    request: { params: nameParams },
    responses: { 204: 'OK' },
    handle(ctx, { params }) {
      clearReceiver(ctx.world, params.name);
      return noContent();
    },
  }),
];
