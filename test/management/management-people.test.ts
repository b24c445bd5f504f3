/** Org members, invites and domains through the management interface (issue 15), on both adapters. */
import { expect, it } from 'vitest';
import { MANAGEMENT_ERRORS } from '../../src/state/management/errors.js';
import { DOMAIN_PROPAGATION_MS } from '../../src/state/management/domains.js';
import { createClient, forEachAdapter, type TestClient } from '../support/client.js';
import { oasValidator } from '../support/openapi.js';

const mg = oasValidator('management');
const schema = (name: string, value: unknown) => mg?.expectValid(name, value);

async function members(c: TestClient) {
  const res = await c.mgmt('GET', `/v1/org/${c.orgId}/member`);
  expect(res.status, res.text).toBe(200);
  schema('ClientFacingOrgMemberListResponse', res.body);
  return res.body.members as Array<Record<string, any>>;
}

async function inviteAndAccept(c: TestClient, email: string, body: Record<string, unknown> = {}) {
  const res = await c.mgmt('POST', `/v1/org/${c.orgId}/invite`, { body: { email, ...body } });
  expect(res.status, res.text).toBe(200);
  expect(res.body).toEqual({ status: 'invite_created' });
  const invites = (await c.mgmt('GET', `/v1/org/${c.orgId}/invite`, { query: { search_query: email } })).body.invites;
  expect(invites).toHaveLength(1);
  const accepted = await c.post(`/_sandbox/orgs/${c.orgId}/invites/${invites[0].id}/accept`, { name: 'Ann' });
  expect(accepted.status, accepted.text).toBe(200);
  schema('ClientFacingOrgMember', accepted.body);
  return accepted.body;
}

forEachAdapter('management members and invites', (adapter) => {
  it('starts with one owner who can be neither demoted nor removed while alone', async () => {
    const c = createClient(adapter);
    const [owner, ...rest] = await members(c);
    expect(rest).toEqual([]);
    expect(owner).toMatchObject({ role: 'org_admin', team_role_bindings: null });

    const demote = await c.mgmt('PATCH', `/v1/org/${c.orgId}/member/${owner?.id}`, { body: { role: 'no_role', team_role_bindings: null } });
    expect(demote.status).toBe(400);
    expect(demote.body.detail).toBe(MANAGEMENT_ERRORS.lastOwner);
    const remove = await c.mgmt('DELETE', `/v1/org/${c.orgId}/member/${owner?.id}`);
    expect(remove.status).toBe(400);
    expect(remove.body.detail).toBe(MANAGEMENT_ERRORS.lastOwner);
    expect(await members(c)).toEqual([owner]);

    // With a second owner, the first may go.
    const second = await inviteAndAccept(c, 'second@example.com');
    expect(second).toMatchObject({ role: 'org_admin', email: 'second@example.com', name: 'Ann' });
    expect((await c.mgmt('DELETE', `/v1/org/${c.orgId}/member/${owner?.id}`)).status).toBe(200);
    expect((await members(c)).map((m) => m.id)).toEqual([second.id]);
    expect((await c.mgmt('DELETE', `/v1/org/${c.orgId}/member/${second.id}`)).body.detail).toBe(MANAGEMENT_ERRORS.lastOwner);
    expect((await c.mgmt('DELETE', `/v1/org/${c.orgId}/member/${owner?.id}`)).status).toBe(404);
  });

  it('invites, resends, answers already_in_org, revokes; validates roles and teams', async () => {
    const c = createClient(adapter);
    const team = c.creds.teams[0]?.team_id as string;
    const base = `/v1/org/${c.orgId}/invite`;
    const first = await c.mgmt('POST', base, {
      body: { email: 'bob@example.com', role: 'team_admin', team_role_bindings: [{ team_id: team }] },
    });
    expect(first.body).toEqual({ status: 'invite_created' });
    schema('OrgInviteAPICreateResponse', first.body);
    await c.advance(60);
    expect((await c.mgmt('POST', base, { body: { email: 'BOB@example.com', role: 'no_role' } })).body).toEqual({ status: 'invite_resent' });
    const list = await c.mgmt('GET', base);
    schema('ClientFacingOrgInviteListResponse', list.body);
    expect(list.body.invites).toHaveLength(1);
    const inv = list.body.invites[0];
    expect(inv).toMatchObject({ email: 'bob@example.com', role: 'no_role', team_role_bindings: null, creator: { type: 'management_key' } });
    expect(Date.parse(inv.resent_at) - Date.parse(inv.invited_at)).toBe(60_000);
    const mail = await c.get(`/_sandbox/orgs/${c.orgId}/mail`);
    expect(mail.body.mail.map((m: { kind: string; to: string }) => [m.kind, m.to])).toEqual([
      ['org_invite', 'bob@example.com'],
      ['org_invite', 'bob@example.com'],
    ]);

    const owner = (await members(c))[0];
    expect((await c.mgmt('POST', base, { body: { email: owner?.email } })).body).toEqual({ status: 'already_in_org' });

    // Rejected requests change nothing.
    const noTeams = await c.mgmt('POST', base, { body: { email: 'x@example.com', role: 'team_admin' } });
    expect(noTeams.status).toBe(400);
    expect(noTeams.body.detail).toBe(MANAGEMENT_ERRORS.teamAdminNeedsBindings);
    const stranger = '00000000-0000-4000-8000-000000000001';
    const badTeam = await c.mgmt('POST', base, {
      body: { email: 'x@example.com', role: 'team_admin', team_role_bindings: [{ team_id: stranger }] },
    });
    expect(badTeam.status).toBe(422);
    expect(badTeam.body.detail[0].loc).toEqual(['body', 'team_role_bindings', 0, 'team_id']);
    expect((await c.mgmt('POST', base, { body: { email: 'not-an-email' } })).status).toBe(422);
    expect((await c.mgmt('GET', base)).body.invites).toHaveLength(1);

    const revoked = await c.mgmt('DELETE', `${base}/${inv.id}`);
    expect(revoked.status).toBe(200);
    schema('ClientFacingOrgInvite', revoked.body);
    expect((await c.mgmt('DELETE', `${base}/${inv.id}`)).status).toBe(404);
    expect((await c.mgmt('GET', base)).body.invites).toEqual([]);
  });

  it('updates roles and bindings; a deleted team leaves the bindings; search and paging', async () => {
    const c = createClient(adapter);
    const [us, eu] = c.creds.teams.map((t) => t.team_id as string);
    const m = await inviteAndAccept(c, 'carol@example.com', { role: 'team_admin', team_role_bindings: [{ team_id: us }, { team_id: eu }] });
    expect(m.team_role_bindings).toEqual([{ team_id: us }, { team_id: eu }]);
    const path = `/v1/org/${c.orgId}/member/${m.id}`;
    const up = await c.mgmt('PATCH', path, { body: { role: 'org_admin', team_role_bindings: null } });
    expect(up.status, up.text).toBe(200);
    expect(up.body).toMatchObject({ role: 'org_admin', team_role_bindings: null });
    const mixed = await c.mgmt('PATCH', path, { body: { role: 'org_admin', team_role_bindings: [{ team_id: us }] } });
    expect(mixed.body.detail).toBe(MANAGEMENT_ERRORS.bindingsNeedTeamAdmin);
    expect((await c.mgmt('PATCH', path, { body: { role: 'team_admin', team_role_bindings: [{ team_id: eu }] } })).status).toBe(200);
    expect((await c.mgmt('DELETE', `/v1/org/${c.orgId}/team/${eu}`)).status).toBe(200);
    const after = (await members(c)).find((x) => x.id === m.id);
    expect(after).toMatchObject({ role: 'no_role', team_role_bindings: null });

    const found = await c.mgmt('GET', `/v1/org/${c.orgId}/member`, { query: { search_query: 'CAROL' } });
    expect(found.body.members.map((x: { id: string }) => x.id)).toEqual([m.id]);
    for (let i = 0; i < 51; i++) {
      expect((await c.mgmt('POST', `/v1/org/${c.orgId}/invite`, { body: { email: `p${i}@example.com` } })).status).toBe(200);
    }
    const page1 = await c.mgmt('GET', `/v1/org/${c.orgId}/invite`);
    expect(page1.body.invites).toHaveLength(50);
    const page2 = await c.mgmt('GET', `/v1/org/${c.orgId}/invite`, { query: { next_cursor: page1.body.next_cursor } });
    expect(page2.body.invites.map((x: { email: string }) => x.email)).toEqual(['p50@example.com']);
    expect(page2.body.next_cursor).toBeNull();
    expect((await c.mgmt('GET', `/v1/org/${c.orgId}/invite`, { query: { next_cursor: 'garbage!' } })).status).toBe(422);
  });
});

