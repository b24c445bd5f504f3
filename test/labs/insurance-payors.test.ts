/** Insurance payor search and team payors (spec 2.6, 4.8). */
import { expect, it } from 'vitest';
import { createClient, forEachAdapter } from '../support/client.js';
import { oasValidator } from '../support/openapi.js';
import { SMALL } from '../support/lab-helpers.js';

const oas = oasValidator('data');
const search = '/v3/insurance/search/payor';

forEachAdapter('insurance payors', (adapter) => {
  it('searches a catalogue of hundreds of payors by fuzzy name and alias', async () => {
    const c = createClient(adapter, { seed: 61, ...SMALL });
    const blue = await c.get(search, { query: { insurance_name: 'blue cross' } });
    expect(blue.status).toBe(200);
    expect(blue.body).toHaveLength(50);
    for (const p of blue.body) oas?.expectValid('ClientFacingPayorSearchResponse', p);
    const typo = await c.get(search, { query: { insurance_name: 'blu cros texas' } });
    expect(typo.body[0]).toMatchObject({
      name: 'Blue Cross Blue Shield of Texas',
      payor_code: 'BCBS_TX',
      source: 'platform',
      aliases: ['BCBS TX', 'BCBS of Texas', 'Blue Cross Texas'],
    });
    expect(typo.body[0].org_address).toMatchObject({ city: 'Austin', state: 'TX', zip: '78701', country: 'US' });
    const alias = await c.get(search, { query: { insurance_name: 'UHC' } });
    expect(alias.body[0].name).toBe('UnitedHealthcare');
    const exact = await c.get(search, { query: { insurance_name: 'Aetna' } });
    expect(exact.body[0].payor_code).toBe('AETNA');
    expect(exact.body.map((p: any) => p.name)).toContain('Aetna Better Health of Alaska');
    const medicaid = await c.get(search, { query: { insurance_name: 'medicaid' } });
    expect(medicaid.body.length).toBe(50);
    expect((await c.get(search, { query: { insurance_name: 'zzzz qqqq' } })).body).toEqual([]);
  });

  it('finds payors by clearinghouse and clearinghouse payor id', async () => {
    const c = createClient(adapter, { seed: 62, ...SMALL });
    const aetna = await c.get(search, { query: { provider: 'change_healthcare', provider_payor_id: '60054' } });
    expect(aetna.body.map((p: any) => p.payor_code)).toEqual(['AETNA']);
    const anyProvider = await c.get(search, { query: { provider_payor_id: '62308' } });
    expect(anyProvider.body.map((p: any) => p.payor_code)).toEqual(['CIGNA']);
    expect((await c.get(search, { query: { provider: 'stedi', provider_payor_id: '60054' } })).body).toEqual([]);
    expect((await c.get(search, { query: { provider: 'nope', insurance_name: 'x' } })).status).toBe(422);
    const nothing = await c.get(search);
    expect(nothing.status).toBe(422);
    expect(nothing.body.detail[0].loc).toEqual(['query']);
  });

  it('creates team payors that search then finds, in that team only', async () => {
    const c = createClient(adapter, { seed: 63, ...SMALL });
    const created = await c.post('/v3/payor', {
      name: 'Acme Employee Health Plan',
      address: { first_line: '1 Acme Way', country: 'US', zip: '10001', city: 'New York', state: 'NY' },
      provider: 'availity',
      provider_payor_id: 'ACME1',
    });
    expect(created.status, created.text).toBe(200);
    expect(created.body).toMatchObject({ name: 'Acme Employee Health Plan', aliases: [], source: 'team' });
    expect(created.body.payor_code).toMatch(/^TEAM_[A-Z0-9]{8}$/);
    expect(created.body.org_address.second_line).toBe('');
    oas?.expectValid('ClientFacingPayor', created.body);
    const found = await c.get(search, { query: { insurance_name: 'acme employe' } });
    expect(found.body).toEqual([created.body]);
    expect((await c.get(search, { query: { provider: 'availity', provider_payor_id: 'acme1' } })).body).toEqual([created.body]);
    const eu = c.creds.teams[1]?.api_keys.sandbox ?? '';
    expect((await c.get(search, { query: { insurance_name: 'acme' }, headers: { 'x-service-api-key': eu } })).body).toEqual([]);
    expect((await c.post('/v3/payor', { name: 'x' })).status).toBe(422);
    expect(
      (
        await c.post('/v3/payor', {
          name: 'x',
          address: { first_line: 'a', country: 'US', zip: '1', city: 'c', state: 'NY' },
          provider: 'availity',
        })
      ).status,
    ).toBe(422);
  });
});
