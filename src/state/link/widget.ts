/**
 * What the sandbox's Link widget pages show: the token's providers and where each flow ends.
 * Pure reads of the link state (the pages in `handlers/link/widget.ts` render them).
 */
import type { ProviderInfo } from '../../fixtures/wearables/providers.js';
import type { World } from '../../engine/world.js';
import { oauthSession, outcomeUrl, tokenProviders } from './connect.js';
import { LINK_ERROR_TEXTS, linkError, type LinkErrorType } from './errors.js';
import { linkTokensOf, tokenProblem } from './tokens.js';
import { teamScopeRequirement } from './scopes.js';
import { offeredScopes } from '../../fixtures/link/scopes.js';
import { SANDBOX_HINTS } from '../../fixtures/link/credentials.js';

/** What the opened page asked for: a provider to open at once, the launcher's origin, the environment. */
export interface WidgetRequest {
  provider: string | null;
  /** The origin of the page that opened the widget through the launcher (`/link/initialize.js`). */
  opener: string | null;
  /** `env` of the widget URL: a token of another environment is not found there. */
  env: string | null;
}

export interface WidgetModel {
  token: string;
  base: string;
  providers: Array<{ slug: string; name: string; logo: string; auth_type: string; description: string }>;
  /** Where the flow ends: the token's redirect_url or the sandbox's done page. */
  finish: string;
  on_error: 'redirect' | null;
  /** Open this provider at once (token made for one provider, or `provider=` in the URL). */
  open: string | null;
  /** The launcher's page origin: the widget reports its outcome there instead of redirecting. */
  opener: string | null;
  /** The sandbox's credentials, shown on the widget's own pages marked sandbox-only. */
  sandbox: typeof SANDBOX_HINTS;
}

type WidgetView = { ok: true; model: WidgetModel } | { ok: false; error: LinkErrorType; text: string; redirect: string | null };

const ENVIRONMENTS: readonly string[] = ['sandbox', 'production'];

export function widgetView(world: World, value: string, request: WidgetRequest): WidgetView {
  const { provider, opener, env } = request;
  const found = linkTokensOf(world).get(value);
  // A widget of one environment does not know the other's tokens (the real ones are separate services).
  const token = found && env !== null && ENVIRONMENTS.includes(env) && env !== found.environment ? undefined : found;
  const problem = tokenProblem(world, token);
  if (problem || !token) {
    const error = problem ?? 'invalid_token';
    const redirect = token?.redirect_url && opener === null ? outcomeUrl(world, token, error) : null;
    return { ok: false, error, text: LINK_ERROR_TEXTS[error], redirect };
  }
  const providers = tokenProviders(token).map((p: ProviderInfo) => ({
    slug: p.slug,
    name: p.name,
    logo: p.logo,
    auth_type: p.auth_type,
    description: p.description,
  }));
  const open = token.provider ?? (provider && providers.some((p) => p.slug === provider) ? provider : null);
  return {
    ok: true,
    model: {
      token: token.token,
      base: world.urls.base,
      providers,
      finish: token.redirect_url ?? `${world.urls.base}/link/done`,
      on_error: token.on_error,
      open,
      opener,
      sandbox: SANDBOX_HINTS,
    },
  };
}

export interface ConsentView {
  provider: string;
  name: string;
  user_id: string;
  allow: string;
  deny: string;
  /** The scopes asked for (each pre-checked; `required` = the team requires it). */
  scopes: Array<{ scope: string; required: boolean }>;
}

/** The consent page of an OAuth session (null when unknown: the page says so). */
export function consentView(world: World, value: string, slug: string, opener: string | null = null): ConsentView {
  const session = oauthSession(world, value, slug);
  if (!session) throw linkError.sessionNotFound();
  const q = (decision: string) =>
    `${world.urls.base}/link/oauth/decide?${new URLSearchParams({ provider: slug, state: value, decision, ...(opener === null ? {} : { opener }) }).toString()}`;
  const must = session.partition ? teamScopeRequirement({ world, partition: session.partition }, session.provider).must : [];
  const scopes =
    session.provider.auth_type === 'oauth'
      ? offeredScopes(session.provider).map((scope) => ({ scope, required: must.includes(scope) }))
      : [];
  return { provider: slug, name: session.provider.name, user_id: session.user_id, allow: q('allow'), deny: q('deny'), scopes };
}
