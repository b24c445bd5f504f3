/**
 * Teams as the management interface shows and changes them (spec 2.7, management OpenAPI
 * `ClientFacingOrgTeam`): views, creation with fresh keys, per-environment settings updates.
 */
import type { z } from 'zod';
import type * as W from '../../wire/schemas.js';
import { issueTeamKeys, newTeam } from '../../fixtures/management/tenancy.js';
import {
  ENVIRONMENTS,
  type BrandInformation,
  type Environment,
  type EnvironmentSettings,
  type Org,
  type Region,
  type Team,
} from '../../engine/tenancy.js';
import type { World } from '../../engine/world.js';
import { managementError, MANAGEMENT_ERRORS } from './errors.js';
import type { DomainError } from '../domain-error.js';

/**
 * One environment block (management OpenAPI `ClientFacingOrgTeamEnvironment`). The team's
 * `event_type_prefixes` allowlist is not part of that schema (the reference declares the field on
 * ETL pipelines only), so it is taken on create/update but not shown here.
 */
function environmentView(s: EnvironmentSettings): NonNullable<z.input<typeof W.ManagementTeam>['sandbox']> {
  return {
    lab_tests_patient_sms_communication_enabled: s.lab_tests_patient_sms_communication_enabled,
    lab_tests_patient_email_communication_enabled: s.lab_tests_patient_email_communication_enabled,
    critical_result_notification_email: s.critical_result_notification_email,
    brand_information: s.brand_information ? { ...s.brand_information } : null,
    logo_url: s.logo_url,
    reject_duplicate_connection: s.reject_duplicate_connection,
    sdk_per_device_activity_timeseries: s.sdk_per_device_activity_timeseries,
    partial_webhooks_enabled: s.partial_webhooks_enabled,
    minor_ordering_enabled: s.minor_ordering_enabled,
  };
}

/** The environments every team has, in the reference's enum order. */
const TEAM_ENVIRONMENTS: readonly Environment[] = ['production', 'sandbox'];

/**
 * A team as `ClientFacingOrgTeam`. `include` limits which environment blocks are filled (the
 * others are null); empty means both, as spec 2.7 shows them.
 */
export function orgTeamView(team: Team, include: readonly Environment[] = []): z.input<typeof W.ManagementTeam> {
  const shows = (env: Environment) => include.length === 0 || include.includes(env);
  return {
    id: team.id,
    name: team.name,
    created_on: team.created_on,
    region: team.region,
    integration_team_id: team.integration_team_id,
    environments: [...TEAM_ENVIRONMENTS],
    sandbox: shows('sandbox') ? environmentView(team.settings.sandbox) : null,
    production: shows('production') ? environmentView(team.settings.production) : null,
  };
}

/**
 * The calling team as the data API's deprecated `ClientFacingTeam` (`GET /v2/team/{team_id}`):
 * the key's environment settings; legacy fields null.
 */
export function dataTeamView(world: World, team: Team, environment: Environment): z.input<typeof W.Team> {
  const s = team.settings[environment];
  const keys = world.tenancy.teamApiKeys(team.id, environment);
  return {
    id: team.id,
    org_id: team.org_id,
    name: team.name,
    svix_app_id: null,
    client_id: null,
    client_secret: null,
    airtable_api_key: null,
    airtable_base_id: null,
    webhook_secret: null,
    api_key: null,
    api_keys: keys.map((k) => ({
      label: k.label,
      value: k.value,
      team_id: k.team_id,
      id: k.id,
      created_at: k.created_at,
      deleted_at: null,
    })),
    configuration: {
      libreview: { practice_id: {} },
      texts_enabled: s.lab_tests_patient_sms_communication_enabled,
      push_historical_data: true,
      provider_raw_data: false,
      reject_duplicate_connection: s.reject_duplicate_connection,
      sdk_per_device_activity_timeseries: s.sdk_per_device_activity_timeseries,
      partial_webhooks_enabled: s.partial_webhooks_enabled,
      minor_ordering_enabled: s.minor_ordering_enabled,
      event_type_prefixes: s.event_type_prefixes ? [...s.event_type_prefixes] : null,
    },
    testkits_texts_enabled: s.lab_tests_patient_sms_communication_enabled,
    lab_tests_patient_communication_enabled:
      s.lab_tests_patient_sms_communication_enabled || s.lab_tests_patient_email_communication_enabled,
    lab_tests_patient_sms_communication_enabled: s.lab_tests_patient_sms_communication_enabled,
    lab_tests_patient_email_communication_enabled: s.lab_tests_patient_email_communication_enabled,
    logo_url: s.logo_url,
    delegated_flow: 'order_and_results_with_vital_physician_network',
    critical_result_notification_email: s.critical_result_notification_email,
  };
}

