/**
 * Org members and invites (management OpenAPI `ClientFacingOrgMember`, `ClientFacingOrgInvite`,
 * `OrgInviteAPICreate`, `UpdateOrgMemberBody`). Every org starts with one owner (an `org_admin`
 * member derived from the seed); invites become members when the control plane accepts them.
 * The rule: an org keeps at least one owner, so the last `org_admin` can be neither demoted nor
 * removed. Invite e-mails go to the org's outbox (`mailOf`), which the control plane reads.
 */
import type { z } from 'zod';
import type * as W from '../../wire/schemas.js';
import { stableUuid } from '../../engine/ids.js';
import type { Org } from '../../engine/tenancy.js';
import { worldSlot, type World } from '../../engine/world.js';
import { managementError, MANAGEMENT_ERRORS } from './errors.js';
import { dataClass } from '../../engine/world-codec.js';

type MemberRole = 'org_admin' | 'team_admin' | 'no_role';
type Creator = Record<string, unknown>;

interface Member {
  id: string;
  org_id: string;
  name: string;
  email: string;
  created_on: string;
  role: MemberRole;
  team_ids: string[] | null;
  seq: number;
}

interface Invite {
  id: string;
  org_id: string;
  email: string;
  invited_at: string;
  resent_at: string | null;
  creator: Creator;
  role: MemberRole;
  team_ids: string[] | null;
  seq: number;
}

interface Mail {
  to: string;
  subject: string;
  kind: 'org_invite' | 'domain_instructions';
  sent_at: string;
  ref_id: string;
}

class OrgPeople {
  readonly members = new Map<string, Member>();
  readonly invites = new Map<string, Invite>();
  /** lower-cased e-mail -> member id / invite id. */
  readonly memberByEmail = new Map<string, string>();
  readonly inviteByEmail = new Map<string, string>();
  readonly mail: Mail[] = [];
  seq = 0;
}
dataClass('OrgPeople', OrgPeople);

/** Outbox entries kept per org (oldest dropped first). */
const MAIL_LIMIT = 200;

const peopleStore = worldSlot('management-people', () => new Map<string, OrgPeople>());

/** The org's people, creating its seeded owner on first use (stable id, joined when the org was created). */
function peopleOf(world: World, org: Org): OrgPeople {
  const all = peopleStore(world);
  let p = all.get(org.id);
  if (!p) {
    p = new OrgPeople();
    all.set(org.id, p);
    const owner: Member = {
      id: stableUuid(world.seed, 'org-owner', org.id),
      org_id: org.id,
      name: 'Sandbox Owner',
      email: `owner+${org.id.slice(0, 8)}@sandbox.example`,
      created_on: org.created_at,
      role: 'org_admin',
      team_ids: null,
      seq: ++p.seq,
    };
    p.members.set(owner.id, owner);
    p.memberByEmail.set(owner.email, owner.id);
  }
  return p;
}

export function memberView(m: Member): z.input<typeof W.Member> {
  return {
    id: m.id,
    name: m.name,
    email: m.email,
    created_on: m.created_on,
    role: m.role,
    team_role_bindings: m.team_ids ? m.team_ids.map((team_id) => ({ team_id })) : null,
  };
}

export function inviteView(i: Invite): z.input<typeof W.Invite> {
  return {
    id: i.id,
    email: i.email,
    invited_at: i.invited_at,
    resent_at: i.resent_at,
    creator: i.creator,
    role: i.role,
    team_role_bindings: i.team_ids ? i.team_ids.map((team_id) => ({ team_id })) : null,
  };
}

interface RoleInput {
  role: MemberRole;
  team_ids: string[] | null;
  /** Where the bindings came from in the request, for 422 locations. */
  loc: Array<string | number>;
}

/** Checks a role with its team bindings: bindings only with team_admin, at least one, teams of the org. */
function assertRole(world: World, org: Org, input: RoleInput): void {
  const teams = input.team_ids ?? [];
  if (input.role === 'team_admin' && teams.length === 0) throw managementError.badRequest(MANAGEMENT_ERRORS.teamAdminNeedsBindings);
  if (input.role !== 'team_admin' && teams.length > 0) throw managementError.badRequest(MANAGEMENT_ERRORS.bindingsNeedTeamAdmin);
  teams.forEach((teamId, i) => {
    const team = world.tenancy.teams.get(teamId);
    if (!team || team.deleted || team.org_id !== org.id) throw managementError.unknownTeam([...input.loc, i, 'team_id'], teamId);
  });
}

function dedupe(ids: string[] | null): string[] | null {
  return ids && ids.length > 0 ? [...new Set(ids)] : null;
}

function ownersOf(p: OrgPeople): number {
  let n = 0;
  for (const m of p.members.values()) if (m.role === 'org_admin') n += 1;
  return n;
}

/** Members in joining order, optionally filtered by a case-insensitive search in name or e-mail. */
export function listMembers(world: World, org: Org, search: string | null, afterSeq: number): Member[] {
  const needle = search ? search.toLowerCase() : null;
  return [...peopleOf(world, org).members.values()].filter(
    (m) => m.seq > afterSeq && (!needle || m.name.toLowerCase().includes(needle) || m.email.toLowerCase().includes(needle)),
  );
}

function getMember(world: World, org: Org, memberId: string): Member {
  const m = peopleOf(world, org).members.get(memberId);
  if (!m) throw managementError.memberNotFound();
  return m;
}

