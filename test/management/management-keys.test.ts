/** Management keys and team API keys (spec 5; api-facts A.14), on both adapters. */
import { expect, it } from 'vitest';
import { createClient, forEachAdapter, type TestClient } from '../support/client.js';
import { oasValidator } from '../support/openapi.js';

const mg = oasValidator('management');

function expectSchema(name: string, value: unknown): void {
  if (mg) mg.expectValid(name, value);
}

async function newTeam(c: TestClient, name: string, region = 'us'): Promise<string> {
  const res = await c.mgmt('POST', `/v1/org/${c.orgId}/team`, { body: { name, region } });
  expect(res.status).toBe(200);
  return res.body.id;
}

forEachAdapter('management keys', (adapter) => {
  it('creates an org key whose secret is shown once and works at once', async () => {
    const c = createClient(adapter);
    const created = await c.mgmt('POST', `/v1/org/${c.orgId}/management_key`, { body: { label: 'CI', role: 'org_admin' } });
    expect(created.status).toBe(200);
    expectSchema('ClientFacingManagementKeyUnhashed', created.body);
    expect(created.body).toMatchObject({
      label: 'CI',
      role: 'org_admin',
      team_role_bindings: null,
      creator: { type: 'management_key' },
      created_at: '2026-01-05T09:00:00.000Z',
    });
    expect(created.body.key).toMatch(/^mg_[A-Za-z0-9]{40}$/);
    const secret = created.body.key;

    const list = await c.mgmt('GET', `/v1/org/${c.orgId}/management_key`);
    expect(list.status).toBe(200);
    expectSchema('ClientFacingManagementKeyResponse', list.body);
    expect(list.body.next_cursor).toBeNull();
    expect(list.body.data.map((k: { label: string }) => k.label)).toEqual(['Default org key', 'CI']);
    expect(list.text).not.toContain(secret);
    expect(list.text).not.toContain(c.managementKey);

    const withNew = await c.mgmt('GET', `/v1/org/${c.orgId}/team`, { headers: { 'x-management-key': secret } });
    expect(withNew.status).toBe(200);

    const del = await c.mgmt('DELETE', `/v1/org/${c.orgId}/management_key/${created.body.id}`);
    expect(del.status).toBe(200);
    expectSchema('ClientFacingManagementKey', del.body);
    expect(del.body.id).toBe(created.body.id);
    expect(del.body.key).toBeUndefined();
    const afterDelete = await c.mgmt('GET', `/v1/org/${c.orgId}/team`, { headers: { 'x-management-key': secret } });
    expect(afterDelete.status).toBe(401);
    const again = await c.mgmt('DELETE', `/v1/org/${c.orgId}/management_key/${created.body.id}`);
    expect(again.status).toBe(200);
    expect(again.body).toBeNull();
  });

  it('creates multi-team team keys, filters the list, patches label and bindings', async () => {
    const c = createClient(adapter);
    const [us, eu] = c.creds.teams.map((t) => t.team_id) as [string, string];
    const extra = await newTeam(c, 'Extra');
    const multi = await c.mgmt('POST', `/v1/org/${c.orgId}/management_key`, {
      body: { label: 'Two teams', role: 'team_admin', team_role_bindings: [{ team_id: us }, { team_id: eu }, { team_id: us }] },
    });
    expect(multi.status).toBe(200);
    expect(multi.body.team_role_bindings).toEqual([{ team_id: us }, { team_id: eu }]);
    const single = await c.mgmt('POST', `/v1/org/${c.orgId}/management_key`, {
      body: { label: 'Extra only', role: 'team_admin', team_role_bindings: [{ team_id: extra }] },
    });
    expect(single.status).toBe(200);

    const byTeam = await c.mgmt('GET', `/v1/org/${c.orgId}/management_key`, { query: { team_id: eu } });
    expect(byTeam.body.data.map((k: { id: string }) => k.id)).toEqual([multi.body.id]);
    const byRole = await c.mgmt('GET', `/v1/org/${c.orgId}/management_key`, { query: { role: 'team_admin' } });
    expect(byRole.body.data.map((k: { id: string }) => k.id)).toEqual([multi.body.id, single.body.id]);
    const orgOnly = await c.mgmt('GET', `/v1/org/${c.orgId}/management_key`, { query: { role: 'org_admin' } });
    expect(orgOnly.body.data).toHaveLength(1);
    expect((await c.mgmt('GET', `/v1/org/${c.orgId}/management_key`, { query: { role: 'owner' } })).status).toBe(422);

    // The multi-team key acts on both teams, not on the third.
    const headers = { 'x-management-key': multi.body.key };
    expect((await c.mgmt('GET', `/v1/org/${c.orgId}/team/${us}`, { headers })).status).toBe(200);
    expect((await c.mgmt('GET', `/v1/org/${c.orgId}/team/${eu}`, { headers })).status).toBe(200);
    expect((await c.mgmt('GET', `/v1/org/${c.orgId}/team/${extra}`, { headers })).status).toBe(403);
    const visible = await c.mgmt('GET', `/v1/org/${c.orgId}/team`, { headers });
    expect(visible.body.teams.map((t: { id: string }) => t.id)).toEqual([us, eu]);

    const patched = await c.mgmt('PATCH', `/v1/org/${c.orgId}/management_key/${multi.body.id}`, {
      body: { label: 'Now extra', team_role_bindings: [{ team_id: extra }] },
    });
    expect(patched.status).toBe(200);
    expectSchema('ClientFacingManagementKey', patched.body);
    expect(patched.body).toMatchObject({ label: 'Now extra', team_role_bindings: [{ team_id: extra }] });
    expect((await c.mgmt('GET', `/v1/org/${c.orgId}/team/${us}`, { headers })).status).toBe(403);
    expect((await c.mgmt('GET', `/v1/org/${c.orgId}/team/${extra}`, { headers })).status).toBe(200);
    const labelOnly = await c.mgmt('PATCH', `/v1/org/${c.orgId}/management_key/${multi.body.id}`, { body: { label: 'L' } });
    expect(labelOnly.body.team_role_bindings).toEqual([{ team_id: extra }]);

    // Deleting a team unbinds it from keys.
    await c.mgmt('DELETE', `/v1/org/${c.orgId}/team/${extra}`);
    const afterDelete = await c.mgmt('GET', `/v1/org/${c.orgId}/management_key`, { query: { role: 'team_admin' } });
    expect(afterDelete.body.data.every((k: { team_role_bindings: unknown[] }) => k.team_role_bindings.length === 0)).toBe(true);
  });

  it('validates roles and bindings without half-applying', async () => {
    const c = createClient(adapter);
    const us = c.creds.teams[0]?.team_id as string;
    const path = `/v1/org/${c.orgId}/management_key`;
    const cases: Array<[unknown, Array<string | number>]> = [
      [{ label: 'x', role: 'team_admin' }, ['body', 'team_role_bindings']],
      [{ label: 'x', role: 'team_admin', team_role_bindings: [] }, ['body', 'team_role_bindings']],
      [{ label: 'x', role: 'org_admin', team_role_bindings: [{ team_id: us }] }, ['body', 'team_role_bindings']],
      [
        { label: 'x', role: 'team_admin', team_role_bindings: [{ team_id: us }, { team_id: '00000000-0000-4000-8000-000000000009' }] },
        ['body', 'team_role_bindings', 1, 'team_id'],
      ],
      [{ label: 'x', role: 'superuser' }, ['body', 'role']],
      [{ role: 'org_admin' }, ['body', 'label']],
    ];
    for (const [body, loc] of cases) {
      const res = await c.mgmt('POST', path, { body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.detail.map((d: { loc: unknown }) => d.loc)).toContainEqual(loc);
    }
    expect((await c.mgmt('GET', path)).body.data).toHaveLength(1);

    const teamKey = await c.mgmt('POST', path, { body: { label: 't', role: 'team_admin', team_role_bindings: [{ team_id: us }] } });
    const orgKeyId = (await c.mgmt('GET', path, { query: { role: 'org_admin' } })).body.data[0].id;
    expect((await c.mgmt('PATCH', `${path}/${orgKeyId}`, { body: { team_role_bindings: [{ team_id: us }] } })).status).toBe(422);
    const emptied = await c.mgmt('PATCH', `${path}/${teamKey.body.id}`, { body: { label: 'renamed', team_role_bindings: [] } });
    expect(emptied.status).toBe(422);
    expect((await c.mgmt('GET', path, { query: { role: 'team_admin' } })).body.data[0].label).toBe('t');
    expect((await c.mgmt('PATCH', `${path}/00000000-0000-4000-8000-00000000000a`, { body: { label: 'x' } })).status).toBe(404);
  });
});

forEachAdapter('team API keys', (adapter) => {
  it('lists, creates and deletes keys per environment and region, with immediate effect', async () => {
    const c = createClient(adapter);
    const [us, eu] = c.creds.teams.map((t) => t.team_id) as [string, string];
    const base = `/v1/org/${c.orgId}/team_api_keys`;

    const listed = await c.mgmt('GET', `${base}/sandbox/us`);
    expect(listed.status).toBe(200);
    expectSchema('ClientFacingTeamAPIKeyResponse', listed.body);
    expect(listed.body.api_keys.map((k: { value: string }) => k.value)).toEqual([c.creds.teams[0]?.api_keys.sandbox]);
    const prodEu = await c.mgmt('GET', `${base}/production/eu`);
    expect(prodEu.body.api_keys.map((k: { value: string }) => k.value)).toEqual([c.creds.teams[1]?.api_keys.production]);
    expect((await c.mgmt('GET', `${base}/sandbox/eu`, { query: { team_id: us } })).body.api_keys).toEqual([]);

    const created = await c.mgmt('POST', `${base}/production/us`, { body: { label: 'backend', team_id: us } });
    expect(created.status).toBe(200);
    expectSchema('ClientFacingTeamAPIKey', created.body);
    expect(created.body).toMatchObject({ label: 'backend', team_id: us, created_at: '2026-01-05T09:00:00.000Z' });
    expect(created.body.value).toMatch(/^pk_us_[A-Za-z0-9]{32}$/);
    const headers = { 'x-service-api-key': created.body.value };
    const viaNewKey = await c.get(`/v2/team/${us}`, { headers });
    expect(viaNewKey.status).toBe(200);
    expect(viaNewKey.body.api_keys).toHaveLength(2);
    expect((await c.mgmt('GET', `${base}/production/us`)).body.api_keys).toHaveLength(2);

    const wrongRegion = await c.mgmt('POST', `${base}/sandbox/us`, { body: { label: 'x', team_id: eu } });
    expect(wrongRegion.status).toBe(400);
    expect(typeof wrongRegion.body.detail).toBe('string');
    expect(
      (await c.mgmt('POST', `${base}/sandbox/us`, { body: { label: 'x', team_id: '00000000-0000-4000-8000-000000000001' } })).status,
    ).toBe(404);
    expect((await c.mgmt('POST', `${base}/staging/us`, { body: { label: 'x', team_id: us } })).status).toBe(422);
    expect((await c.mgmt('POST', `${base}/sandbox/asia`, { body: { label: 'x', team_id: us } })).status).toBe(422);
    expect((await c.mgmt('POST', `${base}/sandbox/us`, { body: { team_id: us } })).status).toBe(422);

    const sandboxUsKeyId = listed.body.api_keys[0].id;
    const missing = '00000000-0000-4000-8000-000000000002';
    const del = await c.mgmt('DELETE', `${base}/production/us`, { query: { api_key_id: [created.body.id, missing, sandboxUsKeyId] } });
    expect(del.status).toBe(200);
    expectSchema('DeleteTeamApiKeysResponse', del.body);
    expect(del.body).toEqual({ success: [created.body.id], failure: [], not_found: [missing, sandboxUsKeyId] });
    expect((await c.get(`/v2/team/${us}`, { headers })).status).toBe(401);
    expect((await c.get('/v2/user')).status).toBe(200);
    expect((await c.mgmt('DELETE', `${base}/production/us`)).status).toBe(422);
  });

  it("a team management key sees and deletes only its bound teams' keys", async () => {
    const c = createClient(adapter);
    const [us] = c.creds.teams.map((t) => t.team_id) as [string, string];
    const other = await newTeam(c, 'Other US');
    const key = await c.mgmt('POST', `/v1/org/${c.orgId}/management_key`, {
      body: { label: 't', role: 'team_admin', team_role_bindings: [{ team_id: us }] },
    });
    const headers = { 'x-management-key': key.body.key };
    const base = `/v1/org/${c.orgId}/team_api_keys/sandbox/us`;
    const all = await c.mgmt('GET', base);
    expect(all.body.api_keys).toHaveLength(2);
    const mine = await c.mgmt('GET', base, { headers });
    expect(mine.body.api_keys.map((k: { team_id: string }) => k.team_id)).toEqual([us]);
    expect((await c.mgmt('GET', base, { headers, query: { team_id: other } })).status).toBe(403);
    expect((await c.mgmt('POST', base, { headers, body: { label: 'x', team_id: other } })).status).toBe(403);
    const created = await c.mgmt('POST', base, { headers, body: { label: 'mine', team_id: us } });
    expect(created.status).toBe(200);
    const otherKeyId = all.body.api_keys.find((k: { team_id: string }) => k.team_id === other).id;
    const del = await c.mgmt('DELETE', base, { headers, query: { api_key_id: [otherKeyId, created.body.id] } });
    expect(del.body).toEqual({ success: [created.body.id], failure: [], not_found: [otherKeyId] });
    expect((await c.mgmt('GET', base)).body.api_keys.map((k: { id: string }) => k.id)).toContain(otherKeyId);
  });
});
