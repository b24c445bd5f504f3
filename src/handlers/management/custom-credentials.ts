/**
 * Team custom credentials, "bring your own OAuth" (spec 1; api-facts A.16; management OpenAPI
 * `PrepareTeamCustomCredentialsBody/Response`, `UpsertTeamCustomCredentialsBody`,
 * `ClientFacingTeamProviderCredentials`, `CustomCredentialsResponse`,
 * `DeleteTeamCustomCredentialsResponse`).
 *
 * Simulates prepare (`preparations_required` with the callback URI
 * `{base_url}/v2/link/connect/{provider}` and, for providers that push data, a webhook URI; or
 * `no_action_needed` for labs), set (upsert per team, environment and provider; active at once;
 * the secret is kept only as its SHA-256), list (filters `team_id`, `provider`) and delete by
 * `credential_id`. Fitbit says in its prepare steps that it needs manual subscriber verification,
 * and its set needs the verify tokens in `details.fitbit`.
 *
 * LIMITATIONS
 * - The webhook URI `{base_url}/v2/webhook/{provider}/{team_id}` is the sandbox's own (the
 *   reference does not give it); nothing is served there.
 * - Providers without OAuth (SDK and password providers such as apple_health_kit) are refused
 *   with 400; the reference does not say what it answers.
 * - Details are checked against the reference's shape for the provider (fitbit, polar, google_fit,
 *   google_health, my_fitness_pal_v2, quest, labcorp, bioreference, getlabs, phlebfinders); other
 *   providers' details must match one of those shapes. Unknown keys are dropped.
 * - Lists are answered in one page (`next_cursor` is always null). Custom credentials do not
 *   change what the simulated link flow does.
 */
import { z } from 'zod';
import { managementError, CUSTOM_CREDENTIAL_MESSAGES } from '../../state/management/errors.js';
import { accessibleTeams, canAccessTeam, requireOrg, requireTeam } from '../../state/management/access.js';
import { defineRoute, reply } from '../../engine/route.js';
import { uuid, withRules } from '../../engine/schemas.js';
import { toItem } from '../../engine/validation.js';
import {
  MANUAL_VERIFICATION_PROVIDERS,
  WEBHOOK_PROVIDERS,
  credentialKind,
  deleteCustomCredentials,
  listCustomCredentials,
  setCustomCredential,
  type CustomCredential,
} from '../../state/management/custom-credentials.js';
import { assertTeamRegion, envRegionParams, onePageRule } from '../../state/management/common.js';
import { APPOINTMENT_PROVIDERS, LAB_SERVICE_PROVIDERS, LABS, PROVIDERS } from '../../state/management/provider-enums.js';
import { BatchOutcome, CustomCredentialPreparation, CustomCredential as CustomCredentialWire, res } from '../../wire/schemas.js';
import { lazySchema } from '../../engine/lazy-schema.js';

const unique = (xs: readonly string[]): [string, ...string[]] => [...new Set(xs)] as [string, ...string[]];
const prepareProvider = lazySchema(() => z.enum(unique([...PROVIDERS, ...LABS])));
const anyProvider = lazySchema(() => z.enum(unique([...PROVIDERS, ...LABS, ...LAB_SERVICE_PROVIDERS, ...APPOINTMENT_PROVIDERS])));

const billing = lazySchema(() => z.enum(['client_bill', 'commercial_insurance', 'patient_bill_passthrough', 'patient_bill']));
const labCommon = {
  sub_account_id: z.string().nullish(),
  sub_account_name: z.string().nullish(),
  allowed_billing_types: z.array(billing).nullish(),
  disallowed_billing_states: z.record(billing, z.array(z.string())).nullish(),
};
const labcorpTeam = lazySchema(() =>
  z.object({
    ...labCommon,
    labcorp: z.object({ account_number: z.string(), billing_method: z.enum(['CM', 'PT', 'PI']) }),
  }),
);
const labcorpHl7 = lazySchema(() =>
  z.object({
    ...labCommon,
    sending_facility: z.string(),
    sending_application: z.string(),
    receiving_facility: z.string(),
    receiving_application: z.string(),
  }),
);

