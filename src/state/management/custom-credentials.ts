/**
 * Team custom OAuth credentials ("bring your own OAuth", spec 1; api-facts A.16): one set per
 * (team, environment, provider). Setting them activates them on the team at once.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { toHex, utf8Encode } from '../../engine/bytes.js';
import type { Environment, Region, Team } from '../../engine/tenancy.js';
import { worldSlot, type World } from '../../engine/world.js';
import { managementError, CUSTOM_CREDENTIAL_MESSAGES } from './errors.js';
import { APPOINTMENT_PROVIDERS, LAB_SERVICE_PROVIDERS, LABS, OAUTH_PROVIDERS } from './provider-enums.js';
import { dataClass } from '../../engine/world-codec.js';

/** OAuth providers that accept custom credentials (`OAuthProviders` plus map_my_fitness). */
export const CREDENTIAL_OAUTH_PROVIDERS = [...OAUTH_PROVIDERS, 'map_my_fitness'] as const;

/** OAuth providers that push data to a webhook URI of the service (the sandbox's own list). */
export const WEBHOOK_PROVIDERS: ReadonlySet<string> = new Set([
  'fitbit',
  'garmin',
  'oura',
  'polar',
  'strava',
  'wahoo',
  'whoop_v2',
  'withings',
  'dexcom_v3',
  'ultrahuman',
]);

/** Providers whose webhook subscriber needs manual verification before data flows. */
export const MANUAL_VERIFICATION_PROVIDERS: ReadonlySet<string> = new Set(['fitbit']);

const OAUTH: ReadonlySet<string> = new Set(CREDENTIAL_OAUTH_PROVIDERS);
const LAB_LIKE: ReadonlySet<string> = new Set([...LABS, ...LAB_SERVICE_PROVIDERS, ...APPOINTMENT_PROVIDERS]);

type CredentialKind = 'oauth' | 'lab' | 'unsupported';

/** How a provider takes custom credentials. `manual` counts as a lab (it is in `Labs`). */
export function credentialKind(provider: string): CredentialKind {
  if (OAUTH.has(provider)) return 'oauth';
  if (LAB_LIKE.has(provider)) return 'lab';
  return 'unsupported';
}

export interface CustomCredential {
  id: string;
  team_id: string;
  environment: Environment;
  region: Region;
  source: string;
  client_id: string | null;
  client_secret_hash: string | null;
  details: Record<string, unknown> | null;
  app_url: string | null;
  redirect_url_override: string | null;
  created_at: string;
  updated_at: string;
}

class CustomCredentialStore {
  private readonly byId = new Map<string, CustomCredential>();
  /** `team:env:provider` -> credential id. */
  private readonly byKey = new Map<string, string>();
  /** team id -> credential ids in creation order. */
  private readonly byTeam = new Map<string, Set<string>>();

  get(id: string): CustomCredential | undefined {
    return this.byId.get(id);
  }

  find(teamId: string, environment: Environment, provider: string): CustomCredential | undefined {
    const id = this.byKey.get(`${teamId}:${environment}:${provider}`);
    return id === undefined ? undefined : this.byId.get(id);
  }

  add(c: CustomCredential): CustomCredential {
    this.byId.set(c.id, c);
    this.byKey.set(`${c.team_id}:${c.environment}:${c.source}`, c.id);
    let ids = this.byTeam.get(c.team_id);
    if (!ids) {
      ids = new Set();
      this.byTeam.set(c.team_id, ids);
    }
    ids.add(c.id);
    return c;
  }

  remove(id: string): boolean {
    const c = this.byId.get(id);
    if (!c) return false;
    this.byId.delete(id);
    this.byKey.delete(`${c.team_id}:${c.environment}:${c.source}`);
    this.byTeam.get(c.team_id)?.delete(id);
    return true;
  }

  ofTeam(teamId: string, environment: Environment): CustomCredential[] {
    const out: CustomCredential[] = [];
    for (const id of this.byTeam.get(teamId) ?? []) {
      const c = this.byId.get(id);
      if (c && c.environment === environment) out.push(c);
    }
    return out;
  }

  dropTeam(team: Team): void {
    for (const id of [...(this.byTeam.get(team.id) ?? [])]) this.remove(id);
    this.byTeam.delete(team.id);
  }
}
dataClass('CustomCredentialStore', CustomCredentialStore);

