/** The management interface: orgs, teams, keys, members, domains, EHR, queries, preferences. */
import { z } from 'zod';
import { lazySchema } from '../engine/lazy-schema.js';
import { dateTime, JsonObject, listOf, uuidString } from './common.js';

export const Org = lazySchema(() => z.object({ id: uuidString, name: z.string(), expires_at: dateTime.nullable() }));

const TeamSettings = lazySchema(() =>
  z.object({
    lab_tests_patient_sms_communication_enabled: z.boolean(),
    lab_tests_patient_email_communication_enabled: z.boolean(),
    critical_result_notification_email: z.string().nullable(),
    brand_information: z.record(z.string(), z.unknown()).nullable(),
    logo_url: z.string().nullable(),
    reject_duplicate_connection: z.boolean(),
    sdk_per_device_activity_timeseries: z.boolean(),
    partial_webhooks_enabled: z.boolean().nullable(),
    minor_ordering_enabled: z.boolean().nullable(),
  }),
);

const TeamSummary = lazySchema(() =>
  z.object({
    id: uuidString,
    name: z.string(),
    created_on: dateTime,
    region: z.string(),
    integration_team_id: z.string().nullable(),
  }),
);
export const ManagementTeam = lazySchema(() =>
  TeamSummary.extend({
    environments: z.array(z.string()),
    sandbox: TeamSettings.nullish(),
    production: TeamSettings.nullish(),
  }),
);
export const TeamList = lazySchema(() => z.object({ teams: z.array(TeamSummary), next_cursor: z.string().nullable() }));

const TeamRoleBindings = lazySchema(() => z.array(z.object({ team_id: uuidString }).loose()).nullable());

export const ManagementKey = lazySchema(() =>
  z.object({
    id: uuidString,
    label: z.string(),
    created_at: dateTime,
    creator: z.object({ type: z.string() }).loose(),
    role: z.string(),
    team_role_bindings: TeamRoleBindings,
  }),
);
export const ManagementKeyCreated = lazySchema(() => ManagementKey.extend({ key: z.string() }));

export const TeamApiKey = lazySchema(() =>
  z.object({ id: uuidString, label: z.string(), value: z.string(), team_id: uuidString, created_at: dateTime }),
);

export const Member = lazySchema(() =>
  z.object({
    id: uuidString,
    name: z.string(),
    email: z.string(),
    created_on: dateTime,
    role: z.string(),
    team_role_bindings: TeamRoleBindings,
  }),
);
export const Invite = lazySchema(() =>
  z.object({
    id: uuidString,
    email: z.string(),
    invited_at: dateTime,
    resent_at: dateTime.nullable(),
    creator: JsonObject,
    role: z.string(),
    team_role_bindings: TeamRoleBindings,
  }),
);

export const Domain = lazySchema(() =>
  z.object({
    id: uuidString,
    domain: z.string(),
    is_verified: z.boolean(),
    created_on: dateTime,
    dns_records: z.array(z.object({ type: z.string(), name: z.string(), value: z.string(), ttl: z.string() })),
  }),
);

export const CustomCredential = lazySchema(() =>
  z.object({
    id: uuidString,
    client_id: z.string().nullable(),
    client_secret_hash: z.string().nullable(),
    source: z.string(),
    team_id: uuidString,
    created_at: dateTime,
    updated_at: dateTime,
    details: JsonObject.nullable(),
    app_url: z.string().nullable(),
    redirect_url_override: z.string().nullable(),
  }),
);

const PullDaysWithLimit = lazySchema(() =>
  z.object({ historical_days_to_pull: z.number().int(), historical_days_to_pull_limit: z.number().int() }),
);
/** `TeamDataPullPreferencesWithLimit`: per provider, its default and per-resource overrides. */
const TeamPullPreferences = lazySchema(() =>
  z.object({
    team_id: uuidString,
    providers: z.record(
      z.string(),
      z.object({ default: PullDaysWithLimit, resource_overrides: z.record(z.string(), PullDaysWithLimit).nullable() }),
    ),
  }),
);
export const DataPullPreferences = lazySchema(() =>
  z.object({
    data_pull_preferences: z.array(TeamPullPreferences),
    next_cursor: z.string().nullable(),
  }),
);

/** `TeamScopeRequirementsResponse`: the scopes a team requires (must) and allows (may), per OAuth provider. */
export const TeamScopeRequirementsList = lazySchema(() =>
  listOf(
    'requirements',
    z.object({ user_must_grant: z.array(z.string()), user_may_grant: z.array(z.string()), team_id: uuidString, provider: z.string() }),
  ),
);
/** `CreateTeamAccessTokenResponse`. */
export const TeamAccessToken = lazySchema(() => z.object({ access_token: z.string(), expires_in: z.number().int() }));
/** `PrometheusQueryResponse` of the event delivery metric: one series per outcome, values `[step start (Unix s), "count"]`. */
export const EventDeliveryMetric = lazySchema(() =>
  z.object({
    status: z.literal('success'),
    data: z.object({
      resultType: z.literal('matrix'),
      result: z.array(z.object({ metric: z.record(z.string(), z.string()), values: z.array(z.tuple([z.number().int(), z.string()])) })),
    }),
  }),
);
/** `PrepareTeamCustomCredentialsResponse`. */
export const CustomCredentialPreparation = lazySchema(() =>
  z.object({
    status: z.enum(['no_action_needed', 'preparations_required']),
    preparation_steps: z.array(
      z.object({
        type: z.enum(['redirect_uri', 'webhook_uri', 'iam_principal']),
        key: z.string().nullable(),
        value: z.string(),
        description: z.string().nullable(),
      }),
    ),
  }),
);