/** The reference's detail shapes (`UpsertTeamCustomCredentialsBody.details`) by provider. */
const DETAILS: Record<string, z.ZodType> = {
  fitbit: z.object({
    fitbit: z.object({
      is_hr_enabled: z.boolean().default(false),
      workout_verify_token: z.string(),
      sleep_verify_token: z.string(),
      body_verify_token: z.string(),
      foods_verify_token: z.string().nullish(),
    }),
  }),
  polar: z.object({ webhook_secret: z.string() }),
  google_fit: z.object({ redirect_uri: z.string(), data_scopes: z.array(z.string()) }),
  google_health: z.object({ project_number: z.string(), service_account_email: z.string() }),
  my_fitness_pal_v2: z.object({ client: z.string() }),
  bioreference: z.object({ ...labCommon, bioreference: z.record(z.string(), z.unknown()) }),
  quest: z.object({ ...labCommon, quest: z.record(z.string(), z.unknown()), allowed_business_units: z.array(z.string()).nullish() }),
  labcorp: z.union([labcorpTeam, labcorpHl7]),
  getlabs: z.object({ getlabs: z.object({ webhook_secret_key: z.string(), webhook_secret_token: z.string() }) }),
  phlebfinders: z.object({
    phlebfinders: z.object({
      account_id: z.string(),
      account_name: z.string(),
      team_id: z.string(),
      team_name: z.string(),
      webhook_token: z.string(),
      email: z.string(),
    }),
  }),
};
/** Providers without their own shape take any of the reference's shapes. */
const ANY_DETAILS = lazySchema(() => z.union(Object.values(DETAILS) as [z.ZodType, z.ZodType, ...z.ZodType[]]));

function credentialView(c: CustomCredential): z.input<typeof CustomCredentialWire> {
  return {
    id: c.id,
    client_id: c.client_id,
    client_secret_hash: c.client_secret_hash,
    source: c.source,
    team_id: c.team_id,
    created_at: c.created_at,
    updated_at: c.updated_at,
    details: c.details,
    app_url: c.app_url,
    redirect_url_override: c.redirect_url_override,
  };
}

function checkedDetails(provider: string, details: Record<string, unknown> | null | undefined): Record<string, unknown> | null {
  const schema = DETAILS[provider];
  if (MANUAL_VERIFICATION_PROVIDERS.has(provider) && !details) {
    throw managementError.invalid(['body', 'details'], CUSTOM_CREDENTIAL_MESSAGES.detailsRequired(provider), details ?? null);
  }
  if (!details) return null;
  const result = (schema ?? ANY_DETAILS).safeParse(details, { reportInput: true });
  if (!result.success) {
    throw managementError.invalidItems(
      result.error.issues.map((issue) => {
        const item = toItem(issue, 'body', details);
        item.loc = ['body', 'details', ...item.loc.slice(1)];
        return item;
      }),
    );
  }
  return result.data as Record<string, unknown>;
}

