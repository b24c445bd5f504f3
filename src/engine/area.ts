/** An API area: its routes, what it installs into a new world, and how it seeds it. */
import type { Route } from './route.js';
import type { World } from './world.js';

export interface Area {
  name: string;
  routes: readonly Route[];
  /** Runs when a world is created, before any seeding: subscribe to events, set hooks. */
  install?(world: World): void;
  /** Seeds this area's part of the default world; runs in area order after tenancy. */
  seed?(world: World): void;
}
