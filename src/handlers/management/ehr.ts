/**
 * The org's EHR integration (management OpenAPI `/v1/org/{org_id}/ehr_integration/*`):
 * configuration (get, upsert), integration-managed members (create, resolve, list, get, update,
 * delete) and dashboard URLs. Org-level (org management keys), except that a team key may
 * create a dashboard URL for a team it is bound to. Rules in `src/state/management/ehr.ts`.
 *
 * LIMITATIONS
 * - A dashboard URL opens no dashboard: it points at `GET /_sandbox/ehr_dashboard/{token}` on the
 *   sandbox, which shows the session (member, team, feature, modality, environment) for
 *   `DASHBOARD_URL_TTL_S` (5 minutes) of sandbox time. `feature` is free text.
 * - Member delete answers the deleted member; members are listed in pages of 50.
 */
import { z } from 'zod';
import { defineRoute, reply } from '../../engine/route.js';
import { uuid, withRules } from '../../engine/schemas.js';
import { requireOrg, requireOrgAdmin } from '../../state/management/access.js';
import { cursorRule, decodeCursor, encodeCursor, environmentParam } from '../../state/management/common.js';
import {
  openDashboardUrl,
  createIntegrationMember,
  deleteIntegrationMember,
  getEhrConfig,
  getIntegrationMember,
  integrationMemberView,
  listIntegrationMembers,
  resolveIntegrationMember,
  updateIntegrationMember,
  upsertEhrConfig,
} from '../../state/management/ehr.js';
import { EhrConfiguration, EhrMember, ExpiringUrl, cursorPage, res } from '../../wire/schemas.js';
import { lazySchema } from '../../engine/lazy-schema.js';

const INTEGRATION_MEMBER_PAGE_SIZE = 50;
const BASE = '/v1/org/:org_id/ehr_integration';
const orgParams = lazySchema(() => z.object({ org_id: uuid() }));
const memberParams = lazySchema(() => z.object({ org_id: uuid(), member_id: uuid() }));
const modality = lazySchema(() => z.enum(['feature_embed', 'link_out']));
const bindings = lazySchema(() => z.array(z.object({ team_id: uuid() })));
const integrationId = lazySchema(() => z.string().max(256));

const configBody = lazySchema(() =>
  z.object({
    slug: z.string().min(3),
    modalities: z.array(modality),
    origin_configs: z.array(z.object({ origin: z.string(), session_continuation_url: z.string().nullish() })),
  }),
);

const dashboardBody = lazySchema(() =>
  z.object({
    member_id: uuid().nullish(),
    integration_member_id: integrationId.nullish(),
    team_id: uuid().nullish(),
    integration_team_id: integrationId.nullish(),
    feature: z.string(),
    modality,
    environment: environmentParam(),
  }),
);

