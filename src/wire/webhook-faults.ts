/** Webhook delivery faults (`/_sandbox/faults/webhooks`, src/state/sandbox/faults-webhooks.ts). */
import { z } from 'zod';
import { lazySchema } from '../engine/lazy-schema.js';

export const WebhookFaultView = lazySchema(() =>
  z.object({
    id: z.string(),
    fault: z.enum(['duplicate', 'out_of_order', 'delayed', 'stale_timestamp']),
    endpoint_id: z.string().nullable(),
    event_type: z.string().nullable(),
    seconds: z.number().int().nullable(),
    times: z.number().int(),
    remaining: z.number().int().describe('Messages still to fault'),
    fired: z.number().int().describe('Messages faulted so far'),
  }),
);

export const WebhookFaultList = lazySchema(() => z.object({ faults: z.array(WebhookFaultView) }));
