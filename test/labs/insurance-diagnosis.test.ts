/** Diagnosis search, ICD-10 code validation, the deprecated POST payor search, lab account error texts (issue 13). */
import { expect, it } from 'vitest';
import { createClient, forEachAdapter } from '../support/client.js';
import { oasValidator } from '../support/openapi.js';
import { SMALL } from '../support/lab-helpers.js';
import { LABS_ERRORS, LABS_TEXTS } from '../../src/state/labs/errors.js';
import { expectWire } from '../support/wire.js';

const oas = oasValidator('data');

forEachAdapter('insurance diagnosis and ICD codes', (adapter) => {
  it('searches diagnoses by code prefix and by description words', async () => {
    const c = createClient(adapter, { seed: 131, ...SMALL });
    const byCode = await c.get('/v3/insurance/search/diagnosis', { query: { diagnosis_query: 'e11' } });
    expect(byCode.status).toBe(200);
    expect(byCode.body.map((d: any) => d.diagnosis_code)).toEqual(['E11.9', 'E11.65', 'E11.22', 'E11.40']);
    for (const d of byCode.body) oas?.expectValid('ClientFacingDiagnosisInformation', d);
    expectWire('insurance.diagnosis_search', byCode);
    const noDot = await c.get('/v3/insurance/search/diagnosis', { query: { diagnosis_query: 'E116' } });
    expect(noDot.body).toEqual([
      { diagnosis_code: 'E11.65', description: 'Type 2 diabetes mellitus with hyperglycemia', is_secondary: false },
    ]);
    const words = await c.get('/v3/insurance/search/diagnosis', { query: { diagnosis_query: 'vitamin defic' } });
    expect(words.body.map((d: any) => d.diagnosis_code)).toEqual(['E55.9', 'E53.8', 'D51.9']);
    const insulin = await c.get('/v3/insurance/search/diagnosis', { query: { diagnosis_query: 'insulin' } });
    expect(insulin.body).toEqual([{ diagnosis_code: 'Z79.4', description: 'Long term (current) use of insulin', is_secondary: true }]);
    expect((await c.get('/v3/insurance/search/diagnosis', { query: { diagnosis_query: 'zebra' } })).body).toEqual([]);
    expect((await c.get('/v3/insurance/search/diagnosis', { query: { diagnosis_query: '' } })).body).toEqual([]);
    const missing = await c.get('/v3/insurance/search/diagnosis');
    expect(missing.status).toBe(422);
    expect(missing.body.detail[0]).toMatchObject({ type: 'missing', loc: ['query', 'diagnosis_query'] });
  });

  it('validates ICD-10 codes: format, existence, billability, Excludes1 and Excludes2', async () => {
    const c = createClient(adapter, { seed: 132, ...SMALL });
    const ok = await c.post('/v3/insurance/validate_icd_codes', { codes: ['E11.9', 'z79.4', 'E119'] });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ valid: true, errors: [], violations: [], warnings: [] });
    oas?.expectValid('ValidateICDCodesResponse', ok.body);
    expectWire('insurance.validate_icd_codes', ok);
    const bad = await c.post('/v3/insurance/validate_icd_codes', { codes: ['E11', 'Q99.99', 'not a code', 'E55.9', 'E83.51'] });
    expect(bad.body).toEqual({
      valid: false,
      errors: [LABS_TEXTS.icdNotBillable('E11'), LABS_TEXTS.icdUnknown('Q99.99'), LABS_TEXTS.icdInvalidFormat('not a code')],
      violations: [],
      warnings: [{ code: 'E55.9', overlaps_with: 'E83.51', type: 'excludes2' }],
    });
    oas?.expectValid('ValidateICDCodesResponse', bad.body);
    expectWire('insurance.validate_icd_codes', bad);
    const conflict = await c.post('/v3/insurance/validate_icd_codes', { codes: ['E11.65', 'E10.9'] });
    expect(conflict.body).toEqual({
      valid: false,
      errors: [],
      violations: [{ code: 'E11.65', conflicts_with: 'E10.9', type: 'excludes1' }],
      warnings: [],
    });
    const prediabetes = await c.post('/v3/insurance/validate_icd_codes', { codes: ['R73.03', 'E11.9'] });
    expect(prediabetes.body.violations).toEqual([{ code: 'R73.03', conflicts_with: 'E11.9', type: 'excludes1' }]);
    expect((await c.post('/v3/insurance/validate_icd_codes', { codes: 'E11.9' })).status).toBe(422);
    expect((await c.post('/v3/insurance/validate_icd_codes', {})).status).toBe(422);
  });

  it('answers the deprecated POST payor search with code instead of payor_code', async () => {
    const c = createClient(adapter, { seed: 133, ...SMALL });
    const res = await c.post('/v3/insurance/search/payor', { insurance_name: 'aetna' });
    expect(res.status).toBe(200);
    expect(res.body[0]).toMatchObject({ code: 'AETNA', name: 'Aetna', source: 'platform' });
    expect(res.body[0].payor_code).toBeUndefined();
    for (const p of res.body) oas?.expectValid('ClientFacingPayorSearchResponseDeprecated', p);
    expectWire('insurance.payor_search.deprecated', res);
    const get = await c.get('/v3/insurance/search/payor', { query: { insurance_name: 'aetna' } });
    expect(res.body.map((p: any) => p.code)).toEqual(get.body.map((p: any) => p.payor_code));
    const byId = await c.post('/v3/insurance/search/payor', { provider: 'change_healthcare', provider_id: '60054' });
    expect(byId.body.map((p: any) => p.code)).toEqual(['AETNA']);
    const empty = await c.post('/v3/insurance/search/payor', {});
    expect(empty.status).toBe(422);
    expect(empty.body.detail[0].ctx.error).toBe(LABS_ERRORS.payorDeprecatedSearchNeedsName);
    expect((await c.get('/v3/insurance/search/payor')).body.detail[0].ctx.error).toBe(LABS_ERRORS.payorSearchNeedsName);
    const pair = await c.post('/v3/payor', {
      name: 'X',
      address: { first_line: '1', country: 'US', zip: '1', city: 'A', state: 'NY' },
      provider: 'availity',
    });
    expect(pair.body.detail[0].ctx.error).toBe(LABS_ERRORS.payorProviderPair);
  });

  it('lab account errors come from the labs catalogue', async () => {
    const c = createClient(adapter, { seed: 134, ...SMALL });
    const us = c.creds.teams[0]?.team_id as string;
    await c.put(`/_sandbox/teams/${us}/beta_features`, { beta_features: ['lab_accounts'] });
    const missing = await c.mgmt('PATCH', `/v1/org/${c.orgId}/lab_account/sandbox/us/00000000-0000-4000-8000-000000000004`, {
      body: { team_id_allowlist: [] },
    });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ detail: LABS_ERRORS.labAccountNotFound });
    const account = (await c.mgmt('GET', `/v1/org/${c.orgId}/lab_account/sandbox/us`)).body.data[0].id as string;
    const eu = c.creds.teams[1]?.team_id as string;
    const wrong = await c.mgmt('PATCH', `/v1/org/${c.orgId}/lab_account/sandbox/us/${account}`, { body: { team_id_allowlist: [eu] } });
    expect(wrong.status).toBe(422);
    expect(wrong.body.detail[0].ctx.error).toBe(LABS_TEXTS.teamNotInOrgRegion(eu, 'us'));
  });
});
