/**
 * Team scope requirements in the Link flows (issue 15): an OAuth connect must be granted every
 * scope the team requires (`user_must_grant`), or it fails with `required_scopes_not_granted`
 * and no connection is made; scopes the team lets users leave out (`user_may_grant`) show as
 * `optional` in the connection's `resource_availability`. Requirements are read when the user
 * connects (a later change applies to later connects).
 */
import { offeredScopes } from '../../fixtures/link/scopes.js';
import type { Domain } from '../domain-context.js';
import type { ProviderInfo } from '../../fixtures/wearables/providers.js';
import { scopeRequirementsOf } from '../management/preferences.js';
import type { ScopeGrant } from '../wearables/connections.js';

type ScopeCheck = { ok: true; grant: ScopeGrant | undefined } | { ok: false; error: 'required_scopes_not_granted' };

/** The team's requirement for a provider: scopes users must grant and may leave out. */
export function teamScopeRequirement(d: Domain, provider: ProviderInfo): { must: readonly string[]; may: readonly string[] } {
  const { world, partition } = d;
  const req = scopeRequirementsOf(world, partition.team.id).get(provider.slug);
  return { must: req?.user_must_grant ?? [], may: req?.user_may_grant ?? [] };
}

/**
 * Checks a user's grant (null = every scope the consent offers) against the team's
 * requirements. Non-OAuth providers have no scopes: always ok, no grant.
 */
export function checkScopes(d: Domain, provider: ProviderInfo, granted: readonly string[] | null): ScopeCheck {
  if (provider.auth_type !== 'oauth') return { ok: true, grant: undefined };
  const given = granted === null ? offeredScopes(provider) : [...new Set(granted)];
  const { must, may } = teamScopeRequirement(d, provider);
  if (must.some((s) => !given.includes(s))) return { ok: false, error: 'required_scopes_not_granted' };
  return { ok: true, grant: { granted: given, optional: [...may] } };
}
