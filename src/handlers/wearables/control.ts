/**
 * Sandbox control of wearable connections (design.md section 5): put a connection into `error`
 * with a chosen error type and back, force historical-pull outcomes, pause the periodic feed.
 * Users are found by id across the sandbox's team environments.
 *
 * - `POST /_sandbox/connections/:user_id/:provider/error` `{error_type?, message?}`: status
 *   `error`, `error_details` set, `provider.connection.error` emitted; data stops arriving.
 * - `POST /_sandbox/connections/:user_id/:provider/reconnect`: back to `connected`,
 *   `provider.connection.created` emitted (as when the user re-authorises); missed data arrives.
 * - `POST /_sandbox/historical_pulls/:user_id/:provider` `{outcome, resources?, error_details?,
 *   finish_in_seconds?}`: forces the outcome of the current connection's unfinished pulls, or,
 *   without a current connection, of the next connection's pulls.
 * - `GET|POST /_sandbox/wearables/feed` `{enabled}`: the periodic new-data feed's switch;
 *   `{revision_rate, team_id?}`: the share of nights, activity days and workouts a later sync revises (sandbox-wide or one team).
 * - `GET|POST /_sandbox/wearables/health-sdk` `{connection_policy: auto|explicit, team_id?,
 *   environment?}`: the Health SDK's connection policy (sandbox-wide, one team, or one team
 *   environment): what deregistering Apple HealthKit, Health Connect or Samsung Health does.
 *
 * LIMITATIONS
 * - Finished pulls cannot be rewritten (409); reconnect the provider to pull again.
 */
import { z } from 'zod';
import { defineRoute, reply } from '../../engine/route.js';
import { bool, num, uuid } from '../../engine/schemas.js';
import { ERROR_TYPES } from '../../state/wearables/connections.js';
import {
  PULL_ERROR_DETAILS,
  PULL_OUTCOMES,
  failProviderConnection,
  feedState,
  forcePullOutcome,
  reconnectProvider,
  setFeedMode,
  setFeedRevisionRate,
} from '../../state/wearables/operations.js';
import { CONNECTION_POLICIES, healthSdkSettings, setHealthSdkPolicy } from '../../state/wearables/health-sdk.js';
import { ENVIRONMENTS } from '../../engine/tenancy.js';
import { Connection, FeedState, HealthSdkSettings, HistoricalPullForced, res } from '../../wire/schemas.js';
import { lazySchema } from '../../engine/lazy-schema.js';

const target = lazySchema(() => z.object({ user_id: uuid(), provider: z.string() }));

