/**
 * The Link domain: link tokens and codes, the provider list a token sees, and the connect
 * flows (OAuth with a consent step on the sandbox, password with an optional MFA step, e-mail,
 * manual). Every function validates first, then changes state, and throws typed errors.
 * Connections themselves are made by the wearables area (`connectLinked`).
 */
import { providerBySlug, PROVIDERS, type ProviderInfo } from '../../fixtures/wearables/providers.js';
import { MFA_HINTS, SANDBOX_MFA_CODE, emailOutcome, passwordOutcome, type CredentialOutcome } from '../../fixtures/link/credentials.js';
import type { Partition } from '../../engine/tenancy.js';
import type { World } from '../../engine/world.js';
import type { z } from 'zod';
import type { LinkProvider, OAuthProvider } from '../../wire/schemas.js';
import { connectLinked, hasDemoConnection } from '../wearables/wearable-link.js';
import type { Domain } from '../domain-context.js';
import { checkScopes } from './scopes.js';
import { usersOf } from '../users/users.js';
import { LINK_ERROR_TEXTS, linkError, type LinkErrorType } from './errors.js';
import { LINK_TOKEN_TTL_MS, linkTokensOf, tokenProblem, usableToken, type LinkToken } from './tokens.js';

/** Auth types a web widget connects (the others connect through the mobile SDK). */
const WEB_AUTH = new Set(['oauth', 'team_oauth', 'password', 'email']);
/**
 * Providers connected through the mobile SDK or by hand (the SDK's ManualProviders, a
 * non-exhaustive enum), and Samsung Health, which the Health SDK connects the same way as
 * Health Connect (its `connect()` in Explicit Connect mode; docs/simulated/wearables.md).
 */
const MANUAL_PROVIDERS: readonly string[] = [
  'beurer_ble',
  'omron_ble',
  'accuchek_ble',
  'contour_ble',
  'freestyle_libre_ble',
  'onetouch_ble',
  'apple_health_kit',
  'manual',
  'health_connect',
  'samsung_health',
];

function requireUser(scope: Domain, userId: string): void {
  const user = usersOf(scope.partition, scope.world).get(userId);
  if (!user || user.deletion) throw linkError.userNotFound();
}

function requireProvider(slug: string): ProviderInfo {
  const p = providerBySlug(slug);
  if (!p) throw linkError.providerNotFound();
  return p;
}

interface NewLinkToken {
  user_id: string;
  provider?: string | null;
  redirect_url?: string | null;
  filter_on_providers?: string[] | null;
  on_error?: 'redirect' | null;
  on_close?: 'redirect' | null;
}

/** Creates a link token for a user of the team environment. */
export function createLinkToken(scope: Domain, input: NewLinkToken): { link_token: string; link_web_url: string } {
  requireUser(scope, input.user_id);
  if (input.provider) requireProvider(input.provider);
  const { world, partition } = scope;
  const now = world.clock.now();
  const token: LinkToken = {
    token: world.ids.token('link_token', 40, partition.id),
    team_id: partition.team.id,
    environment: partition.environment,
    user_id: input.user_id,
    provider: input.provider ?? null,
    redirect_url: input.redirect_url ?? null,
    filter_on_providers: input.filter_on_providers ? [...new Set(input.filter_on_providers)] : null,
    on_error: input.on_error ?? null,
    on_close: input.on_close ?? null,
    created_at: now,
    expires_at: now + LINK_TOKEN_TTL_MS,
    consumed_at: null,
    closed_at: null,
    oauth_started: [],
    pending_mfa: null,
  };
  linkTokensOf(world).add(token);
  return { link_token: token.token, link_web_url: linkWebUrl({ world, partition }, token.token) };
}

/** The sandbox's own Link widget page for a token. */
export function linkWebUrl(d: Domain, token: string): string {
  const { world, partition } = d;
  const q = new URLSearchParams({ token, env: partition.environment, region: partition.team.region });
  return `${world.urls.base}/link?${q.toString()}`;
}

/** The OAuth authorization URL the sandbox serves for a token and provider (its consent page). */
export function authorizationUrl(world: World, token: string, provider: string): string {
  const q = new URLSearchParams({ provider, state: token });
  return `${world.urls.base}/link/oauth/authorize?${q.toString()}`;
}

/** The providers a token may connect: the token's provider, or its filter, or every web-linkable one. */
export function tokenProviders(token: LinkToken): ProviderInfo[] {
  if (token.provider) return [requireProvider(token.provider)];
  const filter = token.filter_on_providers ? new Set(token.filter_on_providers) : null;
  return PROVIDERS.filter((p) => WEB_AUTH.has(p.auth_type) && (!filter || filter.has(p.slug)));
}

const FORMS: Record<string, Record<string, unknown>> = {
  password: { username: { type: 'text', label: 'Username' }, password: { type: 'password', label: 'Password' } },
  email: { email: { type: 'email', label: 'E-mail' }, region: { type: 'select', label: 'Region', options: ['us'] } },
};

