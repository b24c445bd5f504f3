/**
 * Teams through the management interface (spec 2.7, 4.9; api-facts A.13; management OpenAPI
 * `ClientFacingOrgTeam`, `CreateOrgTeamBody`, `UpdateOrgTeamBody`, `ResolveTeamBody`).
 *
 * Simulates list (filters `team_id`, `region`, `search_query`, cursor pages of 50), create (name
 * pattern, region, environment settings with the reference's defaults, brand information with
 * its defaults, optional `id`, `integration_team_id`, `event_type_prefixes`), get
 * (`include_environment`), update (name, integration_team_id, per-environment settings and brand
 * information), delete, and resolve by `integration_team_id`. A created team gets one working
 * API key per environment at once; a deleted team loses its keys and data at once.
 *
 * LIMITATIONS
 * - `include_environment`: the reference does not say what it does; here an empty list (the
 *   default) fills both environment blocks and a non-empty one fills only those listed.
 * - Update: a null or absent field keeps its value (there is no way to clear a field back to null).
 * - `patient_experience` is accepted on update and has no effect.
 * - `event_type_prefixes` (shown in the reference's create example, not in its schema) is accepted
 *   on create and, per environment, on update; an empty list means "every event".
 * - Team deletion answers `null` (the reference gives no schema). Team ids are never reused.
 * - Scope requirements, API access tokens and event delivery metrics: `team-settings.ts`.
 */
import { z } from 'zod';
import { accessibleTeams, requireOrg, requireOrgAdmin, requireTeam, requireTeamByIntegrationId } from '../../state/management/access.js';
import { defineRoute, reply } from '../../engine/route.js';
import { uuid, withRules } from '../../engine/schemas.js';
import {
  brandInformation,
  cursorRule,
  decodeCursor,
  email,
  encodeCursor,
  environmentParam,
  logoUrl,
  patterned,
  NAME_PATTERN_SOURCE,
  regionParam,
  teamName,
} from '../../state/management/common.js';
import {
  assertTeamCreatable,
  createTeam,
  deleteTeam,
  filterTeams,
  updateTeam,
  orgTeamListItem,
  orgTeamView,
} from '../../state/management/teams.js';
import { defaultEnvironmentSettings, type EnvironmentSettings } from '../../engine/tenancy.js';
import { ManagementTeam, TeamList, res } from '../../wire/schemas.js';
import { lazySchema } from '../../engine/lazy-schema.js';

const TEAM_PAGE_SIZE = 50;

const orgParams = lazySchema(() => z.object({ org_id: uuid() }));
const teamParams = lazySchema(() => z.object({ org_id: uuid(), team_id: uuid() }));
const eventTypePrefixes = lazySchema(() => z.array(z.string().min(1)).nullish());

const listQuery = lazySchema(() =>
  z.object({
    team_id: uuid().nullish(),
    region: z.array(regionParam()).nullish(),
    search_query: patterned(NAME_PATTERN_SOURCE, new RegExp(NAME_PATTERN_SOURCE)).nullish(),
    next_cursor: z.string().nullish(),
  }),
);

const createBody = lazySchema(() =>
  z.object({
    lab_tests_patient_sms_communication_enabled: z.boolean().default(true),
    lab_tests_patient_email_communication_enabled: z.boolean().default(true),
    critical_result_notification_email: email().nullish(),
    brand_information: brandInformation().nullish(),
    logo_url: logoUrl().nullish(),
    reject_duplicate_connection: z.boolean().default(false),
    sdk_per_device_activity_timeseries: z.boolean().default(false),
    partial_webhooks_enabled: z.boolean().nullish(),
    minor_ordering_enabled: z.boolean().nullish(),
    id: uuid().nullish(),
    name: teamName(),
    region: regionParam(),
    integration_team_id: z.string().max(256).nullish(),
    event_type_prefixes: eventTypePrefixes,
  }),
);

const updateBrand = lazySchema(() =>
  z.object({
    company_name: z.string().nullish(),
    company_website: z.string().nullish(),
    support_email: email().nullish(),
    support_contact: z.string().nullish(),
    company_address: z.string().nullish(),
    brand_color: z.string().nullish(),
  }),
);

const updateEnvironment = lazySchema(() =>
  z.object({
    lab_tests_patient_sms_communication_enabled: z.boolean().nullish(),
    lab_tests_patient_email_communication_enabled: z.boolean().nullish(),
    critical_result_notification_email: email().nullish(),
    partial_webhooks_enabled: z.boolean().nullish(),
    minor_ordering_enabled: z.boolean().nullish(),
    reject_duplicate_connection: z.boolean().nullish(),
    sdk_per_device_activity_timeseries: z.boolean().nullish(),
    patient_experience: z.boolean().nullish(),
    brand_information: updateBrand.nullish(),
    logo_url: logoUrl().nullish(),
    event_type_prefixes: eventTypePrefixes,
  }),
);

const updateBody = lazySchema(() =>
  z.object({
    name: teamName().nullish(),
    integration_team_id: z.string().max(256).nullish(),
    sandbox: updateEnvironment.nullish(),
    production: updateEnvironment.nullish(),
  }),
);

