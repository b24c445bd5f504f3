/**
 * Custom credentials (api-facts A.16), lab accounts and closed beta (spec 7.2, 9), and the
 * management control plane (plans, orgs, beta features), on both adapters.
 */
import { expect, it } from 'vitest';
import { createClient, forEachAdapter, type TestClient } from '../support/client.js';
import { oasValidator } from '../support/openapi.js';
import { MANAGEMENT_ERRORS } from '../../src/state/management/errors.js';

/** The smallest world these tests need: the org, its teams, keys and lab accounts, no users (the default world builds 25 per team). */
const SMALL = { world: 'empty' } as const;

const mg = oasValidator('management');
const data = oasValidator('data');

function expectSchema(which: typeof mg, name: string, value: unknown): void {
  if (which) which.expectValid(name, value);
}

const FITBIT_DETAILS = { fitbit: { workout_verify_token: 'w', sleep_verify_token: 's', body_verify_token: 'b' } };

function ids(c: TestClient): { us: string; eu: string } {
  return { us: c.creds.teams[0]?.team_id as string, eu: c.creds.teams[1]?.team_id as string };
}

forEachAdapter('custom credentials', (adapter) => {
  it('prepares: callback and webhook URIs, manual verification for fitbit, no action for labs', async () => {
    const c = createClient(adapter, SMALL);
    const { us, eu } = ids(c);
    const base = c.sandbox.world.urls.base;
    const prepare = (provider: string, team = us, region = 'us') =>
      c.mgmt('POST', `/v1/org/${c.orgId}/prepare_team_custom_credentials/sandbox/${region}`, { body: { team_id: team, provider } });

    const oura = await prepare('oura');
    expect(oura.status).toBe(200);
    expectSchema(mg, 'PrepareTeamCustomCredentialsResponse', oura.body);
    expect(oura.body.status).toBe('preparations_required');
    expect(oura.body.preparation_steps[0]).toMatchObject({ type: 'redirect_uri', key: null, value: `${base}/v2/link/connect/oura` });
    expect(oura.body.preparation_steps[1]).toMatchObject({ type: 'webhook_uri', value: `${base}/v2/webhook/oura/${us}` });

    const fitbit = await prepare('fitbit');
    const hook = fitbit.body.preparation_steps.find((s: { type: string }) => s.type === 'webhook_uri');
    expect(hook.description).toMatch(/manual/i);
    expect(oura.body.preparation_steps[1].description).not.toMatch(/manual/i);

    const cronometer = await prepare('cronometer');
    expect(cronometer.body.preparation_steps.map((s: { type: string }) => s.type)).toEqual(['redirect_uri']);

    const quest = await prepare('quest');
    expect(quest.body).toEqual({ status: 'no_action_needed', preparation_steps: [] });
    expectSchema(mg, 'PrepareTeamCustomCredentialsResponse', quest.body);

    expect((await prepare('apple_health_kit')).status).toBe(400);
    expect((await prepare('not_a_provider')).status).toBe(422);
    expect((await prepare('oura', eu, 'us')).status).toBe(400);
    expect((await prepare('oura', '00000000-0000-4000-8000-000000000001')).status).toBe(404);
    const euPrepared = await prepare('oura', eu, 'eu');
    expect(euPrepared.status).toBe(200);
  });

  it('sets (upserts), lists, filters and deletes credentials; the secret is kept hashed', async () => {
    const c = createClient(adapter, SMALL);
    const { us, eu } = ids(c);
    const path = (env: string, region: string) => `/v1/org/${c.orgId}/team_custom_credentials/${env}/${region}`;

    const noSecret = await c.mgmt('POST', path('sandbox', 'us'), { body: { team_id: us, provider: 'oura', client_id: 'cid' } });
    expect(noSecret.status).toBe(422);
    expect(noSecret.body.detail[0].loc).toEqual(['body', 'client_secret']);
    const fitbitNoDetails = await c.mgmt('POST', path('sandbox', 'us'), {
      body: { team_id: us, provider: 'fitbit', client_id: 'a', client_secret: 'b' },
    });
    expect(fitbitNoDetails.status).toBe(422);
    expect(fitbitNoDetails.body.detail[0].loc).toEqual(['body', 'details']);
    const fitbitBadDetails = await c.mgmt('POST', path('sandbox', 'us'), {
      body: { team_id: us, provider: 'fitbit', client_id: 'a', client_secret: 'b', details: { fitbit: { workout_verify_token: 'w' } } },
    });
    expect(fitbitBadDetails.status).toBe(422);
    expect(fitbitBadDetails.body.detail.map((d: { loc: unknown }) => d.loc)).toContainEqual([
      'body',
      'details',
      'fitbit',
      'sleep_verify_token',
    ]);
    expect((await c.mgmt('GET', path('sandbox', 'us'))).body.credentials).toEqual([]);

    const oura = await c.mgmt('POST', path('sandbox', 'us'), {
      body: {
        team_id: us,
        provider: 'oura',
        client_id: 'cid',
        client_secret: 'shh',
        redirect_url_override: 'https://acme.test/oauth_callback/oura',
      },
    });
    expect(oura.status).toBe(200);
    expectSchema(mg, 'ClientFacingTeamProviderCredentials', oura.body);
    expect(oura.body).toMatchObject({
      source: 'oura',
      team_id: us,
      client_id: 'cid',
      redirect_url_override: 'https://acme.test/oauth_callback/oura',
      details: null,
    });
    expect(oura.body.client_secret_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(oura.text).not.toContain('shh');

    await c.advance(60);
    const updated = await c.mgmt('POST', path('sandbox', 'us'), { body: { team_id: us, provider: 'oura', client_id: 'cid2' } });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      id: oura.body.id,
      client_id: 'cid2',
      client_secret_hash: oura.body.client_secret_hash,
      created_at: oura.body.created_at,
    });
    expect(updated.body.updated_at).not.toBe(oura.body.updated_at);

    const fitbit = await c.mgmt('POST', path('sandbox', 'us'), {
      body: { team_id: us, provider: 'fitbit', client_id: 'f', client_secret: 'g', details: FITBIT_DETAILS },
    });
    expect(fitbit.status).toBe(200);
    expect(fitbit.body.details.fitbit).toMatchObject({ is_hr_enabled: false, workout_verify_token: 'w' });
    expectSchema(mg, 'ClientFacingTeamProviderCredentials', fitbit.body);
    const labcorp = await c.mgmt('POST', path('sandbox', 'us'), {
      body: { team_id: us, provider: 'labcorp', details: { labcorp: { account_number: '1234', billing_method: 'CM' } } },
    });
    expect(labcorp.status).toBe(200);
    const badLab = await c.mgmt('POST', path('sandbox', 'us'), {
      body: { team_id: us, provider: 'quest', details: { labcorp: { account: '1' } } },
    });
    expect(badLab.status).toBe(422);
    const prod = await c.mgmt('POST', path('production', 'us'), {
      body: { team_id: us, provider: 'oura', client_id: 'p', client_secret: 'q' },
    });
    expect(prod.body.id).not.toBe(oura.body.id);
    const euCred = await c.mgmt('POST', path('sandbox', 'eu'), {
      body: { team_id: eu, provider: 'withings', client_id: 'w', client_secret: 'x' },
    });
    expect(euCred.status).toBe(200);
    expect((await c.mgmt('POST', path('sandbox', 'us'), { body: { team_id: us, provider: 'manual_upload' } })).status).toBe(422);
    expect((await c.mgmt('POST', path('sandbox', 'us'), { body: { team_id: us, provider: 'apple_health_kit' } })).status).toBe(400);

    const list = await c.mgmt('GET', path('sandbox', 'us'));
    expect(list.status).toBe(200);
    expectSchema(mg, 'CustomCredentialsResponse', list.body);
    expect(list.body.credentials.map((x: { source: string }) => x.source)).toEqual(['oura', 'fitbit', 'labcorp']);
    expect((await c.mgmt('GET', path('sandbox', 'us'), { query: { provider: 'fitbit' } })).body.credentials).toHaveLength(1);
    expect((await c.mgmt('GET', path('sandbox', 'us'), { query: { team_id: [us] } })).body.credentials).toHaveLength(3);
    expect((await c.mgmt('GET', path('sandbox', 'eu'))).body.credentials.map((x: { source: string }) => x.source)).toEqual(['withings']);
    expect((await c.mgmt('GET', path('production', 'us'))).body.credentials).toHaveLength(1);

    const missing = '00000000-0000-4000-8000-000000000003';
    const del = await c.mgmt('DELETE', path('sandbox', 'us'), { query: { credential_id: [oura.body.id, missing, prod.body.id] } });
    expect(del.status).toBe(200);
    expectSchema(mg, 'DeleteTeamCustomCredentialsResponse', del.body);
    expect(del.body).toEqual({ success: [oura.body.id], failure: [], not_found: [missing, prod.body.id] });
    expect((await c.mgmt('GET', path('sandbox', 'us'))).body.credentials.map((x: { source: string }) => x.source)).toEqual([
      'fitbit',
      'labcorp',
    ]);
    expect((await c.mgmt('DELETE', path('sandbox', 'us'))).status).toBe(422);

    // A deleted team's credentials go with it.
    const team = await c.mgmt('POST', `/v1/org/${c.orgId}/team`, { body: { name: 'Temp', region: 'us' } });
    const temp = await c.mgmt('POST', path('sandbox', 'us'), {
      body: { team_id: team.body.id, provider: 'oura', client_id: 'a', client_secret: 'b' },
    });
    await c.mgmt('DELETE', `/v1/org/${c.orgId}/team/${team.body.id}`);
    const gone = await c.mgmt('DELETE', path('sandbox', 'us'), { query: { credential_id: temp.body.id } });
    expect(gone.body.not_found).toEqual([temp.body.id]);
  });

  it("a team key sets and lists only its bound teams' credentials", async () => {
    const c = createClient(adapter, SMALL);
    const { us } = ids(c);
    const other = (await c.mgmt('POST', `/v1/org/${c.orgId}/team`, { body: { name: 'Other', region: 'us' } })).body.id;
    const key = (
      await c.mgmt('POST', `/v1/org/${c.orgId}/management_key`, {
        body: { label: 't', role: 'team_admin', team_role_bindings: [{ team_id: us }] },
      })
    ).body.key;
    const headers = { 'x-management-key': key };
    const path = `/v1/org/${c.orgId}/team_custom_credentials/sandbox/us`;
    const mine = await c.mgmt('POST', path, { headers, body: { team_id: us, provider: 'oura', client_id: 'a', client_secret: 'b' } });
    expect(mine.status).toBe(200);
    const theirs = await c.mgmt('POST', path, { body: { team_id: other, provider: 'oura', client_id: 'a', client_secret: 'b' } });
    expect(
      (await c.mgmt('POST', path, { headers, body: { team_id: other, provider: 'oura', client_id: 'a', client_secret: 'b' } })).status,
    ).toBe(403);
    expect((await c.mgmt('GET', path, { headers })).body.credentials.map((x: { id: string }) => x.id)).toEqual([mine.body.id]);
    expect((await c.mgmt('GET', path, { headers, query: { team_id: other } })).status).toBe(403);
    const del = await c.mgmt('DELETE', path, { headers, query: { credential_id: [theirs.body.id] } });
    expect(del.body).toEqual({ success: [], failure: [], not_found: [theirs.body.id] });
  });
});

