/**
 * Team API keys through the management interface (spec 5.4; management OpenAPI
 * `ClientFacingTeamAPIKey`, `DeleteTeamApiKeysResponse`): list, create and delete, as domain
 * functions over the tenancy. Which teams the caller may act on is decided by the handler's
 * access rules and passed in (`mayAct`).
 */
import type { Environment, Org, Region, Team, TeamApiKey } from '../../engine/tenancy.js';
import type { World } from '../../engine/world.js';

/** Keys of these teams in one environment and region, teams in order, keys oldest first. */
export function listTeamApiKeys(world: World, teams: readonly Team[], env: Environment, region: Region): TeamApiKey[] {
  return teams.filter((t) => t.region === region).flatMap((t) => world.tenancy.teamApiKeys(t.id, env));
}

/** A new key (`sk_<region>_...` in sandbox, `pk_<region>_...` in production), working at once. */
export function createTeamApiKey(world: World, team: Team, env: Environment, label: string, now: string): TeamApiKey {
  const prefix = `${env === 'sandbox' ? 'sk' : 'pk'}_${team.region}_`;
  return world.tenancy.addApiKey({
    id: world.ids.uuid('team-api-key', team.id),
    label,
    value: prefix + world.ids.token('team-api-key-value', 32, team.id),
    team_id: team.id,
    environment: env,
    region: team.region,
    created_at: now,
  });
}

/**
 * Deletes keys by id: keys of the org's teams in this environment and region that the caller may
 * act on go (`success`); those of teams it may not act on stay (`failure`); anything else is
 * `not_found`. Decides every id first, then removes.
 */
export function deleteTeamApiKeys(
  world: World,
  org: Org,
  env: Environment,
  region: Region,
  ids: readonly string[],
  mayAct: (teamId: string) => boolean,
): { success: string[]; failure: string[]; not_found: string[] } {
  const tenancy = world.tenancy;
  const success: string[] = [];
  const failure: string[] = [];
  const not_found: string[] = [];
  for (const id of new Set(ids)) {
    const key = tenancy.apiKeysById.get(id);
    const team = key ? tenancy.teams.get(key.team_id) : undefined;
    if (!key || !team || team.org_id !== org.id || key.environment !== env || key.region !== region) not_found.push(id);
    // Another team's ids answer exactly like unknown ids (issue 11): no existence leak.
    else if (!mayAct(team.id)) not_found.push(id);
    else success.push(id);
  }
  for (const id of success) tenancy.removeApiKey(id);
  return { success, failure, not_found };
}
