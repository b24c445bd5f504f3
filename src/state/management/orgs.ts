/**
 * Orgs as the management interface and the control plane change them: rename (org key),
 * create with an org management key, plan changes, and closed-beta features of teams.
 */
import type { ManagementKey, Org, Plan, Team } from '../../engine/tenancy.js';
import type { World } from '../../engine/world.js';
import { MANAGEMENT_ERRORS, managementError } from './errors.js';
import { seedLabAccounts } from './lab-accounts.js';

/** An org by id (control plane), or 404. */
export function orgById(world: World, orgId: string): Org {
  const org = world.tenancy.orgs.get(orgId);
  if (!org) throw managementError.notFound(MANAGEMENT_ERRORS.orgNotFound);
  return org;
}

/** A team by id, deleted or not (control plane), or 404. */
export function teamById(world: World, teamId: string): Team {
  const team = world.tenancy.teams.get(teamId);
  if (!team) throw managementError.notFound(MANAGEMENT_ERRORS.teamNotFound);
  return team;
}

export function renameOrg(org: Org, name: string): Org {
  org.name = name;
  return org;
}

/** Creates an org (starting without teams) and its org management key. */
export function createOrg(world: World, input: { name: string | null; plan: Plan }, now: string): { org: Org; key: ManagementKey } {
  const n = world.tenancy.orgs.size + 1;
  const org = world.tenancy.addOrg({
    id: world.ids.uuid('org'),
    name: input.name ?? `Sandbox Org ${n}`,
    plan: input.plan,
    created_at: now,
    expires_at: null,
  });
  const key = world.tenancy.addManagementKey({
    id: world.ids.uuid('management-key', org.id),
    org_id: org.id,
    label: 'Default org key',
    key: `mg_${world.ids.token('management-key-secret', 40, org.id)}`,
    role: 'org_admin',
    team_ids: null,
    created_at: now,
    creator: { type: 'vital_staff' },
  });
  seedLabAccounts(world, org);
  return { org, key };
}

export function setOrgPlan(org: Org, plan: Plan): Org {
  org.plan = plan;
  return org;
}

export function setBetaFeatures(team: Team, features: readonly string[]): Team {
  team.beta_features = new Set(features);
  return team;
}
