/**
 * The Health SDK's connection policy (docs: wearables/sdks/health/connection-policies): `auto`
 * (Auto Connect, the default: the SDK creates or reinstates the Apple HealthKit, Health Connect
 * and Samsung Health connection by itself, so deregistering it has no effect) or `explicit`
 * (Explicit Connect: only the SDK's `connect()`, `POST /v2/link/provider/manual/{provider}`,
 * creates one; deregistering removes it as for any provider). A setting of the app that embeds
 * the SDK, simulated as a setting of the team environment whose key the app uses: sandbox-wide,
 * per team (both environments) or per team environment. Set through `POST
 * /_sandbox/wearables/health-sdk` and a scenario's `health_sdk`; kept in the world (a reset goes
 * back to `auto`).
 */
import type { Domain } from '../domain-context.js';
import { ENVIRONMENTS, type Environment } from '../../engine/tenancy.js';
import { type World, worldSlot } from '../../engine/world.js';
import { wearablesError } from './errors.js';

export const CONNECTION_POLICIES = ['auto', 'explicit'] as const;
type ConnectionPolicy = (typeof CONNECTION_POLICIES)[number];

/** The connections the Health SDK makes (the providers its connection policy governs). */
const HEALTH_SDK_PROVIDERS: ReadonlySet<string> = new Set(['apple_health_kit', 'health_connect', 'samsung_health']);

interface HealthSdkSettings {
  policy: ConnectionPolicy;
  /** Per team, the environments set apart from the sandbox-wide policy. */
  teams: Map<string, Partial<Record<Environment, ConnectionPolicy>>>;
}

const settingsOf = worldSlot('wearables.health_sdk', (): HealthSdkSettings => ({ policy: 'auto', teams: new Map() }));

/** The connection policy of a team environment's Health SDK. */
function connectionPolicy(d: Domain): ConnectionPolicy {
  const { world, partition } = d;
  const s = settingsOf.peek(world);
  if (!s) return 'auto';
  return s.teams.get(partition.team.id)?.[partition.environment] ?? s.policy;
}

/** Whether deregistering this provider leaves the connection as it is (Auto Connect reinstates it). */
export function deregisterHasNoEffect(d: Domain, slug: string): boolean {
  return HEALTH_SDK_PROVIDERS.has(slug) && connectionPolicy(d) === 'auto';
}

interface HealthSdkView {
  connection_policy: ConnectionPolicy;
  team_connection_policies: Record<string, Record<Environment, ConnectionPolicy>>;
}

/**
 * The policies as the control plane shows them: sandbox-wide, and each live team set apart (both
 * environments; an environment not set apart follows the sandbox-wide policy).
 */
export function healthSdkSettings(world: World): HealthSdkView {
  const s = settingsOf.peek(world);
  const policy = s?.policy ?? 'auto';
  const teams: HealthSdkView['team_connection_policies'] = {};
  for (const [teamId, envs] of s?.teams ?? [])
    if (world.tenancy.teams.has(teamId)) teams[teamId] = { sandbox: envs.sandbox ?? policy, production: envs.production ?? policy };
  return { connection_policy: policy, team_connection_policies: teams };
}

interface PolicyChange {
  connection_policy: ConnectionPolicy;
  team_id?: string | undefined;
  environment?: Environment | undefined;
}

/**
 * Sets the policy sandbox-wide (the team environments set apart keep theirs), of one team (both environments) or
 * of one team environment; 404 for an unknown team. Connections already made stay; the policy
 * decides what the next deregistration does.
 */
export function setHealthSdkPolicy(world: World, change: PolicyChange): HealthSdkView {
  const { connection_policy: policy, team_id: teamId, environment } = change;
  if (teamId !== undefined && !world.tenancy.teams.has(teamId)) throw wearablesError.teamNotFound(teamId);
  const s = settingsOf(world);
  if (teamId === undefined) s.policy = policy;
  else {
    const envs = s.teams.get(teamId) ?? {};
    for (const env of environment ? [environment] : ENVIRONMENTS) envs[env] = policy;
    s.teams.set(teamId, envs);
  }
  return healthSdkSettings(world);
}
