/**
 * Path parameters of the webhook management routes and how they resolve to the caller's team
 * environment (the routes' access hook) and endpoint (shared by the webhook and header routes; no
 * routes here).
 */
import { z } from 'zod';
import type { Ctx } from '../../engine/route.js';
import { uuid } from '../../engine/schemas.js';
import type { Environment, Partition } from '../../engine/tenancy.js';
import { requireTeam } from '../../state/management/access.js';
import { endpointById, type WebhookEndpoint } from '../../state/webhooks/webhooks.js';
import { lazySchema } from '../../engine/lazy-schema.js';

export const teamEnvParams = lazySchema(() =>
  z.object({
    org_id: uuid(),
    team_id: uuid(),
    environment: z.enum(['production', 'sandbox']),
  }),
);
export const webhookParams = lazySchema(() => teamEnvParams.extend({ webhook_id: z.string() }));

type TeamEnv = z.output<typeof teamEnvParams>;

/**
 * The routes' `access` hook: the team environment a management call acts on (the access rules,
 * 403/404, answered before the query and body are parsed, like the other management routes).
 */
export function managedPartition(ctx: Ctx, params: TeamEnv): Partition {
  const team = requireTeam(ctx, params.org_id, params.team_id);
  return ctx.world.tenancy.partition(team, params.environment as Environment);
}

/** The endpoint named in the path, within the team environment the access hook resolved (404 otherwise). */
export function managedEndpoint(ctx: Ctx, partition: Partition, webhookId: string): WebhookEndpoint {
  return endpointById({ world: ctx.world, partition: partition }, webhookId);
}
