/**
 * Link (data `link` tag, api-facts I): link tokens with expiry on the sandbox clock, provider
 * filters and redirect URL; the token's provider list; OAuth connect through a consent page
 * on the sandbox itself (`widget.ts`); password connect with an MFA step; e-mail connect;
 * manual providers; link codes for the mobile SDK; the SDK-only `isValid`, `state`, `start`,
 * `auth` and `auth/email`. Documented sandbox credentials decide each connect's outcome.
 *
 * LIMITATIONS
 * - Bulk operations are in `bulk.ts` (pause and trigger historical pull are not simulated).
 * - Link codes are issued and kept but not exchanged (the mobile SDK's exchange is not served).
 * - The shapes of `isValid`, `state` and `start` are the sandbox's own (the reference gives
 *   only "an object"); see docs/simulated/link.md.
 */
import { z } from 'zod';
import { defineRoute, reply, type Ctx } from '../../engine/route.js';
import { uuid } from '../../engine/schemas.js';
import {
  completeMfa,
  connectEmail,
  connectManual,
  connectPassword,
  createLinkToken,
  listLinkProviders,
  startOAuth,
} from '../../state/link/connect.js';
import { PROVIDER_SLUG_ENUM } from '../../state/wearables/catalogue.js';
import { createLinkCode, startConnect, tokenState, tokenValidity } from '../../state/link/token-info.js';
import {
  ConnectionResult,
  LinkCode,
  LinkProvider,
  LinkStart,
  LinkState,
  LinkToken,
  OAuthProvider,
  Success,
  res,
} from '../../wire/schemas.js';
import { lazySchema } from '../../engine/lazy-schema.js';

const provider = lazySchema(() => z.enum(PROVIDER_SLUG_ENUM));
const providerParams = lazySchema(() => z.object({ provider: z.string().min(1) }));
const linkToken = (ctx: Ctx): string | undefined => ctx.request.headers['x-vital-link-token'];

const tokenBody = lazySchema(() =>
  z.object({
    user_id: uuid(),
    provider: provider.nullish(),
    redirect_url: z.string().nullish(),
    filter_on_providers: z.array(provider).min(1).nullish(),
    on_error: z.literal('redirect').nullish(),
    on_close: z.literal('redirect').nullish(),
  }),
);

const passwordBody = lazySchema(() => z.object({ username: z.string(), password: z.string(), region: z.string().nullish() }));
const mfaBody = lazySchema(() => z.object({ mfa_code: z.string() }));
const emailBody = lazySchema(() => z.object({ email: z.string(), provider: provider.nullish(), region: z.string().nullish() }));
const authType = lazySchema(() => z.enum(['password', 'oauth', 'email']));

