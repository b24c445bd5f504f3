/**
 * The ETL pipeline operations of the management API (`/v1/org/:org_id/team_etl_pipelines/...`)
 * and the control plane's stream reads: the teams a request names (each checked for access and
 * region first), then the store.
 */
import type { OrgDomain } from '../domain-context.js';
import type { Environment, Region, Team } from '../../engine/tenancy.js';
import type { World } from '../../engine/world.js';
import { canAccessTeam, requireOrg, requireTeam } from '../management/access.js';
import { webhooksError } from './errors.js';
import { upsertPipelines, type PipelineInput } from './pipeline-rules.js';
import { pipelinesOf, type Pipeline, type StreamRecord } from './pipelines.js';

/** A team of the org the key may act on, in the path's region (404 otherwise: regions are separate deployments). */
function teamInRegion(ctx: OrgDomain, orgId: string, teamId: string, region: Region): Team {
  const team = requireTeam(ctx, orgId, teamId);
  if (team.region !== region) throw webhooksError.pipelineTeamNotFound();
  return team;
}

/** The named teams (each checked), or every team of the region the key may act on when none is named. */
function pipelineTeams(ctx: OrgDomain, orgId: string, region: Region, teamIds: readonly string[] | undefined): Team[] {
  if (teamIds !== undefined && teamIds.length > 0) return teamIds.map((id) => teamInRegion(ctx, orgId, id, region));
  const org = requireOrg(ctx, orgId);
  return ctx.world.tenancy.orgTeams(org.id).filter((t) => t.region === region && canAccessTeam(ctx, t.id));
}

/** The pipelines of one team (`team_id`) or of every team of the region the key may act on. */
export function listPipelines(ctx: OrgDomain, orgId: string, region: Region, env: Environment, teamId: string | undefined): Pipeline[] {
  const teams = teamId !== undefined ? [teamInRegion(ctx, orgId, teamId, region)] : pipelineTeams(ctx, orgId, region, undefined);
  const store = pipelinesOf(ctx.world);
  return teams.flatMap((team) => store.get(team.id, env) ?? []);
}

/** Creates or updates the pipelines of the body's teams (every team and body checked before any is stored). */
export function upsertTeamPipelines(
  ctx: OrgDomain,
  orgId: string,
  region: Region,
  env: Environment,
  body: PipelineInput & { team_ids?: string[] | null | undefined },
): Pipeline[] {
  const teams = [...new Set(body.team_ids ?? [])].map((id) => teamInRegion(ctx, orgId, id, region));
  return upsertPipelines(ctx.world, teams, env, body);
}

/** Deletes the pipelines of the named teams (or of every team of the region the key may act on); answers the deleted ones. */
export function deletePipelines(
  ctx: OrgDomain,
  orgId: string,
  region: Region,
  env: Environment,
  teamIds: readonly string[] | undefined,
): Pipeline[] {
  const teams = pipelineTeams(ctx, orgId, region, teamIds);
  const store = pipelinesOf(ctx.world);
  return teams.flatMap((team) => store.delete(team.id, env) ?? []);
}

/** Every stream with its size, and the NDJSON file's state (control plane). */
export function pipelineStreams(world: World): {
  streams: Array<{ stream: string; count: number }>;
  ndjson_file: string | null;
  ndjson_error: string | null;
} {
  const store = pipelinesOf(world);
  return { streams: store.streamNames(), ndjson_file: store.ndjsonFile, ndjson_error: store.ndjsonError };
}

/** The records routed to one stream, oldest first (control plane). */
export function readStream(
  world: World,
  stream: string,
  filter: { team_id?: string; environment?: string; after?: number },
  limit: number,
): StreamRecord[] {
  return pipelinesOf(world).read(stream, filter, limit);
}

/** Empties one stream (or every stream); answers how many records went (control plane). */
export function clearStreams(world: World, stream?: string): number {
  return pipelinesOf(world).clear(stream);
}
