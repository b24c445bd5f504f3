/**
 * `POST /aggregate/v1/user/{user_id}/query` on both adapters: the engine's answers agree with
 * the summary and timeseries endpoints they are computed from (same generated data), group by
 * time and source, reducers, WHERE, alignment, and the real 4xx for invalid queries.
 */
import { gunzipSync } from 'node:zlib';
import { expect, it } from 'vitest';
import { createClient, forEachAdapter, type TestClient } from '../support/client.js';
import { oasValidator } from '../support/openapi.js';
import { expectWire } from '../support/wire.js';
import { USERS_ERRORS } from '../../src/state/users/errors.js';

const oas = oasValidator('data');
const TF = { type: 'relative', anchor: '2026-01-04', past: { value: 14, unit: 'day' } };

async function demoUser(c: TestClient, providers: string[], clientUserId = 'agg-a'): Promise<string> {
  const userId = (await c.post('/v2/user', { client_user_id: clientUserId, fallback_time_zone: 'Europe/Berlin' })).body.user_id as string;
  for (const provider of providers) expect((await c.post('/v2/link/connect/demo', { user_id: userId, provider })).status).toBe(200);
  await c.advance(3 * 3600);
  return userId;
}

const query = (c: TestClient, userId: string, queries: unknown[], extra: Record<string, unknown> = {}) =>
  c.post(`/aggregate/v1/user/${userId}/query`, { timeframe: TF, queries, ...extra });

