/**
 * Control-plane routes of the management area (`/_sandbox/*`, design.md section 5): orgs and
 * their plans (spec 1: org management needs the premium plan), and the closed-beta features
 * each team is enabled for (spec 7.2, 9).
 *
 * LIMITATIONS
 * - Orgs cannot be deleted; an org created here starts without teams (create them through the
 *   management API with the returned key).
 */
import { z } from 'zod';
import { defineRoute, type Ctx, reply } from '../../engine/route.js';
import { uuid } from '../../engine/schemas.js';
import { teamName } from '../../state/management/common.js';
import { createOrg, orgById, setBetaFeatures, setOrgPlan, teamById } from '../../state/management/orgs.js';
import type { Org, Plan, Team } from '../../engine/tenancy.js';
import { acceptInvite, mailOf, memberView } from '../../state/management/people.js';
import { BetaFeatures, Member, OrgMail, SandboxOrg, SandboxOrgCreated, SandboxOrgList, res } from '../../wire/schemas.js';
import { lazySchema } from '../../engine/lazy-schema.js';

const PLANS: readonly Plan[] = ['launch', 'grow', 'scale', 'premium'];
const planEnum = lazySchema(() => z.enum(PLANS as [Plan, ...Plan[]]));
const featureName = lazySchema(() =>
  z.string().regex(/^[a-z0-9][a-z0-9_.-]{0,63}$/, 'Feature names are 1 to 64 lower-case letters, digits, ".", "_" or "-"'),
);

function orgControlView(ctx: Ctx, org: Org): z.input<typeof SandboxOrg> {
  return {
    id: org.id,
    name: org.name,
    plan: org.plan,
    created_at: org.created_at,
    expires_at: org.expires_at,
    team_ids: ctx.world.tenancy.orgTeams(org.id).map((t) => t.id),
  };
}

function betaView(team: Team): z.input<typeof BetaFeatures> {
  return { team_id: team.id, beta_features: [...team.beta_features].sort() };
}

const orgOf = (ctx: Ctx, orgId: string): Org => orgById(ctx.world, orgId);
const teamOf = (ctx: Ctx, teamId: string): Team => teamById(ctx.world, teamId);

export const managementControlRoutes = [
  defineRoute({
    id: 'sandbox.orgs.list',
    method: 'GET',
    path: '/_sandbox/orgs',
    auth: 'control',
    summary: 'Every org with its plan and team ids.',
    responses: { 200: res(SandboxOrgList, 'OK') },
    handle: (ctx) => reply(200, { orgs: [...ctx.world.tenancy.orgs.values()].map((o) => orgControlView(ctx, o)) }),
  }),

  defineRoute({
    id: 'sandbox.orgs.create',
    method: 'POST',
    path: '/_sandbox/orgs',
    auth: 'control',
    summary: 'Creates an org ({name?, plan? = premium}) and its org management key; answers {org_id, ..., management_key}.',
    request: { body: lazySchema(() => z.object({ name: teamName().optional(), plan: planEnum.default('premium') }).nullish()) },
    responses: { 200: res(SandboxOrgCreated, '{org_id, name, plan, management_key_id, management_key}') },
    handle(ctx, { body }) {
      const { org, key } = createOrg(ctx.world, { name: body?.name ?? null, plan: body?.plan ?? 'premium' }, ctx.iso());
      return reply(200, { org_id: org.id, name: org.name, plan: org.plan, management_key_id: key.id, management_key: key.key });
    },
  }),

  defineRoute({
    id: 'sandbox.orgs.get',
    method: 'GET',
    path: '/_sandbox/orgs/:org_id',
    auth: 'control',
    summary: 'One org with its plan and team ids.',
    request: { params: lazySchema(() => z.object({ org_id: uuid() })) },
    responses: { 200: res(SandboxOrg, '{id, name, plan, created_at, expires_at, team_ids}'), 404: 'Org not found' },
    handle: (ctx, { params }) => reply(200, orgControlView(ctx, orgOf(ctx, params.org_id))),
  }),

  defineRoute({
    id: 'sandbox.orgs.plan',
    method: 'PUT',
    path: '/_sandbox/orgs/:org_id/plan',
    auth: 'control',
    summary: "Sets an org's plan (launch, grow, scale, premium); only premium may use org management.",
    request: { params: lazySchema(() => z.object({ org_id: uuid() })), body: lazySchema(() => z.object({ plan: planEnum })) },
    responses: { 200: res(SandboxOrg, 'The org'), 404: 'Org not found' },
    handle(ctx, { params, body }) {
      const org = orgOf(ctx, params.org_id);
      return reply(200, orgControlView(ctx, setOrgPlan(org, body.plan)));
    },
  }),

  defineRoute({
    id: 'sandbox.teams.beta.get',
    method: 'GET',
    path: '/_sandbox/teams/:team_id/beta_features',
    auth: 'control',
    summary: 'The closed-beta features a team is enabled for.',
    request: { params: lazySchema(() => z.object({ team_id: uuid() })) },
    responses: { 200: res(BetaFeatures, '{team_id, beta_features}'), 404: 'Team not found' },
    handle: (ctx, { params }) => reply(200, betaView(teamOf(ctx, params.team_id))),
  }),

  defineRoute({
    id: 'sandbox.teams.beta.put',
    method: 'PUT',
    path: '/_sandbox/teams/:team_id/beta_features',
    auth: 'control',
    summary: 'Replaces the closed-beta features a team is enabled for ({"beta_features": ["lab_accounts"]}).',
    request: {
      params: lazySchema(() => z.object({ team_id: uuid() })),
      body: lazySchema(() => z.object({ beta_features: z.array(featureName) })),
    },
    responses: { 200: res(BetaFeatures, '{team_id, beta_features}'), 404: 'Team not found' },
    handle(ctx, { params, body }) {
      const team = teamOf(ctx, params.team_id);
      return reply(200, betaView(setBetaFeatures(team, body.beta_features)));
    },
  }),

  defineRoute({
    id: 'sandbox.orgs.invite.accept',
    method: 'POST',
    path: '/_sandbox/orgs/:org_id/invites/:invite_id/accept',
    auth: 'control',
    summary: "The invitee accepts an org invite ({name?}): it becomes a member with the invite's role and team bindings.",
    request: {
      params: lazySchema(() => z.object({ org_id: uuid(), invite_id: uuid() })),
      body: lazySchema(() => z.object({ name: z.string().min(1).max(200).optional() }).nullish()),
    },
    responses: { 200: res(Member, 'ClientFacingOrgMember'), 404: 'Org or invite not found' },
    handle(ctx, { params, body }) {
      const org = orgOf(ctx, params.org_id);
      return reply(200, memberView(acceptInvite(ctx.world, org, params.invite_id, body?.name ?? null, ctx.iso())));
    },
  }),

  defineRoute({
    id: 'sandbox.orgs.mail',
    method: 'GET',
    path: '/_sandbox/orgs/:org_id/mail',
    auth: 'control',
    summary: "E-mails the org's service would have sent (invites, domain instructions), oldest first; the last 200.",
    request: { params: lazySchema(() => z.object({ org_id: uuid() })) },
    responses: { 200: res(OrgMail, '{mail: [{to, subject, kind, sent_at, ref_id}]}'), 404: 'Org not found' },
    handle: (ctx, { params }) => reply(200, { mail: mailOf(ctx.world, orgOf(ctx, params.org_id)).map((m) => ({ ...m })) }),
  }),
];