export const linkRoutes = [
  defineRoute({
    id: 'link.token',
    method: 'POST',
    path: '/v2/link/token',
    auth: 'team',
    summary: 'Create a link token (60 minutes on the sandbox clock) and the widget URL.',
    request: { body: tokenBody },
    responses: { 200: res(LinkToken, 'LinkTokenExchangeResponse'), 404: 'Unknown user', 422: 'Validation error' },
    handle: (ctx, { body }) => reply(200, createLinkToken(ctx, body)),
  }),
  defineRoute({
    id: 'link.token_is_valid',
    method: 'POST',
    path: '/v2/link/token/isValid',
    auth: 'team',
    summary: 'Whether a link token is usable: {success: true}, else 400 with the Link error type.',
    request: { body: lazySchema(() => z.object({ token: z.string() })) },
    responses: { 200: res(Success, '{success: true}'), 400: 'invalid_token, token_expired or token_consumed' },
    handle: (ctx, { body }) => reply(200, tokenValidity(ctx.world, body.token)),
  }),
  defineRoute({
    id: 'link.state',
    method: 'GET',
    path: '/v2/link/state',
    auth: 'none',
    summary: 'The state of the link token in x-vital-link-token.',
    request: {},
    responses: { 200: res(LinkState, '{state, user_id, provider, ...}'), 400: 'invalid_token', 422: 'Missing header' },
    handle: (ctx) => reply(200, tokenState(ctx.world, linkToken(ctx))),
  }),
  defineRoute({
    id: 'link.start',
    method: 'POST',
    path: '/v2/link/start',
    auth: 'team',
    summary: 'Start connecting one provider with a link token: where to send the user.',
    request: { body: lazySchema(() => z.object({ link_token: z.string(), provider })) },
    responses: { 200: res(LinkStart, '{provider, auth_type, oauth_url, link_web_url}'), 400: 'Unusable token' },
    handle: (ctx, { body }) => reply(200, startConnect(ctx.world, body.link_token, body.provider)),
  }),
  defineRoute({
    id: 'link.code_create',
    method: 'POST',
    path: '/v2/link/code/create',
    auth: 'team',
    summary: 'A link code for the mobile SDK (default expiry one hour).',
    request: { query: lazySchema(() => z.object({ user_id: uuid(), expires_at: z.iso.datetime({ offset: true }).nullish() })) },
    responses: { 200: res(LinkCode, 'VitalTokenCreatedResponse'), 404: 'Unknown user', 422: 'Validation error' },
    handle: (ctx, { query }) => reply(200, createLinkCode(ctx, query.user_id, query.expires_at ? Date.parse(query.expires_at) : null)),
  }),
  defineRoute({
    id: 'link.providers',
    method: 'GET',
    path: '/v2/link/providers',
    auth: 'none',
    summary: 'The providers the link token may connect (SourceLink).',
    request: {},
    responses: {
      200: res(
        lazySchema(() => z.array(LinkProvider)),
        'Array of SourceLink',
      ),
      400: 'Unusable token',
      422: 'Missing header',
    },
    handle: (ctx) => reply(200, listLinkProviders(ctx.world, linkToken(ctx))),
  }),
  defineRoute({
    id: 'link.oauth',
    method: 'GET',
    path: '/v2/link/provider/oauth/:provider',
    auth: 'none',
    summary: 'Start an OAuth connect: the provider (Source) with its authorization URL on the sandbox.',
    changesOnRead: "records the provider in the link token's oauth_started (the OAuth callback checks it)",
    request: { params: providerParams },
    responses: { 200: res(OAuthProvider, 'Source'), 400: 'Unusable token or not an OAuth provider', 404: 'Unknown provider' },
    handle: (ctx, { params }) => reply(200, startOAuth(ctx.world, linkToken(ctx), params.provider)),
  }),
  defineRoute({
    id: 'link.password',
    method: 'POST',
    path: '/v2/link/provider/password/:provider',
    auth: 'none',
    summary: 'Connect a password provider: success, pending_provider_mfa or a Link error.',
    request: { params: providerParams, body: passwordBody },
    responses: { 200: res(ConnectionResult, 'ProviderLinkResponse'), 400: 'Not a password provider', 404: 'Unknown provider' },
    handle: (ctx, { params, body }) => reply(200, connectPassword(ctx.world, linkToken(ctx), params.provider, body)),
  }),
  defineRoute({
    id: 'link.password_mfa',
    method: 'POST',
    path: '/v2/link/provider/password/:provider/complete_mfa',
    auth: 'none',
    summary: 'Complete the MFA step of a password connect.',
    request: { params: providerParams, body: mfaBody },
    responses: { 200: res(ConnectionResult, 'ProviderLinkResponse'), 400: 'No pending MFA', 404: 'Unknown provider' },
    handle: (ctx, { params, body }) => reply(200, completeMfa(ctx.world, linkToken(ctx), params.provider, body.mfa_code)),
  }),
  defineRoute({
    id: 'link.email',
    method: 'POST',
    path: '/v2/link/provider/email/:provider',
    auth: 'none',
    summary: 'Connect an e-mail provider (Freestyle Libre).',
    request: { params: providerParams, body: emailBody },
    responses: { 200: res(ConnectionResult, 'ProviderLinkResponse'), 400: 'Not an e-mail provider', 404: 'Unknown provider' },
    handle: (ctx, { params, body }) =>
      reply(200, connectEmail(ctx.world, linkToken(ctx), params.provider, { email: body.email, region: body.region ?? null })),
  }),
  defineRoute({
    id: 'link.auth_password',
    method: 'POST',
    path: '/v2/link/auth',
    auth: 'none',
    summary: "Password connect, provider in the body (the SDK's passwordAuth).",
    request: { body: lazySchema(() => passwordBody.extend({ provider, auth_type: authType })) },
    responses: { 200: res(ConnectionResult, 'ProviderLinkResponse'), 400: 'Not a password provider' },
    handle: (ctx, { body }) => reply(200, connectPassword(ctx.world, linkToken(ctx), body.provider, body)),
  }),
  defineRoute({
    id: 'link.auth_email',
    method: 'POST',
    path: '/v2/link/auth/email',
    auth: 'none',
    summary: "E-mail connect, provider in the body (the SDK's emailAuth).",
    request: { body: lazySchema(() => emailBody.extend({ provider, auth_type: authType })) },
    responses: { 200: res(ConnectionResult, 'ProviderLinkResponse'), 400: 'Not an e-mail provider' },
    handle: (ctx, { body }) =>
      reply(200, connectEmail(ctx.world, linkToken(ctx), body.provider, { email: body.email, region: body.region ?? null })),
  }),
  defineRoute({
    id: 'link.manual',
    method: 'POST',
    path: '/v2/link/provider/manual/:provider',
    auth: 'team',
    summary: 'Connect a manual (mobile SDK) provider for a user.',
    request: { params: providerParams, body: lazySchema(() => z.object({ user_id: uuid(), provider_id: z.string().nullish() })) },
    responses: { 200: res(Success, '{success: true}'), 400: 'Not a manual provider', 404: 'Unknown user or provider' },
    handle: (ctx, { params, body }) => reply(200, connectManual(ctx, params.provider, body.user_id)),
  }),
];
