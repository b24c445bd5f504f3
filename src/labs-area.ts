/** The lab testing area (issue 4): catalogue, orders on the clock, results, payors. */
import type { Area } from './area.js';
import { seedLabWorld } from './fixtures/lab-world.js';
import { insuranceRoutes } from './handlers/insurance.js';
import { labControlRoutes } from './handlers/lab-control.js';
import { labTestRoutes } from './handlers/lab-tests.js';
import { orderListRoutes } from './handlers/order-list.js';
import { orderResultRoutes } from './handlers/order-results.js';
import { orderRoutes } from './handlers/orders.js';
import { ordersOf } from './state/orders.js';

export const labsArea: Area = {
  name: 'labs',
  routes: [...labTestRoutes, ...orderRoutes, ...orderListRoutes, ...orderResultRoutes, ...insuranceRoutes, ...labControlRoutes],
  install(world) {
    world.hooks.userPurged.add((partition, userId) => ordersOf(partition, world).removeUser(userId));
  },
  seed: seedLabWorld,
};
