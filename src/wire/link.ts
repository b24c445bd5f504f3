/** Link: tokens, the widget's API, provider connection flows, bulk operations. */
import { z } from 'zod';
import { lazySchema } from '../engine/lazy-schema.js';
import { dateTime, JsonObject, uuidString } from './common.js';

export const LinkToken = lazySchema(() => z.object({ link_token: z.string(), link_web_url: z.string() }));

export const LinkProvider = lazySchema(() =>
  z.object({
    id: z.number().int(),
    name: z.string(),
    slug: z.string(),
    description: z.string(),
    logo: z.string(),
    oauth_url: z.string().nullable(),
    auth_type: z.string(),
    form_components: JsonObject.nullable(),
  }),
);

export const OAuthProvider = lazySchema(() =>
  z.object({
    name: z.string(),
    slug: z.string(),
    description: z.string(),
    logo: z.string(),
    group: z.string().nullable(),
    oauth_url: z.string().nullable(),
    auth_type: z.string(),
    source_type: z.string(),
    is_active: z.boolean(),
    backfill_num_days: z.number().int().nullable(),
    id: z.number().int(),
  }),
);

/** What the password, email and MFA flows answer. */
export const ConnectionResult = lazySchema(() =>
  z.object({
    redirect_url: z.string().nullable(),
    provider: z.string(),
    provider_id: z.string().nullable(),
    state: z.string().nullable(),
    error_type: z.string().nullable(),
    error: z.string().nullable(),
    provider_mfa: JsonObject.nullable(),
    connected: z.boolean(),
  }),
);

export const LinkState = lazySchema(() =>
  z.object({
    state: z.string(),
    user_id: uuidString,
    team_id: uuidString,
    provider: z.string().nullable(),
    filter_on_providers: z.array(z.string()).nullable(),
    redirect_url: z.string().nullable(),
    expires_at: dateTime,
    pending_mfa: JsonObject.nullable(),
  }),
);

export const LinkStart = lazySchema(() =>
  z.object({
    provider: z.string(),
    auth_type: z.string(),
    oauth_url: z.string().nullable(),
    link_web_url: z.string(),
  }),
);
export const LinkCode = lazySchema(() => z.object({ code: z.string(), exchange_url: z.string(), expires_at: dateTime }));
export const DemoConnected = lazySchema(() => z.object({ success: z.boolean(), detail: z.string() }));

export const BulkImport = lazySchema(() => z.object({ user_ids_imported: z.array(z.string()), user_ids_failed: z.array(z.string()) }));
export const BulkExport = lazySchema(() =>
  z.object({
    data: z.array(
      z.object({
        user_id: uuidString,
        access_token: z.string(),
        refresh_token: z.string().nullable(),
        provider_id: z.string().nullable(),
        expires_at: z.number().nullable(),
        oauth_scopes: z.array(z.string()).nullish(),
      }),
    ),
    next_token: z.string().nullable(),
  }),
);
export const BulkOp = lazySchema(() =>
  z.object({
    type: z.string(),
    status: z.string(),
    provider: z.string(),
    pending: z.number().int(),
    processed: z.number().int(),
    started_at: dateTime,
    ended_at: dateTime.nullable(),
  }),
);
export const BulkOps = lazySchema(() => z.object({ data: z.array(BulkOp), next_cursor: z.string().nullable() }));
/** `POST /v2/link/bulk_pause` (the reference declares no schema): users paused, users without that connection. */
export const BulkPause = lazySchema(() => z.object({ user_ids_paused: z.array(z.string()), user_ids_failed: z.array(z.string()) }));
