/**
 * Org members and invites (management OpenAPI `GET /v1/org/{org_id}/member`, `PATCH/DELETE
 * .../member/{member_id}`, `GET/POST /v1/org/{org_id}/invite`, `DELETE .../invite/{invite_id}`).
 * Org-level: org management keys only. Rules live in `src/state/management/people.ts`.
 *
 * LIMITATIONS
 * - Members join only by accepting an invite through the control plane
 *   (`POST /_sandbox/orgs/{org_id}/invites/{invite_id}/accept`); every org starts with one owner.
 * - Update and remove answer the member (the reference gives no schema); revoke answers the invite.
 */
import { z } from 'zod';
import { defineRoute, reply } from '../../engine/route.js';
import { uuid, withRules } from '../../engine/schemas.js';
import { requireOrgAdmin } from '../../state/management/access.js';
import { cursorRule, decodeCursor, email, encodeCursor } from '../../state/management/common.js';
import {
  inviteMember,
  inviteView,
  listInvites,
  listMembers,
  memberView,
  removeMember,
  revokeInvite,
  updateMember,
} from '../../state/management/people.js';
import { Invite, Member, res } from '../../wire/schemas.js';
import { lazySchema } from '../../engine/lazy-schema.js';

const MEMBER_PAGE_SIZE = 50;

const orgParams = lazySchema(() => z.object({ org_id: uuid() }));
const memberParams = lazySchema(() => z.object({ org_id: uuid(), member_id: uuid() }));
const inviteParams = lazySchema(() => z.object({ org_id: uuid(), invite_id: uuid() }));
const role = lazySchema(() => z.enum(['org_admin', 'team_admin', 'no_role']));
const bindings = lazySchema(() => z.array(z.object({ team_id: uuid() })));
const listQuery = lazySchema(() => z.object({ search_query: z.string().nullish(), next_cursor: z.string().nullish() }));

function page<T extends { seq: number }>(kind: string, rows: T[]): { rows: T[]; next: string | null } {
  const out = rows.slice(0, MEMBER_PAGE_SIZE);
  const last = out[out.length - 1];
  return { rows: out, next: rows.length > MEMBER_PAGE_SIZE && last ? encodeCursor(kind, last.seq) : null };
}

export const memberRoutes = [
  defineRoute({
    id: 'management.member.list',
    method: 'GET',
    path: '/v1/org/:org_id/member',
    auth: 'management',
    summary: 'Members of the org in joining order; search_query matches name or e-mail; pages of 50 with next_cursor.',
    request: { params: orgParams, query: lazySchema(() => withRules(listQuery, cursorRule('member'))) },
    responses: {
      200: res(
        lazySchema(() => z.object({ members: z.array(Member), next_cursor: z.string().nullable() })),
        'ClientFacingOrgMemberListResponse',
      ),
      422: 'Invalid cursor',
    },
    access: (ctx, p) => requireOrgAdmin(ctx, p.org_id),
    handle(ctx, { params, query, access: org }) {
      const after = query.next_cursor ? decodeCursor('member', query.next_cursor) : 0;
      const { rows, next } = page('member', listMembers(ctx.world, org, query.search_query ?? null, after));
      return reply(200, { members: rows.map(memberView), next_cursor: next });
    },
  }),

  defineRoute({
    id: 'management.member.update',
    method: 'PATCH',
    path: '/v1/org/:org_id/member/:member_id',
    auth: 'management',
    summary: "Changes a member's role and team bindings (a null role keeps it); the last owner cannot be demoted.",
    request: { params: memberParams, body: lazySchema(() => z.object({ role: role.nullable(), team_role_bindings: bindings.nullable() })) },
    responses: {
      200: res(Member, 'ClientFacingOrgMember'),
      400: 'Last owner, or bindings that do not fit the role',
      404: 'Member not found',
      422: 'Invalid body or team',
    },
    access: (ctx, p) => requireOrgAdmin(ctx, p.org_id),
    handle(ctx, { params, body, access: org }) {
      const teamIds = body.team_role_bindings ? body.team_role_bindings.map((b) => b.team_id) : null;
      return reply(200, memberView(updateMember(ctx.world, org, params.member_id, body.role, teamIds)));
    },
  }),

  defineRoute({
    id: 'management.member.remove',
    method: 'DELETE',
    path: '/v1/org/:org_id/member/:member_id',
    auth: 'management',
    summary: 'Removes a member from the org; the last owner cannot be removed.',
    request: { params: memberParams },
    responses: { 200: res(Member, 'The removed ClientFacingOrgMember'), 400: 'Last owner', 404: 'Member not found' },
    access: (ctx, p) => requireOrgAdmin(ctx, p.org_id),
    handle(ctx, { params, access: org }) {
      return reply(200, memberView(removeMember(ctx.world, org, params.member_id)));
    },
  }),

  defineRoute({
    id: 'management.invite.list',
    method: 'GET',
    path: '/v1/org/:org_id/invite',
    auth: 'management',
    summary: 'Pending invites, oldest first; search_query matches the e-mail; pages of 50 with next_cursor.',
    request: { params: orgParams, query: lazySchema(() => withRules(listQuery, cursorRule('invite'))) },
    responses: {
      200: res(
        lazySchema(() => z.object({ invites: z.array(Invite), next_cursor: z.string().nullable() })),
        'ClientFacingOrgInviteListResponse',
      ),
      422: 'Invalid cursor',
    },
    access: (ctx, p) => requireOrgAdmin(ctx, p.org_id),
    handle(ctx, { params, query, access: org }) {
      const after = query.next_cursor ? decodeCursor('invite', query.next_cursor) : 0;
      const { rows, next } = page('invite', listInvites(ctx.world, org, query.search_query ?? null, after));
      return reply(200, { invites: rows.map(inviteView), next_cursor: next });
    },
  }),

  defineRoute({
    id: 'management.invite.create',
    method: 'POST',
    path: '/v1/org/:org_id/invite',
    auth: 'management',
    summary: 'Invites an e-mail address (role default org_admin), resends a pending invite, or answers already_in_org.',
    request: {
      params: orgParams,
      body: lazySchema(() => z.object({ email: email(), role: role.default('org_admin'), team_role_bindings: bindings.nullish() })),
    },
    responses: {
      200: res(
        lazySchema(() => z.object({ status: z.string() })),
        'OrgInviteAPICreateResponse',
      ),
      400: 'Bindings that do not fit the role',
      422: 'Invalid e-mail or team',
    },
    access: (ctx, p) => requireOrgAdmin(ctx, p.org_id),
    handle(ctx, { params, body, access: org }) {
      const teamIds = body.team_role_bindings ? body.team_role_bindings.map((b) => b.team_id) : null;
      const { status } = inviteMember(
        ctx.world,
        org,
        { email: body.email, role: body.role, team_ids: teamIds, creator: { type: 'management_key' } },
        ctx.iso(),
      );
      return reply(200, { status });
    },
  }),

  defineRoute({
    id: 'management.invite.revoke',
    method: 'DELETE',
    path: '/v1/org/:org_id/invite/:invite_id',
    auth: 'management',
    summary: 'Revokes a pending invite.',
    request: { params: inviteParams },
    responses: { 200: res(Invite, 'The revoked ClientFacingOrgInvite'), 404: 'Invite not found' },
    access: (ctx, p) => requireOrgAdmin(ctx, p.org_id),
    handle(ctx, { params, access: org }) {
      return reply(200, inviteView(revokeInvite(ctx.world, org, params.invite_id)));
    },
  }),
];
