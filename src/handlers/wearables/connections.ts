/**
 * Provider connections (spec 2.2, 4.1; api-facts A.1, A.8, C, H).
 *
 * Simulates demo connections (`POST /v2/link/connect/demo`: connection created, 30 days of
 * history backfilled through a historical pull, `provider.connection.created` emitted), the
 * user's connections with status, resource availability (scope requirements) and error details
 * (`GET /v2/user/providers/:user_id`), and deregistration (`DELETE /v2/user/:user_id/:provider`).
 * The user's `connected_sources` follow the current connections.
 *
 * LIMITATIONS
 * - Only demo connections can be created; link tokens, OAuth, password and email flows are not
 *   simulated (404 like any unknown route). Seeded users come with non-demo connections.
 * - Demo users do not expire after 7 days as in the real sandbox.
 * - `external_user_id` is always null; `paused` (ingestion end) is not simulated.
 * - The texts of the demo success detail and of the 400 errors are the sandbox's own.
 */
import { z } from 'zod';
import { defineRoute, reply } from '../../engine/route.js';
import { uuid } from '../../engine/schemas.js';
import { DEMO_PROVIDER_ENUM } from '../../state/wearables/catalogue.js';
import { WEARABLES_ERRORS } from '../../state/wearables/errors.js';
import { connectDemoProvider, deregisterProvider, listConnections } from '../../state/wearables/operations.js';
import { checkProvider, requireUser } from '../../state/wearables/wearable-data.js';
import { Connection, DemoConnected, Success, listOf, res } from '../../wire/schemas.js';
import { lazySchema } from '../../engine/lazy-schema.js';

export const connectionRoutes = [
  defineRoute({
    id: 'link.connect_demo',
    method: 'POST',
    path: '/v2/link/connect/demo',
    auth: 'team',
    summary: 'Connect a user to a demo provider (sandbox only): 30 days of history are pulled.',
    request: { body: lazySchema(() => z.object({ user_id: uuid(), provider: z.enum(DEMO_PROVIDER_ENUM) })) },
    responses: {
      200: res(DemoConnected, '{success, detail}'),
      400: 'Production environment, already connected, or mixing with real connections',
      404: 'Unknown user',
      422: 'Validation error',
    },
    handle(ctx, { body }) {
      const user = requireUser(ctx, body.user_id);
      connectDemoProvider(ctx, user.user_id, body.provider);
      return reply(200, { success: true, detail: WEARABLES_ERRORS.demoConnected(user.user_id, body.provider) });
    },
  }),

  defineRoute({
    id: 'user.providers',
    method: 'GET',
    path: '/v2/user/providers/:user_id',
    auth: 'team',
    summary: "The user's connections: status, resource availability, error details.",
    request: { params: lazySchema(() => z.object({ user_id: uuid() })) },
    responses: {
      200: res(
        lazySchema(() => listOf('providers', Connection)),
        '{providers: [...]}',
      ),
      404: 'Unknown user',
      422: 'Malformed user_id',
    },
    handle(ctx, { params }) {
      const user = requireUser(ctx, params.user_id);
      return reply(200, { providers: listConnections(ctx, user.user_id) });
    },
  }),

  defineRoute({
    id: 'user.deregister_provider',
    method: 'DELETE',
    path: '/v2/user/:user_id/:provider',
    auth: 'team',
    summary: 'Deregister one provider connection of a user (data already delivered stays readable).',
    request: { params: lazySchema(() => z.object({ user_id: uuid(), provider: z.string() })) },
    responses: { 200: res(Success, '{success: true}'), 404: 'Unknown user or not connected', 422: 'Malformed user_id or unknown provider' },
    handle(ctx, { params }) {
      checkProvider(params.provider, 'path');
      const user = requireUser(ctx, params.user_id);
      deregisterProvider(ctx, user.user_id, params.provider);
      return reply(200, { success: true });
    },
  }),
];
