/**
 * The access rules of the management API (spec 1 and 5): org management needs the premium
 * plan; an org key may do everything in its org; a team key acts only on its bound teams and
 * never on org-level resources. Management handlers (teams, keys, webhooks, pipelines, ...)
 * call these first.
 */
import type { OrgDomain } from '../domain-context.js';
import type { Org, Team } from '../../engine/tenancy.js';
import { managementError, MANAGEMENT_ERRORS, ACCESS_MESSAGES } from './errors.js';
import type { DomainError } from '../domain-error.js';

function planError(org: Org): DomainError {
  return managementError.forbidden(MANAGEMENT_ERRORS.notPremium(org.id, org.plan));
}

/** The caller's org, if `orgId` is it and it is on the premium plan. */
export function requireOrg(ctx: OrgDomain, orgId: string): Org {
  const { org } = ctx.management;
  if (org.id !== orgId) throw managementError.forbidden(ACCESS_MESSAGES.wrongOrg);
  if (org.plan !== 'premium') throw planError(org);
  return org;
}

/** Like requireOrg, and the key must be an org key (org-level resources and actions). */
export function requireOrgAdmin(ctx: OrgDomain, orgId: string): Org {
  const org = requireOrg(ctx, orgId);
  if (ctx.management.key.role !== 'org_admin') throw managementError.forbidden(ACCESS_MESSAGES.teamKeyOrgLevel);
  return org;
}

/** Whether the caller's key may act on this team. */
export function canAccessTeam(ctx: OrgDomain, teamId: string): boolean {
  const { key } = ctx.management;
  return key.role === 'org_admin' || (key.team_ids ?? []).includes(teamId);
}

/** A live team of the org that the caller's key may act on (404 unknown, 403 not bound). */
export function requireTeam(ctx: OrgDomain, orgId: string, teamId: string): Team {
  const org = requireOrg(ctx, orgId);
  const team = ctx.world.tenancy.teams.get(teamId);
  if (!team || team.org_id !== org.id) throw managementError.notFound(ACCESS_MESSAGES.teamNotFound);
  if (!canAccessTeam(ctx, teamId)) throw managementError.forbidden(ACCESS_MESSAGES.teamNotBound);
  return team;
}

/** The team of the org with this integration_team_id that the caller's key may act on (404 none, 403 not bound). */
export function requireTeamByIntegrationId(ctx: OrgDomain, org: Org, integrationTeamId: string): Team {
  const team = ctx.world.tenancy.teamByIntegrationId(org.id, integrationTeamId);
  if (!team) throw managementError.notFound(ACCESS_MESSAGES.teamNotFound);
  if (!canAccessTeam(ctx, team.id)) throw managementError.forbidden(ACCESS_MESSAGES.teamNotBound);
  return team;
}

/** Whether the caller holds an org management key. */
function isOrgKey(ctx: OrgDomain): boolean {
  return ctx.management.key.role === 'org_admin';
}

/** The live teams of the org the caller's key may act on, in creation order. */
export function accessibleTeams(ctx: OrgDomain, org: Org): Team[] {
  const teams = ctx.world.tenancy.orgTeams(org.id);
  return isOrgKey(ctx) ? teams : teams.filter((t) => canAccessTeam(ctx, t.id));
}