export const ehrIntegrationRoutes = [
  defineRoute({
    id: 'management.ehr.configuration.get',
    method: 'GET',
    path: `${BASE}/configuration`,
    auth: 'management',
    summary: "The org's EHR integration configuration (404 until set).",
    request: { params: orgParams },
    responses: { 200: res(EhrConfiguration, 'EhrIntegrationConfig'), 404: 'Not configured' },
    access: (ctx, p) => requireOrgAdmin(ctx, p.org_id),
    handle(ctx, { params, access }) {
      return reply(200, getEhrConfig(ctx.world, access));
    },
  }),

  defineRoute({
    id: 'management.ehr.configuration.upsert',
    method: 'PUT',
    path: `${BASE}/configuration`,
    auth: 'management',
    summary: "Sets the org's EHR integration configuration (slug, modalities, allowed origins).",
    request: { params: orgParams, body: configBody },
    responses: { 200: res(EhrConfiguration, 'EhrIntegrationConfig'), 422: 'Invalid body' },
    access: (ctx, p) => requireOrgAdmin(ctx, p.org_id),
    handle(ctx, { params, body, access: org }) {
      const config = {
        ...body,
        origin_configs: body.origin_configs.map((o) => ({
          origin: o.origin,
          session_continuation_url: o.session_continuation_url ?? null,
        })),
      };
      return reply(200, upsertEhrConfig(ctx.world, org, config));
    },
  }),

  defineRoute({
    id: 'management.ehr.dashboard_url',
    method: 'POST',
    path: `${BASE}/create_dashboard_url`,
    auth: 'management',
    summary: 'A short-lived dashboard URL for an integration-managed member (by id or integration id), optionally for a team.',
    request: { params: orgParams, body: dashboardBody },
    responses: {
      200: res(ExpiringUrl, 'CreateDashboardURLResponse'),
      400: 'Not configured, or modality not enabled',
      404: 'Member or team not found',
    },
    access: (ctx, p) => requireOrg(ctx, p.org_id),
    handle: (ctx, { body, access: org }) => reply(200, openDashboardUrl(ctx, org, body)),
  }),

  defineRoute({
    id: 'management.ehr.member.create',
    method: 'POST',
    path: `${BASE}/member`,
    auth: 'management',
    summary: 'Creates an integration-managed member (409 with member_id when the integration_member_id is taken).',
    request: {
      params: orgParams,
      body: lazySchema(() =>
        z.object({
          integration_member_id: integrationId,
          name: z.string(),
          email: z.string(),
          avatar: z.string().nullish(),
          team_role_bindings: bindings.nullish(),
        }),
      ),
    },
    responses: { 200: res(EhrMember, 'IntegrationManagedMember'), 409: 'IntegrationMemberIDConflictResponse', 422: 'Invalid body or team' },
    access: (ctx, p) => requireOrgAdmin(ctx, p.org_id),
    handle(ctx, { params, body, access: org }) {
      const m = createIntegrationMember(ctx.world, org, {
        integration_member_id: body.integration_member_id,
        name: body.name,
        email: body.email,
        avatar: body.avatar ?? null,
        team_ids: body.team_role_bindings ? body.team_role_bindings.map((b) => b.team_id) : null,
      });
      return reply(200, integrationMemberView(m));
    },
  }),

  defineRoute({
    id: 'management.ehr.member.list',
    method: 'GET',
    path: `${BASE}/member`,
    auth: 'management',
    summary: 'Integration-managed members, oldest first, pages of 50 with next_cursor.',
    request: {
      params: orgParams,
      query: lazySchema(() => withRules(z.object({ next_cursor: z.string().nullish() }), cursorRule('integration_member'))),
    },
    responses: {
      200: res(
        lazySchema(() => cursorPage(EhrMember)),
        'ListIntegrationManagedMembersResponse',
      ),
      422: 'Invalid cursor',
    },
    access: (ctx, p) => requireOrgAdmin(ctx, p.org_id),
    handle(ctx, { params, query, access: org }) {
      const rows = listIntegrationMembers(ctx.world, org, query.next_cursor ? decodeCursor('integration_member', query.next_cursor) : 0);
      const page = rows.slice(0, INTEGRATION_MEMBER_PAGE_SIZE);
      const last = page[page.length - 1];
      const next = rows.length > INTEGRATION_MEMBER_PAGE_SIZE && last ? encodeCursor('integration_member', last.seq) : null;
      return reply(200, { data: page.map(integrationMemberView), next_cursor: next });
    },
  }),

  defineRoute({
    id: 'management.ehr.member.resolve',
    method: 'POST',
    path: `${BASE}/resolve_member`,
    auth: 'management',
    summary: 'The integration-managed member with this integration_member_id.',
    request: { params: orgParams, body: lazySchema(() => z.object({ integration_member_id: integrationId })) },
    responses: { 200: res(EhrMember, 'IntegrationManagedMember'), 404: 'Not found' },
    access: (ctx, p) => requireOrgAdmin(ctx, p.org_id),
    handle(ctx, { params, body, access: org }) {
      return reply(200, integrationMemberView(resolveIntegrationMember(ctx.world, org, body.integration_member_id)));
    },
  }),

  defineRoute({
    id: 'management.ehr.member.get',
    method: 'GET',
    path: `${BASE}/member/:member_id`,
    auth: 'management',
    summary: 'One integration-managed member.',
    request: { params: memberParams },
    responses: { 200: res(EhrMember, 'IntegrationManagedMember'), 404: 'Not found' },
    access: (ctx, p) => requireOrgAdmin(ctx, p.org_id),
    handle(ctx, { params, access: org }) {
      return reply(200, integrationMemberView(getIntegrationMember(ctx.world, org, params.member_id)));
    },
  }),

  defineRoute({
    id: 'management.ehr.member.update',
    method: 'PATCH',
    path: `${BASE}/member/:member_id`,
    auth: 'management',
    summary: 'Updates name, e-mail, avatar, team bindings (null keeps a value).',
    request: {
      params: memberParams,
      body: lazySchema(() =>
        z.object({
          name: z.string().nullish(),
          email: z.string().nullish(),
          avatar: z.string().nullish(),
          team_role_bindings: bindings.nullish(),
        }),
      ),
    },
    responses: { 200: res(EhrMember, 'IntegrationManagedMember'), 404: 'Not found', 422: 'Invalid body or team' },
    access: (ctx, p) => requireOrgAdmin(ctx, p.org_id),
    handle(ctx, { params, body, access: org }) {
      const teamIds = body.team_role_bindings ? body.team_role_bindings.map((b) => b.team_id) : null;
      return reply(200, integrationMemberView(updateIntegrationMember(ctx.world, org, params.member_id, { ...body, team_ids: teamIds })));
    },
  }),

  defineRoute({
    id: 'management.ehr.member.delete',
    method: 'DELETE',
    path: `${BASE}/member/:member_id`,
    auth: 'management',
    summary: 'Deletes an integration-managed member; answers it.',
    request: { params: memberParams },
    responses: { 200: res(EhrMember, 'The deleted IntegrationManagedMember'), 404: 'Not found' },
    access: (ctx, p) => requireOrgAdmin(ctx, p.org_id),
    handle(ctx, { params, access: org }) {
      return reply(200, integrationMemberView(deleteIntegrationMember(ctx.world, org, params.member_id)));
    },
  }),
];
