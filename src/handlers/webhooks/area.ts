/**
 * The webhooks area (issue 6): webhook management, headers and secrets; signed delivery with
 * retries and its control plane; the test receiver; ETL pipelines and their streams.
 * `install` subscribes delivery and pipelines to the world's event bus, and drops a deleted
 * team's endpoints (stopping their pending attempts) and pipelines.
 */
import type { Area } from '../../engine/area.js';
import { deliveryControlRoutes } from './delivery-control.js';
import { pipelineControlRoutes, pipelineRoutes } from './pipelines.js';
import { receiverRoutes } from './receiver.js';
import { webhookHeaderRoutes } from './headers.js';
import { webhookRoutes } from './webhooks.js';
import { deliveryOf } from '../../state/webhooks/delivery.js';
import { pipelinesOf } from '../../state/webhooks/pipelines.js';
import { webhooksOf } from '../../state/webhooks/webhooks.js';

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
  install(world) {
    const delivery = deliveryOf(world);
    const pipelines = pipelinesOf(world);
    world.events.subscribe((entry, partition) => {
      delivery.onEvent(entry, partition);
      pipelines.onEvent(entry, partition);
    });
    const store = webhooksOf(world);
    world.events.watch(
      (partition, prefix) =>
        (pipelines.svixEnabled(partition.team.id, partition.environment) &&
          store
            .list(partition.id)
            .some((ep) => !ep.disabled && (ep.filter_types === null || ep.filter_types.some((t) => t.startsWith(prefix))))) ||
        pipelines.listens(partition, prefix),
    );
    world.tenancy.teamDeleted.add((team) => {
      // The team's keys and partitions are gone: nothing new reaches its endpoints, and what was
      // still pending (first attempts in flight, retries on the clock) stops now.
      for (const ep of webhooksOf(world).dropTeam(team.id)) delivery.stopPending(ep.id, 'team_deleted');
      pipelines.dropTeam(team.id);
    });
  },
};
