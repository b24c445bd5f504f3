/**
 * Team EHR pipelines per environment and region (management OpenAPI
 * `/v1/org/{org_id}/team_ehr_pipelines/{environment}/{region}`, `TeamEHRPipeline`): get, upsert
 * and delete; each pipeline receives the team's lab results as they arrive (see
 * `src/state/management/ehr-pipelines.ts`), readable at `GET /_sandbox/ehr_pipelines/{team_id}/{environment}`.
 *
 * LIMITATIONS
 * - Nothing is sent to `base_url`: deliveries stay in memory (the last 1000 per team environment).
 * - `type` is always `native`; a `client_credentials` secret is answered masked.
 * - `allowed_mappers` is stored and answered; it does not filter anything.
 * - GET answers every pipeline in one page (`next_token` null). Delete answers null.
 */
import { z } from 'zod';
import { defineRoute, reply } from '../../engine/route.js';
import { uuid } from '../../engine/schemas.js';
import { requireOrg } from '../../state/management/access.js';
import { environmentParam, regionParam, regionTeams } from '../../state/management/common.js';
import { deleteEhrPipelines, ehrPipelinesOf, ehrPipelineView, upsertEhrPipelines } from '../../state/management/ehr-pipelines.js';
import { EhrPipeline, res } from '../../wire/schemas.js';
import { lazySchema } from '../../engine/lazy-schema.js';

const PATH = '/v1/org/:org_id/team_ehr_pipelines/:environment/:region';
const params = lazySchema(() => z.object({ org_id: uuid(), environment: environmentParam(), region: regionParam() }));
const ehrType = lazySchema(() => z.enum(['fhir', 'hint_health']));
const httpUrl = lazySchema(() => z.string().min(1).pipe(z.url()));
const authentication = lazySchema(() =>
  z.discriminatedUnion('type', [
    z.object({ type: z.literal('client_credentials'), client_id: z.string(), client_secret: z.string(), token_url: httpUrl }),
    z.object({
      type: z.literal('google_iam'),
      service_account_email: z.string(),
      audience: z.literal('https://healthcare.googleapis.com/'),
    }),
    z.object({ type: z.literal('api_key'), api_key: z.string() }),
  ]),
);

export const ehrPipelineRoutes = [
  defineRoute({
    id: 'management.ehr_pipelines.get',
    method: 'GET',
    path: PATH,
    auth: 'management',
    summary: "EHR pipelines of the region's teams the key may act on (filter team_id).",
    request: { params, query: lazySchema(() => z.object({ team_id: uuid().nullish(), next_cursor: z.string().nullish() })) },
    responses: {
      200: res(
        lazySchema(() => z.object({ data: z.array(EhrPipeline), next_token: z.string().nullable() })),
        'TeamEHRPipelineResponse',
      ),
      400: 'Team in another region',
      404: 'Team not found',
    },
    access: (ctx, p) => requireOrg(ctx, p.org_id),
    handle(ctx, { params: p, query }) {
      const teams = regionTeams(ctx, p.org_id, p.region, query.team_id ? [query.team_id] : null);
      return reply(200, { data: teams.flatMap((t) => ehrPipelinesOf(ctx.world, t, p.environment)).map(ehrPipelineView), next_token: null });
    },
  }),

  defineRoute({
    id: 'management.ehr_pipelines.upsert',
    method: 'POST',
    path: PATH,
    auth: 'management',
    summary: 'Sets the pipeline of this EHR type for each team (all the key may act on in the region when team_ids is absent).',
    request: {
      params,
      body: lazySchema(() =>
        z.object({
          team_ids: z.array(uuid()).nullish(),
          ehr_type: ehrType,
          base_url: httpUrl,
          authentication,
          allowed_mappers: z.array(z.string()).nullish(),
        }),
      ),
    },
    responses: {
      200: res(
        lazySchema(() => z.array(EhrPipeline)),
        'TeamEHRPipeline[]',
      ),
      400: 'Team in another region',
      404: 'Team not found',
      422: 'Invalid body',
    },
    access: (ctx, p) => requireOrg(ctx, p.org_id),
    handle(ctx, { params: p, body }) {
      const teams = regionTeams(ctx, p.org_id, p.region, body.team_ids);
      const made = upsertEhrPipelines(ctx.world, teams, p.environment, {
        ehr_type: body.ehr_type,
        base_url: body.base_url,
        authentication: body.authentication,
        allowed_mappers: body.allowed_mappers ?? null,
      });
      return reply(200, made.map(ehrPipelineView));
    },
  }),

  defineRoute({
    id: 'management.ehr_pipelines.delete',
    method: 'DELETE',
    path: PATH,
    auth: 'management',
    summary: 'Removes the pipelines of this EHR type (filter team_id; none means every team the key may act on in the region).',
    request: { params, query: lazySchema(() => z.object({ team_id: z.array(uuid()).default([]), ehr_type: ehrType })) },
    responses: {
      200: res(
        lazySchema(() => z.null()),
        'null',
      ),
      400: 'Team in another region',
      404: 'Team not found',
    },
    access: (ctx, p) => requireOrg(ctx, p.org_id),
    handle(ctx, { params: p, query }) {
      deleteEhrPipelines(ctx.world, regionTeams(ctx, p.org_id, p.region, query.team_id), p.environment, query.ehr_type);
      return reply(200, null);
    },
  }),
];