forEachAdapter('management domains', (adapter) => {
  it('adds, verifies on the sandbox clock, lists, sends instructions, deletes', async () => {
    const c = createClient(adapter);
    const base = `/v1/org/${c.orgId}/domain`;
    const created = await c.mgmt('POST', base, { body: { domain: 'Health.Example.com' } });
    expect(created.status, created.text).toBe(201);
    schema('ClientFacingOrgDomain', created.body);
    expect(created.body).toMatchObject({ domain: 'health.example.com', is_verified: false });
    expect(created.body.dns_records[0]).toMatchObject({ type: 'TXT', name: '_vital-verification.health.example.com' });
    const id = created.body.id;

    expect((await c.mgmt('POST', base, { body: { domain: 'health.example.com' } })).status).toBe(409);
    const bad = await c.mgmt('POST', base, { body: { domain: 'not a domain' } });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['body', 'domain']);

    const pending = await c.mgmt('POST', `${base}/${id}/verify`);
    expect(pending.body).toEqual({ status: 'pending' });
    schema('VerifyOrgDomainResponse', pending.body);
    await c.advance(DOMAIN_PROPAGATION_MS / 1000);
    expect((await c.mgmt('POST', `${base}/${id}/verify`)).body).toEqual({ status: 'verified' });
    const got = await c.mgmt('GET', `${base}/${id}`);
    expect(got.body.is_verified).toBe(true);
    schema('ClientFacingOrgDomain', got.body);

    const sent = await c.mgmt('POST', `${base}/${id}/send_domain_instructions`, { body: { to_email: 'it@example.com' } });
    expect(sent.body).toEqual({ sent: true, sendgrid_message_id: null });
    schema('SendOrgDomainInstructionsResponse', sent.body);
    expect((await c.get(`/_sandbox/orgs/${c.orgId}/mail`)).body.mail).toEqual([
      expect.objectContaining({ kind: 'domain_instructions', to: 'it@example.com', ref_id: id }),
    ]);

    const list = await c.mgmt('GET', base);
    schema('ListOrgDomainResponse', list.body);
    expect(list.body.data.map((d: { id: string }) => d.id)).toEqual([id]);
    expect((await c.mgmt('DELETE', `${base}/${id}`)).status).toBe(200);
    expect((await c.mgmt('GET', `${base}/${id}`)).status).toBe(404);
    expect((await c.mgmt('GET', base)).body.data).toEqual([]);
  });
});
