/**
 * Org domains (management OpenAPI `/v1/org/{org_id}/domain`, `.../domain/{domain_id}`,
 * `.../verify`, `.../send_domain_instructions`). Org-level: org management keys only. Rules in
 * `src/state/management/domains.ts`: a TXT record to publish, verified on the sandbox clock.
 *
 * LIMITATIONS
 * - No DNS is queried: verification succeeds once `DOMAIN_PROPAGATION_MS` (10 minutes of sandbox
 *   time) have passed since the domain was added.
 * - Instructions are not e-mailed: they land in the org's outbox (`GET /_sandbox/orgs/{org_id}/mail`)
 *   and `sendgrid_message_id` is null. Delete answers the deleted domain.
 */
import { z } from 'zod';
import { defineRoute, reply } from '../../engine/route.js';
import { uuid, withRules } from '../../engine/schemas.js';
import { requireOrgAdmin } from '../../state/management/access.js';
import { email } from '../../state/management/common.js';
import {
  addDomain,
  deleteDomain,
  domainNameRule,
  domainView,
  getDomain,
  listDomains,
  sendDomainInstructions,
  verifyDomain,
} from '../../state/management/domains.js';
import { Domain, listOf, res } from '../../wire/schemas.js';
import { lazySchema } from '../../engine/lazy-schema.js';

const orgParams = lazySchema(() => z.object({ org_id: uuid() }));
const domainParams = lazySchema(() => z.object({ org_id: uuid(), domain_id: uuid() }));

export const domainRoutes = [
  defineRoute({
    id: 'management.domain.list',
    method: 'GET',
    path: '/v1/org/:org_id/domain',
    auth: 'management',
    summary: "The org's domains, oldest first.",
    request: { params: orgParams },
    responses: {
      200: res(
        lazySchema(() => listOf('data', Domain)),
        'ListOrgDomainResponse',
      ),
    },
    access: (ctx, p) => requireOrgAdmin(ctx, p.org_id),
    handle(ctx, { params, access: org }) {
      return reply(200, { data: listDomains(ctx.world, org).map(domainView) });
    },
  }),

  defineRoute({
    id: 'management.domain.create',
    method: 'POST',
    path: '/v1/org/:org_id/domain',
    auth: 'management',
    summary: 'Adds a domain (201) with the TXT record to publish for verification.',
    request: { params: orgParams, body: lazySchema(() => withRules(z.object({ domain: z.string() }), domainNameRule)) },
    responses: { 201: res(Domain, 'ClientFacingOrgDomain'), 409: 'Domain already added', 422: 'Not a domain name' },
    access: (ctx, p) => requireOrgAdmin(ctx, p.org_id),
    handle(ctx, { params, body, access: org }) {
      return reply(201, domainView(addDomain(ctx.world, org, body.domain, ctx.now(), ctx.iso())));
    },
  }),

  defineRoute({
    id: 'management.domain.get',
    method: 'GET',
    path: '/v1/org/:org_id/domain/:domain_id',
    auth: 'management',
    summary: 'One domain.',
    request: { params: domainParams },
    responses: { 200: res(Domain, 'ClientFacingOrgDomain'), 404: 'Domain not found' },
    access: (ctx, p) => requireOrgAdmin(ctx, p.org_id),
    handle(ctx, { params, access: org }) {
      return reply(200, domainView(getDomain(ctx.world, org, params.domain_id)));
    },
  }),

  defineRoute({
    id: 'management.domain.delete',
    method: 'DELETE',
    path: '/v1/org/:org_id/domain/:domain_id',
    auth: 'management',
    summary: 'Deletes a domain; answers it.',
    request: { params: domainParams },
    responses: { 200: res(Domain, 'The deleted ClientFacingOrgDomain'), 404: 'Domain not found' },
    access: (ctx, p) => requireOrgAdmin(ctx, p.org_id),
    handle(ctx, { params, access: org }) {
      return reply(200, domainView(deleteDomain(ctx.world, org, params.domain_id)));
    },
  }),

  defineRoute({
    id: 'management.domain.verify',
    method: 'POST',
    path: '/v1/org/:org_id/domain/:domain_id/verify',
    auth: 'management',
    summary: 'Checks the TXT record: pending until 10 minutes of sandbox time after the domain was added, then verified.',
    request: { params: domainParams },
    responses: {
      200: res(
        lazySchema(() => z.object({ status: z.string() })),
        'VerifyOrgDomainResponse',
      ),
      404: 'Domain not found',
    },
    access: (ctx, p) => requireOrgAdmin(ctx, p.org_id),
    handle(ctx, { params, access: org }) {
      return reply(200, { status: verifyDomain(ctx.world, org, params.domain_id, ctx.now()).status });
    },
  }),

  defineRoute({
    id: 'management.domain.send_instructions',
    method: 'POST',
    path: '/v1/org/:org_id/domain/:domain_id/send_domain_instructions',
    auth: 'management',
    summary: "Sends the DNS instructions to an address (recorded in the org's sandbox outbox).",
    request: { params: domainParams, body: lazySchema(() => z.object({ to_email: email() })) },
    responses: {
      200: res(
        lazySchema(() => z.object({ sent: z.boolean(), sendgrid_message_id: z.string().nullable() })),
        'SendOrgDomainInstructionsResponse',
      ),
      404: 'Domain not found',
      422: 'Invalid e-mail',
    },
    access: (ctx, p) => requireOrgAdmin(ctx, p.org_id),
    handle(ctx, { params, body, access: org }) {
      sendDomainInstructions(ctx.world, org, params.domain_id, body.to_email, ctx.iso());
      return reply(200, { sent: true, sendgrid_message_id: null });
    },
  }),
];
