/**
 * Continuous queries per team environment (management OpenAPI `ContinuousQuery`,
 * `CreateContinuousQueryBody`, `UpdateContinuousQueryBody`, `ValidateContinuousQueryResponse`):
 * stored, validated (the request schema in `query-schema.ts`, then the rules below), listed,
 * updated and archived. They are NOT run: running them on the clock needs the aggregate query
 * engine of the wearables area; until it is wired in, no result table is computed and no
 * `continuous_query.result_table.changed` event is emitted.
 */
import { valueError } from '../../engine/errors.js';
import type { Environment, Team } from '../../engine/tenancy.js';
import { worldSlot, type World } from '../../engine/world.js';
import { MANAGEMENT_ERRORS, queryNotFound } from './errors.js';
import { badRequest, conflict } from '../../engine/errors.js';
import type { Query } from './query-schema.js';
import { CLIENT_FACING_RESOURCE_SET } from './common.js';

/** Tables of the query language and the resource each reads. */
const TABLE_RESOURCES: Record<string, string | null> = {
  sleep: 'sleep', derived_readiness: 'sleep', activity: 'activity', workout: 'workouts', body: 'body',
  meal: 'meal', menstrual_cycle: 'menstrual_cycle', profile: 'profile', timeseries: null,
};
/** Value macros the service knows, and the resource each is computed from. */
const MACRO_RESOURCES: Record<string, string> = { sleep_score: 'sleep', chronotype: 'sleep', asleep_at: 'sleep', awake_at: 'sleep', awakenings: 'sleep' };
const COUNTING = new Set(['count']);

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
}
const store = worldSlot('management-continuous-queries', () => new QueryStore());
const key = (teamId: string, env: Environment) => `${teamId}:${env}`;

type Expr = Record<string, unknown>;

/** The column an expression names and the resources it reads; 422 for an unknown value macro. */
function describe(expr: Expr, loc: Array<string | number>, deps: Set<string>): string {
  for (const [table, resource] of Object.entries(TABLE_RESOURCES)) {
    if (typeof expr[table] === 'string') {
      if (resource) deps.add(resource);
      return `${table}.${expr[table] as string}`;
    }
  }
  if (typeof expr.index === 'string') {
    const r = TABLE_RESOURCES[expr.index];
    if (r) deps.add(r);
    return `${expr.index}.index`;
  }
  if (typeof expr.value_macro === 'string') {
    const r = MACRO_RESOURCES[expr.value_macro];
    if (!r) throw valueError([...loc, 'value_macro'], `Unrecognized value macro: ${expr.value_macro}`, expr.value_macro);
    deps.add(r);
    return expr.value_macro;
  }
  if (typeof expr.timeseries === 'string') {
    deps.add(expr.timeseries);
    return `${expr.timeseries}.${String(expr.field)}`;
  }
  if (typeof expr.source === 'string') return `source.${expr.source}`;
  if ('from' in expr && 'select' in expr) {
    const from = expr.from as Expr;
    if (from && typeof from.unnest === 'object' && from.unnest) return `subquery(${describe(from.unnest as Expr, [...loc, 'from', 'unnest'], deps)})`;
    return 'subquery';
  }
  return 'expr';
}

/** What a query's result table looks like and which resources it reads (the validate answer). */
export function analyseQuery(query: Query): { result_table_schema: Record<string, string>; resource_dependencies: string[] } {
  const deps = new Set<string>();
  const schema: Record<string, string> = {};
  const groupBy = (query.group_by ?? []) as Expr[];
  groupBy.forEach((g, i) => {
    const arg = (g.arg ?? g) as Expr;
    describe(arg, ['body', 'query', 'group_by', i], deps);
  });
  (query.select as Expr[]).forEach((item, i) => {
    const loc = ['body', 'query', 'select', i];
    if ('group_key' in item) {
      const k = item.group_key;
      if (k === '*') groupBy.forEach((_, j) => (schema[`group_key.${j}`] = 'string'));
      else if (typeof k === 'number') {
        if (k < 0 || k >= groupBy.length) throw valueError([...loc, 'group_key'], `group_key ${k} is not a group_by index (the query has ${groupBy.length}).`, k);
        schema[`group_key.${k}`] = 'string';
      }
      return;
    }
    if ('func' in item && 'arg' in item) {
      const name = describe(item.arg as Expr, [...loc, 'arg'], deps);
      schema[`${String(item.func)}(${name})`] = COUNTING.has(String(item.func)) ? 'int64' : 'float64';
      return;
    }
    schema[describe(item, loc, deps)] = 'any';
  });
  if ((query.select as Expr[]).length === 0) throw valueError(['body', 'query', 'select'], 'A query selects at least one column.', []);
  return { result_table_schema: schema, resource_dependencies: [...deps].filter((r) => CLIENT_FACING_RESOURCE_SET.has(r)).sort() };
}

export function continuousQueryView(q: ContinuousQuery) {
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

export interface NewContinuousQuery {
  slug: string;
  title: string;
  query: Query;
  query_config: Record<string, unknown>;
  scheduling_preferences: { minimum_gap_duration_second?: number | null };
  export_preferences: Record<string, unknown>;
}

export function createContinuousQuery(world: World, team: Team, env: Environment, input: NewContinuousQuery): ContinuousQuery {
  const analysis = analyseQuery(input.query);
  const existing = listContinuousQueries(world, team, env);
  if (existing.some((q) => q.status === 'active' && q.slug === input.slug)) throw conflict(MANAGEMENT_ERRORS.querySlugTaken(input.slug));
  const q: ContinuousQuery = { id: world.ids.uuid('continuous-query', team.id), status: 'active', team_id: team.id, environment: env, ...structuredClone(input), ...analysis };
  const s = store(world);
  let m = s.byPartition.get(key(team.id, env));
  if (!m) {
    m = new Map();
    s.byPartition.set(key(team.id, env), m);
  }
  m.set(q.id, q);
  return q;
}

function getQuery(world: World, team: Team, env: Environment, queryId: string): ContinuousQuery {
  const q = store(world).byPartition.get(key(team.id, env))?.get(queryId);
  if (!q) throw queryNotFound();
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
  if (q.status === 'archived') throw badRequest(MANAGEMENT_ERRORS.queryArchived);
  if (update.title != null) q.title = update.title;
  if (update.scheduling_preferences != null) q.scheduling_preferences = { ...update.scheduling_preferences };
  return q;
}

/** Archives a query (idempotent); it stays listed with status `archived`. */
export function archiveContinuousQuery(world: World, team: Team, env: Environment, queryId: string): ContinuousQuery {
  const q = getQuery(world, team, env, queryId);
  q.status = 'archived';
  return q;
}

export function dropContinuousQueries(world: World, teamId: string): void {
  for (const env of ['sandbox', 'production'] as const) store(world).byPartition.delete(key(teamId, env));
}
