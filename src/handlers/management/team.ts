/**
 * Data-side team read, `GET /v2/team/{team_id}` (team API key; data OpenAPI and SDK
 * `ClientFacingTeam`, deprecated in the reference but still served). Shows the calling team's
 * settings for the key's environment, the same values the management view shows.
 *
 * LIMITATIONS
 * - Only the caller's own team: another team id answers 403 JSON.
 * - Legacy fields (`client_id`, `client_secret`, `airtable_*`, `webhook_secret`, `api_key`,
 *   `svix_app_id`) are null; `delegated_flow` is always `order_and_results_with_vital_physician_network`;
 *   `configuration.libreview.practice_id` is empty.
 *
 * Also the rest of the data `team` tag: `users/search` (by user_id or client_user_id),
 * `svix/url` (deprecated: answers where the team environment's webhooks are managed),
 * source priorities (GET, PATCH), `{team_id}/physicians` (the physicians named on the team's
 * lab orders) and `link/config` (what a Link widget shows for the team).
 *
 * LIMITATIONS (continued)
 * - Source priorities order the sources of provider-less summaries and timeseries
 *   (`customSourceOrder` in `src/state/users/team-views.ts`; docs/simulated/users.md).
 * - `svix/url` answers the management API's webhook list URL (the sandbox has no Svix portal).
 * - The shapes of `link/config` and of a priority entry are the sandbox's own (the reference
 *   gives only "an object"); see docs/simulated/link.md.
 */
import { z } from 'zod';
import { defineRoute, reply } from '../../engine/route.js';
import { uuid, withRules } from '../../engine/schemas.js';
import { linkConfig } from '../../state/link/team-config.js';
import { dataTeamView } from '../../state/management/teams.js';
import { userView } from '../../state/users/users.js';
import {
  PRIORITY_RESOURCES,
  requireOwnTeam,
  searchUsers,
  sourcePriorities,
  sourcePrioritiesRule,
  teamPhysicians,
  updateSourcePriorities,
} from '../../state/users/team-views.js';
import { LinkConfig, Physician, SourcePriority, Team, User, res } from '../../wire/schemas.js';
import { lazySchema } from '../../engine/lazy-schema.js';

const priorityChanges = lazySchema(() =>
  withRules(
    z.array(z.object({ data_type: z.enum(PRIORITY_RESOURCES), providers: z.array(z.string()).min(1) })),
    sourcePrioritiesRule,
  ).nullish(),
);

export const teamRoutes = [
  defineRoute({
    id: 'team.get',
    method: 'GET',
    path: '/v2/team/:team_id',
    auth: 'team',
    summary: "The calling team (ClientFacingTeam) with its settings for the key's environment.",
    request: { params: lazySchema(() => z.object({ team_id: uuid() })) },
    responses: { 200: res(Team, 'ClientFacingTeam'), 403: 'Another team' },
    handle(ctx, { params }) {
      const team = requireOwnTeam(ctx, params.team_id);
      return reply(200, dataTeamView(ctx.world, team, ctx.partition.environment));
    },
  }),
  defineRoute({
    id: 'team.users_search',
    method: 'GET',
    path: '/v2/team/users/search',
    auth: 'team',
    summary: 'Users whose user_id or client_user_id is query_id.',
    request: { query: lazySchema(() => z.object({ query_id: z.string().min(1).nullish() })) },
    responses: {
      200: res(
        lazySchema(() => z.array(User)),
        'Array of ClientFacingUser',
      ),
    },
    handle: (ctx, { query }) => reply(200, query.query_id ? searchUsers(ctx, query.query_id).map((u) => userView(ctx, u)) : []),
  }),
  defineRoute({
    id: 'team.svix_url',
    method: 'GET',
    path: '/v2/team/svix/url',
    auth: 'team',
    summary: "Where the team environment's webhooks are managed (deprecated in the reference).",
    request: {},
    responses: {
      200: res(
        lazySchema(() => z.object({ url: z.string() })),
        '{url}',
      ),
    },
    handle(ctx) {
      const { team, environment } = ctx.partition;
      return reply(200, { url: `${ctx.world.urls.management}/v1/org/${team.org_id}/team/${team.id}/${environment}/webhook` });
    },
  }),
  defineRoute({
    id: 'team.source_priorities',
    method: 'GET',
    path: '/v2/team/source/priorities',
    auth: 'team',
    summary: 'Source priorities per data type (1 = preferred).',
    request: { query: lazySchema(() => z.object({ data_type: z.enum(PRIORITY_RESOURCES).nullish() })) },
    responses: {
      200: res(
        lazySchema(() => z.array(SourcePriority)),
        'Array of {data_type, provider, priority}',
      ),
      422: 'Unknown data_type',
    },
    handle: (ctx, { query }) => reply(200, sourcePriorities(ctx, query.data_type ?? null)),
  }),
  defineRoute({
    id: 'team.source_priorities_update',
    method: 'PATCH',
    path: '/v2/team/source/priorities',
    auth: 'team',
    summary: 'Put providers first for data types (body: [{data_type, providers}]); answers the full list.',
    request: { body: priorityChanges },
    responses: {
      200: res(
        lazySchema(() => z.array(SourcePriority)),
        'Array of {data_type, provider, priority}',
      ),
      422: 'Unknown data type or provider',
    },
    handle: (ctx, { body }) => reply(200, updateSourcePriorities(ctx, body ?? [])),
  }),
  defineRoute({
    id: 'team.physicians',
    method: 'GET',
    path: '/v2/team/:team_id/physicians',
    auth: 'team',
    summary: "The physicians named on the team's lab orders (ClientFacingPhysician).",
    request: { params: lazySchema(() => z.object({ team_id: uuid() })) },
    responses: {
      200: res(
        lazySchema(() => z.array(Physician)),
        'Array of ClientFacingPhysician',
      ),
      403: 'Another team',
    },
    handle(ctx, { params }) {
      requireOwnTeam(ctx, params.team_id);
      return reply(200, teamPhysicians(ctx));
    },
  }),
  defineRoute({
    id: 'team.link_config',
    method: 'GET',
    path: '/v2/team/link/config',
    auth: 'none',
    summary: 'What a Link widget shows for the team of the link token in x-vital-link-token.',
    request: {},
    responses: {
      200: res(LinkConfig, '{team_id, name, logo_url, reject_duplicate_connection, providers}'),
      400: 'Unusable link token',
      422: 'Missing header',
    },
    handle: (ctx) => reply(200, linkConfig(ctx.world, ctx.request.headers['x-vital-link-token'])),
  }),
];