forEachAdapter('aggregate query', (adapter) => {
  it('rows and reducers agree with the summaries; group by day, date_part and source', async () => {
    const c = createClient(adapter, { seed: 5, users: 1, usersElsewhere: 0 });
    const userId = await demoUser(c, ['oura', 'fitbit']);
    const sleeps = (
      await c.get(`/v2/summary/sleep/${userId}`, { query: { start_date: '2025-12-22', end_date: '2026-01-04', provider: 'oura' } })
    ).body.sleep as any[];
    expect(sleeps.length).toBeGreaterThan(10);

    // Row listing of one source (the priority override picks oura).
    const rows = await query(c, userId, [{ select: [{ sleep: 'id' }, { sleep: 'score' }, { source: 'source_provider' }] }], {
      config: { provider_priority_overrides: ['oura'] },
    });
    expect(rows.status, rows.text).toBe(200);
    oas?.expectValid('AggregationResponse', rows.body);
    expectWire('aggregate.query_one', rows);
    const t0 = rows.body.results[0].table;
    expect(t0.id).toEqual(sleeps.map((s) => s.id));
    expect(t0.score).toEqual(sleeps.map((s) => s.score));
    expect(new Set(t0.source_provider)).toEqual(new Set(['oura']));

    // A WHERE on the source reads every provider (not only the preferred one).
    const fitbit = await query(c, userId, [{ select: [{ sleep: 'id' }], where: "source_provider = 'fitbit'" }], {
      config: { provider_priority_overrides: ['oura'] },
    });
    const fitbitSleeps = (
      await c.get(`/v2/summary/sleep/${userId}`, { query: { start_date: '2025-12-22', end_date: '2026-01-04', provider: 'fitbit' } })
    ).body.sleep as any[];
    expect(fitbit.body.results[0].table.id).toEqual(fitbitSleeps.map((s) => s.id));

    // Reducers over the whole window.
    const scores = sleeps.map((s) => s.score as number);
    const agg = await query(
      c,
      userId,
      [
        {
          select: [
            { func: 'count', arg: { index: 'sleep' } },
            { func: 'mean', arg: { value_macro: 'sleep_score' } },
            { func: 'max', arg: { sleep: 'score' } },
            { func: 'newest', arg: { sleep: 'id' } },
          ],
        },
      ],
      { config: { provider_priority_overrides: ['oura'] } },
    );
    const t1 = agg.body.results[0].table;
    expect(t1).toEqual({
      'count.index': [scores.length],
      'mean.sleep_score': [Math.round((scores.reduce((a, b) => a + b, 0) / scores.length) * 1e6) / 1e6],
      'max.score': [Math.max(...scores)],
      'newest.id': [sleeps[sleeps.length - 1].id],
    });

    // Group by day (local dates) and by source: both providers, one row per (day, provider).
    const grouped = await query(c, userId, [
      {
        select: [{ group_key: '*' }, { func: 'sum', arg: { activity: 'steps' } }],
        group_by: [{ date_trunc: { value: 1, unit: 'day' }, arg: { index: 'activity' } }, { source: 'source_provider' }],
      },
    ]);
    expect(grouped.status, grouped.text).toBe(200);
    const t2 = grouped.body.results[0].table;
    expect(Object.keys(t2)).toEqual(['group_key.0', 'group_key.1', 'sum.steps']);
    expect(new Set(t2['group_key.1'])).toEqual(new Set(['fitbit', 'oura']));
    const activity = (
      await c.get(`/v2/summary/activity/${userId}`, { query: { start_date: '2025-12-22', end_date: '2026-01-04', provider: 'fitbit' } })
    ).body.activity as any[];
    for (const a of activity) {
      const i = t2['group_key.0'].findIndex(
        (k: string, j: number) => k === `${a.calendar_date}T00:00:00` && t2['group_key.1'][j] === 'fitbit',
      );
      expect(i, a.calendar_date).toBeGreaterThanOrEqual(0);
      expect(t2['sum.steps'][i]).toBe(a.steps);
    }
    const sorted = [...t2['group_key.0']].sort();
    expect(t2['group_key.0']).toEqual(sorted);

    // date_part: weekday 1..7, WHERE filters before grouping.
    const parts = await query(
      c,
      userId,
      [
        {
          select: [{ group_key: 0 }, { func: 'count', arg: { index: 'sleep' } }],
          group_by: [{ date_part: 'weekday', arg: { index: 'sleep' } }],
          where: "score >= 80 AND NOT (state = 'nap')",
        },
      ],
      { config: { provider_priority_overrides: ['oura'] } },
    );
    const t3 = parts.body.results[0].table;
    expect(t3['group_key.0'].every((d: number) => d >= 1 && d <= 7)).toBe(true);
    expect(t3['count.index'].reduce((a: number, b: number) => a + b, 0)).toBe(scores.filter((s) => s >= 80).length);
  });

  it('timeseries, alignment and several queries in one batch', async () => {
    const c = createClient(adapter, { seed: 5, users: 1, usersElsewhere: 0 });
    const userId = await demoUser(c, ['freestyle_libre', 'oura']);
    const tf = { type: 'relative', anchor: '2026-01-04', past: { value: 2, unit: 'day' } };
    const res = await c.post(`/aggregate/v1/user/${userId}/query`, {
      timeframe: tf,
      queries: [
        {
          select: [
            { group_key: 0 },
            { func: 'mean', arg: { timeseries: 'glucose', field: 'value' } },
            { func: 'count', arg: { timeseries: 'glucose', field: 'value' } },
          ],
          group_by: [{ date_trunc: { value: 6, unit: 'hour' }, arg: { index: 'timeseries' } }],
        },
        {
          select: [{ group_key: 0 }, { func: 'mean', arg: { sleep: 'score' } }],
          group_by: [{ date_trunc: { value: 1, unit: 'hour' }, arg: { index: 'sleep' } }],
          align: { carry: { mode: 'carry_forward' } },
        },
      ],
    });
    expect(res.status, res.text).toBe(200);
    oas?.expectValid('AggregationResponse', res.body);
    expectWire('aggregate.query_one', res);
    const [glucose, aligned] = res.body.results.map((r: any) => r.table);
    expect(glucose['group_key.0']).toEqual([
      '2026-01-03T00:00:00',
      '2026-01-03T06:00:00',
      '2026-01-03T12:00:00',
      '2026-01-03T18:00:00',
      '2026-01-04T00:00:00',
      '2026-01-04T06:00:00',
      '2026-01-04T12:00:00',
      '2026-01-04T18:00:00',
    ]);
    const samples = (
      await c.get(`/v2/timeseries/${userId}/glucose`, {
        query: { start_date: '2026-01-02T23:00:00Z', end_date: '2026-01-03T04:59:59.999Z' },
      })
    ).body as any[];
    expect(glucose['count.value'][0]).toBe(samples.length);
    // Alignment materialises every hour of the window after the first night, carrying its score.
    expect(aligned['group_key.0'].length).toBeGreaterThan(24);
    expect(aligned['mean.score'].filter((v: unknown) => v === null).length).toBeLessThan(24);
  });

  it('invalid queries, timeframes and headers answer 422; unknown users 404', async () => {
    const c = createClient(adapter, { seed: 5, users: 1, usersElsewhere: 0 });
    const userId = await demoUser(c, ['oura']);
    const bad = async (q: unknown, loc: Array<string | number>) => {
      const r = await query(c, userId, [q]);
      expect(r.status, JSON.stringify(q)).toBe(422);
      expect(r.body.detail[0].loc.slice(0, loc.length)).toEqual(loc);
    };
    await bad({ select: [{ sleep: 'score' }, { activity: 'steps' }] }, ['body', 'queries', 0, 'select', 1]);
    await bad({ select: [{ func: 'mean', arg: { sleep: 'id' } }] }, ['body', 'queries', 0, 'select', 0, 'func']);
    await bad({ select: [{ group_key: 0 }, { sleep: 'score' }], group_by: [{ sleep: 'type' }] }, ['body', 'queries', 0, 'select', 1]);
    await bad({ select: [{ group_key: 1 }], group_by: [{ sleep: 'type' }] }, ['body', 'queries', 0, 'select', 0, 'group_key']);
    await bad({ select: [{ sleep: 'score' }], where: 'score >>> 3' }, ['body', 'queries', 0, 'where']);
    await bad({ select: [{ sleep: 'score' }], where: 'nope = 1' }, ['body', 'queries', 0, 'where']);
    await bad({ select: [{ sleep: 'score' }], where: `${'NOT '.repeat(20_000)}score = 1` }, ['body', 'queries', 0, 'where']);
    await bad({ select: [{ value_macro: 'moon_phase' }] }, ['body', 'queries', 0, 'select', 0, 'value_macro']);
    await bad({ select: [{ func: 'mean', arg: { sleep: 'score' } }], align: { carry: { mode: 'carry_forward' } } }, [
      'body',
      'queries',
      0,
      'align',
    ]);
    await bad({ select: [{ sleep: 'nope' }] }, ['body', 'queries', 0, 'select', 0]);
    const placeholder = await c.post(`/aggregate/v1/user/${userId}/query`, {
      timeframe: { placeholder: true },
      queries: [{ select: [{ sleep: 'score' }] }],
    });
    expect(placeholder.status).toBe(422);
    const many = await c.post(`/aggregate/v1/user/${userId}/query`, {
      timeframe: TF,
      queries: Array.from({ length: 21 }, () => ({ select: [{ sleep: 'score' }] })),
    });
    expect(many.status).toBe(422);
    expect(many.body.detail[0].loc).toEqual(['body', 'queries']);
    const long = await c.post(`/aggregate/v1/user/${userId}/query`, {
      timeframe: { ...TF, past: { value: 2, unit: 'year' } },
      queries: [{ select: [{ sleep: 'score' }] }],
    });
    expect(long.status).toBe(422);
    const accept = await query(
      c,
      userId,
      [{ select: [{ sleep: 'score' }] }].map((q) => q),
      {},
    );
    expect(accept.status).toBe(200);
    const badAccept = await c.post(
      `/aggregate/v1/user/${userId}/query`,
      { timeframe: TF, queries: [] },
      { headers: { accept: 'text/csv' } },
    );
    expect(badAccept.status).toBe(422);
    expect(badAccept.body.detail[0].loc).toEqual(['header', 'accept']);
    const unknown = await c.post('/aggregate/v1/user/00000000-0000-4000-8000-000000000001/query', { timeframe: TF, queries: [] });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ detail: USERS_ERRORS.userNotFound });
  });

  it('the Parquet variant: a tar.gz of one Parquet file per query, typed columns, the same values', async () => {
    const c = createClient(adapter, { seed: 5, users: 1, usersElsewhere: 0 });
    const userId = await demoUser(c, ['oura']);
    const queries = [
      { select: [{ sleep: 'score' }, { sleep: 'efficiency' }, { sleep: 'id' }] },
      { select: [{ func: 'count', arg: { index: 'sleep' } }] },
    ];
    const json = await query(c, userId, queries);
    const res = await query(c, userId, queries, {});
    expect(res.body).toEqual(json.body);
    const tgz = await c.post(
      `/aggregate/v1/user/${userId}/query`,
      { timeframe: TF, queries },
      { headers: { accept: 'application/vnd.vital.tar+gzip+parquet' } },
    );
    expect(tgz.status).toBe(200);
    expect(tgz.headers['content-type']).toContain('application/vnd.vital.tar+gzip+parquet');
    expectWire('aggregate.query_one', tgz);
    const tar = gunzipSync(tgz.bytes);
    const name = (offset: number) =>
      tar
        .subarray(offset, offset + 100)
        .toString('latin1')
        .replace(/\0.*$/s, '');
    expect(name(0)).toBe('query_0.parquet');
    const size0 = Number.parseInt(tar.subarray(124, 135).toString('latin1'), 8);
    const file0 = tar.subarray(512, 512 + size0);
    expect(file0.subarray(0, 4).toString()).toBe('PAR1');
    expect(file0.subarray(file0.length - 4).toString()).toBe('PAR1');
    // The INT64 score column holds the JSON answer's scores, little-endian, in order.
    const scores = json.body.results[0].table.score as number[];
    const packed = Buffer.alloc(8 * scores.length);
    scores.forEach((v, i) => packed.writeBigInt64LE(BigInt(v), i * 8));
    expect(file0.indexOf(packed)).toBeGreaterThan(0);
    for (const column of ['score', 'efficiency', 'id']) expect(file0.includes(Buffer.from(column))).toBe(true);
    expect(name(512 + Math.ceil(size0 / 512) * 512)).toBe('query_1.parquet');
  });
});