export const wearablesControlRoutes = [
  defineRoute({
    id: 'sandbox.connections.error',
    method: 'POST',
    path: '/_sandbox/connections/:user_id/:provider/error',
    auth: 'control',
    summary: 'Puts a connection into error with a chosen error_type; emits provider.connection.error.',
    request: {
      params: target,
      body: lazySchema(() =>
        z.object({ error_type: z.enum(ERROR_TYPES).default('token_refresh_failed'), message: z.string().min(1).optional() }).nullish(),
      ),
    },
    responses: {
      200: res(Connection, 'The connection (ClientFacingProviderWithStatus)'),
      404: 'Unknown user or not connected',
      422: 'Bad provider or error_type',
    },
    handle: (ctx, { params, body }) =>
      reply(
        200,
        failProviderConnection(ctx.world, params.user_id, params.provider, body?.error_type ?? 'token_refresh_failed', body?.message),
      ),
  }),

  defineRoute({
    id: 'sandbox.connections.reconnect',
    method: 'POST',
    path: '/_sandbox/connections/:user_id/:provider/reconnect',
    auth: 'control',
    summary: 'Brings an errored connection back to connected; emits provider.connection.created.',
    request: { params: target },
    responses: { 200: res(Connection, 'The connection'), 404: 'Unknown user or not connected', 409: 'Not in error' },
    handle: (ctx, { params }) => reply(200, reconnectProvider(ctx.world, params.user_id, params.provider)),
  }),

  defineRoute({
    id: 'sandbox.historical_pulls.force',
    method: 'POST',
    path: '/_sandbox/historical_pulls/:user_id/:provider',
    auth: 'control',
    summary: 'Forces historical-pull outcomes of the current connection (unfinished pulls) or of the next one.',
    request: {
      params: target,
      body: lazySchema(() =>
        z.object({
          outcome: z.enum(PULL_OUTCOMES),
          resources: z.array(z.string()).min(1).optional(),
          error_details: z.enum(PULL_ERROR_DETAILS).optional(),
          finish_in_seconds: num({ min: 0 }).optional(),
        }),
      ),
    },
    responses: {
      200: res(HistoricalPullForced, '{applies_to, resources, outcome}'),
      404: 'Unknown user',
      409: 'Those pulls already finished',
      422: 'Bad outcome, resource or error detail',
    },
    async handle(ctx, { params, body }) {
      const result = forcePullOutcome(ctx.world, params.user_id, params.provider, body);
      if (result.applies_to === 'current_connection') await ctx.world.scheduler.runDue();
      return reply(200, result);
    },
  }),

  defineRoute({
    id: 'sandbox.wearables.feed.get',
    method: 'GET',
    path: '/_sandbox/wearables/feed',
    auth: 'control',
    summary: 'The periodic wearable feed (new data every 2 simulated hours): auto (only where someone listens), on or off.',
    responses: { 200: res(FeedState, 'OK') },
    handle: (ctx) => reply(200, feedState(ctx.world)),
  }),

  defineRoute({
    id: 'sandbox.wearables.feed.set',
    method: 'POST',
    path: '/_sandbox/wearables/feed',
    auth: 'control',
    summary:
      'Sets the periodic wearable feed: {"mode": "auto"|"on"|"off"} or {"enabled": bool} (true is "on"), or the share of nights, activity days and workouts a later sync revises (daily.data.{sleep,activity,workouts}.updated): {"revision_rate": 0..1, "team_id"?}.',
    request: {
      body: lazySchema(() =>
        z.union([
          z.object({ mode: z.enum(['auto', 'on', 'off']) }).strict(),
          z.object({ enabled: bool() }).strict(),
          z.object({ revision_rate: num({ min: 0, max: 1 }), team_id: uuid().optional() }).strict(),
        ]),
      ),
    },
    responses: { 200: res(FeedState, 'OK'), 404: 'Unknown team', 422: 'Bad mode or revision_rate' },
    handle(ctx, { body }) {
      if ('revision_rate' in body) return reply(200, setFeedRevisionRate(ctx.world, body.revision_rate, body.team_id));
      return reply(200, setFeedMode(ctx.world, 'mode' in body ? body.mode : body.enabled ? 'on' : 'off'));
    },
  }),

  defineRoute({
    id: 'sandbox.wearables.health_sdk.get',
    method: 'GET',
    path: '/_sandbox/wearables/health-sdk',
    auth: 'control',
    summary:
      "The Health SDK's connection policy, sandbox-wide and per team environment: auto (Auto Connect, the default) or explicit (Explicit Connect).",
    responses: { 200: res(HealthSdkSettings, '{connection_policy, team_connection_policies}') },
    handle: (ctx) => reply(200, healthSdkSettings(ctx.world)),
  }),

  defineRoute({
    id: 'sandbox.wearables.health_sdk.set',
    method: 'POST',
    path: '/_sandbox/wearables/health-sdk',
    auth: 'control',
    summary:
      'Sets the Health SDK\'s connection policy ({"connection_policy": "auto"|"explicit", "team_id"?, "environment"?}): with explicit, deregistering Apple HealthKit, Health Connect or Samsung Health removes the connection and only the SDK\'s connect (POST /v2/link/provider/manual/{provider}) makes one; with auto (the default) deregistering them has no effect.',
    request: {
      body: lazySchema(() =>
        z
          .object({
            connection_policy: z.enum(CONNECTION_POLICIES),
            team_id: uuid().optional(),
            environment: z.enum(ENVIRONMENTS as ['sandbox', 'production']).optional(),
          })
          .strict()
          .refine((b) => b.environment === undefined || b.team_id !== undefined, {
            message: 'environment needs a team_id',
            path: ['environment'],
          }),
      ),
    },
    responses: { 200: res(HealthSdkSettings, '{connection_policy, team_connection_policies}'), 404: 'Unknown team', 422: 'Bad policy' },
    handle: (ctx, { body }) => reply(200, setHealthSdkPolicy(ctx.world, body)),
  }),
];