export const managementTeamRoutes = [
  defineRoute({
    id: 'management.team.list',
    method: 'GET',
    path: '/v1/org/:org_id/team',
    auth: 'management',
    summary:
      'Teams of the org the key may see, oldest first; filters team_id, region (repeatable), search_query; pages of 50 with next_cursor.',
    request: { params: orgParams, query: lazySchema(() => withRules(listQuery, cursorRule('team'))) },
    responses: { 200: res(TeamList, '{teams, next_cursor}'), 422: 'Invalid filter or cursor' },
    access: (ctx, p) => requireOrg(ctx, p.org_id),
    handle(ctx, { params, query, access: org }) {
      const after = query.next_cursor ? decodeCursor('team', query.next_cursor) : 0;
      const tenancy = ctx.world.tenancy;
      const teams = filterTeams(ctx.world, accessibleTeams(ctx, org), {
        afterSeq: after,
        team_id: query.team_id,
        regions: query.region,
        search: query.search_query,
      });
      const page = teams.slice(0, TEAM_PAGE_SIZE);
      const last = page[page.length - 1];
      const next = teams.length > TEAM_PAGE_SIZE && last ? encodeCursor('team', tenancy.teamSequence(last.id) ?? 0) : null;
      return reply(200, { teams: page.map(orgTeamListItem), next_cursor: next });
    },
  }),

  defineRoute({
    id: 'management.team.create',
    method: 'POST',
    path: '/v1/org/:org_id/team',
    auth: 'management',
    summary: 'Creates a team (org key only) with one API key per environment, usable at once.',
    request: { params: orgParams, body: createBody },
    responses: {
      200: res(ManagementTeam, 'ClientFacingOrgTeam'),
      409: '{detail, team_id}: integration_team_id or id taken',
      422: 'Invalid body',
    },
    access: (ctx, p) => requireOrgAdmin(ctx, p.org_id),
    handle(ctx, { params, body, access: org }) {
      const settings: EnvironmentSettings = {
        ...defaultEnvironmentSettings(),
        lab_tests_patient_sms_communication_enabled: body.lab_tests_patient_sms_communication_enabled,
        lab_tests_patient_email_communication_enabled: body.lab_tests_patient_email_communication_enabled,
        critical_result_notification_email: body.critical_result_notification_email ?? null,
        brand_information: body.brand_information ?? null,
        logo_url: body.logo_url ?? null,
        reject_duplicate_connection: body.reject_duplicate_connection,
        sdk_per_device_activity_timeseries: body.sdk_per_device_activity_timeseries,
        partial_webhooks_enabled: body.partial_webhooks_enabled ?? false,
        minor_ordering_enabled: body.minor_ordering_enabled ?? false,
        event_type_prefixes: body.event_type_prefixes && body.event_type_prefixes.length > 0 ? body.event_type_prefixes : null,
      };
      const input = {
        id: body.id ?? null,
        name: body.name,
        region: body.region,
        integration_team_id: body.integration_team_id ?? null,
        settings,
      };
      assertTeamCreatable(ctx.world, org, input);
      const team = createTeam(ctx.world, org, input, ctx.iso());
      return reply(200, orgTeamView(team));
    },
  }),

  defineRoute({
    id: 'management.team.get',
    method: 'GET',
    path: '/v1/org/:org_id/team/:team_id',
    auth: 'management',
    summary: 'One team with its sandbox and production settings (spec 4.9); include_environment limits the blocks filled.',
    request: { params: teamParams, query: lazySchema(() => z.object({ include_environment: z.array(environmentParam()).default([]) })) },
    responses: { 200: res(ManagementTeam, 'ClientFacingOrgTeam'), 403: 'Team key not bound to the team', 404: 'Team not found' },
    access: (ctx, p) => requireTeam(ctx, p.org_id, p.team_id),
    handle(ctx, { params, query, access: team }) {
      return reply(200, orgTeamView(team, query.include_environment));
    },
  }),

  defineRoute({
    id: 'management.team.update',
    method: 'PATCH',
    path: '/v1/org/:org_id/team/:team_id',
    auth: 'management',
    summary:
      'Updates name, integration_team_id and per-environment settings (null keeps a value); logo_url is required with brand company_name.',
    request: { params: teamParams, body: updateBody },
    responses: {
      200: res(ManagementTeam, 'ClientFacingOrgTeam'),
      409: '{detail, team_id}: integration_team_id taken',
      422: 'Invalid body',
    },
    access: (ctx, p) => requireTeam(ctx, p.org_id, p.team_id),
    handle(ctx, { params, body, access: team }) {
      updateTeam(ctx.world, team, body);
      return reply(200, orgTeamView(team));
    },
  }),

  defineRoute({
    id: 'management.team.delete',
    method: 'DELETE',
    path: '/v1/org/:org_id/team/:team_id',
    auth: 'management',
    summary: 'Deletes a team (org key only): its API keys stop working and its data becomes unreachable at once.',
    request: { params: teamParams },
    responses: {
      200: res(
        lazySchema(() => z.null()),
        'null',
      ),
      403: 'Team key',
      404: 'Team not found',
    },
    access: (ctx, p) => {
      requireOrgAdmin(ctx, p.org_id);
      return requireTeam(ctx, p.org_id, p.team_id);
    },
    handle(ctx, { access: team }) {
      deleteTeam(ctx.world, team);
      return reply(200, null);
    },
  }),

  defineRoute({
    id: 'management.team.resolve',
    method: 'POST',
    path: '/v1/org/:org_id/resolve_team',
    auth: 'management',
    summary: 'The team with this integration_team_id.',
    request: { params: orgParams, body: lazySchema(() => z.object({ integration_team_id: z.string().max(256) })) },
    responses: { 200: res(ManagementTeam, 'ClientFacingOrgTeam'), 403: 'Team key not bound to it', 404: 'No team has it' },
    access: (ctx, p) => requireOrg(ctx, p.org_id),
    handle: (ctx, { body, access: org }) => reply(200, orgTeamView(requireTeamByIntegrationId(ctx, org, body.integration_team_id))),
  }),
];
