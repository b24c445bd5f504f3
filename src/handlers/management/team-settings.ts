/**
 * Per-team management settings (management OpenAPI `/v1/org/{org_id}/team/{team_id}/scope_requirements`,
 * `.../create_api_access_token`, `.../{environment}/event_delivery_metric`). A team key may act
 * on its bound teams. Rules in `src/state/management/preferences.ts` and `tokens-metrics.ts`.
 *
 * LIMITATIONS
 * - Scope requirements: a provider given as null loses its requirement, an absent one keeps it;
 *   a scope in both lists is refused (422). Upsert answers the team's requirements.
 * - Access tokens last `ACCESS_TOKEN_TTL_S` (1 hour) of sandbox time; the data API takes one as
 *   `Authorization: Bearer <token>` for its team environment (`src/engine/auth.ts`).
 * - Event delivery metrics count webhook delivery attempts (series `status` = success / failed)
 *   per step of `interval` over the last 24 steps, from the delivery log (bounded by its retention).
 */
import { z } from 'zod';
import { defineRoute, reply } from '../../engine/route.js';
import { uuid, withRules } from '../../engine/schemas.js';
import { requireTeam } from '../../state/management/access.js';
import { environmentParam } from '../../state/management/common.js';
import { CREDENTIAL_OAUTH_PROVIDERS } from '../../state/management/custom-credentials.js';
import {
  REQUIRABLE_SCOPES,
  scopeRequirementsRule,
  scopeRequirementsView,
  upsertScopeRequirements,
} from '../../state/management/preferences.js';
import { createAccessToken, eventDeliveryMetric } from '../../state/management/tokens-metrics.js';
import { EventDeliveryMetric, res, TeamAccessToken, TeamScopeRequirementsList } from '../../wire/schemas.js';
import { lazySchema } from '../../engine/lazy-schema.js';

const teamParams = lazySchema(() => z.object({ org_id: uuid(), team_id: uuid() }));

const SCOPES = REQUIRABLE_SCOPES;

function requirement(scopes: readonly string[]) {
  const scope = z.enum(scopes as [string, ...string[]]);
  return z.object({ user_must_grant: z.array(scope), user_may_grant: z.array(scope) }).nullish();
}

const scopeBody = lazySchema(() =>
  z.object(
    Object.fromEntries(Object.entries(SCOPES).map(([p, s]) => [p, requirement(s)])) as Record<
      keyof typeof SCOPES,
      ReturnType<typeof requirement>
    >,
  ),
);

export const teamSettingRoutes = [
  defineRoute({
    id: 'management.team.scope_requirements.get',
    method: 'GET',
    path: '/v1/org/:org_id/team/:team_id/scope_requirements',
    auth: 'management',
    summary: 'The scopes the team requires users to grant (must) and lets them grant (may), per OAuth provider.',
    request: { params: teamParams, query: lazySchema(() => z.object({ provider: z.enum(CREDENTIAL_OAUTH_PROVIDERS).nullish() })) },
    responses: { 200: res(TeamScopeRequirementsList, 'TeamScopeRequirementsResponse'), 404: 'Team not found' },
    access: (ctx, p) => requireTeam(ctx, p.org_id, p.team_id),
    handle(ctx, { params, query, access: team }) {
      return reply(200, scopeRequirementsView(ctx.world, team, query.provider ?? null));
    },
  }),

  defineRoute({
    id: 'management.team.scope_requirements.upsert',
    method: 'POST',
    path: '/v1/org/:org_id/team/:team_id/scope_requirements',
    auth: 'management',
    summary: "Sets scope requirements per provider (null removes one, absent keeps it); answers the team's requirements.",
    request: { params: teamParams, body: lazySchema(() => withRules(scopeBody, scopeRequirementsRule)) },
    responses: {
      200: res(TeamScopeRequirementsList, 'TeamScopeRequirementsResponse'),
      404: 'Team not found',
      422: 'Unknown scope, or a scope in both lists',
    },
    access: (ctx, p) => requireTeam(ctx, p.org_id, p.team_id),
    handle(ctx, { params, body, access: team }) {
      upsertScopeRequirements(ctx.world, team, body);
      return reply(200, scopeRequirementsView(ctx.world, team, null));
    },
  }),

  defineRoute({
    id: 'management.team.access_token',
    method: 'POST',
    path: '/v1/org/:org_id/team/:team_id/create_api_access_token',
    auth: 'management',
    summary: 'A short-lived API access token for the team environment ({access_token, expires_in}).',
    request: { params: teamParams, body: lazySchema(() => z.object({ env: environmentParam() })) },
    responses: {
      200: res(TeamAccessToken, 'CreateTeamAccessTokenResponse'),
      404: 'Team not found',
    },
    access: (ctx, p) => requireTeam(ctx, p.org_id, p.team_id),
    handle(ctx, { params, body, access: team }) {
      return reply(200, createAccessToken(ctx.world, team, body.env, ctx.now()));
    },
  }),

  defineRoute({
    id: 'management.team.event_delivery_metric',
    method: 'GET',
    path: '/v1/org/:org_id/team/:team_id/:environment/event_delivery_metric',
    auth: 'management',
    summary: 'Webhook delivery attempts per step (5m, 15m, 1h, 1d) over the last 24 steps, by outcome, as a Prometheus matrix.',
    request: {
      params: lazySchema(() => teamParams.extend({ environment: environmentParam() })),
      query: lazySchema(() => z.object({ interval: z.enum(['5m', '15m', '1h', '1d']).default('1h') })),
    },
    responses: {
      200: res(EventDeliveryMetric, 'PrometheusQueryResponse'),
      404: 'Team not found',
    },
    access: (ctx, p) => requireTeam(ctx, p.org_id, p.team_id),
    handle(ctx, { params, query, access: team }) {
      return reply(200, eventDeliveryMetric(ctx.world, team, params.environment, query.interval, ctx.now()));
    },
  }),
];
