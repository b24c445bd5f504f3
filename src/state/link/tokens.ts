/**
 * Link tokens: short-lived credentials that let a widget (ours or a custom one) connect one
 * user's providers without the team API key. Kept world-wide by token value (a request with
 * `x-vital-link-token` carries no API key); each token remembers its team environment by id.
 * Expiry runs on the sandbox clock; a successful connection consumes the token.
 */
import type { Partition } from '../../engine/tenancy.js';
import { worldSlot, type World } from '../../engine/world.js';
import { linkError, type LinkErrorType } from './errors.js';
import { dataClass } from '../../engine/world-codec.js';

/** Link tokens live 60 minutes (the real service's documented lifetime). */
export const LINK_TOKEN_TTL_MS = 60 * 60 * 1000;
/** Tokens kept after they expire, at most (oldest dropped first): a bound on memory. */
const LINK_TOKEN_RETENTION = 10_000;

export interface LinkToken {
  token: string;
  team_id: string;
  environment: Partition['environment'];
  user_id: string;
  provider: string | null;
  redirect_url: string | null;
  filter_on_providers: string[] | null;
  on_error: 'redirect' | null;
  on_close: 'redirect' | null;
  created_at: number;
  expires_at: number;
  /** Set by the first successful connection. */
  consumed_at: number | null;
  /** Set when the user closed the widget (its Close button): the Link session is over. */
  closed_at: number | null;
  /** Providers whose OAuth flow was started with this token (OAuth sessions). */
  oauth_started: string[];
  /** A password provider waiting for its MFA code. */
  pending_mfa: { provider: string; method: 'sms' | 'email'; hint: string } | null;
}

/** A link code for the mobile SDK (`POST /v2/link/code/create`). */
interface LinkCode {
  code: string;
  user_id: string;
  team_id: string;
  expires_at: number;
}

class LinkTokenStore {
  private readonly byToken = new Map<string, LinkToken>();

  get(value: string): LinkToken | undefined {
    return this.byToken.get(value);
  }
  private readonly codes = new Map<string, LinkCode>();

  addCode(code: LinkCode): void {
    this.codes.set(code.code, code);
    if (this.codes.size > LINK_TOKEN_RETENTION) {
      const oldest = this.codes.keys().next().value;
      if (oldest !== undefined) this.codes.delete(oldest);
    }
  }

  add(token: LinkToken): void {
    this.byToken.set(token.token, token);
    if (this.byToken.size > LINK_TOKEN_RETENTION) {
      const oldest = this.byToken.keys().next().value;
      if (oldest !== undefined) this.byToken.delete(oldest);
    }
  }
}
dataClass('LinkTokenStore', LinkTokenStore);

export const linkTokensOf = worldSlot('link-tokens', () => new LinkTokenStore());

/** The token's partition (null when its team is gone). */
function tokenPartition(world: World, token: LinkToken): Partition | null {
  const team = world.tenancy.teams.get(token.team_id);
  return team ? world.tenancy.partition(team, token.environment) : null;
}

/** Why a token cannot be used now, or null when it can. */
export function tokenProblem(world: World, token: LinkToken | undefined): LinkErrorType | null {
  if (!token) return 'invalid_token';
  if (token.consumed_at !== null) return 'token_consumed';
  if (token.closed_at !== null) return 'invalid_token';
  if (world.clock.now() >= token.expires_at) return 'token_expired';
  if (!tokenPartition(world, token)) return 'invalid_token';
  return null;
}

/** The usable token with this value, or the Link error (400) that says why not. */
export function usableToken(world: World, value: string | undefined): { token: LinkToken; partition: Partition } {
  if (value === undefined || value === '') throw linkError.missingLinkToken();
  const token = linkTokensOf(world).get(value);
  const problem = tokenProblem(world, token);
  if (problem || !token) throw linkError.token(problem ?? 'invalid_token');
  return { token, partition: tokenPartition(world, token) as Partition };
}

/** `active`, `consumed`, `closed`, `expired` or `invalid`: the token's state as the widget sees it. */
export function tokenStatus(world: World, token: LinkToken | undefined): 'active' | 'consumed' | 'closed' | 'expired' | 'invalid' {
  const problem = tokenProblem(world, token);
  if (problem === null) return 'active';
  if (problem === 'token_consumed') return 'consumed';
  if (token?.closed_at != null) return 'closed';
  return problem === 'token_expired' ? 'expired' : 'invalid';
}