/** A provider as `GET /v2/link/providers` lists it (SourceLink). */
function sourceLink(world: World, token: LinkToken, p: ProviderInfo): z.input<typeof LinkProvider> {
  const oauth = p.auth_type === 'oauth' || p.auth_type === 'team_oauth';
  return {
    id: p.id,
    name: p.name,
    slug: p.slug,
    description: p.description,
    logo: p.logo,
    oauth_url: oauth ? authorizationUrl(world, token.token, p.slug) : null,
    auth_type: p.auth_type,
    form_components: FORMS[p.auth_type] ?? {},
  };
}

/** Lists the token's providers. */
export function listLinkProviders(world: World, value: string | undefined): z.input<typeof LinkProvider>[] {
  const { token } = usableToken(world, value);
  return tokenProviders(token).map((p) => sourceLink(world, token, p));
}

/** Starts an OAuth connect: remembers it on the token and answers the provider (Source) with its authorization URL. */
export function startOAuth(world: World, value: string | undefined, slug: string): z.input<typeof OAuthProvider> {
  const provider = requireProvider(slug);
  if (provider.auth_type !== 'oauth' && provider.auth_type !== 'team_oauth') throw linkError.notOAuth(slug);
  const { token } = usableToken(world, value);
  if (!token.oauth_started.includes(slug)) token.oauth_started.push(slug);
  return {
    name: provider.name,
    slug: provider.slug,
    description: provider.description,
    logo: provider.logo,
    group: null,
    oauth_url: authorizationUrl(world, token.token, slug),
    auth_type: provider.auth_type,
    source_type: provider.kind,
    is_active: true,
    backfill_num_days: provider.backfillDays,
    id: provider.id,
  };
}

/**
 * The final redirect of a widget or OAuth flow: the token's redirect_url, or the sandbox's done
 * page. A flow opened by the launcher (`opener`: the origin of the page that opened it) always
 * ends on the done page, which reports the outcome to that page.
 */
export function outcomeUrl(world: World, token: LinkToken | undefined, error: LinkErrorType | null, opener: string | null = null): string {
  const q = new URLSearchParams(error ? { state: 'error', error_type: error, error: LINK_ERROR_TEXTS[error] } : { state: 'success' });
  if (opener !== null) q.set('opener', opener);
  const target = (opener === null ? token?.redirect_url : null) ?? `${world.urls.base}/link/done`;
  return `${target}${target.includes('?') ? '&' : '?'}${q.toString()}`;
}

function connectWithToken(
  d: Domain,
  token: LinkToken,
  provider: ProviderInfo,
  granted: readonly string[] | null = null,
): LinkErrorType | null {
  const { world, partition } = d;
  if (hasDemoConnection(d, token.user_id)) return 'provider_api_error';
  const user = usersOf(partition, world).get(token.user_id);
  if (!user || user.deletion) return 'invalid_token';
  const scopes = checkScopes(d, provider, granted);
  if (!scopes.ok) return scopes.error;
  connectLinked(d, token.user_id, provider, scopes.grant);
  token.consumed_at = world.clock.now();
  token.pending_mfa = null;
  return null;
}

/**
 * The consent page's decision: Allow connects with the scopes granted (null = all; the token is
 * consumed), unless a scope the team requires is missing (`required_scopes_not_granted`); Deny
 * ends with `user_cancelled`. Answers where the browser goes next.
 */
export function decideOAuth(
  world: World,
  value: string,
  slug: string,
  allow: boolean,
  granted: readonly string[] | null = null,
  opener: string | null = null,
): string {
  const token = linkTokensOf(world).get(value);
  const provider = providerBySlug(slug);
  const problem = tokenProblem(world, token);
  if (problem || !token) return outcomeUrl(world, token, problem ?? 'invalid_token', opener);
  if (!provider || !token.oauth_started.includes(slug)) return outcomeUrl(world, token, 'token_not_validated', opener);
  if (!allow) return outcomeUrl(world, token, 'user_cancelled', opener);
  const { partition } = usableToken(world, value);
  return outcomeUrl(world, token, connectWithToken({ world, partition }, token, provider, granted), opener);
}

/** The consent page's view of an OAuth session (null when the session is unknown). */
export function oauthSession(
  world: World,
  value: string,
  slug: string,
): { provider: ProviderInfo; user_id: string; partition: Partition | null } | null {
  const token = linkTokensOf(world).get(value);
  const provider = providerBySlug(slug);
  if (!token || !provider || !token.oauth_started.includes(slug)) return null;
  const team = world.tenancy.teams.get(token.team_id);
  return { provider, user_id: token.user_id, partition: team ? world.tenancy.partition(team, token.environment) : null };
}

/** ProviderLinkResponse of a password or e-mail connect. */
interface ProviderLinkResult {
  state: 'success' | 'error' | 'pending_provider_mfa';
  redirect_url: string | null;
  error_type: LinkErrorType | null;
  error: string | null;
  provider_mfa: { method: 'sms' | 'email'; hint: string } | null;
  provider: string;
  connected: boolean;
  provider_id: string | null;
}

