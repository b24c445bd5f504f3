/**
 * Team data-pull preferences per environment and region (management OpenAPI
 * `/v1/org/{org_id}/team_data_pull_preferences/{env}/{region}`): how many days of history new
 * connections pull, per provider with per-resource overrides. Rules in
 * `src/state/management/preferences.ts`; the historical pulls read them through
 * `historicalDaysToPull`.
 *
 * LIMITATIONS
 * - The limit (`historical_days_to_pull_limit`) is the sandbox's: 365 days for every provider and resource.
 * - GET lists the accessible teams of the region (filter `team_id`), `limit` teams per page
 *   (default 5) with `next_cursor`; a team without preferences shows `providers: {}`.
 * - Delete without `provider` removes every provider's preferences; without `team_id`, those of
 *   every team the key may act on in the region. It answers null.
 */
import { z } from 'zod';
import { defineRoute, reply } from '../../engine/route.js';
import { int, uuid } from '../../engine/schemas.js';
import { requireOrg } from '../../state/management/access.js';
import { CLIENT_FACING_RESOURCES, decodeCursor, encodeCursor, envRegionParams, regionTeams } from '../../state/management/common.js';
import { deletePullPreferences, pullPreferencesView, upsertPullPreferences } from '../../state/management/preferences.js';
import type { Team } from '../../engine/tenancy.js';
import { DataPullPreferences, res } from '../../wire/schemas.js';
import { lazySchema } from '../../engine/lazy-schema.js';

const PATH = '/v1/org/:org_id/team_data_pull_preferences/:env/:region';
const PULL_PROVIDERS = [
  'oura',
  'fitbit',
  'garmin',
  'strava',
  'withings',
  'peloton',
  'wahoo',
  'zwift',
  'freestyle_libre',
  'abbott_libreview',
  'eight_sleep',
  'renpho',
  'omron',
  'dexcom_v3',
  'hammerhead',
  'polar',
  'cronometer',
  'kardia',
  'whoop_v2',
  'my_fitness_pal_v2',
  'map_my_fitness',
  'runkeeper',
  'apple_health_kit',
  'google_fit',
  'beurer_api',
  'ultrahuman',
  'google_health',
] as const;
const provider = lazySchema(() => z.enum(PULL_PROVIDERS));
const days = lazySchema(() => z.object({ historical_days_to_pull: z.number().int() }));
const providerPreference = lazySchema(() =>
  z.object({
    default: days,
    resource_overrides: z.partialRecord(z.enum(CLIENT_FACING_RESOURCES), days).nullish(),
  }),
);

export const dataPullPreferenceRoutes = [
  defineRoute({
    id: 'management.data_pull_preferences.get',
    method: 'GET',
    path: PATH,
    auth: 'management',
    summary: "Data-pull preferences of the region's teams (filters team_id, provider; limit teams per page, default 5).",
    request: {
      params: envRegionParams,
      query: lazySchema(() =>
        z.object({
          team_id: z.array(uuid()).default([]),
          provider: z.array(provider).default([]),
          next_cursor: z.string().nullish(),
          limit: int({ min: 1, max: 100 }).default(5),
        }),
      ),
    },
    responses: { 200: res(DataPullPreferences, 'TeamDataPullPreferencesResponse'), 400: 'Team in another region', 404: 'Team not found' },
    access: (ctx, p) => requireOrg(ctx, p.org_id),
    handle(ctx, { params, query }) {
      const teams = regionTeams(ctx, params.org_id, params.region, query.team_id);
      const seqOf = (t: Team) => ctx.world.tenancy.teamSequence(t.id) ?? 0;
      const after = query.next_cursor ? decodeCursor('pull_preferences', query.next_cursor) : 0;
      const rest = teams.filter((t) => seqOf(t) > after);
      const page = rest.slice(0, query.limit);
      const last = page[page.length - 1];
      return reply(200, {
        data_pull_preferences: page.map((t) => pullPreferencesView(ctx.world, t, params.env, query.provider)),
        next_cursor: rest.length > query.limit && last ? encodeCursor('pull_preferences', seqOf(last)) : null,
      });
    },
  }),

  defineRoute({
    id: 'management.data_pull_preferences.upsert',
    method: 'POST',
    path: PATH,
    auth: 'management',
    summary:
      "Sets the named providers' preferences (0 to 365 days, per-resource overrides) for each team; answers those teams' preferences.",
    request: {
      params: envRegionParams,
      body: lazySchema(() => z.object({ team_ids: z.array(uuid()).min(1), providers: z.partialRecord(provider, providerPreference) })),
    },
    responses: {
      200: res(DataPullPreferences, 'TeamDataPullPreferencesResponse'),
      400: 'Team in another region',
      404: 'Team not found',
      422: 'Invalid body or day count',
    },
    access: (ctx, p) => requireOrg(ctx, p.org_id),
    handle(ctx, { params, body }) {
      const teams = regionTeams(ctx, params.org_id, params.region, body.team_ids);
      const providers = Object.fromEntries(
        Object.entries(body.providers).map(([p, v]) => [p, { default: v.default, resource_overrides: v.resource_overrides ?? null }]),
      );
      upsertPullPreferences(ctx.world, teams, params.env, providers);
      return reply(200, { data_pull_preferences: teams.map((t) => pullPreferencesView(ctx.world, t, params.env, [])), next_cursor: null });
    },
  }),

  defineRoute({
    id: 'management.data_pull_preferences.delete',
    method: 'DELETE',
    path: PATH,
    auth: 'management',
    summary: 'Removes preferences (filters team_id, provider; none means all).',
    request: {
      params: envRegionParams,
      query: lazySchema(() => z.object({ team_id: z.array(uuid()).default([]), provider: z.array(provider).default([]) })),
    },
    responses: {
      200: res(
        lazySchema(() => z.null()),
        'null',
      ),
      400: 'Team in another region',
      404: 'Team not found',
    },
    access: (ctx, p) => requireOrg(ctx, p.org_id),
    handle(ctx, { params, query }) {
      const teams = regionTeams(ctx, params.org_id, params.region, query.team_id);
      deletePullPreferences(ctx.world, teams, params.env, query.provider);
      return reply(200, null);
    },
  }),
];