forEachAdapter('closed beta: lab accounts', (adapter) => {
  it('refuses teams not in the beta with a JSON 403, on the data and the management side', async () => {
    const c = createClient(adapter, SMALL);
    const { us } = ids(c);
    const expectBeta = (res: { status: number; body: { detail: unknown } }) => {
      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        detail: { error_type: 'closed_beta', error_message: expect.stringContaining('closed beta'), feature: 'lab_accounts' },
      });
    };
    expectBeta(await c.get('/v3/lab_test/lab_account'));
    expectBeta(await c.mgmt('GET', `/v1/org/${c.orgId}/lab_account/sandbox/us`));
    expectBeta(await c.mgmt('GET', `/v1/org/${c.orgId}/lab_account/sandbox/us`, { query: { team_id: us } }));

    const enabled = await c.put(`/_sandbox/teams/${us}/beta_features`, { beta_features: ['lab_accounts'] });
    expect(enabled.status).toBe(200);
    expect(enabled.body).toEqual({ team_id: us, beta_features: ['lab_accounts'] });
    expect((await c.get(`/_sandbox/teams/${us}/beta_features`)).body.beta_features).toEqual(['lab_accounts']);

    const dataSide = await c.get('/v3/lab_test/lab_account');
    expect(dataSide.status).toBe(200);
    expectSchema(data, 'GetTeamLabAccountsResponse', dataSide.body);
    expect(dataSide.body.data.map((a: { lab: string }) => a.lab)).toEqual(['quest', 'labcorp']);
    const mgmt = await c.mgmt('GET', `/v1/org/${c.orgId}/lab_account/sandbox/us`);
    expect(mgmt.status).toBe(200);
    expectSchema(mg, 'LabAccountsResponse', mgmt.body);
    expect(mgmt.body.data.map((a: { id: string }) => a.id)).toEqual(dataSide.body.data.map((a: { id: string }) => a.id));
    expect(mgmt.body.data[0].team_id_allowlist).toEqual([us]);
    expect((await c.mgmt('GET', `/v1/org/${c.orgId}/lab_account/sandbox/eu`)).status).toBe(403);

    // Other key of the same team, production environment: same beta, its own accounts.
    const prod = await c.get('/v3/lab_test/lab_account', {
      headers: { 'x-service-api-key': c.creds.teams[0]?.api_keys.production as string },
    });
    expect(prod.status).toBe(200);
    expect(prod.body.data[0].id).not.toBe(dataSide.body.data[0].id);

    // Filters.
    const questId = mgmt.body.data[0].id;
    expect((await c.get('/v3/lab_test/lab_account', { query: { lab_account_id: questId } })).body.data).toHaveLength(1);
    expect((await c.get('/v3/lab_test/lab_account', { query: { status: 'suspended' } })).body.data).toHaveLength(0);
    expect((await c.get('/v3/lab_test/lab_account', { query: { status: 'asleep' } })).status).toBe(422);

    // Replace the allowlist: the team loses the account on the data side.
    const patched = await c.mgmt('PATCH', `/v1/org/${c.orgId}/lab_account/sandbox/us/${questId}`, { body: { team_id_allowlist: [] } });
    expect(patched.status).toBe(200);
    expectSchema(mg, 'LabAccountResponse', patched.body);
    expect(patched.body.lab_account.team_id_allowlist).toEqual([]);
    expect((await c.get('/v3/lab_test/lab_account')).body.data.map((a: { lab: string }) => a.lab)).toEqual(['labcorp']);
    const restored = await c.mgmt('PATCH', `/v1/org/${c.orgId}/lab_account/sandbox/us/${questId}`, { body: { team_id_allowlist: [us] } });
    expect(restored.body.lab_account.team_id_allowlist).toEqual([us]);

    // A new team must be in the beta before it can be allowed; teams of another region never.
    const fresh = (await c.mgmt('POST', `/v1/org/${c.orgId}/team`, { body: { name: 'Fresh', region: 'us' } })).body.id;
    expectBeta(await c.mgmt('PATCH', `/v1/org/${c.orgId}/lab_account/sandbox/us/${questId}`, { body: { team_id_allowlist: [us, fresh] } }));
    expect(
      (
        await c.mgmt('PATCH', `/v1/org/${c.orgId}/lab_account/sandbox/us/${questId}`, {
          body: { team_id_allowlist: [c.creds.teams[1]?.team_id] },
        })
      ).status,
    ).toBe(422);
    expect(
      (
        await c.mgmt('PATCH', `/v1/org/${c.orgId}/lab_account/sandbox/us/00000000-0000-4000-8000-000000000004`, {
          body: { team_id_allowlist: [] },
        })
      ).status,
    ).toBe(404);
    expect(
      (await c.mgmt('PATCH', `/v1/org/${c.orgId}/lab_account/production/us/${questId}`, { body: { team_id_allowlist: [] } })).status,
    ).toBe(404);
    expect((await c.mgmt('GET', `/v1/org/${c.orgId}/lab_account/sandbox/us`)).body.data[0].team_id_allowlist).toEqual([us]);

    // Disabling the beta closes the endpoints again.
    await c.put(`/_sandbox/teams/${us}/beta_features`, { beta_features: [] });
    expectBeta(await c.get('/v3/lab_test/lab_account'));
  });

  it('validates the beta feature control route', async () => {
    const c = createClient(adapter, SMALL);
    const { us } = ids(c);
    expect((await c.put(`/_sandbox/teams/${us}/beta_features`, { beta_features: ['Bad Name'] })).status).toBe(422);
    expect((await c.put(`/_sandbox/teams/${us}/beta_features`, {})).status).toBe(422);
    expect((await c.get('/_sandbox/teams/00000000-0000-4000-8000-000000000005/beta_features')).status).toBe(404);
    const set = await c.put(`/_sandbox/teams/${us}/beta_features`, { beta_features: ['zeta', 'alpha', 'zeta'] });
    expect(set.body.beta_features).toEqual(['alpha', 'zeta']);
  });
});

