/**
 * Team data-pull preferences per team environment (management OpenAPI
 * `UpsertTeamDataPullPreferencesBody`, `TeamDataPullPreferencesWithLimit`) and team scope
 * requirements per OAuth provider (`UpsertTeamScopeRequirementsBody`, `TeamScopeRequirements`).
 *
 * Other areas read them through `pullPreferencesOf` / `historicalDaysToPull` (historical pulls:
 * how many days a new connection backfills) and `scopeRequirementsOf` (Link: which scopes a user
 * must and may grant; connection `resource_availability`).
 */
import type { z } from 'zod';
import type { Domain } from '../domain-context.js';
import type { Environment, Team } from '../../engine/tenancy.js';
import type * as W from '../../wire/schemas.js';
import { worldSlot, type World } from '../../engine/world.js';
import { REFERENCE_SCOPES } from '../../fixtures/link/scopes.js';
import { MANAGEMENT_ERRORS, managementError } from './errors.js';
import { dataClass } from '../../engine/world-codec.js';

/** The scopes a team may require or allow per OAuth provider (the real service's scope lists). */
export const REQUIRABLE_SCOPES = REFERENCE_SCOPES;

/** The most days of history a preference may ask for (the sandbox's limit, same for every provider and resource). */
export const HISTORICAL_DAYS_LIMIT = 365;

interface ProviderPullPreference {
  default: { historical_days_to_pull: number };
  resource_overrides: Record<string, { historical_days_to_pull: number }> | null;
}

type TeamPullPreferences = z.input<typeof W.DataPullPreferences>['data_pull_preferences'][number];

interface ScopeRequirement {
  user_must_grant: string[];
  user_may_grant: string[];
}

class PreferenceStore {
  /** `team:env` -> provider -> preference (insertion order kept). */
  readonly pulls = new Map<string, Map<string, ProviderPullPreference>>();
  /** team id -> provider -> requirement. */
  readonly scopes = new Map<string, Map<string, ScopeRequirement>>();

  dropTeam(teamId: string): void {
    for (const env of ['sandbox', 'production']) this.pulls.delete(`${teamId}:${env}`);
    this.scopes.delete(teamId);
  }
}
dataClass('PreferenceStore', PreferenceStore);

export const preferencesOf = worldSlot('management-preferences', () => new PreferenceStore());

const key = (teamId: string, env: Environment) => `${teamId}:${env}`;

/** Checks every day count of an upsert (0 to the limit), reporting the first bad one at its body location. */
function assertPullPreferences(providers: Record<string, ProviderPullPreference>): void {
  for (const [provider, pref] of Object.entries(providers)) {
    const check = (days: number, loc: Array<string | number>) => {
      if (days < 0 || days > HISTORICAL_DAYS_LIMIT)
        throw managementError.invalid(
          ['body', 'providers', provider, ...loc],
          MANAGEMENT_ERRORS.historicalDaysLimit(provider, HISTORICAL_DAYS_LIMIT),
          days,
        );
    };
    check(pref.default.historical_days_to_pull, ['default', 'historical_days_to_pull']);
    for (const [resource, o] of Object.entries(pref.resource_overrides ?? {}))
      check(o.historical_days_to_pull, ['resource_overrides', resource, 'historical_days_to_pull']);
  }
}

/** Sets (replaces) the named providers' preferences of each team environment. Validate first. */
export function upsertPullPreferences(
  world: World,
  teams: readonly Team[],
  env: Environment,
  providers: Record<string, ProviderPullPreference>,
): void {
  assertPullPreferences(providers);
  const store = preferencesOf(world);
  for (const team of teams) {
    let m = store.pulls.get(key(team.id, env));
    if (!m) {
      m = new Map();
      store.pulls.set(key(team.id, env), m);
    }
    for (const [provider, pref] of Object.entries(providers)) {
      m.set(provider, {
        default: { ...pref.default },
        resource_overrides: pref.resource_overrides ? structuredClone(pref.resource_overrides) : null,
      });
    }
  }
}

