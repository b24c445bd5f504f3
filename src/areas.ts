/**
 * The single list of API areas, in seeding order. The route table (`routes.ts`) is built from
 * it; adapters loop over that table and never register a route by hand.
 */
import type { Area } from './engine/area.js';
import { usersArea } from './handlers/users/area.js';
import { controlRoutes } from './handlers/sandbox/control.js';
import { metaRoutes } from './handlers/sandbox/meta.js';
import { wearablesArea } from './handlers/wearables/area.js';
import { managementArea } from './handlers/management/area.js';
import { webhooksArea } from './handlers/webhooks/area.js';
import { labsArea } from './handlers/labs/area.js';
import { linkArea } from './handlers/link/area.js';
import { scenarioRoutes } from './handlers/sandbox/scenario.js';
import { aggregateArea } from './handlers/aggregate/area.js';
import { docsRoutes } from './handlers/sandbox/docs.js';
import { faultRoutes } from './handlers/sandbox/faults.js';
import { domainFaultRoutes } from './handlers/sandbox/faults-domain.js';
import { requestRoutes } from './handlers/sandbox/requests.js';
import { uiRoutes } from './handlers/sandbox/ui.js';
import { snapshotRoutes } from './handlers/sandbox/snapshots.js';
import { reportRoutes } from './handlers/sandbox/report.js';
import { reportCountersOf } from './state/sandbox/report-counters.js';

export const AREAS: readonly Area[] = [
  usersArea,
  wearablesArea,
  labsArea,
  managementArea,
  webhooksArea,
  {
    name: 'sandbox',
    routes: [
      ...controlRoutes,
      ...metaRoutes,
      ...docsRoutes,
      ...scenarioRoutes,
      ...faultRoutes,
      ...domainFaultRoutes,
      ...requestRoutes,
      ...uiRoutes,
      ...snapshotRoutes,
      ...reportRoutes,
    ],
    // The integration report counts from the world's start (its `since`).
    install: (world) => void reportCountersOf(world),
  },
  linkArea,
  aggregateArea,
];