/** Changes a member's role and bindings (a null role keeps it); the last owner cannot be demoted. */
export function updateMember(world: World, org: Org, memberId: string, role: MemberRole | null, teamIds: string[] | null): Member {
  const p = peopleOf(world, org);
  const m = getMember(world, org, memberId);
  const nextRole = role ?? m.role;
  const nextTeams = role === null && teamIds === null ? m.team_ids : dedupe(teamIds);
  assertRole(world, org, { role: nextRole, team_ids: nextTeams, loc: ['body', 'team_role_bindings'] });
  if (m.role === 'org_admin' && nextRole !== 'org_admin' && ownersOf(p) <= 1) throw managementError.lastOwner();
  m.role = nextRole;
  m.team_ids = nextTeams;
  return m;
}

/** Removes a member; the last owner cannot be removed. */
export function removeMember(world: World, org: Org, memberId: string): Member {
  const p = peopleOf(world, org);
  const m = getMember(world, org, memberId);
  if (m.role === 'org_admin' && ownersOf(p) <= 1) throw managementError.lastOwner();
  p.members.delete(m.id);
  p.memberByEmail.delete(m.email.toLowerCase());
  return m;
}

export function listInvites(world: World, org: Org, search: string | null, afterSeq: number): Invite[] {
  const needle = search ? search.toLowerCase() : null;
  return [...peopleOf(world, org).invites.values()].filter((i) => i.seq > afterSeq && (!needle || i.email.toLowerCase().includes(needle)));
}

type InviteStatus = 'invite_created' | 'invite_resent' | 'already_in_org';

/**
 * Invites an e-mail address, or resends (and updates the role of) its pending invite; an address
 * that already belongs to a member answers `already_in_org` and changes nothing.
 */
export function inviteMember(
  world: World,
  org: Org,
  input: { email: string; role: MemberRole; team_ids: string[] | null; creator: Creator },
  now: string,
): { status: InviteStatus; invite: Invite | null } {
  const p = peopleOf(world, org);
  const key = input.email.toLowerCase();
  const teamIds = dedupe(input.team_ids);
  assertRole(world, org, { role: input.role, team_ids: teamIds, loc: ['body', 'team_role_bindings'] });
  if (p.memberByEmail.has(key)) return { status: 'already_in_org', invite: null };
  const pendingId = p.inviteByEmail.get(key);
  const pending = pendingId ? p.invites.get(pendingId) : undefined;
  if (pending) {
    pending.resent_at = now;
    pending.role = input.role;
    pending.team_ids = teamIds;
    sendMail(p, {
      to: pending.email,
      subject: `You are invited to join ${org.name}`,
      kind: 'org_invite',
      sent_at: now,
      ref_id: pending.id,
    });
    return { status: 'invite_resent', invite: pending };
  }
  const invite: Invite = {
    id: world.ids.uuid('org-invite', org.id),
    org_id: org.id,
    email: input.email,
    invited_at: now,
    resent_at: null,
    creator: input.creator,
    role: input.role,
    team_ids: teamIds,
    seq: ++p.seq,
  };
  p.invites.set(invite.id, invite);
  p.inviteByEmail.set(key, invite.id);
  sendMail(p, { to: invite.email, subject: `You are invited to join ${org.name}`, kind: 'org_invite', sent_at: now, ref_id: invite.id });
  return { status: 'invite_created', invite };
}

export function revokeInvite(world: World, org: Org, inviteId: string): Invite {
  const p = peopleOf(world, org);
  const invite = p.invites.get(inviteId);
  if (!invite) throw managementError.inviteNotFound();
  p.invites.delete(invite.id);
  p.inviteByEmail.delete(invite.email.toLowerCase());
  return invite;
}

/** The invitee accepts (control plane): the invite becomes a member with its role and bindings. */
export function acceptInvite(world: World, org: Org, inviteId: string, name: string | null, now: string): Member {
  const p = peopleOf(world, org);
  const invite = p.invites.get(inviteId);
  if (!invite) throw managementError.inviteNotFound();
  // Teams deleted since the invite drop out of the bindings; a team_admin left without teams gets no role.
  const live = (invite.team_ids ?? []).filter((id) => world.tenancy.teams.get(id)?.deleted === false);
  const role: MemberRole = invite.role === 'team_admin' && live.length === 0 ? 'no_role' : invite.role;
  p.invites.delete(invite.id);
  p.inviteByEmail.delete(invite.email.toLowerCase());
  const member: Member = {
    id: world.ids.uuid('org-member', org.id),
    org_id: org.id,
    name: name ?? invite.email.split('@')[0] ?? invite.email,
    email: invite.email,
    created_on: now,
    role,
    team_ids: role === 'team_admin' ? live : null,
    seq: ++p.seq,
  };
  p.members.set(member.id, member);
  p.memberByEmail.set(member.email.toLowerCase(), member.id);
  return member;
}

/** A deleted team leaves every binding of the org's members and invites. */
export function dropTeamBindings(world: World, orgId: string, teamId: string): void {
  const p = peopleStore(world).get(orgId);
  if (!p) return;
  for (const x of [...p.members.values(), ...p.invites.values()]) {
    if (!x.team_ids?.includes(teamId)) continue;
    const rest = x.team_ids.filter((id) => id !== teamId);
    x.team_ids = rest.length > 0 ? rest : null;
    if (!x.team_ids && x.role === 'team_admin') x.role = 'no_role';
  }
}

function sendMail(p: OrgPeople, mail: Mail): void {
  p.mail.push(mail);
  if (p.mail.length > MAIL_LIMIT) p.mail.splice(0, p.mail.length - MAIL_LIMIT);
}

/** Records an e-mail the org's service would have sent (domain instructions, invites). */
export function recordMail(world: World, org: Org, mail: Mail): void {
  sendMail(peopleOf(world, org), mail);
}

/** The org's outbox, oldest first (control plane). */
export function mailOf(world: World, org: Org): readonly Mail[] {
  return peopleOf(world, org).mail;
}
