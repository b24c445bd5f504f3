/**
 * The aggregate area (issue 14, aggregate queries; issue 15, continuous queries): the query
 * engine over the generated wearable data and the continuous-query reads. Continuous queries
 * are created through the management area; their runs are scheduled by
 * `src/state/aggregate/runner.ts` when created. `install` forgets a purged user's runs.
 */
import type { Area } from '../../engine/area.js';
import { forgetUser } from '../../state/aggregate/runner.js';
import { aggregateRoutes } from './routes.js';

export const aggregateArea: Area = {
  name: 'aggregate',
  routes: aggregateRoutes,
  install(world) {
    world.hooks.userPurged.add((_partition, userId) => forgetUser(world, userId));
  },
};