/** A team as a list item (`ClientFacingOrgTeamListItem`). */
export function orgTeamListItem(team: Team): z.input<typeof W.TeamList>['teams'][number] {
  return { id: team.id, name: team.name, created_on: team.created_on, region: team.region, integration_team_id: team.integration_team_id };
}

/** 409 with the reference's `IntegrationTeamIDConflictResponse` (`team_id` of the holder) and a `detail`. */
function integrationConflict(holder: Team): DomainError {
  return managementError.integrationTeamConflict(holder.integration_team_id ?? '', holder.id);
}

interface NewTeamInput {
  id?: string | null;
  name: string;
  region: Region;
  integration_team_id?: string | null;
  settings: EnvironmentSettings;
}

/** Checks that a new team's id and integration_team_id are free (throws 409). */
export function assertTeamCreatable(world: World, org: Org, input: NewTeamInput): void {
  if (input.id && world.tenancy.teamIdTaken(input.id)) {
    throw managementError.conflict(MANAGEMENT_ERRORS.teamIdTaken(input.id), { team_id: input.id });
  }
  if (input.integration_team_id) {
    const holder = world.tenancy.teamByIntegrationId(org.id, input.integration_team_id);
    if (holder) throw integrationConflict(holder);
  }
}

/** Creates a team with one working API key per environment. Validate first (`assertTeamCreatable`). */
export function createTeam(world: World, org: Org, input: NewTeamInput, createdOn: string): Team {
  const id = input.id ?? world.ids.uuid('team', org.id);
  const team = newTeam({ id, org_id: org.id, name: input.name, region: input.region, created_on: createdOn });
  for (const env of ENVIRONMENTS) team.settings[env] = cloneSettings(input.settings);
  world.tenancy.addTeam(team);
  if (input.integration_team_id) world.tenancy.setIntegrationTeamId(team, input.integration_team_id);
  issueTeamKeys(world, team, createdOn, [world.seed, 'runtime-team-keys', world.ids.nextSeq('runtime-team-keys')]);
  return team;
}

function cloneSettings(s: EnvironmentSettings): EnvironmentSettings {
  return {
    ...s,
    brand_information: s.brand_information ? { ...s.brand_information } : null,
    event_type_prefixes: s.event_type_prefixes ? [...s.event_type_prefixes] : null,
  };
}

/** A per-environment update (`UpdateOrgTeamEnvironmentBody`): null or absent fields keep their value. */
interface EnvironmentUpdate {
  lab_tests_patient_sms_communication_enabled?: boolean | null;
  lab_tests_patient_email_communication_enabled?: boolean | null;
  critical_result_notification_email?: string | null;
  partial_webhooks_enabled?: boolean | null;
  minor_ordering_enabled?: boolean | null;
  reject_duplicate_connection?: boolean | null;
  sdk_per_device_activity_timeseries?: boolean | null;
  patient_experience?: boolean | null;
  brand_information?: Partial<{ [K in keyof BrandInformation]: BrandInformation[K] | null }> | null;
  logo_url?: string | null;
  event_type_prefixes?: string[] | null;
}

/**
 * The settings an update would produce, or the first rule it breaks (`[loc, message]`): brand
 * information set for the first time needs `company_name`; `logo_url` is required once
 * `brand_information.company_name` is set.
 */
