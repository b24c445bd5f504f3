/**
 * Orgs, teams, environments and keys: the cross-tenant part of the state (design.md section 3).
 * Team data lives in partitions, one per (team, environment); nothing crosses them.
 */
import { Hook } from './hook.js';
import type { IdFactory } from './ids.js';

export type Environment = 'sandbox' | 'production';
export type Region = 'us' | 'eu';
export type Plan = 'launch' | 'grow' | 'scale' | 'premium';
export type ManagementRole = 'org_admin' | 'team_admin';

export const ENVIRONMENTS: readonly Environment[] = ['sandbox', 'production'];
export const REGIONS: readonly Region[] = ['us', 'eu'];

export interface BrandInformation {
  company_name: string;
  company_website: string;
  support_email: string;
  support_contact: string | null;
  company_address: string;
  brand_color: string;
}

/** Environment settings of a team (spec 2.7, management OpenAPI ClientFacingOrgTeamEnvironment). */
export interface EnvironmentSettings {
  lab_tests_patient_sms_communication_enabled: boolean;
  lab_tests_patient_email_communication_enabled: boolean;
  critical_result_notification_email: string | null;
  brand_information: BrandInformation | null;
  logo_url: string | null;
  reject_duplicate_connection: boolean;
  sdk_per_device_activity_timeseries: boolean;
  partial_webhooks_enabled: boolean;
  minor_ordering_enabled: boolean;
  /** Team allowlist of event type prefixes; null or empty = everything. */
  event_type_prefixes: string[] | null;
}

export function defaultEnvironmentSettings(): EnvironmentSettings {
  return {
    lab_tests_patient_sms_communication_enabled: true,
    lab_tests_patient_email_communication_enabled: true,
    critical_result_notification_email: null,
    brand_information: null,
    logo_url: null,
    reject_duplicate_connection: false,
    sdk_per_device_activity_timeseries: false,
    partial_webhooks_enabled: false,
    minor_ordering_enabled: false,
    event_type_prefixes: null,
  };
}

export interface Org {
  id: string;
  name: string;
  plan: Plan;
  created_at: string;
  expires_at: string | null;
}

export interface Team {
  id: string;
  org_id: string;
  name: string;
  region: Region;
  created_on: string;
  integration_team_id: string | null;
  settings: Record<Environment, EnvironmentSettings>;
  /** Closed-beta features this team is enabled for. */
  beta_features: Set<string>;
  /** Set when deleted: the team's keys and data are unreachable. */
  deleted: boolean;
}

export interface TeamApiKey {
  id: string;
  label: string;
  value: string;
  team_id: string;
  environment: Environment;
  region: Region;
  created_at: string;
}

export interface ManagementKey {
  id: string;
  org_id: string;
  label: string;
  /** The secret (`mg_...`). */
  key: string;
  role: ManagementRole;
  /** Team ids a team_admin key is bound to; null for org_admin. */
  team_ids: string[] | null;
  created_at: string;
  /** Who made it (`type`: `vital_staff`, `management_key`, ...: the real `Creator*` shapes). */
  creator: { type: string; [field: string]: unknown };
}

/** What a data-API access token (`create_api_access_token`) grants: one team environment until it expires. */
interface AccessGrant {
  team_id: string;
  environment: Environment;
  expires_ms: number;
}

/** One team environment's data partition. Areas keep their stores in `slots`. */
export interface Partition {
  readonly id: string;
  readonly team: Team;
  readonly environment: Environment;
  readonly slots: Map<symbol, unknown>;
}

export class Tenancy {
  readonly orgs = new Map<string, Org>();
  readonly teams = new Map<string, Team>();
  /** Teams of an org in creation order. */
  readonly teamsByOrg = new Map<string, string[]>();
  readonly apiKeysByValue = new Map<string, TeamApiKey>();
  readonly apiKeysById = new Map<string, TeamApiKey>();
  readonly managementKeysBySecret = new Map<string, ManagementKey>();
  readonly managementKeysById = new Map<string, ManagementKey>();
  /** Data-API access tokens -> their grants, in issue order (bounded: expired ones are dropped as new ones are issued). */
  readonly accessTokens = new Map<string, AccessGrant>();
  /** A team was deleted (after its keys and partitions are gone): areas drop what they keep for it. */
  readonly teamDeleted = new Hook<[Team]>();
  private readonly partitions = new Map<string, Partition>();
  /** The partition `partition` answered last (forgotten when a team's partitions go). */
  private lastPartition: Partition | undefined;
  /** Creation sequence of every team ever added (kept after deletion: list cursors rely on it). */
  private readonly teamSeq = new Map<string, number>();
  private nextTeamSeq = 0;
  /** Ids of deleted teams: never reused. */
  private readonly deletedTeamIds = new Set<string>();
  /** `org_id` + integration_team_id -> team id. */
  private readonly teamsByIntegrationId = new Map<string, string>();
  /** Team id -> its API key ids, in creation order. */
  private readonly apiKeyIdsByTeam = new Map<string, Set<string>>();
  /** Org id -> its management key ids, in creation order. */
  private readonly managementKeyIdsByOrg = new Map<string, Set<string>>();

