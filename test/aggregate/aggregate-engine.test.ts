/**
 * The aggregate engine's semantics through the API: alignment (carry forward / backward /
 * nearest, with limits) checked against the unaligned answer, ISO week buckets, and subqueries
 * over the menstrual cycle's lists checked against the menstrual-cycle summaries.
 */
import { describe, expect, it } from 'vitest';
import { createClient, type TestClient } from '../support/client.js';

const TF = { type: 'relative', anchor: '2026-01-04', past: { value: 21, unit: 'day' } };
const q = (c: TestClient, userId: string, queries: unknown[], timeframe: unknown = TF) =>
  c.post(`/aggregate/v1/user/${userId}/query`, { timeframe, queries });

async function demoUser(c: TestClient, provider: string, clientUserId: string): Promise<string> {
  const userId = (await c.post('/v2/user', { client_user_id: clientUserId })).body.user_id as string;
  expect((await c.post('/v2/link/connect/demo', { user_id: userId, provider })).status).toBe(200);
  return userId;
}

describe('aggregate engine', () => {
  it('align: every day of the window, empty days carried within the limit', async () => {
    const c = createClient('express', { seed: 21, users: 0, usersElsewhere: 0 });
    const userId = await demoUser(c, 'oura', 'align');
    await c.advance(3 * 3600);
    const base = {
      select: [{ group_key: 0 }, { func: 'max', arg: { sleep: 'score' } }],
      group_by: [{ date_trunc: { unit: 'day' }, arg: { index: 'sleep' } }],
      where: 'score >= 88',
    };
    const plain = (await q(c, userId, [base])).body.results[0].table;
    const days: string[] = [];
    for (let d = Date.parse('2025-12-15T00:00:00Z'); d <= Date.parse('2026-01-04T00:00:00Z'); d += 86_400_000)
      days.push(new Date(d).toISOString().slice(0, 19));
    const seen = new Map<string, number>(plain['group_key.0'].map((k: string, i: number) => [k, plain['max.score'][i]]));
    expect(seen.size).toBeGreaterThan(2);
    expect(seen.size).toBeLessThan(days.length);

    const run = async (carry: Record<string, unknown>) => (await q(c, userId, [{ ...base, align: { carry } }])).body.results[0].table;
    const expected = (pick: (i: number) => number | undefined) =>
      days.map((_, i) => {
        const j = pick(i);
        return j === undefined ? null : (seen.get(days[j] as string) ?? null);
      });
    const prev = (i: number, limit = Infinity) => {
      for (let j = i; j >= 0 && i - j <= limit; j--) if (seen.has(days[j] as string)) return j;
      return undefined;
    };
    const next = (i: number, limit = Infinity) => {
      for (let j = i; j < days.length && j - i <= limit; j++) if (seen.has(days[j] as string)) return j;
      return undefined;
    };
    const forward = await run({ mode: 'carry_forward' });
    expect(forward['group_key.0']).toEqual(days);
    expect(forward['max.score']).toEqual(expected((i) => prev(i)));
    expect((await run({ mode: 'carry_forward', max_age: { value: 1, unit: 'day' } }))['max.score']).toEqual(expected((i) => prev(i, 1)));
    expect((await run({ mode: 'carry_backward' }))['max.score']).toEqual(expected((i) => next(i)));
    const nearest = (i: number) => {
      const a = prev(i);
      const b = next(i);
      if (a === undefined) return b;
      if (b === undefined) return a;
      return i - a <= b - i ? a : b;
    };
    expect((await run({ mode: 'carry_nearest' }))['max.score']).toEqual(expected(nearest));
    const tooShort = await q(c, userId, [{ ...base, align: { carry: { mode: 'carry_forward', max_age: { value: 2, unit: 'hour' } } } }]);
    expect(tooShort.status).toBe(422);
    expect(tooShort.body.detail[0].loc).toEqual(['body', 'queries', 0, 'align', 'carry', 'max_age']);
  });

  it('week buckets start on Monday; date_part week is the ISO week', async () => {
    const c = createClient('express', { seed: 21, users: 0, usersElsewhere: 0 });
    const userId = await demoUser(c, 'fitbit', 'weeks');
    await c.advance(3 * 3600);
    const res = await q(c, userId, [
      {
        select: [{ group_key: '*' }, { func: 'count', arg: { index: 'activity' } }],
        group_by: [{ date_trunc: { unit: 'week' }, arg: { index: 'activity' } }],
      },
      {
        select: [{ group_key: '*' }, { func: 'count', arg: { index: 'activity' } }],
        group_by: [{ date_part: 'week', arg: { index: 'activity' } }],
      },
    ]);
    const [weeks, parts] = res.body.results.map((r: any) => r.table);
    // 2025-12-15 .. 2026-01-04: three whole ISO weeks (Mondays 15, 22, 29 December).
    expect(weeks).toEqual({
      'group_key.0': ['2025-12-15T00:00:00', '2025-12-22T00:00:00', '2025-12-29T00:00:00'],
      'count.index': [7, 7, 7],
    });
    expect(parts).toEqual({ 'group_key.0': [1, 51, 52], 'count.index': [7, 7, 7] });
  });

  it('subqueries over the menstrual cycle lists agree with the summaries', async () => {
    const c = createClient('express', { seed: 21, users: 0, usersElsewhere: 0 });
    let userId = '';
    let cycles: any[] = [];
    for (let i = 0; i < 12 && cycles.length === 0; i++) {
      userId = await demoUser(c, 'apple_health_kit', `cycle-${i}`);
      await c.advance(3600);
      cycles = (await c.get(`/v2/summary/menstrual_cycle/${userId}`, { query: { start_date: '2025-12-06', end_date: '2026-01-04' } })).body
        .menstrual_cycle;
    }
    expect(cycles.length).toBeGreaterThan(0);
    const tf = { type: 'relative', anchor: '2026-01-04', past: { value: 30, unit: 'day' } };
    const res = await q(
      c,
      userId,
      [
        {
          select: [
            { menstrual_cycle: 'period_start' },
            {
              select: { func: 'count', arg: { menstrual_flow: 'flow' } },
              from: { unnest: { menstrual_cycle: 'menstrual_flow' } },
              where: "flow = 'heavy'",
            },
          ],
        },
        {
          select: [
            {
              func: 'max',
              arg: {
                select: { func: 'mean', arg: { basal_body_temperature: 'value' } },
                from: { unnest: { menstrual_cycle: 'basal_body_temperature' } },
              },
            },
          ],
        },
      ],
      tf,
    );
    expect(res.status, res.text).toBe(200);
    const [perCycle, overall] = res.body.results.map((r: any) => r.table);
    expect(perCycle.period_start).toEqual(cycles.map((x) => x.period_start));
    expect(perCycle.menstrual_flow).toEqual(cycles.map((x) => x.menstrual_flow.filter((f: any) => f.flow === 'heavy').length));
    const means = cycles
      .map((x) => x.basal_body_temperature.map((b: any) => b.value))
      .filter((v: number[]) => v.length)
      .map((v: number[]) => v.reduce((a, b) => a + b, 0) / v.length);
    expect(overall['max.basal_body_temperature'][0]).toBeCloseTo(Math.max(...means), 5);
    // A struct list needs a field; the field must belong to the list unnested.
    const bad = await q(
      c,
      userId,
      [{ select: [{ select: { func: 'count', arg: { element: true } }, from: { unnest: { menstrual_cycle: 'menstrual_flow' } } }] }],
      tf,
    );
    expect(bad.status).toBe(422);
  });
});
