/**
 * The single list of API areas, in seeding order. The route table (`routes.ts`) is built from
 * it; adapters loop over that table and never register a route by hand.
 */
import type { Area } from './area.js';
import { userRoutes } from './handlers/users.js';
import { controlRoutes } from './handlers/sandbox-control.js';
import { seedAllUsers } from './fixtures/world-users.js';
import { wearablesArea } from './wearables-area.js';
import { managementArea } from './management-area.js';
import { webhooksArea } from './webhooks-area.js';
import { labsArea } from './labs-area.js';

export const AREAS: readonly Area[] = [
  { name: 'users', routes: userRoutes, seed: seedAllUsers },
  wearablesArea,
  labsArea,
  // wearables (issue 3), lab testing (issue 4), management (issue 5), webhooks (issue 6) go here.
  managementArea,
  webhooksArea,
  { name: 'sandbox-control', routes: controlRoutes },
];
