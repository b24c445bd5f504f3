/**
 * The webhooks area (issue 6): webhook management, headers and secrets; signed delivery with
 * retries and its control plane; the test receiver; ETL pipelines and their streams.
 * `install` subscribes delivery and pipelines to the world's event bus, and drops a deleted
 * team's endpoints (stopping their pending attempts) and pipelines.
 */
import type { Area } from './area.js';
import { deliveryControlRoutes } from './handlers/delivery-control.js';
import { pipelineControlRoutes, pipelineRoutes } from './handlers/pipelines.js';
import { receiverRoutes } from './handlers/receiver.js';
import { webhookHeaderRoutes } from './handlers/webhook-headers.js';
import { webhookRoutes } from './handlers/webhooks.js';
import { deliveryOf } from './state/delivery.js';
import { pipelinesOf } from './state/pipelines.js';
import { webhooksOf } from './state/webhooks.js';

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
    world.tenancy.teamDeleted.add((team) => {
      // The team's keys and partitions are gone: nothing new reaches its endpoints, and what was
      // still pending (first attempts in flight, retries on the clock) stops now.
      for (const ep of webhooksOf(world).dropTeam(team.id)) delivery.stopPending(ep.id, 'team_deleted');
      pipelines.dropTeam(team.id);
    });
  },
};
