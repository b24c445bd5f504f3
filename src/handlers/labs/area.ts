/** The lab testing area (issue 4): catalogue, orders on the clock, results, payors. */
import type { Area } from '../../engine/area.js';
import { seedLabWorld } from '../../state/labs/seed.js';
import { appointmentRoutes } from './appointments.js';
import { appointmentRequestRoutes } from './appointment-requests.js';
import { compendiumRoutes } from './compendium.js';
import { unmatchedRoutes } from './unmatched.js';
import { labReportRoutes } from './lab-report.js';
import { insuranceRoutes } from './insurance.js';
import { labLocationRoutes } from './lab-locations.js';
import { labControlRoutes } from './control.js';
import { labTestRoutes } from './lab-tests.js';
import { orderListRoutes } from './order-list.js';
import { orderResultRoutes } from './order-results.js';
import { orderActionRoutes } from './order-actions.js';
import { orderCreateRoutes } from './order-create.js';
import { orderDocumentRoutes } from './order-documents.js';
import { orderImportRoutes } from './order-import.js';
import { orderTransactionRoutes } from './order-transactions.js';
import { ordersOf } from '../../state/labs/order-store.js';

export const labsArea: Area = {
  name: 'labs',
  routes: [
    ...labTestRoutes,
    ...orderCreateRoutes,
    ...orderImportRoutes,
    ...orderActionRoutes,
    ...orderListRoutes,
    ...orderResultRoutes,
    ...orderDocumentRoutes,
    ...orderTransactionRoutes,
    ...appointmentRoutes,
    ...appointmentRequestRoutes,
    ...labLocationRoutes,
    ...insuranceRoutes,
    ...compendiumRoutes,
    ...unmatchedRoutes,
    ...labReportRoutes,
    ...labControlRoutes,
  ],
  install(world) {
    world.hooks.userPurged.add((partition, userId) => ordersOf({ world, partition }).removeUser(userId));
  },
  seed: seedLabWorld,
};
