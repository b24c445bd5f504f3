/**
 * The webhooks area (issue 6): webhook management, headers and secrets; signed delivery with
 * retries and its control plane; the test receiver; ETL pipelines and their streams.
 * `install` subscribes delivery and pipelines to the world's event bus.
 */
import type { Area } from './area.js';
import { deliveryControlRoutes } from './handlers/delivery-control.js';
import { pipelineControlRoutes, pipelineRoutes } from './handlers/pipelines.js';
import { receiverRoutes } from './handlers/receiver.js';
import { webhookHeaderRoutes } from './handlers/webhook-headers.js';
import { webhookRoutes } from './handlers/webhooks.js';
import { deliveryOf } from './state/delivery.js';
import { pipelinesOf } from './state/pipelines.js';

export const webhooksArea: Area = {
  name: 'webhooks',
  routes: [...webhookRoutes, ...webhookHeaderRoutes, ...pipelineRoutes, ...deliveryControlRoutes, ...receiverRoutes, ...pipelineControlRoutes],
  install(world) {
    const delivery = deliveryOf(world);
    const pipelines = pipelinesOf(world);
    world.events.subscribe((entry, partition) => {
      delivery.onEvent(entry, partition);
      pipelines.onEvent(entry, partition);
    });
  },
};