function applyEnvironmentUpdate(
  current: EnvironmentSettings,
  update: EnvironmentUpdate,
): { settings: EnvironmentSettings } | { error: [Array<string>, string] } {
  const next = cloneSettings(current);
  const keep = <T>(value: T | null | undefined, old: T): T => (value === null || value === undefined ? old : value);
  next.lab_tests_patient_sms_communication_enabled = keep(
    update.lab_tests_patient_sms_communication_enabled,
    next.lab_tests_patient_sms_communication_enabled,
  );
  next.lab_tests_patient_email_communication_enabled = keep(
    update.lab_tests_patient_email_communication_enabled,
    next.lab_tests_patient_email_communication_enabled,
  );
  next.critical_result_notification_email = keep(update.critical_result_notification_email, next.critical_result_notification_email);
  next.partial_webhooks_enabled = keep(update.partial_webhooks_enabled, next.partial_webhooks_enabled);
  next.minor_ordering_enabled = keep(update.minor_ordering_enabled, next.minor_ordering_enabled);
  next.reject_duplicate_connection = keep(update.reject_duplicate_connection, next.reject_duplicate_connection);
  next.sdk_per_device_activity_timeseries = keep(update.sdk_per_device_activity_timeseries, next.sdk_per_device_activity_timeseries);
  next.logo_url = keep(update.logo_url, next.logo_url);
  if (update.event_type_prefixes !== undefined && update.event_type_prefixes !== null) {
    next.event_type_prefixes = update.event_type_prefixes.length > 0 ? [...update.event_type_prefixes] : null;
  }
  const brand = update.brand_information;
  if (brand) {
    const base = next.brand_information;
    const companyName = keep(brand.company_name, base?.company_name ?? null);
    if (companyName === null)
      return {
        error: [['brand_information', 'company_name'], 'company_name is required when brand information is set for the first time'],
      };
    next.brand_information = {
      company_name: companyName,
      company_website: keep(brand.company_website, base?.company_website ?? ''),
      support_email: keep(brand.support_email, base?.support_email ?? 'help@tryvital.io'),
      support_contact: keep(brand.support_contact, base?.support_contact ?? ''),
      company_address: keep(brand.company_address, base?.company_address ?? ''),
      brand_color: keep(brand.brand_color, base?.brand_color ?? ''),
    };
    if (brand.company_name !== null && brand.company_name !== undefined && next.logo_url === null) {
      return { error: [['logo_url'], 'logo_url is required if brand_information.company_name is set'] };
    }
  }
  return { settings: next };
}

/** Throws 409 when another live team of the org holds the integration_team_id. */
function assertIntegrationIdFree(world: World, team: Team, integrationTeamId: string): void {
  const holder = world.tenancy.teamByIntegrationId(team.org_id, integrationTeamId);
  if (holder && holder.id !== team.id) throw integrationConflict(holder);
}

interface TeamUpdate {
  name?: string | null;
  integration_team_id?: string | null;
  sandbox?: EnvironmentUpdate | null;
  production?: EnvironmentUpdate | null;
}

/**
 * Applies a team update (`UpdateOrgTeamBody`): checks every environment block and the
 * integration_team_id first (422 / 409), then changes the team; null or absent fields keep their value.
 */
export function updateTeam(world: World, team: Team, update: TeamUpdate): Team {
  const next: Partial<Record<Environment, EnvironmentSettings>> = {};
  for (const env of ['sandbox', 'production'] as const) {
    const u = update[env];
    if (!u) continue;
    const result = applyEnvironmentUpdate(team.settings[env], u);
    if ('error' in result) {
      const [loc, message] = result.error;
      throw managementError.invalid(['body', env, ...loc], message);
    }
    next[env] = result.settings;
  }
  if (update.integration_team_id) assertIntegrationIdFree(world, team, update.integration_team_id);
  if (update.name !== null && update.name !== undefined) team.name = update.name;
  if (update.integration_team_id) world.tenancy.setIntegrationTeamId(team, update.integration_team_id);
  if (next.sandbox) team.settings.sandbox = next.sandbox;
  if (next.production) team.settings.production = next.production;
  return team;
}

/** Deletes a team: its API keys stop working and its data becomes unreachable at once. */
export function deleteTeam(world: World, team: Team): void {
  world.tenancy.deleteTeam(team.id);
}

/** The org's teams the caller may see (already filtered by access), after a list cursor, with the list filters. */
export function filterTeams(
  world: World,
  teams: readonly Team[],
  filter: { afterSeq: number; team_id?: string | null; regions?: readonly Region[] | null; search?: string | null },
): Team[] {
  const needle = filter.search ? filter.search.toLowerCase() : null;
  const regions = filter.regions && filter.regions.length > 0 ? new Set(filter.regions) : null;
  return teams.filter(
    (t) =>
      (world.tenancy.teamSequence(t.id) ?? 0) > filter.afterSeq &&
      (!filter.team_id || t.id === filter.team_id) &&
      (!regions || regions.has(t.region)) &&
      (!needle || t.name.toLowerCase().includes(needle)),
  );
}
