/**
 * The one domain context: where a domain function acts. Handlers pass their request context
 * (`Ctx`, which has these fields) straight in; the request itself (`Ctx`, `SimRequest`) never
 * enters `src/state` (test/engine/architecture.test.ts). Time comes from the sandbox clock
 * (`world.clock.now()`).
 */
import type { ManagementPrincipal, Partition } from '../engine/tenancy.js';
import type { World } from '../engine/world.js';

/** A team-surface domain function's context: one team environment (partition) of one world. */
export interface Domain {
  readonly world: World;
  readonly partition: Partition;
}

/** A management-surface domain function's context: the world and the caller's management principal. */
export interface OrgDomain {
  readonly world: World;
  readonly management: ManagementPrincipal;
}
