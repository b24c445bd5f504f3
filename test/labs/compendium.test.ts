/** The compendium: canonical search, crosswalk, provider id conversion, orderable tests (issue 13). */
import { expect, it } from 'vitest';
import { createClient, forEachAdapter } from '../support/client.js';
import { oasValidator } from '../support/openapi.js';
import { SMALL, standardTests } from '../support/lab-helpers.js';
import { LABS_ERRORS } from '../../src/state/labs/errors.js';
import { UNKNOWN_ID } from '../support/route-params.js';
import { expectWire } from '../support/wire.js';

const oas = oasValidator('data');

forEachAdapter('compendium', (adapter) => {
  it('finds canonical tests by name, provider id, LOINC, CPT and hash; crosswalk lists each lab', async () => {
    const c = createClient(adapter, { seed: 141, ...SMALL });
    const byName = await c.post('/v3/compendium/search', { mode: 'canonical', query: 'lipid panel' });
    expect(byName.status, byName.text).toBe(200);
    oas?.expectValid('SearchCompendiumResponse', byName.body);
    expectWire('compendium.search', byName);
    const lipid = byName.body.selected_canonical;
    expect(lipid).toMatchObject({ display_name: 'Lipid Panel, Standard', cpt_codes: ['80061'], loinc_groups: ['Lipids'] });
    expect(lipid.loinc_codes).toContain('2093-3');
    expect(lipid.provider_ids).toEqual(['303756', '7600', 'BRL-0001', 'SQL-0001']);
    expect(lipid.loinc_set_hash).toMatch(/^[0-9a-f]{16}$/);
    expect(byName.body.canonical_candidates.length).toBeLessThanOrEqual(3);
    expect(byName.body.per_lab).toEqual({});
    expect(byName.body.related).toEqual([]);
    const panel = await c.post('/v3/compendium/search', { mode: 'canonical', query: 'thyroid panel' });
    expect(panel.body.selected_canonical.display_name).toBe('Thyroid Panel (TSH, Free T4)');
    expect(panel.body.related.map((r: any) => [r.canonical.display_name, r.relation, r.reason_codes])).toEqual([
      ['TSH', 'contains', ['loinc_overlap']],
      ['T4, Free', 'contains', ['loinc_overlap']],
    ]);

    const byHash = await c.post('/v3/compendium/search', {
      mode: 'canonical',
      loinc_set_hash: lipid.loinc_set_hash,
      include_related: false,
    });
    expect(byHash.body.selected_canonical).toEqual({ ...lipid, confidence: 1 });
    expect(byHash.body.related).toEqual([]);
    const byQuest = await c.post('/v3/compendium/search', { mode: 'canonical', query: '7600' });
    expect(byQuest.body.selected_canonical.display_name).toBe('Lipid Panel, Standard');
    const byCpt = await c.post('/v3/compendium/search', { mode: 'canonical', cpt_codes: ['83036'] });
    expect(byCpt.body.selected_canonical.display_name).toBe('Hemoglobin A1c');
    const byLoinc = await c.post('/v3/compendium/search', { mode: 'canonical', query: '3016-3', limit: 5 });
    expect(byLoinc.body.canonical_candidates.map((x: any) => x.display_name)).toEqual(['TSH', 'Thyroid Panel (TSH, Free T4)']);

    const cross = await c.post('/v3/compendium/search', { mode: 'crosswalk', query: 'tsh', labs: ['quest', 'labcorp'], limit: 2 });
    oas?.expectValid('SearchCompendiumResponse', cross.body);
    expectWire('compendium.search', cross);
    expect(Object.keys(cross.body.per_lab)).toEqual(['quest', 'labcorp']);
    expect(cross.body.per_lab.quest[0]).toMatchObject({
      provider_id: '899',
      lab_slug: 'quest',
      relation: 'exact',
      confidence: 1,
      lab_id: 3,
    });
    expect(cross.body.per_lab.labcorp[0]).toMatchObject({ provider_id: '004259', relation: 'exact' });
    expect(cross.body.per_lab.quest[1]).toMatchObject({ name: 'Thyroid Panel (TSH, Free T4)', relation: 'contained_in' });

    const none = await c.post('/v3/compendium/search', { mode: 'canonical', query: 'zzzz' });
    expect(none.body).toEqual({ mode: 'canonical', selected_canonical: null, canonical_candidates: [], per_lab: {}, related: [] });
    const empty = await c.post('/v3/compendium/search', { mode: 'canonical' });
    expect(empty.status).toBe(422);
    expect(empty.body.detail[0].ctx.error).toBe(LABS_ERRORS.compendiumNeedsCriteria);
    expect((await c.post('/v3/compendium/search', { mode: 'fuzzy', query: 'x' })).status).toBe(422);
    expect((await c.post('/v3/compendium/search', { mode: 'canonical', query: 'x', labs: ['spiriplex'] })).status).toBe(422);
  });

  it('converts provider ids and lab tests between labs; searches orderable tests', async () => {
    const c = createClient(adapter, { seed: 142, ...SMALL });
    const conv = await c.post('/v3/compendium/convert', { provider_ids: ['7600', '899', 'NOPE'], target_lab: 'labcorp' });
    expect(conv.status, conv.text).toBe(200);
    oas?.expectValid('ConvertCompendiumResponse', conv.body);
    expectWire('compendium.convert', conv);
    expect(conv.body).toMatchObject({
      source_lab_test_id: null,
      source_lab_id: 3,
      target_lab_id: 4,
      target_lab_slug: 'labcorp',
      source_provider_ids: ['7600', '899', 'NOPE'],
      converted_provider_ids: ['303756', '004259'],
      unresolved_provider_ids: ['NOPE'],
    });
    expect(conv.body.by_source_provider_id.NOPE).toEqual({ source_provider_id: 'NOPE', candidates: [] });
    expect(conv.body.by_source_provider_id['899'].candidates[0]).toMatchObject({ provider_id: '004259', relation: 'exact' });

    const walkIn = (await standardTests(c)).walk_in_test;
    const fromTest = await c.post('/v3/compendium/convert', { lab_test_id: walkIn, target_lab: 'sonora_quest', limit: 1 });
    expect(fromTest.body).toMatchObject({
      source_lab_test_id: walkIn,
      source_lab_id: 3,
      target_lab_slug: 'sonora_quest',
      unresolved_provider_ids: [],
    });
    expect(fromTest.body.converted_provider_ids).toHaveLength(4);
    for (const v of Object.values(fromTest.body.by_source_provider_id) as any[]) expect(v.candidates).toHaveLength(1);
    const unknown = await c.post('/v3/compendium/convert', { lab_test_id: UNKNOWN_ID, target_lab: 'quest' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ detail: LABS_ERRORS.labTestNotFound });
    expect((await c.post('/v3/compendium/convert', { target_lab: 'quest' })).body.detail[0].ctx.error).toBe(LABS_ERRORS.convertNeedsSource);
    expect(
      (await c.post('/v3/compendium/convert', { lab_test_id: walkIn, provider_ids: ['7600'], target_lab: 'quest' })).body.detail[0].ctx
        .error,
    ).toBe(LABS_ERRORS.convertOneSource);

    const orderable = await c.post('/v3/compendium/search_orderable_tests', {
      provider_ids: ['004259', 'X1'],
      target_lab: 'quest',
      per_provider_limit: 2,
    });
    expect(orderable.status).toBe(200);
    oas?.expectValid('SearchOrderableTestsResponse', orderable.body);
    expectWire('compendium.search_orderable_tests', orderable);
    expect(orderable.body.candidates['004259'].map((x: any) => x.provider_id)).toEqual(['899', '36127']);
    expect(orderable.body.candidates.X1).toEqual([]);
    const tooMany = await c.post('/v3/compendium/search_orderable_tests', {
      provider_ids: Array.from({ length: 101 }, (_, i) => String(i)),
      target_lab: 'quest',
    });
    expect(tooMany.status).toBe(422);
  });
});