/** Removes the named providers' preferences (all when none are named) of each team environment. */
export function deletePullPreferences(world: World, teams: readonly Team[], env: Environment, providers: readonly string[]): void {
  const store = preferencesOf(world);
  for (const team of teams) {
    const m = store.pulls.get(key(team.id, env));
    if (!m) continue;
    if (providers.length === 0) m.clear();
    else for (const p of providers) m.delete(p);
    if (m.size === 0) store.pulls.delete(key(team.id, env));
  }
}

/** One team environment's preferences as `TeamDataPullPreferencesWithLimit` (only the named providers when some are). */
export function pullPreferencesView(world: World, team: Team, env: Environment, providers: readonly string[]): TeamPullPreferences {
  const m = preferencesOf(world).pulls.get(key(team.id, env));
  const out: TeamPullPreferences['providers'] = {};
  for (const [provider, pref] of m ?? []) {
    if (providers.length > 0 && !providers.includes(provider)) continue;
    const overrides = pref.resource_overrides
      ? Object.fromEntries(
          Object.entries(pref.resource_overrides).map(([r, o]) => [r, { ...o, historical_days_to_pull_limit: HISTORICAL_DAYS_LIMIT }]),
        )
      : null;
    out[provider] = { default: { ...pref.default, historical_days_to_pull_limit: HISTORICAL_DAYS_LIMIT }, resource_overrides: overrides };
  }
  return { team_id: team.id, providers: out };
}

/** A team environment's data-pull preferences by provider (read function for the historical pulls). */
export function pullPreferencesOf(d: Domain): ReadonlyMap<string, ProviderPullPreference> {
  const { world, partition } = d;
  return preferencesOf(world).pulls.get(key(partition.team.id, partition.environment)) ?? new Map();
}

/**
 * How many days of history a new connection of this provider should pull for a resource, or null
 * when the team set no preference (then the provider's own default applies).
 */
export function historicalDaysToPull(d: Domain, provider: string, resource?: string): number | null {
  const pref = pullPreferencesOf(d).get(provider);
  if (!pref) return null;
  const override = resource ? pref.resource_overrides?.[resource] : undefined;
  return (override ?? pref.default).historical_days_to_pull;
}

/** Body rule (`withRules`) of the scope requirements upsert: no scope both required and optional for a provider. */
export function scopeRequirementsRule(body: Record<string, ScopeRequirement | null | undefined>) {
  for (const [provider, req] of Object.entries(body)) {
    if (!req) continue;
    const must = new Set(req.user_must_grant);
    const both = req.user_may_grant.find((s) => must.has(s));
    if (both !== undefined) return { path: [provider, 'user_may_grant'], message: MANAGEMENT_ERRORS.scopeInBothLists(both), input: both };
  }
  return undefined;
}

/** Sets the named providers' requirements; a provider given as null loses its requirement; absent ones keep theirs. */
export function upsertScopeRequirements(world: World, team: Team, body: Record<string, ScopeRequirement | null | undefined>): void {
  const store = preferencesOf(world);
  let m = store.scopes.get(team.id);
  if (!m) {
    m = new Map();
    store.scopes.set(team.id, m);
  }
  for (const [provider, req] of Object.entries(body)) {
    if (req === undefined) continue;
    if (req === null) m.delete(provider);
    else m.set(provider, { user_must_grant: [...new Set(req.user_must_grant)], user_may_grant: [...new Set(req.user_may_grant)] });
  }
}

/** A team's requirements as `TeamScopeRequirements` rows, optionally for one provider. */
export function scopeRequirementsView(world: World, team: Team, provider: string | null): z.input<typeof W.TeamScopeRequirementsList> {
  const rows: z.input<typeof W.TeamScopeRequirementsList>['requirements'] = [];
  for (const [p, req] of preferencesOf(world).scopes.get(team.id) ?? []) {
    if (provider && p !== provider) continue;
    rows.push({ user_must_grant: [...req.user_must_grant], user_may_grant: [...req.user_may_grant], team_id: team.id, provider: p });
  }
  return { requirements: rows };
}

/** The scopes a team requires users to grant (must) and allows them to grant (may) per OAuth provider (read function for Link). */
export function scopeRequirementsOf(world: World, teamId: string): ReadonlyMap<string, ScopeRequirement> {
  return preferencesOf(world).scopes.get(teamId) ?? new Map();
}
