/**
 * The wearables area (issue 3): providers, connections, historical pulls, summaries,
 * timeseries, introspection and their sandbox controls. `install` wires the user hooks
 * (connected sources, deregistration on deletion, purge) and starts the periodic feed;
 * `seed` gives seeded users their connections.
 */
import type { Area } from '../../engine/area.js';
import { seedWearables } from '../../state/wearables/seed.js';
import { connectionRoutes } from './connections.js';
import { introspectRoutes } from './introspect.js';
import { providerRoutes } from './providers.js';
import { profileRoutes } from './profile.js';
import { summaryRoutes } from './summaries.js';
import { timeseriesRoutes } from './timeseries.js';
import { labTimeseriesRoutes } from './timeseries-labs.js';
import { wearablesControlRoutes } from './control.js';
import { connectedSources, wearablesOf } from '../../state/wearables/connections.js';
import { purgeUserWearables } from '../../state/wearables/operations.js';
import { startFeed } from '../../state/wearables/wearable-feed.js';
import { onLabOrderEvent } from '../../state/wearables/lab-events.js';
import { deregisterAll } from '../../state/wearables/wearable-link.js';

export const wearablesArea: Area = {
  name: 'wearables',
  routes: [
    ...providerRoutes,
    ...connectionRoutes,
    ...summaryRoutes,
    ...timeseriesRoutes,
    ...labTimeseriesRoutes,
    ...introspectRoutes,
    ...wearablesControlRoutes,
    ...profileRoutes,
  ],
  install(world) {
    world.hooks.connectedSources = (partition, userId) => connectedSources({ world, partition }, userId);
    // Looked up at each call: a world loaded from its saved state gets its stores after install.
    world.hooks.connectedSourcesVersion = () => wearablesOf(world).sourcesEpoch;
    world.hooks.userDeleted.add((partition, userId) => deregisterAll({ world, partition }, userId));
    world.hooks.userPurged.add((_partition, userId) => purgeUserWearables(world, userId));
    startFeed(world);
    // Lab-derived timeseries events follow the labs area's order events.
    world.events.subscribe((entry, partition) => onLabOrderEvent({ world, partition }, entry));
  },
  seed: seedWearables,
};
