/** Continuous queries through the management interface (issue 15): stored, validated, listed, archived (runs: aggregate-continuous.test.ts). */
import { expect, it } from 'vitest';
import { MANAGEMENT_ERRORS } from '../../src/state/management/errors.js';
import { createClient, forEachAdapter } from '../support/client.js';
import { oasValidator } from '../support/openapi.js';

const mg = oasValidator('management');
const schema = (name: string, value: unknown) => mg?.expectValid(name, value);

/** The reference's own example of a create body. */
const EXAMPLE = {
  export_preferences: { data_events: { enabled: true } },
  query: {
    group_by: [{ arg: { index: 'sleep' }, date_trunc: { unit: 'month', value: 1 } }],
    select: [{ group_key: '*' }, { arg: { value_macro: 'sleep_score', version: 'automatic' }, func: 'mean' }],
  },
  query_config: { provider_priority_overrides: ['oura'] },
  scheduling_preferences: { minimum_gap_duration_second: 3600 },
  slug: 'weekly-mean-sleep-score',
  title: 'Weekly Mean Sleep Score',
};

forEachAdapter('management continuous queries', (adapter) => {
  it('validates, creates, lists, updates and archives; bad queries change nothing', async () => {
    const c = createClient(adapter, { users: 0, usersElsewhere: 0 });
    const base = `/v1/org/${c.orgId}/team/${c.creds.teams[0]?.team_id}/sandbox`;
    const v = await c.mgmt('POST', `${base}/validate_continuous_query`, { body: EXAMPLE });
    expect(v.status, v.text).toBe(200);
    schema('ValidateContinuousQueryResponse', v.body);
    expect(v.body).toEqual({
      result_table_schema: { 'group_key.0': 'string', 'mean.sleep_score': 'float64' },
      resource_dependencies: ['sleep'],
      fhir_observation_previews: null,
    });
    expect((await c.mgmt('GET', `${base}/continuous_query`)).body.data).toEqual([]);

    const created = await c.mgmt('POST', `${base}/continuous_query`, { body: EXAMPLE });
    expect(created.status, created.text).toBe(200);
    schema('ContinuousQuery', created.body);
    expect(created.body).toMatchObject({
      status: 'active',
      slug: EXAMPLE.slug,
      resource_dependencies: ['sleep'],
      team_id: c.creds.teams[0]?.team_id,
    });
    expect((await c.mgmt('POST', `${base}/continuous_query`, { body: EXAMPLE })).status).toBe(409);
    expect((await c.mgmt('GET', `/v1/org/${c.orgId}/team/${c.creds.teams[0]?.team_id}/production/continuous_query`)).body.data).toEqual([]);

    // Invalid: unknown column, unknown macro, group_key out of range, bad slug, platform queries.
    const bad = (query: unknown, extra: Record<string, unknown> = {}) =>
      c.mgmt('POST', `${base}/continuous_query`, { body: { ...EXAMPLE, slug: 'other', query, ...extra } });
    expect((await bad({ select: [{ sleep: 'nope' }] })).status).toBe(422);
    const macro = await bad({ select: [{ value_macro: 'moon_phase' }] });
    expect(macro.status).toBe(422);
    expect(macro.body.detail[0].loc).toEqual(['body', 'query', 'select', 0, 'value_macro']);
    expect((await bad({ select: [{ group_key: 3 }] })).status).toBe(422);
    expect((await bad(EXAMPLE.query, { slug: 'Bad Slug' })).status).toBe(422);
    expect((await bad(EXAMPLE.query, { scheduling_preferences: { minimum_gap_duration_second: 60 } })).status).toBe(422);
    expect(
      (await c.mgmt('POST', `${base}/continuous_query`, { query: { query_type: 'platform' }, body: { ...EXAMPLE, slug: 'p' } })).status,
    ).toBe(403);
    const list = await c.mgmt('GET', `${base}/continuous_query`);
    schema('ContinuousQueryResponse', list.body);
    expect(list.body.data).toHaveLength(1);

    const id = created.body.id;
    const up = await c.mgmt('PATCH', `${base}/continuous_query/${id}`, { body: { title: 'Monthly sleep', scheduling_preferences: null } });
    expect(up.status, up.text).toBe(200);
    expect(up.body).toMatchObject({ title: 'Monthly sleep', scheduling_preferences: { minimum_gap_duration_second: 3600 } });
    const archived = await c.mgmt('DELETE', `${base}/continuous_query/${id}`);
    expect(archived.body.status).toBe('archived');
    schema('ContinuousQuery', archived.body);
    const late = await c.mgmt('PATCH', `${base}/continuous_query/${id}`, { body: { title: 'x' } });
    expect(late.status).toBe(400);
    expect(late.body.detail).toBe(MANAGEMENT_ERRORS.queryArchived);
    // The slug is free again once the query is archived.
    expect((await c.mgmt('POST', `${base}/continuous_query`, { body: EXAMPLE })).status).toBe(200);
    expect((await c.mgmt('DELETE', `${base}/continuous_query/00000000-0000-4000-8000-000000000001`)).status).toBe(404);
  });
});
