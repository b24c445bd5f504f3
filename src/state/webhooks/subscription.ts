/**
 * The webhooks domain's subscription to a world's event bus: delivery and pipelines receive every
 * event in emission order; the bus asks whether an enabled endpoint or a pipeline listens for a
 * prefix; a deleted team's endpoints are dropped (their pending attempts stopped) with its pipelines.
 */
import type { World } from '../../engine/world.js';
import { deliveryOf } from './delivery.js';
import { pipelinesOf } from './pipelines.js';
import { webhooksOf } from './webhooks.js';

/** Subscribes webhook delivery and pipelines to `world` (the webhooks area's `install`). */
export function subscribeWebhooks(world: World): void {
  // The stores are looked up at each call: a world loaded from its saved state gets them after install.
  world.events.subscribe((entry, partition) => {
    deliveryOf(world).onEvent(entry, partition);
    pipelinesOf(world).onEvent(entry, partition);
  });
  world.events.watch(
    (partition, prefix) =>
      (pipelinesOf(world).svixEnabled(partition.team.id, partition.environment) &&
        webhooksOf(world)
          .list(partition.id)
          .some((ep) => !ep.disabled && (ep.filter_types === null || ep.filter_types.some((t) => t.startsWith(prefix))))) ||
      pipelinesOf(world).listens(partition, prefix),
  );
  world.tenancy.teamDeleted.add((team) => {
    // The team's keys and partitions are gone: nothing new reaches its endpoints, and what was
    // still pending (first attempts in flight, retries on the clock) stops now.
    for (const ep of webhooksOf(world).dropTeam(team.id)) deliveryOf(world).stopPending(ep.id, 'team_deleted');
    pipelinesOf(world).dropTeam(team.id);
  });
}
