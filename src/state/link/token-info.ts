/**
 * What a widget asks about its token (validity, state), starting a connect by provider, and
 * link codes for the mobile SDK. Shapes the reference leaves open are the sandbox's own
 * (docs/simulated/link.md).
 */
import { providerBySlug } from '../../fixtures/wearables/providers.js';
import type { z } from 'zod';
import type { World } from '../../engine/world.js';
import type { LinkStart, LinkState } from '../../wire/schemas.js';
import { usersOf } from '../users/users.js';
import { authorizationUrl, linkWebUrl, startOAuth } from './connect.js';
import type { Domain } from '../domain-context.js';
import { linkError } from './errors.js';
import { linkTokensOf, tokenStatus, usableToken } from './tokens.js';

/** `POST /v2/link/token/isValid`: `{success: true}` for a usable token, else the Link error (400). */
export function tokenValidity(world: World, value: string): { success: true } {
  usableToken(world, value);
  return { success: true };
}

/** `GET /v2/link/state`: the token's state and what it was made for. */
export function tokenState(world: World, value: string | undefined): z.input<typeof LinkState> {
  if (value === undefined || value === '') throw linkError.missingLinkToken();
  const token = linkTokensOf(world).get(value);
  const state = tokenStatus(world, token);
  if (!token) throw linkError.token('invalid_token');
  return {
    state,
    user_id: token.user_id,
    team_id: token.team_id,
    provider: token.provider,
    filter_on_providers: token.filter_on_providers,
    redirect_url: token.redirect_url,
    expires_at: new Date(token.expires_at).toISOString(),
    pending_mfa: token.pending_mfa,
  };
}

/** `POST /v2/link/start`: where to send the user for one provider (OAuth: the authorization URL). */
export function startConnect(world: World, value: string, slug: string): z.input<typeof LinkStart> {
  const provider = providerBySlug(slug);
  if (!provider) throw linkError.providerNotFound();
  const { token, partition } = usableToken(world, value);
  if (provider.auth_type === 'oauth' || provider.auth_type === 'team_oauth') {
    startOAuth(world, value, slug);
    return {
      provider: slug,
      auth_type: provider.auth_type,
      oauth_url: authorizationUrl(world, token.token, slug),
      link_web_url: linkWebUrl({ world, partition }, token.token),
    };
  }
  return {
    provider: slug,
    auth_type: provider.auth_type,
    oauth_url: null,
    link_web_url: `${linkWebUrl({ world, partition }, token.token)}&provider=${encodeURIComponent(slug)}`,
  };
}

/** `POST /v2/link/code/create`: a one-hour (by default) code the mobile SDK exchanges for a sign-in. */
export function createLinkCode(
  scope: Domain,
  userId: string,
  expiresAt: number | null,
): { code: string; exchange_url: string; expires_at: string } {
  const user = usersOf(scope.partition, scope.world).get(userId);
  if (!user || user.deletion) throw linkError.userNotFound();
  const now = scope.world.clock.now();
  const expires = expiresAt ?? now + 3600 * 1000;
  if (expires <= now) throw linkError.expiresInPast();
  const prefix = `${scope.partition.environment === 'sandbox' ? 'sk' : 'pk'}${scope.partition.team.region}`;
  const hex = scope.world.ids.uuid('link_code', scope.partition.id).replace(/-/g, '').slice(0, 8);
  const code = `${prefix}${hex}`;
  linkTokensOf(scope.world).addCode({ code, user_id: userId, team_id: scope.partition.team.id, expires_at: expires });
  return { code, exchange_url: `tryvital://tryvital?code=${code}`, expires_at: new Date(expires).toISOString() };
}

/**
 * The widget's Close: ends the token's Link session (state `closed`; every later use answers
 * `invalid_token`, like a token that was never valid) and answers its state. An unusable token
 * is the 400 Link error: there is no session to close.
 */
export function closeToken(world: World, value: string | undefined): z.input<typeof LinkState> {
  const { token } = usableToken(world, value);
  token.closed_at = world.clock.now();
  token.pending_mfa = null;
  return tokenState(world, value);
}