  constructor(private readonly ids: IdFactory) {}

  addOrg(org: Org): Org {
    this.orgs.set(org.id, org);
    this.teamsByOrg.set(org.id, []);
    return org;
  }

  addTeam(team: Team): Team {
    this.teams.set(team.id, team);
    this.teamSeq.set(team.id, ++this.nextTeamSeq);
    if (team.integration_team_id !== null) this.teamsByIntegrationId.set(integrationKey(team.org_id, team.integration_team_id), team.id);
    const list = this.teamsByOrg.get(team.org_id);
    if (list) list.push(team.id);
    else this.teamsByOrg.set(team.org_id, [team.id]);
    return team;
  }

  /** Marks a team deleted: its keys stop working at once and its data becomes unreachable. */
  deleteTeam(teamId: string): void {
    const team = this.teams.get(teamId);
    if (!team) return;
    team.deleted = true;
    this.teams.delete(teamId);
    this.deletedTeamIds.add(teamId);
    if (team.integration_team_id !== null) this.teamsByIntegrationId.delete(integrationKey(team.org_id, team.integration_team_id));
    const list = this.teamsByOrg.get(team.org_id);
    if (list) list.splice(list.indexOf(teamId), 1);
    for (const keyId of [...(this.apiKeyIdsByTeam.get(teamId) ?? [])]) this.removeApiKey(keyId);
    this.apiKeyIdsByTeam.delete(teamId);
    for (const env of ENVIRONMENTS) this.partitions.delete(`${teamId}:${env}`);
    this.lastPartition = undefined;
    for (const [t, g] of this.accessTokens) if (g.team_id === teamId) this.accessTokens.delete(t);
    for (const mk of this.orgManagementKeys(team.org_id)) {
      if (mk.team_ids) mk.team_ids = mk.team_ids.filter((id) => id !== teamId);
    }
    this.teamDeleted.run(team);
  }

  /** Whether a team id was ever used (live or deleted): ids are never reused. */
  teamIdTaken(teamId: string): boolean {
    return this.teams.has(teamId) || this.deletedTeamIds.has(teamId);
  }

  /** Creation sequence number of a team (1-based; stable after deletion), for list cursors. */
  teamSequence(teamId: string): number | undefined {
    return this.teamSeq.get(teamId);
  }

  /** The live team of an org with this integration_team_id. */
  teamByIntegrationId(orgId: string, integrationTeamId: string): Team | undefined {
    const id = this.teamsByIntegrationId.get(integrationKey(orgId, integrationTeamId));
    return id === undefined ? undefined : this.teams.get(id);
  }

  /** Sets (or clears) a team's integration_team_id, keeping the index in step. */
  setIntegrationTeamId(team: Team, integrationTeamId: string | null): void {
    if (team.integration_team_id !== null) this.teamsByIntegrationId.delete(integrationKey(team.org_id, team.integration_team_id));
    team.integration_team_id = integrationTeamId;
    if (integrationTeamId !== null) this.teamsByIntegrationId.set(integrationKey(team.org_id, integrationTeamId), team.id);
  }

  /** Live teams of an org, in creation order. */
  orgTeams(orgId: string): Team[] {
    const out: Team[] = [];
    for (const id of this.teamsByOrg.get(orgId) ?? []) {
      const team = this.teams.get(id);
      if (team) out.push(team);
    }
    return out;
  }

