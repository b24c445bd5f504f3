/**
 * Org management (management OpenAPI `GET/PATCH /v1/org/{org_id}`, `ClientFacingOrg`; spec 1:
 * premium plan only). Any management key of the org may read it; only an org key may rename it.
 * Members and invites: `members.ts`; domains: `domains.ts`; EHR integration: `ehr.ts`.
 */
import { z } from 'zod';
import { requireOrg, requireOrgAdmin } from '../../state/management/access.js';
import { defineRoute, reply } from '../../engine/route.js';
import { uuid } from '../../engine/schemas.js';
import { teamName } from '../../state/management/common.js';
import { renameOrg } from '../../state/management/orgs.js';
import type { Org } from '../../engine/tenancy.js';
import { Org as OrgWire, res } from '../../wire/schemas.js';
import { lazySchema } from '../../engine/lazy-schema.js';

function orgView(org: Org): z.input<typeof OrgWire> {
  return { id: org.id, name: org.name, expires_at: org.expires_at };
}

const orgParams = lazySchema(() => z.object({ org_id: uuid() }));

export const managementOrgRoutes = [
  defineRoute({
    id: 'management.org.get',
    method: 'GET',
    path: '/v1/org/:org_id',
    auth: 'management',
    summary: 'The org (ClientFacingOrg: id, name, expires_at).',
    request: { params: orgParams },
    responses: { 200: res(OrgWire, 'ClientFacingOrg'), 403: 'Another org, or not on the premium plan' },
    access: (ctx, p) => requireOrg(ctx, p.org_id),
    handle(ctx, { params, access }) {
      return reply(200, orgView(access));
    },
  }),

  defineRoute({
    id: 'management.org.update',
    method: 'PATCH',
    path: '/v1/org/:org_id',
    auth: 'management',
    summary: 'Renames the org (org key only).',
    request: { params: orgParams, body: lazySchema(() => z.object({ name: teamName() })) },
    responses: { 200: res(OrgWire, 'ClientFacingOrg'), 403: 'Team key, another org, or not premium', 422: 'Invalid name' },
    access: (ctx, p) => requireOrgAdmin(ctx, p.org_id),
    handle(ctx, { params, body, access }) {
      return reply(200, orgView(renameOrg(access, body.name)));
    },
  }),
];
