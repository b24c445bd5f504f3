/**
 * Continuous queries per team environment (management OpenAPI `ContinuousQuery`,
 * `CreateContinuousQueryBody`, `UpdateContinuousQueryBody`, `ValidateContinuousQueryResponse`):
 * validated by the request schema (`query-schema.ts`) and then planned by the aggregate engine
 * (`src/state/aggregate/plan.ts`: the same rules as `POST /aggregate/v1/user/{id}/query`),
 * stored, listed, updated and archived. Creating one starts its runs on the sandbox clock
 * (`src/state/aggregate/runner.ts`); archiving stops them.
 */
import type { z } from 'zod';
import type * as W from '../../wire/schemas.js';
import type { Environment, Team } from '../../engine/tenancy.js';
import { worldSlot, type World } from '../../engine/world.js';
import { MANAGEMENT_ERRORS, managementError } from './errors.js';
import type { Query } from './query-schema.js';
import { planQuery } from '../aggregate/plan.js';
import { scheduleQuery } from '../aggregate/runner.js';
import { CLIENT_FACING_RESOURCE_SET } from './common.js';
import { dataClass } from '../../engine/world-codec.js';

export interface ContinuousQuery {
  id: string;
  status: 'active' | 'archived';
  slug: string;
  title: string;
  team_id: string;
  environment: Environment;
  query: Query;
  query_config: Record<string, unknown>;
  scheduling_preferences: { minimum_gap_duration_second?: number | null };
  export_preferences: Record<string, unknown>;
  result_table_schema: Record<string, string>;
  resource_dependencies: string[];
}

class QueryStore {
  /** `team:env` -> id -> query, in creation order. */
  readonly byPartition = new Map<string, Map<string, ContinuousQuery>>();
  /** `team:env` -> slug -> id of the active query with that slug. */
  readonly activeBySlug = new Map<string, Map<string, string>>();
}
dataClass('QueryStore', QueryStore);
const store = worldSlot('management-continuous-queries', () => new QueryStore());
const key = (teamId: string, env: Environment) => `${teamId}:${env}`;

/** Only team queries are managed through the API: platform queries answer 403. */
export function requireTeamQueries(queryType: 'team' | 'platform'): void {
  if (queryType === 'platform') throw managementError.forbidden(MANAGEMENT_ERRORS.platformQueries);
}

/** What a query's result table looks like and which resources it reads (the validate answer). */
export function analyseQuery(query: Query): { result_table_schema: Record<string, string>; resource_dependencies: string[] } {
  const plan = planQuery(query as Record<string, unknown>, ['body', 'query']);
  const schema = Object.fromEntries(plan.columns.map((c) => [c.name, c.type]));
  return { result_table_schema: schema, resource_dependencies: [plan.dependency].filter((r) => CLIENT_FACING_RESOURCE_SET.has(r)) };
}

export function continuousQueryView(q: ContinuousQuery): z.input<typeof W.ContinuousQuery> {
  return {
    id: q.id,
    status: q.status,
    slug: q.slug,
    title: q.title,
    team_id: q.team_id,
    query: q.query,
    query_config: q.query_config,
    scheduling_preferences: { ...q.scheduling_preferences },
    result_table_schema: { ...q.result_table_schema },
    resource_dependencies: [...q.resource_dependencies],
    export_preferences: q.export_preferences,
    fhir_observation_mappers: [] as string[],
  };
}

export function listContinuousQueries(world: World, team: Team, env: Environment): ContinuousQuery[] {
  return [...(store(world).byPartition.get(key(team.id, env))?.values() ?? [])];
}

interface NewContinuousQuery {
  slug: string;
  title: string;
  query: Query;
  query_config: Record<string, unknown>;
  scheduling_preferences: { minimum_gap_duration_second?: number | null };
  export_preferences: Record<string, unknown>;
}

export function createContinuousQuery(world: World, team: Team, env: Environment, input: NewContinuousQuery): ContinuousQuery {
  const analysis = analyseQuery(input.query);
  const s = store(world);
  const pk = key(team.id, env);
  if (s.activeBySlug.get(pk)?.has(input.slug)) throw managementError.conflict(MANAGEMENT_ERRORS.querySlugTaken(input.slug));
  const q: ContinuousQuery = {
    id: world.ids.uuid('continuous-query', team.id),
    status: 'active',
    team_id: team.id,
    environment: env,
    ...structuredClone(input),
    ...analysis,
  };
  let m = s.byPartition.get(pk);
  if (!m) {
    m = new Map();
    s.byPartition.set(pk, m);
  }
  m.set(q.id, q);
  let slugs = s.activeBySlug.get(pk);
  if (!slugs) {
    slugs = new Map();
    s.activeBySlug.set(pk, slugs);
  }
  slugs.set(q.slug, q.id);
  scheduleQuery(world, q);
  return q;
}

function getQuery(world: World, team: Team, env: Environment, queryId: string): ContinuousQuery {
  const q = store(world).byPartition.get(key(team.id, env))?.get(queryId);
  if (!q) throw managementError.queryNotFound();
  return q;
}

/** Changes the title and scheduling preferences (null keeps them); archived queries cannot change. */
export function updateContinuousQuery(
  world: World,
  team: Team,
  env: Environment,
  queryId: string,
  update: { title?: string | null; scheduling_preferences?: { minimum_gap_duration_second?: number | null } | null },
): ContinuousQuery {
  const q = getQuery(world, team, env, queryId);
  if (q.status === 'archived') throw managementError.badRequest(MANAGEMENT_ERRORS.queryArchived);
  if (update.title != null) q.title = update.title;
  if (update.scheduling_preferences != null) q.scheduling_preferences = { ...update.scheduling_preferences };
  return q;
}

/** Archives a query (idempotent); it stays listed with status `archived`. */
export function archiveContinuousQuery(world: World, team: Team, env: Environment, queryId: string): ContinuousQuery {
  const q = getQuery(world, team, env, queryId);
  if (q.status === 'active') store(world).activeBySlug.get(key(team.id, env))?.delete(q.slug);
  q.status = 'archived';
  return q;
}

export function dropContinuousQueries(world: World, teamId: string): void {
  for (const env of ['sandbox', 'production'] as const) {
    store(world).byPartition.delete(key(teamId, env));
    store(world).activeBySlug.delete(key(teamId, env));
  }
}

/** A query of a team environment by id, else the active query with that slug (data surface lookups). */
export function findContinuousQuery(world: World, teamId: string, env: Environment, idOrSlug: string): ContinuousQuery | undefined {
  const pk = key(teamId, env);
  const s = store(world);
  const byId = s.byPartition.get(pk);
  const direct = byId?.get(idOrSlug);
  if (direct) return direct;
  const id = s.activeBySlug.get(pk)?.get(idOrSlug);
  return id ? byId?.get(id) : undefined;
}
