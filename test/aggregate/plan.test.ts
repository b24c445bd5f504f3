/**
 * The aggregate query planner (src/state/aggregate/plan.ts) on its own: binding to one table,
 * result columns and their types, group keys, WHERE binding, and the 422 it answers (with the
 * expression's location) for a query that cannot run, before any data is read.
 */
import { describe, expect, it } from 'vitest';
import { planQuery } from '../../src/state/aggregate/plan.js';
import { DomainError } from '../../src/state/domain-error.js';

const LOC = ['body', 'queries', 0];

/** The 422's first item (location and message) of a query the planner refuses. */
function refusal(query: Record<string, unknown>): { loc: unknown; msg: string } {
  try {
    planQuery(query, LOC);
  } catch (e) {
    expect(e).toBeInstanceOf(DomainError);
    const err = e as DomainError;
    expect(err.status).toBe(422);
    const item = (err.body as { detail: Array<{ loc: unknown; msg: string }> }).detail[0] as { loc: unknown; msg: string };
    return item;
  }
  throw new Error('planned a query that should be refused');
}

describe('planQuery', () => {
  it('binds a row listing to its table and names and types its columns', () => {
    const plan = planQuery({ select: [{ sleep: 'id' }, { sleep: 'score' }, { source: 'source_provider' }] }, LOC);
    expect(plan.table).toBe('sleep');
    expect(plan.dependency).toBe('sleep');
    expect(plan.aggregated).toBe(false);
    expect(plan.columns.map((c) => c.name)).toEqual(['id', 'score', 'source_provider']);
    expect(plan.where).toBeNull();
    expect(plan.allSources).toBe(false);
  });

  it('plans grouped reducers: group keys first, reducers typed (count int64, mean float64)', () => {
    const plan = planQuery(
      {
        select: [{ group_key: '*' }, { func: 'count', arg: { index: 'activity' } }, { func: 'mean', arg: { activity: 'steps' } }],
        group_by: [{ date_trunc: { value: 1, unit: 'day' }, arg: { index: 'activity' } }, { source: 'source_provider' }],
      },
      LOC,
    );
    expect(plan.table).toBe('activity');
    expect(plan.aggregated).toBe(true);
    expect(plan.groups.map((g) => g.kind)).toEqual(['trunc', 'value']);
    expect(plan.columns).toEqual([
      { name: 'group_key.0', type: 'string' },
      { name: 'group_key.1', type: 'string' },
      { name: 'count.index', type: 'int64' },
      { name: 'mean.steps', type: 'float64' },
    ]);
    expect(plan.allSources).toBe(true);
  });

  it('binds a timeseries to its resource and a WHERE naming a source column reads every source', () => {
    const plan = planQuery(
      { select: [{ timeseries: 'heartrate', field: 'value' }], where: "source_provider = 'oura' AND heartrate.value > 60" },
      LOC,
    );
    expect(plan.table).toBe('timeseries');
    expect(plan.resource).toBe('heartrate');
    expect(plan.dependency).toBe('heartrate');
    expect(plan.where).toMatchObject({ op: 'and' });
    expect(plan.allSources).toBe(true);
  });

  it('refuses with a 422 at the expression that cannot run', () => {
    expect(refusal({ select: [] })).toMatchObject({ loc: [...LOC, 'select'] });
    expect(refusal({ select: [{ sleep: 'score' }, { activity: 'steps' }] })).toMatchObject({ loc: [...LOC, 'select', 1] });
    expect(refusal({ select: [{ func: 'mean', arg: { sleep: 'id' } }] })).toMatchObject({ loc: [...LOC, 'select', 0, 'func'] });
    expect(refusal({ select: [{ group_key: 0 }] })).toMatchObject({ loc: [...LOC, 'select', 0, 'group_key'] });
    expect(refusal({ select: [{ sleep: 'score' }, { sleep: 'score' }] }).msg).toMatch(/Duplicate result column score/);
    expect(refusal({ select: [{ sleep: 'score' }], where: 'nope = 1' })).toMatchObject({ loc: [...LOC, 'where'] });
    expect(refusal({ select: [{ sleep: 'score' }], where: `${'('.repeat(100)}score = 1${')'.repeat(100)}` }).msg).toMatch(/nested/);
    expect(refusal({ select: [{ group_key: 0 }, { sleep: 'score' }], group_by: [{ sleep: 'type' }] })).toMatchObject({
      loc: [...LOC, 'select', 1],
    });
  });
});