export const customCredentialRoutes = [
  defineRoute({
    id: 'management.custom_credentials.prepare',
    method: 'POST',
    path: '/v1/org/:org_id/prepare_team_custom_credentials/:env/:region',
    auth: 'management',
    summary:
      'What to configure in your OAuth application before setting custom credentials (callback URI, webhook URI), or no_action_needed.',
    request: { params: envRegionParams, body: lazySchema(() => z.object({ team_id: uuid(), provider: prepareProvider })) },
    responses: {
      200: res(CustomCredentialPreparation, 'PrepareTeamCustomCredentialsResponse'),
      400: 'Team in another region, or provider without OAuth',
    },
    access: (ctx, p) => requireOrg(ctx, p.org_id),
    handle(ctx, { params, body }) {
      const team = requireTeam(ctx, params.org_id, body.team_id);
      assertTeamRegion(team, params.region);
      const kind = credentialKind(body.provider);
      if (kind === 'unsupported') throw managementError.badRequest(CUSTOM_CREDENTIAL_MESSAGES.noOAuth(body.provider));
      if (kind === 'lab') return reply(200, { status: 'no_action_needed' as const, preparation_steps: [] });
      const base = ctx.world.urls.base;
      const steps: z.input<typeof CustomCredentialPreparation>['preparation_steps'] = [
        {
          type: 'redirect_uri',
          key: null,
          value: `${base}/v2/link/connect/${body.provider}`,
          description: `Add this URI to the allowed redirect (callback) URIs of your ${body.provider} OAuth application.`,
        },
      ];
      if (WEBHOOK_PROVIDERS.has(body.provider)) {
        const manual = MANUAL_VERIFICATION_PROVIDERS.has(body.provider);
        steps.push({
          type: 'webhook_uri',
          key: null,
          value: `${base}/v2/webhook/${body.provider}/${team.id}`,
          description: manual
            ? `Register this URI as the webhook subscriber of your ${body.provider} application. ${body.provider} verifies subscribers manually: set the credentials with the verify tokens in details.${body.provider}, then ask support to complete the verification; no data is pushed until then.`
            : `Register this URI as the webhook (push notification) endpoint of your ${body.provider} application.`,
        });
      }
      return reply(200, { status: 'preparations_required' as const, preparation_steps: steps });
    },
  }),

  defineRoute({
    id: 'management.custom_credentials.set',
    method: 'POST',
    path: '/v1/org/:org_id/team_custom_credentials/:env/:region',
    auth: 'management',
    summary: "Sets (upserts) a team's custom credentials for a provider in the environment; active at once.",
    request: {
      params: envRegionParams,
      body: lazySchema(() =>
        z.object({
          team_id: uuid(),
          provider: anyProvider,
          client_id: z.string().nullish(),
          client_secret: z.string().nullish(),
          details: z.record(z.string(), z.unknown()).nullish(),
          redirect_url_override: z.string().nullish(),
        }),
      ),
    },
    responses: {
      200: res(CustomCredentialWire, 'ClientFacingTeamProviderCredentials'),
      400: 'Team in another region, or provider without OAuth',
      422: 'Missing client id/secret or details',
    },
    access: (ctx, p) => requireOrg(ctx, p.org_id),
    handle(ctx, { params, body }) {
      const team = requireTeam(ctx, params.org_id, body.team_id);
      assertTeamRegion(team, params.region);
      const c = setCustomCredential(ctx.world, team, params.env, body, (details) => checkedDetails(body.provider, details), ctx.iso());
      return reply(200, credentialView(c));
    },
  }),

  defineRoute({
    id: 'management.custom_credentials.list',
    method: 'GET',
    path: '/v1/org/:org_id/team_custom_credentials/:env/:region',
    auth: 'management',
    summary:
      "Custom credentials of the org's teams in the environment and region (the key's teams only for a team key); filters team_id (repeatable), provider.",
    request: {
      params: envRegionParams,
      query: lazySchema(() =>
        withRules(
          z.object({ team_id: z.array(uuid()).default([]), provider: anyProvider.nullish(), next_cursor: z.string().nullish() }),
          onePageRule,
        ),
      ),
    },
    responses: {
      200: res(
        lazySchema(() => z.object({ credentials: z.array(CustomCredentialWire), next_cursor: z.string().nullable() })),
        '{credentials, next_cursor}',
      ),
      403: 'Team key not bound to a team_id',
    },
    access: (ctx, p) => requireOrg(ctx, p.org_id),
    handle(ctx, { params, query, access: org }) {
      const teams =
        query.team_id.length > 0 ? [...new Set(query.team_id)].map((id) => requireTeam(ctx, params.org_id, id)) : accessibleTeams(ctx, org);
      const credentials = listCustomCredentials(ctx.world, teams, params.env, params.region, query.provider ?? null).map(credentialView);
      return reply(200, { credentials, next_cursor: null });
    },
  }),

  defineRoute({
    id: 'management.custom_credentials.delete',
    method: 'DELETE',
    path: '/v1/org/:org_id/team_custom_credentials/:env/:region',
    auth: 'management',
    summary: 'Deletes custom credentials by credential_id (repeatable); answers {success, failure, not_found}.',
    request: { params: envRegionParams, query: lazySchema(() => z.object({ credential_id: z.array(uuid()) })) },
    responses: { 200: res(BatchOutcome, '{success, failure, not_found}') },
    access: (ctx, p) => requireOrg(ctx, p.org_id),
    handle(ctx, { params, query, access: org }) {
      return reply(
        200,
        deleteCustomCredentials(ctx.world, org.id, params.env, params.region, query.credential_id, (teamId) => canAccessTeam(ctx, teamId)),
      );
    },
  }),
];
