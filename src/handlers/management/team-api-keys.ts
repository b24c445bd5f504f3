/**
 * Team API keys per environment and region (spec 5.4; api-facts A.14; management OpenAPI
 * `ClientFacingTeamAPIKey`, `CreateTeamAPIKeyBody`, `DeleteTeamApiKeysResponse`).
 *
 * Simulates list (filter `team_id`), create (`sk_<region>_...` in sandbox, `pk_<region>_...` in
 * production; works on the data API at once) and delete by `api_key_id` (stops at once). A team
 * management key sees and changes only its bound teams' keys.
 *
 * LIMITATIONS
 * - Lists are answered in one page (`next_cursor` is always null).
 * - No limit on keys per team and environment (an old blog post mentions 3; unconfirmed).
 * - Delete: ids of unknown keys, of keys of another environment, region or org, and of keys of
 *   teams a team key is not bound to all land in `not_found` (another team's ids answer exactly
 *   like unknown ids); `failure` stays empty.
 */
import { z } from 'zod';
import { accessibleTeams, requireOrg, requireTeam, canAccessTeam } from '../../state/management/access.js';
import { createTeamApiKey, deleteTeamApiKeys, listTeamApiKeys } from '../../state/management/team-api-keys.js';
import { defineRoute, reply } from '../../engine/route.js';
import { uuid, withRules } from '../../engine/schemas.js';
import { assertTeamRegion, envRegionParams, onePageRule } from '../../state/management/common.js';
import type { TeamApiKey } from '../../engine/tenancy.js';
import { BatchOutcome, TeamApiKey as TeamApiKeyWire, res } from '../../wire/schemas.js';
import { lazySchema } from '../../engine/lazy-schema.js';

function teamApiKeyView(key: TeamApiKey): z.input<typeof TeamApiKeyWire> {
  return { id: key.id, label: key.label, value: key.value, team_id: key.team_id, created_at: key.created_at };
}

export const teamApiKeyRoutes = [
  defineRoute({
    id: 'management.team_api_keys.list',
    method: 'GET',
    path: '/v1/org/:org_id/team_api_keys/:env/:region',
    auth: 'management',
    summary: "API keys of the org's teams in one environment and region (the key's teams only for a team key); filter team_id.",
    request: {
      params: envRegionParams,
      query: lazySchema(() => withRules(z.object({ team_id: uuid().nullish(), next_cursor: z.string().nullish() }), onePageRule)),
    },
    responses: {
      200: res(
        lazySchema(() => z.object({ api_keys: z.array(TeamApiKeyWire), next_cursor: z.string().nullable() })),
        '{api_keys, next_cursor}',
      ),
      403: 'Team key not bound to team_id',
    },
    access: (ctx, p) => requireOrg(ctx, p.org_id),
    handle(ctx, { params, query, access: org }) {
      const teams = query.team_id ? [requireTeam(ctx, params.org_id, query.team_id)] : accessibleTeams(ctx, org);
      return reply(200, { api_keys: listTeamApiKeys(ctx.world, teams, params.env, params.region).map(teamApiKeyView), next_cursor: null });
    },
  }),

  defineRoute({
    id: 'management.team_api_keys.create',
    method: 'POST',
    path: '/v1/org/:org_id/team_api_keys/:env/:region',
    auth: 'management',
    summary: 'Creates a team API key for the environment; it works on the data API at once.',
    request: { params: envRegionParams, body: lazySchema(() => z.object({ label: z.string(), team_id: uuid() })) },
    responses: {
      200: res(TeamApiKeyWire, 'ClientFacingTeamAPIKey'),
      400: 'Team in another region',
      403: 'Team key not bound',
      404: 'Team not found',
    },
    access: (ctx, p) => requireOrg(ctx, p.org_id),
    handle(ctx, { params, body }) {
      const team = requireTeam(ctx, params.org_id, body.team_id);
      assertTeamRegion(team, params.region);
      return reply(200, teamApiKeyView(createTeamApiKey(ctx.world, team, params.env, body.label, ctx.iso())));
    },
  }),

  defineRoute({
    id: 'management.team_api_keys.delete',
    method: 'DELETE',
    path: '/v1/org/:org_id/team_api_keys/:env/:region',
    auth: 'management',
    summary: 'Deletes team API keys by api_key_id (repeatable); they stop working at once. Answers {success, failure, not_found}.',
    request: { params: envRegionParams, query: lazySchema(() => z.object({ api_key_id: z.array(uuid()) })) },
    responses: { 200: res(BatchOutcome, '{success, failure, not_found}') },
    access: (ctx, p) => requireOrg(ctx, p.org_id),
    handle(ctx, { params, query, access: org }) {
      return reply(
        200,
        deleteTeamApiKeys(ctx.world, org, params.env, params.region, query.api_key_id, (teamId) => canAccessTeam(ctx, teamId)),
      );
    },
  }),
];