function result(token: LinkToken | undefined, slug: string, outcome: CredentialOutcome): ProviderLinkResult {
  const base = { redirect_url: token?.redirect_url ?? null, provider: slug, provider_id: null };
  if (outcome.kind === 'error') {
    return {
      ...base,
      state: 'error',
      error_type: outcome.type,
      error: LINK_ERROR_TEXTS[outcome.type],
      provider_mfa: null,
      connected: false,
    };
  }
  if (outcome.kind === 'mfa') {
    return {
      ...base,
      state: 'pending_provider_mfa',
      error_type: null,
      error: null,
      provider_mfa: { method: outcome.method, hint: MFA_HINTS[outcome.method] },
      connected: false,
    };
  }
  return { ...base, state: 'success', error_type: null, error: null, provider_mfa: null, connected: true };
}

/** A token, checked; token problems become an error result rather than an HTTP error. */
function tokenFor(world: World, value: string | undefined): { token?: LinkToken; partition?: Partition; problem: LinkErrorType | null } {
  if (value === undefined || value === '') throw linkError.missingLinkToken();
  const token = linkTokensOf(world).get(value);
  const problem = tokenProblem(world, token);
  if (problem || !token) return { ...(token ? { token } : {}), problem: problem ?? 'invalid_token' };
  return { token, partition: usableToken(world, value).partition, problem: null };
}

/**
 * A forced `duplicate_connection` applies only when the team rejects duplicate connections
 * (api-facts I); otherwise the same provider account may connect to several users.
 */
function teamRule(partition: Partition, outcome: CredentialOutcome): CredentialOutcome {
  if (
    outcome.kind === 'error' &&
    outcome.type === 'duplicate_connection' &&
    !partition.team.settings[partition.environment].reject_duplicate_connection
  )
    return { kind: 'success' };
  return outcome;
}

/** Connects a password provider: success, an MFA step, or a Link error (api-facts I). */
export function connectPassword(
  world: World,
  value: string | undefined,
  slug: string,
  creds: { username: string; password: string },
): ProviderLinkResult {
  const provider = requireProvider(slug);
  if (provider.auth_type !== 'password') throw linkError.notPassword(slug);
  const { token, partition, problem } = tokenFor(world, value);
  if (problem || !token || !partition) return result(token, slug, { kind: 'error', type: problem ?? 'invalid_token' });
  const outcome = teamRule(partition, passwordOutcome(slug, creds.password));
  if (outcome.kind === 'mfa') {
    token.pending_mfa = { provider: slug, method: outcome.method, hint: MFA_HINTS[outcome.method] };
    return result(token, slug, outcome);
  }
  if (outcome.kind === 'error') return result(token, slug, outcome);
  const failed = connectWithToken({ world, partition }, token, provider);
  return result(token, slug, failed ? { kind: 'error', type: failed } : outcome);
}

/** Completes a pending MFA step with the code the provider sent. */
export function completeMfa(world: World, value: string | undefined, slug: string, code: string): ProviderLinkResult {
  const provider = requireProvider(slug);
  if (provider.auth_type !== 'password') throw linkError.notPassword(slug);
  const { token, partition, problem } = tokenFor(world, value);
  if (problem || !token || !partition) return result(token, slug, { kind: 'error', type: problem ?? 'invalid_token' });
  if (!token.pending_mfa || token.pending_mfa.provider !== slug) throw linkError.noPendingMfa();
  if (code !== SANDBOX_MFA_CODE) return result(token, slug, { kind: 'error', type: 'incorrect_mfa_code' });
  const failed = connectWithToken({ world, partition }, token, provider);
  return result(token, slug, failed ? { kind: 'error', type: failed } : { kind: 'success' });
}

/** Connects an e-mail provider (Freestyle Libre: practice-based). */
export function connectEmail(
  world: World,
  value: string | undefined,
  slug: string,
  input: { email: string; region: string | null },
): ProviderLinkResult {
  const provider = requireProvider(slug);
  if (provider.auth_type !== 'email') throw linkError.notEmail(slug);
  const { token, partition, problem } = tokenFor(world, value);
  if (problem || !token || !partition) return result(token, slug, { kind: 'error', type: problem ?? 'invalid_token' });
  const outcome = teamRule(partition, emailOutcome(input.email, input.region));
  if (outcome.kind !== 'success') return result(token, slug, outcome);
  const failed = connectWithToken({ world, partition }, token, provider);
  return result(token, slug, failed ? { kind: 'error', type: failed } : outcome);
}

/** Connects a manual (SDK-side) provider for a user of the team environment. */
export function connectManual(scope: Domain, slug: string, userId: string): { success: boolean } {
  const provider = requireProvider(slug);
  if (!MANUAL_PROVIDERS.includes(slug)) throw linkError.notManual(slug);
  requireUser(scope, userId);
  if (hasDemoConnection(scope, userId)) throw linkError.demoMixed();
  connectLinked(scope, userId, provider);
  return { success: true };
}