export const EhrMember = lazySchema(() =>
  z.object({
    id: uuidString,
    integration_member_id: z.string(),
    name: z.string(),
    email: z.string(),
    avatar: z.string().nullable(),
    team_role_bindings: TeamRoleBindings,
  }),
);
export const EhrConfiguration = lazySchema(() =>
  z.object({
    slug: z.string(),
    modalities: z.array(z.string()),
    origin_configs: z.array(z.object({ origin: z.string(), session_continuation_url: z.string().nullable() })),
  }),
);
export const EhrPipeline = lazySchema(() =>
  z.object({
    team_id: uuidString,
    type: z.string(),
    ehr_type: z.string(),
    base_url: z.string(),
    authentication: JsonObject,
    allowed_mappers: z.array(z.string()).nullable(),
  }),
);

export const ContinuousQuery = lazySchema(() =>
  z.object({
    id: uuidString,
    status: z.string(),
    slug: z.string(),
    title: z.string().nullable(),
    team_id: uuidString,
    query: JsonObject,
    query_config: JsonObject.nullable(),
    scheduling_preferences: JsonObject.nullable(),
    result_table_schema: z.record(z.string(), z.string()),
    resource_dependencies: z.array(z.string()),
    export_preferences: JsonObject.nullable(),
    fhir_observation_mappers: z.array(z.string()),
  }),
);
export const QueryValidation = lazySchema(() =>
  z.object({
    result_table_schema: z.record(z.string(), z.string()),
    resource_dependencies: z.array(z.string()),
    fhir_observation_previews: z.unknown().nullable(),
  }),
);

/** The deprecated data-surface team object (`GET /v2/team/{team_id}`). */
export const Team = lazySchema(() =>
  z.object({
    id: uuidString,
    org_id: uuidString,
    name: z.string(),
    svix_app_id: z.string().nullable(),
    client_id: z.string().nullish(),
    client_secret: z.string().nullish(),
    airtable_api_key: z.string().nullish(),
    airtable_base_id: z.string().nullish(),
    webhook_secret: z.string().nullable(),
    api_key: z.string().nullish(),
    api_keys: z.array(
      z.object({
        label: z.string(),
        value: z.string(),
        team_id: uuidString,
        id: uuidString,
        created_at: dateTime,
        deleted_at: dateTime.nullable(),
      }),
    ),
    configuration: JsonObject,
    testkits_texts_enabled: z.boolean(),
    lab_tests_patient_communication_enabled: z.boolean(),
    lab_tests_patient_sms_communication_enabled: z.boolean(),
    lab_tests_patient_email_communication_enabled: z.boolean(),
    logo_url: z.string().nullable(),
    delegated_flow: z.string(),
    critical_result_notification_email: z.string().nullish(),
  }),
);

/** `ClientFacingPhysician` (`GET /v2/team/{team_id}/physicians`). */
export const Physician = lazySchema(() => z.object({ first_name: z.string(), last_name: z.string(), npi: z.string() }));

export const SourcePriority = lazySchema(() =>
  z.object({
    data_type: z.string(),
    provider: z.object({ name: z.string(), slug: z.string(), logo: z.string().nullable() }),
    priority: z.number().int(),
  }),
);
export const LinkConfig = lazySchema(() =>
  z.object({
    team_id: uuidString,
    name: z.string(),
    logo_url: z.string().nullable(),
    reject_duplicate_connection: z.boolean(),
    providers: z.array(JsonObject),
  }),
);

/** Control plane: an org as the sandbox keeps it. */
export const SandboxOrg = lazySchema(() =>
  z.object({
    id: uuidString,
    name: z.string(),
    plan: z.string(),
    created_at: dateTime,
    expires_at: dateTime.nullable(),
    team_ids: z.array(uuidString),
  }),
);
export const SandboxOrgCreated = lazySchema(() =>
  z.object({
    org_id: uuidString,
    name: z.string(),
    plan: z.string(),
    management_key_id: uuidString,
    management_key: z.string(),
  }),
);
export const BetaFeatures = lazySchema(() => z.object({ team_id: uuidString, beta_features: z.array(z.string()) }));
/** `GET /_sandbox/orgs`. */
export const SandboxOrgList = lazySchema(() => listOf('orgs', SandboxOrg));
/** `GET /_sandbox/orgs/:org_id/mail`. */
export const OrgMail = lazySchema(() =>
  listOf('mail', z.object({ to: z.string(), subject: z.string(), kind: z.string(), sent_at: z.string(), ref_id: z.string().nullable() })),
);
/** `GET /_sandbox/ehr_dashboard/:token`. */
export const EhrDashboardSession = lazySchema(() =>
  z.object({
    org_id: z.string(),
    member_id: z.string(),
    team_id: z.string().nullable(),
    feature: z.string(),
    modality: z.string(),
    environment: z.string(),
    created_at: z.string(),
    expires_at: z.string(),
  }),
);
/** `GET /_sandbox/ehr_pipelines/:team_id/:environment`. */
export const EhrDeliveries = lazySchema(() => listOf('deliveries', JsonObject));

/** `{success, failure, not_found}` of batch deletes. */
export const BatchOutcome = lazySchema(() =>
  z.object({ success: z.array(z.string()), failure: z.array(z.unknown()), not_found: z.array(z.string()) }),
);