forEachAdapter('management control plane', (adapter) => {
  it("sets an org's plan: only premium may use org management", async () => {
    const c = createClient(adapter, SMALL);
    for (const plan of ['launch', 'grow', 'scale']) {
      const set = await c.put(`/_sandbox/orgs/${c.orgId}/plan`, { plan });
      expect(set.status).toBe(200);
      expect(set.body.plan).toBe(plan);
      const res = await c.mgmt('GET', `/v1/org/${c.orgId}/team`);
      expect(res.status).toBe(403);
      expect(res.body.detail).toBe(MANAGEMENT_ERRORS.notPremium(c.orgId, plan));
    }
    expect((await c.put(`/_sandbox/orgs/${c.orgId}/plan`, { plan: 'gold' })).status).toBe(422);
    expect((await c.put('/_sandbox/orgs/00000000-0000-4000-8000-000000000006/plan', { plan: 'grow' })).status).toBe(404);
    await c.put(`/_sandbox/orgs/${c.orgId}/plan`, { plan: 'premium' });
    expect((await c.mgmt('GET', `/v1/org/${c.orgId}/team`)).status).toBe(200);
    // Data endpoints do not depend on the plan.
    await c.put(`/_sandbox/orgs/${c.orgId}/plan`, { plan: 'launch' });
    expect((await c.get('/v2/user')).status).toBe(200);
  });

  it('creates further orgs with their own management key; orgs do not see each other', async () => {
    const c = createClient(adapter, SMALL);
    const created = await c.post('/_sandbox/orgs', { name: 'Second Org' });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ name: 'Second Org', plan: 'premium' });
    expect(created.body.management_key).toMatch(/^mg_[A-Za-z0-9]{40}$/);
    const orgId = created.body.org_id;
    const headers = { 'x-management-key': created.body.management_key };
    const org = await c.mgmt('GET', `/v1/org/${orgId}`, { headers });
    expect(org.status).toBe(200);
    expect(org.body).toEqual({ id: orgId, name: 'Second Org', expires_at: null });
    expect((await c.mgmt('GET', `/v1/org/${orgId}/team`, { headers })).body.teams).toEqual([]);
    const team = await c.mgmt('POST', `/v1/org/${orgId}/team`, {
      headers,
      body: { name: 'Theirs', region: 'eu', integration_team_id: 'same' },
    });
    expect(team.status).toBe(200);
    // integration_team_id is unique per org only.
    expect(
      (await c.mgmt('POST', `/v1/org/${c.orgId}/team`, { body: { name: 'Ours', region: 'us', integration_team_id: 'same' } })).status,
    ).toBe(200);
    // Keys of one org are refused on the other.
    expect((await c.mgmt('GET', `/v1/org/${orgId}/team`)).status).toBe(403);
    expect((await c.mgmt('GET', `/v1/org/${c.orgId}/team/${team.body.id}`)).status).toBe(404);
    expect((await c.mgmt('GET', `/v1/org/${c.orgId}/team/${team.body.id}`, { headers })).status).toBe(403);

    const listed = await c.get('/_sandbox/orgs');
    expect(listed.body.orgs.map((o: { id: string }) => o.id)).toEqual([c.orgId, orgId]);
    const one = await c.get(`/_sandbox/orgs/${orgId}`);
    expect(one.body).toMatchObject({ id: orgId, plan: 'premium', team_ids: [team.body.id] });

    const cheap = await c.post('/_sandbox/orgs', { plan: 'grow' });
    expect(cheap.body.plan).toBe('grow');
    expect(cheap.body.name).toBe('Sandbox Org 3');
    const refused = await c.mgmt('GET', `/v1/org/${cheap.body.org_id}`, { headers: { 'x-management-key': cheap.body.management_key } });
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toBe(MANAGEMENT_ERRORS.notPremium(cheap.body.org_id, 'grow'));
    expect((await c.post('/_sandbox/orgs', { plan: 'mega' })).status).toBe(422);
    expect((await c.post('/_sandbox/orgs')).status).toBe(200);
  });

  it('is deterministic: the same seed and requests give the same ids and keys', async () => {
    const run = async () => {
      const c = createClient(adapter, { ...SMALL, seed: 11 });
      const org = await c.post('/_sandbox/orgs', {});
      const team = await c.mgmt('POST', `/v1/org/${c.orgId}/team`, { body: { name: 'Det', region: 'us' } });
      const key = await c.mgmt('POST', `/v1/org/${c.orgId}/management_key`, { body: { label: 'k', role: 'org_admin' } });
      const apiKeys = await c.mgmt('GET', `/v1/org/${c.orgId}/team_api_keys/sandbox/us`, { query: { team_id: team.body.id } });
      return [org.text, team.text, key.text, apiKeys.text].join('\n');
    };
    expect(await run()).toBe(await run());
  });
});
