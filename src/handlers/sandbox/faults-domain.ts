/**
 * Domain faults on the control plane (issue 28): the world moved the way the real service moves
 * it when something goes wrong, with its webhooks.
 *
 * - `POST /_sandbox/orders/:order_id/fault` `{fault}`: a lab fault (src/state/sandbox/faults-labs.ts);
 * - `POST /_sandbox/providers/:provider/outage` `{seconds | duration}`: a provider outage from now
 *   (src/state/sandbox/faults-providers.ts);
 * - `POST /_sandbox/faults/webhooks` `{fault, endpoint_id?, event_type?, seconds?, times?}`, `GET`,
 *   `DELETE`: webhook delivery faults (src/state/sandbox/faults-webhooks.ts).
 *
 * A connection error is `POST /_sandbox/connections/:user_id/:provider/error`, a failing
 * historical pull `POST /_sandbox/historical_pulls/:user_id/:provider` (wearables control).
 */
import { z } from 'zod';
import { parseDuration } from '../../engine/duration.js';
import { defineRoute, reply } from '../../engine/route.js';
import { num, uuid, withRules } from '../../engine/schemas.js';
import { MAX_ADVANCE_SECONDS } from '../../state/sandbox/errors.js';
import { applyLabFault, LAB_FAULTS } from '../../state/sandbox/faults-labs.js';
import { startOutage } from '../../state/sandbox/faults-providers.js';
import { addWebhookFault, clearWebhookFaults, listWebhookFaults, webhookFaultBody } from '../../state/sandbox/faults-webhooks.js';
import { noteFaultKind } from '../../state/sandbox/report-counters.js';
import { WebhookFaultList, WebhookFaultView } from '../../wire/webhook-faults.js';
import { FaultsCleared, LabFaultApplied, ProviderOutage, res } from '../../wire/schemas.js';
import { lazySchema } from '../../engine/lazy-schema.js';

const OUTAGE_TEXTS = {
  oneAmount: 'Give exactly one of seconds or duration (90s, 15m, 2h, 3d or ISO 8601 such as P1DT2H)',
  badDuration: 'Invalid duration: 90s, 15m, 2h, 3d or ISO 8601 such as P1DT2H, at most 366 days',
} as const;

const outageBody = lazySchema(() =>
  withRules(z.object({ seconds: num({ min: 1, max: MAX_ADVANCE_SECONDS }).optional(), duration: z.string().optional() }).strict(), (b) => {
    if ((b.seconds === undefined) === (b.duration === undefined)) return { message: OUTAGE_TEXTS.oneAmount };
    if (b.duration !== undefined) {
      const s = parseDuration(b.duration);
      if (s === null || !(s > 0 && s <= MAX_ADVANCE_SECONDS))
        return { path: ['duration'], message: OUTAGE_TEXTS.badDuration, input: b.duration };
    }
    return null;
  }),
);

export const domainFaultRoutes = [
  defineRoute({
    id: 'sandbox.faults.order',
    method: 'POST',
    path: '/_sandbox/orders/:order_id/fault',
    auth: 'control',
    summary:
      'A lab fault on an order: sample_rejected, draw_failed, cancelled_by_lab, requisition_failed, partial_then_corrected, critical_result or appointment_cancelled.',
    request: {
      params: lazySchema(() => z.object({ order_id: uuid() })),
      body: lazySchema(() => z.object({ fault: z.enum(LAB_FAULTS) }).strict()),
    },
    responses: {
      200: res(LabFaultApplied, '{order_id, fault, status}'),
      400: 'No booked appointment to cancel',
      404: 'Unknown order, or no appointment',
      409: 'The order is past the point where the fault can happen',
    },
    handle(ctx, { params, body }) {
      const applied = applyLabFault(ctx.world, params.order_id, body.fault);
      noteFaultKind(ctx.world, `lab:${body.fault}`);
      return reply(200, applied);
    },
  }),

  defineRoute({
    id: 'sandbox.faults.outage',
    method: 'POST',
    path: '/_sandbox/providers/:provider/outage',
    auth: 'control',
    summary: 'A provider outage from now for {seconds} or {duration}: its historical pulls retry until it ends, then catch up.',
    request: { params: lazySchema(() => z.object({ provider: z.string() })), body: outageBody },
    responses: { 200: res(ProviderOutage, '{provider, starts_at, ends_at, connections_affected}'), 404: 'Unknown provider' },
    handle(ctx, { params, body }) {
      const seconds = body.seconds ?? (parseDuration(body.duration ?? '') as number);
      const outage = startOutage(ctx.world, params.provider, seconds);
      noteFaultKind(ctx.world, 'provider_outage');
      return reply(200, outage);
    },
  }),

  defineRoute({
    id: 'sandbox.faults.webhooks.add',
    method: 'POST',
    path: '/_sandbox/faults/webhooks',
    auth: 'control',
    summary:
      'A webhook delivery fault for the next {times} messages to matching endpoints: duplicate, out_of_order, delayed ({seconds}) or stale_timestamp.',
    request: { body: webhookFaultBody },
    responses: { 200: res(WebhookFaultView, 'The rule with its id'), 422: 'A bad rule: the field is named' },
    handle: (ctx, { body }) => reply(200, addWebhookFault(ctx.world, body)),
  }),

  defineRoute({
    id: 'sandbox.faults.webhooks.list',
    method: 'GET',
    path: '/_sandbox/faults/webhooks',
    auth: 'control',
    summary: 'The webhook delivery faults still to apply, in the order they are tried.',
    responses: { 200: res(WebhookFaultList, '{faults}') },
    handle: (ctx) => reply(200, { faults: listWebhookFaults(ctx.world) }),
  }),

  defineRoute({
    id: 'sandbox.faults.webhooks.clear',
    method: 'DELETE',
    path: '/_sandbox/faults/webhooks',
    auth: 'control',
    summary: 'Removes every webhook delivery fault.',
    responses: { 200: res(FaultsCleared, '{removed}') },
    handle: (ctx) => reply(200, { removed: clearWebhookFaults(ctx.world) }),
  }),
];