export const customCredentialsOf = worldSlot('custom-credentials', () => new CustomCredentialStore());

/** What the service keeps of a client secret: its SHA-256, hex. */
function hashSecret(secret: string): string {
  return toHex(sha256(utf8Encode(secret)));
}

interface CredentialInput {
  provider: string;
  client_id?: string | null;
  client_secret?: string | null;
  details?: Record<string, unknown> | null;
  redirect_url_override?: string | null;
}

/**
 * Sets (upserts) a team environment's credentials for a provider; active at once. Everything is
 * checked first (provider kind, client id and secret for a first OAuth set, `checkDetails` on the
 * details given or, for a new set, on none), then the store changes.
 */
export function setCustomCredential(
  world: World,
  team: Team,
  env: Environment,
  input: CredentialInput,
  checkDetails: (details: Record<string, unknown> | null) => Record<string, unknown> | null,
  now: string,
): CustomCredential {
  const kind = credentialKind(input.provider);
  if (kind === 'unsupported') throw managementError.badRequest(CUSTOM_CREDENTIAL_MESSAGES.noOAuth(input.provider));
  const store = customCredentialsOf(world);
  const existing = store.find(team.id, env, input.provider);
  if (kind === 'oauth' && !existing) {
    if (!input.client_id)
      throw managementError.invalid(
        ['body', 'client_id'],
        CUSTOM_CREDENTIAL_MESSAGES.clientIdRequired(input.provider),
        input.client_id ?? null,
      );
    if (!input.client_secret)
      throw managementError.invalid(
        ['body', 'client_secret'],
        CUSTOM_CREDENTIAL_MESSAGES.clientSecretRequired(input.provider),
        input.client_secret ?? null,
      );
  }
  const details = input.details ? checkDetails(input.details) : existing ? existing.details : checkDetails(null);
  if (existing) {
    if (input.client_id) existing.client_id = input.client_id;
    if (input.client_secret) existing.client_secret_hash = hashSecret(input.client_secret);
    existing.details = details;
    if (input.redirect_url_override !== undefined && input.redirect_url_override !== null)
      existing.redirect_url_override = input.redirect_url_override;
    existing.updated_at = now;
    return existing;
  }
  return store.add({
    id: world.ids.uuid('custom-credential', team.id),
    team_id: team.id,
    environment: env,
    region: team.region,
    source: input.provider,
    client_id: input.client_id ?? null,
    client_secret_hash: input.client_secret ? hashSecret(input.client_secret) : null,
    details,
    app_url: null,
    redirect_url_override: input.redirect_url_override ?? null,
    created_at: now,
    updated_at: now,
  });
}

/** Credentials of these teams in one environment and region, optionally of one provider. */
export function listCustomCredentials(
  world: World,
  teams: readonly Team[],
  env: Environment,
  region: Region,
  provider: string | null,
): CustomCredential[] {
  const store = customCredentialsOf(world);
  return teams
    .filter((t) => t.region === region)
    .flatMap((t) => store.ofTeam(t.id, env))
    .filter((c) => !provider || c.source === provider);
}

/** Deletes credentials by id, deciding every id first; ids of teams the caller may not act on answer `not_found` like unknown ids (`failure` stays empty). */
export function deleteCustomCredentials(
  world: World,
  orgId: string,
  env: Environment,
  region: Region,
  ids: readonly string[],
  mayAct: (teamId: string) => boolean,
): { success: string[]; failure: string[]; not_found: string[] } {
  const store = customCredentialsOf(world);
  const success: string[] = [];
  const failure: string[] = [];
  const not_found: string[] = [];
  for (const id of new Set(ids)) {
    const c = store.get(id);
    const team = c ? world.tenancy.teams.get(c.team_id) : undefined;
    if (!c || !team || team.org_id !== orgId || c.environment !== env || c.region !== region) not_found.push(id);
    // Another team's ids answer exactly like unknown ids (issue 11): no existence leak.
    else if (!mayAct(team.id)) not_found.push(id);
    else success.push(id);
  }
  for (const id of success) store.remove(id);
  return { success, failure, not_found };
}
