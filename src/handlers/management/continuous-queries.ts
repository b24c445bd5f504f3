/**
 * Continuous queries per team environment (management OpenAPI
 * `/v1/org/{org_id}/team/{team_id}/{environment}/continuous_query`, `.../validate_continuous_query`,
 * `.../continuous_query/{query_id}`): list, create, validate, update, archive. A team key may act
 * on its bound teams. Rules in `src/state/management/continuous-queries.ts`.
 *
 * LIMITATIONS
 * - Queries run on the sandbox clock (src/state/aggregate/runner.ts); results are read through
 *   the data API's aggregate endpoints (docs/simulated/aggregate.md).
 * - `result_table_schema` is the aggregate engine's plan: `group_key.N`, `<func>.<column>`
 *   (`count` int64; mean/median/stddev float64); `resource_dependencies` is the resource read.
 * - `query_type=platform` is refused (403): platform queries belong to the service itself.
 * - The list answers every query of the team environment, archived ones included, in one page.
 * - `fhir_observation_mappers` is always empty and `fhir_observation_previews` null.
 */
import { z } from 'zod';
import { defineRoute, reply } from '../../engine/route.js';
import { uuid } from '../../engine/schemas.js';
import { requireTeam } from '../../state/management/access.js';
import { environmentParam } from '../../state/management/common.js';
import {
  analyseQuery,
  archiveContinuousQuery,
  continuousQueryView,
  createContinuousQuery,
  listContinuousQueries,
  requireTeamQueries,
  updateContinuousQuery,
} from '../../state/management/continuous-queries.js';
import { exportSchema, queryConfigSchema, querySchema, schedulingSchema } from '../../state/management/query-schema.js';
import { ContinuousQuery, QueryValidation, cursorPage, res } from '../../wire/schemas.js';
import { lazySchema } from '../../engine/lazy-schema.js';

const BASE = '/v1/org/:org_id/team/:team_id/:environment';
const params = lazySchema(() => z.object({ org_id: uuid(), team_id: uuid(), environment: environmentParam() }));
const queryParams = lazySchema(() => params.extend({ query_id: uuid() }));
const queryType = lazySchema(() => z.object({ query_type: z.enum(['team', 'platform']).default('team') }));
const TITLE = /^[A-Za-zÀ-ÖØ-öø-ÿ0-9()&_\-.\s]{0,50}$/;
const createBody = lazySchema(() =>
  z.object({
    slug: z.string().regex(/^(?!.*--)(?!.*-$)(?!-.*$)[a-z0-9-]{1,128}$/),
    title: z.string().regex(TITLE),
    query: querySchema,
    query_config: queryConfigSchema.default({}),
    scheduling_preferences: schedulingSchema.default({}),
    export_preferences: exportSchema.default({ data_events: { enabled: true }, fhir_observations: false }),
  }),
);

export const continuousQueryRoutes = [
  defineRoute({
    id: 'management.continuous_query.list',
    method: 'GET',
    path: `${BASE}/continuous_query`,
    auth: 'management',
    summary: "The team environment's continuous queries (active and archived), oldest first.",
    request: { params },
    responses: {
      200: res(
        lazySchema(() => cursorPage(ContinuousQuery)),
        'ContinuousQueryResponse',
      ),
      404: 'Team not found',
    },
    access: (ctx, p) => requireTeam(ctx, p.org_id, p.team_id),
    handle(ctx, { params: p, access: team }) {
      return reply(200, { data: listContinuousQueries(ctx.world, team, p.environment).map(continuousQueryView), next_cursor: null });
    },
  }),

  defineRoute({
    id: 'management.continuous_query.create',
    method: 'POST',
    path: `${BASE}/continuous_query`,
    auth: 'management',
    summary: 'Stores a validated continuous query (slug unique among active ones) and starts its runs on the sandbox clock.',
    request: { params, query: queryType, body: createBody },
    responses: { 200: res(ContinuousQuery, 'ContinuousQuery'), 403: 'query_type=platform', 409: 'Slug taken', 422: 'Invalid query' },
    access: (ctx, p) => requireTeam(ctx, p.org_id, p.team_id),
    handle(ctx, { params: p, query, body, access: team }) {
      requireTeamQueries(query.query_type);
      return reply(200, continuousQueryView(createContinuousQuery(ctx.world, team, p.environment, body)));
    },
  }),

  defineRoute({
    id: 'management.continuous_query.validate',
    method: 'POST',
    path: `${BASE}/validate_continuous_query`,
    auth: 'management',
    summary: 'Validates a continuous query and answers its result table schema and resource dependencies; stores nothing.',
    request: { params, query: queryType, body: createBody },
    responses: { 200: res(QueryValidation, 'ValidateContinuousQueryResponse'), 403: 'query_type=platform', 422: 'Invalid query' },
    access: (ctx, p) => requireTeam(ctx, p.org_id, p.team_id),
    handle(ctx, { params: p, query, body }) {
      requireTeamQueries(query.query_type);
      return reply(200, { ...analyseQuery(body.query), fhir_observation_previews: null });
    },
  }),

  defineRoute({
    id: 'management.continuous_query.update',
    method: 'PATCH',
    path: `${BASE}/continuous_query/:query_id`,
    auth: 'management',
    summary: 'Changes the title and scheduling preferences (null keeps them); archived queries answer 400.',
    request: {
      params: queryParams,
      body: lazySchema(() => z.object({ title: z.string().regex(TITLE).nullish(), scheduling_preferences: schedulingSchema.nullish() })),
    },
    responses: { 200: res(ContinuousQuery, 'ContinuousQuery'), 400: 'Archived', 404: 'Not found', 422: 'Invalid body' },
    access: (ctx, p) => requireTeam(ctx, p.org_id, p.team_id),
    handle(ctx, { params: p, body, access: team }) {
      return reply(200, continuousQueryView(updateContinuousQuery(ctx.world, team, p.environment, p.query_id, body)));
    },
  }),

  defineRoute({
    id: 'management.continuous_query.archive',
    method: 'DELETE',
    path: `${BASE}/continuous_query/:query_id`,
    auth: 'management',
    summary: 'Archives a continuous query; answers it with status archived.',
    request: { params: queryParams },
    responses: { 200: res(ContinuousQuery, 'ContinuousQuery'), 404: 'Not found' },
    access: (ctx, p) => requireTeam(ctx, p.org_id, p.team_id),
    handle(ctx, { params: p, access: team }) {
      return reply(200, continuousQueryView(archiveContinuousQuery(ctx.world, team, p.environment, p.query_id)));
    },
  }),
];
