/**
 * Link bulk operations (data `link` tag): import OAuth credentials as connections, export them,
 * pause connections, trigger new historical pulls, list the bulk ops. Imports run at once:
 * `wait_for_completion` answers 200, otherwise 202 with the same body (the reference leaves the
 * 202 body open). A historical trigger's pulls take minutes on the clock, more than the 20 seconds
 * `wait_for_completion` may wait: it answers 200 only when its op is already finished (no pull
 * could start), otherwise 202 with the op `in_progress`.
 *
 * LIMITATIONS
 * - Imported tokens are not checked against any provider.
 * - The answers of pause (`{user_ids_paused, user_ids_failed}`) and of the historical trigger
 *   (its `BulkOp`) are the sandbox's own: the reference declares no schema.
 * - A pause is not listed in `GET /v2/link/bulk_op` (the reference's `BulkOp.type` has no such kind).
 * - A triggered op stays `in_progress` (`pending` = its pulls still running) until the last pull
 *   it started finishes or its connection ends; then `success` with `ended_at` that time
 *   (`failure` when no pull could start). A pull counts as finished when every resource has
 *   finished, whatever the outcome (follow each resource with the historical-pull introspection).
 */
import { z } from 'zod';
import { defineRoute, reply } from '../../engine/route.js';
import { int, uuid } from '../../engine/schemas.js';
import { OAUTH_PROVIDERS } from '../../state/management/provider-enums.js';
import { bulkExport, bulkImport, bulkPause, bulkTriggerHistoricalPull, listBulkOps } from '../../state/link/bulk.js';
import { BulkExport, BulkImport, BulkOp, BulkOps, BulkPause, res } from '../../wire/schemas.js';
import { lazySchema } from '../../engine/lazy-schema.js';

const oauthProvider = lazySchema(() => z.enum(OAUTH_PROVIDERS));

const recipe = lazySchema(() =>
  z.object({
    user_id: uuid(),
    access_token: z.string(),
    refresh_token: z.string(),
    provider_id: z.string(),
    expires_at: z.number().int(),
    oauth_scopes: z.array(z.string()).nullish(),
  }),
);

export const bulkRoutes = [
  defineRoute({
    id: 'link.bulk_import',
    method: 'POST',
    path: '/v2/link/bulk_import',
    auth: 'team',
    summary: 'Import OAuth credentials: each live user gets the connection and its historical pull.',
    request: {
      body: lazySchema(() =>
        z.object({ provider: oauthProvider, connections: z.array(recipe), wait_for_completion: z.boolean().default(false) }),
      ),
    },
    responses: { 200: res(BulkImport, 'BulkImportConnectionsResponse'), 202: res(BulkImport, 'Same body'), 422: 'Validation error' },
    handle(ctx, { body }) {
      const result = bulkImport(
        ctx,
        body.provider,
        body.connections.map((c) => ({ ...c, oauth_scopes: c.oauth_scopes ?? null })),
      );
      return body.wait_for_completion ? reply(200, result) : reply(202, result);
    },
  }),
  defineRoute({
    id: 'link.bulk_export',
    method: 'POST',
    path: '/v2/link/bulk_export',
    auth: 'team',
    summary: "Export the credentials of a provider's connections, 100 a page.",
    request: {
      body: lazySchema(() => z.object({ user_ids: z.array(uuid()).nullish(), provider: oauthProvider, next_token: z.string().nullish() })),
    },
    responses: { 200: res(BulkExport, 'BulkExportConnectionsResponse'), 400: 'Invalid next_token', 422: 'Validation error' },
    handle: (ctx, { body }) => reply(200, bulkExport(ctx, body.provider, body.user_ids ?? null, body.next_token ?? null)),
  }),
  defineRoute({
    id: 'link.bulk_pause',
    method: 'POST',
    path: '/v2/link/bulk_pause',
    auth: 'team',
    summary:
      "Pause the provider's connections of some users: de-registered, marked paused (no new data, no pulls) until the user reconnects.",
    request: { body: lazySchema(() => z.object({ user_ids: z.array(uuid()), provider: oauthProvider })) },
    responses: { 200: res(BulkPause, '{user_ids_paused, user_ids_failed} (sandbox shape)'), 422: 'Validation error' },
    handle: (ctx, { body }) => reply(200, bulkPause(ctx, body.provider, body.user_ids)),
  }),
  defineRoute({
    id: 'link.bulk_trigger_historical_pull',
    method: 'POST',
    path: '/v2/link/bulk_trigger_historical_pull',
    auth: 'team',
    summary: 'Start a new historical pull of the provider for some users (on the sandbox clock); recorded as a bulk op.',
    request: {
      body: lazySchema(() =>
        z.object({ user_ids: z.array(uuid()), provider: oauthProvider, wait_for_completion: z.boolean().default(false) }),
      ),
    },
    responses: { 200: res(BulkOp, 'The BulkOp'), 202: res(BulkOp, 'Same body'), 422: 'Validation error' },
    handle(ctx, { body }) {
      const op = bulkTriggerHistoricalPull(ctx, body.provider, body.user_ids);
      return body.wait_for_completion && op.ended_at !== null ? reply(200, op) : reply(202, op);
    },
  }),
  defineRoute({
    id: 'link.bulk_ops',
    method: 'GET',
    path: '/v2/link/bulk_op',
    auth: 'team',
    summary: "The team environment's bulk ops, newest first.",
    request: { query: lazySchema(() => z.object({ next_cursor: z.string().nullish(), page_size: int({ min: 0, max: 50 }).default(10) })) },
    responses: { 200: res(BulkOps, 'BulkOpsResponse'), 400: 'Invalid cursor', 422: 'Validation error' },
    handle: (ctx, { query }) => reply(200, listBulkOps(ctx, query.next_cursor ?? null, query.page_size)),
  }),
];
