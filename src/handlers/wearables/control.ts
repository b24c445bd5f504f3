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
 * - `GET|POST /_sandbox/wearables/feed` `{enabled}`: the periodic new-data feed's switch.
 *
 * LIMITATIONS
 * - Finished pulls cannot be rewritten (409); reconnect the provider to pull again.
 */
import { z } from 'zod';
import { conflict, notFound, valueError } from '../../engine/errors.js';
import { json } from '../../engine/http-types.js';
import { defineRoute, type Ctx } from '../../engine/route.js';
import { bool, num, uuid } from '../../engine/schemas.js';
import {
  ERROR_TYPES,
  SIMULATED_RESOURCES,
  connectionView,
  pulledResources,
  wearablesOf,
  type PullOverride,
  type PullOverrideOutcome,
} from '../../state/wearables/connections.js';
import { NON_RETRIABLE, RETRIABLE, finishedAt, pullPlan, schedulePullAnnouncements } from '../../state/wearables/pulls.js';
import type { Partition } from '../../engine/tenancy.js';
import type { FeedMode } from '../../engine/world.js';
import { usersOf, type User } from '../../state/users/users.js';
import { checkProvider } from '../../state/wearables/wearable-data.js';
import { currentLink, failConnection, presetKey, reconnect } from '../../state/wearables/wearable-link.js';

const target = z.object({ user_id: uuid(), provider: z.string() });
const OUTCOMES = ['success', 'failure', 'retry_then_success', 'retry_then_failure'] as const;

function findUser(ctx: Ctx, userId: string, provider: string): { user: User; partition: Partition } {
  checkProvider(provider, 'path');
  for (const partition of ctx.world.tenancy.allPartitions()) {
    const user = usersOf(partition, ctx.world).liveUser(userId);
    if (user) return { user, partition };
  }
  throw notFound('User not found');
}

function requireConnection(ctx: Ctx, userId: string, provider: string) {
  const { user, partition } = findUser(ctx, userId, provider);
  const link = currentLink(ctx.world, partition, user.user_id, provider);
  if (!link?.current) throw notFound(`User ${userId} is not connected to ${provider}`);
  return { user, partition, conn: link.current };
}

