/**
 * The webhooks area (issue 6): webhook management, headers and secrets; signed delivery with
 * retries and its control plane; the test receiver; ETL pipelines and their streams.
 * `install` wires the webhooks domain's subscription to the world's event bus
 * (src/state/webhooks/subscription.ts).
 */
import type { Area } from '../../engine/area.js';
import { deliveryControlRoutes } from './delivery-control.js';
import { pipelineControlRoutes, pipelineRoutes } from './pipelines.js';
import { receiverRoutes } from './receiver.js';
import { webhookHeaderRoutes } from './headers.js';
import { webhookRoutes } from './webhooks.js';
import { subscribeWebhooks } from '../../state/webhooks/subscription.js';

export const webhooksArea: Area = {
  name: 'webhooks',
  routes: [
    ...webhookRoutes,
    ...webhookHeaderRoutes,
    ...pipelineRoutes,
    ...deliveryControlRoutes,
    ...receiverRoutes,
    ...pipelineControlRoutes,
  ],
  install: subscribeWebhooks,
};