  addApiKey(key: TeamApiKey): TeamApiKey {
    this.apiKeysByValue.set(key.value, key);
    this.apiKeysById.set(key.id, key);
    let ids = this.apiKeyIdsByTeam.get(key.team_id);
    if (!ids) {
      ids = new Set();
      this.apiKeyIdsByTeam.set(key.team_id, ids);
    }
    ids.add(key.id);
    return key;
  }

  /** Removes a team API key: it stops working at once. */
  removeApiKey(id: string): boolean {
    const key = this.apiKeysById.get(id);
    if (!key) return false;
    this.apiKeysById.delete(id);
    this.apiKeysByValue.delete(key.value);
    this.apiKeyIdsByTeam.get(key.team_id)?.delete(id);
    return true;
  }

  /** Team API keys of one team and environment, in creation order. */
  teamApiKeys(teamId: string, environment?: Environment): TeamApiKey[] {
    const out: TeamApiKey[] = [];
    for (const id of this.apiKeyIdsByTeam.get(teamId) ?? []) {
      const key = this.apiKeysById.get(id);
      if (key && (environment === undefined || key.environment === environment)) out.push(key);
    }
    return out;
  }

  addManagementKey(key: ManagementKey): ManagementKey {
    this.managementKeysBySecret.set(key.key, key);
    this.managementKeysById.set(key.id, key);
    let ids = this.managementKeyIdsByOrg.get(key.org_id);
    if (!ids) {
      ids = new Set();
      this.managementKeyIdsByOrg.set(key.org_id, ids);
    }
    ids.add(key.id);
    return key;
  }

  /** Removes a management key: it stops working at once. */
  removeManagementKey(id: string): ManagementKey | undefined {
    const key = this.managementKeysById.get(id);
    if (!key) return undefined;
    this.managementKeysById.delete(id);
    this.managementKeysBySecret.delete(key.key);
    this.managementKeyIdsByOrg.get(key.org_id)?.delete(id);
    return key;
  }

  /** Management keys of an org, in creation order. */
  orgManagementKeys(orgId: string): ManagementKey[] {
    const out: ManagementKey[] = [];
    for (const id of this.managementKeyIdsByOrg.get(orgId) ?? []) {
      const key = this.managementKeysById.get(id);
      if (key) out.push(key);
    }
    return out;
  }

  /**
   * Records an access token. Grants all last the same time, so issue order is expiry order:
   * the expired ones at the front are dropped first (no scan of the live ones).
   */
  addAccessToken(token: string, grant: AccessGrant, nowMs: number): void {
    for (const [t, g] of this.accessTokens) {
      if (g.expires_ms > nowMs) break;
      this.accessTokens.delete(t);
    }
    this.accessTokens.set(token, grant);
  }

  /**
   * The team environment an access token acts for, or null: unknown, expired, or its team
   * deleted (deleting a team revokes its tokens).
   */
  accessTokenPartition(token: string, nowMs: number): Partition | null {
    const grant = this.accessTokens.get(token);
    if (!grant || grant.expires_ms <= nowMs) return null;
    const team = this.teams.get(grant.team_id);
    if (!team || team.deleted) return null;
    return this.partition(team, grant.environment);
  }

  /** The data partition of a team environment (created on first use). */
  partition(team: Team, environment: Environment): Partition {
    // Consecutive requests mostly come from one team environment: its partition is kept at hand.
    const last = this.lastPartition;
    if (last !== undefined && last.team === team && last.environment === environment) return last;
    const id = `${team.id}:${environment}`;
    let p = this.partitions.get(id);
    if (!p) {
      p = { id, team, environment, slots: new Map() };
      this.partitions.set(id, p);
    }
    this.lastPartition = p;
    return p;
  }

  /** Every live partition (for jobs that sweep all tenants, e.g. new wearable data). */
  allPartitions(): Partition[] {
    return [...this.partitions.values()].filter((p) => !p.team.deleted);
  }

  /** Live teams of an org in one region, in creation order. */
  orgTeamsInRegion(orgId: string, region: Region): Team[] {
    return this.orgTeams(orgId).filter((t) => t.region === region);
  }

  /** Fresh id helper for tenancy entities. */
  newId(kind: string): string {
    return this.ids.uuid(kind);
  }
}

function integrationKey(orgId: string, integrationTeamId: string): string {
  return `${orgId}\u241f${integrationTeamId}`;
}

/** The principal behind a management key. */
export interface ManagementPrincipal {
  org: Org;
  key: ManagementKey;
}