export const wearablesControlRoutes = [
  defineRoute({
    id: 'sandbox.connections.error',
    method: 'POST',
    path: '/_sandbox/connections/:user_id/:provider/error',
    auth: 'control',
    summary: 'Puts a connection into error with a chosen error_type; emits provider.connection.error.',
    request: { params: target, body: z.object({ error_type: z.enum(ERROR_TYPES).default('token_refresh_failed'), message: z.string().min(1).optional() }).nullish() },
    responses: { 200: 'The connection (ClientFacingProviderWithStatus)', 404: 'Unknown user or not connected', 422: 'Bad provider or error_type' },
    handle(ctx, { params, body }) {
      const { user, partition, conn } = requireConnection(ctx, params.user_id, params.provider);
      failConnection(ctx.world, partition, user.user_id, conn, body?.error_type ?? 'token_refresh_failed', body?.message);
      return json(connectionView(conn));
    },
  }),

  defineRoute({
    id: 'sandbox.connections.reconnect',
    method: 'POST',
    path: '/_sandbox/connections/:user_id/:provider/reconnect',
    auth: 'control',
    summary: 'Brings an errored connection back to connected; emits provider.connection.created.',
    request: { params: target },
    responses: { 200: 'The connection', 404: 'Unknown user or not connected', 409: 'Not in error' },
    handle(ctx, { params }) {
      const { user, partition, conn } = requireConnection(ctx, params.user_id, params.provider);
      if (conn.status !== 'error') throw conflict('The connection is not in error');
      reconnect(ctx.world, partition, user.user_id, conn);
      return json(connectionView(conn));
    },
  }),

  defineRoute({
    id: 'sandbox.historical_pulls.force',
    method: 'POST',
    path: '/_sandbox/historical_pulls/:user_id/:provider',
    auth: 'control',
    summary: 'Forces historical-pull outcomes of the current connection (unfinished pulls) or of the next one.',
    request: {
      params: target,
      body: z.object({
        outcome: z.enum(OUTCOMES),
        resources: z.array(z.string()).min(1).optional(),
        error_details: z.enum([...RETRIABLE, ...NON_RETRIABLE]).optional(),
        finish_in_seconds: num({ min: 0 }).optional(),
      }),
    },
    responses: { 200: '{applies_to, resources, outcome}', 404: 'Unknown user', 409: 'Those pulls already finished', 422: 'Bad outcome, resource or error detail' },
    async handle(ctx, { params, body }) {
      const { user, partition } = findUser(ctx, params.user_id, params.provider);
      const retry = body.outcome.startsWith('retry');
      const failing = body.outcome === 'failure' || body.outcome === 'retry_then_failure';
      if (body.error_details) {
        const retriable = (RETRIABLE as readonly string[]).includes(body.error_details);
        if (retriable && !retry) throw valueError(['body', 'error_details'], `${body.error_details} is a retriable detail: use a retry_then_* outcome`, body.error_details);
        if (!retriable && !failing) throw valueError(['body', 'error_details'], `${body.error_details} is a non-retriable detail: use a failure outcome`, body.error_details);
      }
      for (const r of body.resources ?? []) {
        if (!SIMULATED_RESOURCES.has(r)) throw valueError(['body', 'resources'], `Unknown or unsimulated resource: ${r}`, r);
      }
      const outcome: PullOverrideOutcome = body.outcome;
      const override = (endAt: number | null, afterMs: number | null): PullOverride => ({ outcome, error: body.error_details ?? null, endAt, afterMs });
      const now = ctx.now();
      const state = wearablesOf(ctx.world);
      const link = currentLink(ctx.world, partition, user.user_id, params.provider);
      const conn = link?.current;
      if (!conn) {
        const after = body.finish_in_seconds !== undefined ? Math.round(body.finish_in_seconds * 1000) : null;
        const map = new Map<string, PullOverride>();
        for (const r of body.resources ?? ['*']) map.set(r, override(null, after));
        state.presets.set(presetKey(user.user_id, params.provider), map);
        return json({ applies_to: 'next_connection', user_id: user.user_id, provider: params.provider, resources: body.resources ?? null, outcome });
      }
      const pulled = pulledResources(conn);
      const wanted = body.resources ?? pulled;
      for (const r of wanted) if (!pulled.includes(r)) throw valueError(['body', 'resources'], `${params.provider} does not pull ${r} for this connection`, r);
      const open = wanted.filter((r) => finishedAt(pullPlan(ctx.world.seed, user.user_id, conn, r)) > now);
      if (open.length === 0) throw conflict(`The historical pull of ${wanted.join(', ')} already finished`);
      const endAt = body.finish_in_seconds !== undefined ? now + Math.round(body.finish_in_seconds * 1000) : null;
      conn.overrides ??= new Map();
      for (const r of open) conn.overrides.set(r, override(endAt, null));
      schedulePullAnnouncements(ctx.world, partition, user.user_id, conn);
      await ctx.world.scheduler.runDue();
      return json({ applies_to: 'current_connection', user_id: user.user_id, provider: params.provider, resources: open, outcome });
    },
  }),

  defineRoute({
    id: 'sandbox.wearables.feed.get',
    method: 'GET',
    path: '/_sandbox/wearables/feed',
    auth: 'control',
    summary: 'The periodic wearable feed (new data every 2 simulated hours): auto (only where someone listens), on or off.',
    handle: (ctx) => json(feedState(wearablesOf(ctx.world).feedMode)),
  }),

  defineRoute({
    id: 'sandbox.wearables.feed.set',
    method: 'POST',
    path: '/_sandbox/wearables/feed',
    auth: 'control',
    summary: 'Sets the periodic wearable feed: {"mode": "auto"|"on"|"off"} or {"enabled": bool} (true is "on").',
    request: {
      body: z.union([z.object({ mode: z.enum(['auto', 'on', 'off']) }).strict(), z.object({ enabled: bool() }).strict()]),
    },
    handle(ctx, { body }) {
      const mode = 'mode' in body ? body.mode : body.enabled ? 'on' : 'off';
      wearablesOf(ctx.world).feedMode = mode;
      return json(feedState(mode));
    },
  }),
];

function feedState(mode: FeedMode): { enabled: boolean; mode: FeedMode; interval_seconds: number } {
  return { enabled: mode !== 'off', mode, interval_seconds: 7200 };
}
