/**
 * A user with several providers gets overlapping but different readings from each (issue 31):
 * the same nights a few minutes apart, with different durations and scores, deterministic. Over
 * the HTTP API (demo connections to Oura and Fitbit, which both record sleep).
 */
import { expect, it } from 'vitest';
import { createClient, forEachAdapter } from '../support/client.js';

const q = { start_date: '2025-12-10', end_date: '2026-01-05' };
const minutes = (a: string, b: string) => Math.abs(Date.parse(a) - Date.parse(b)) / 60_000;

forEachAdapter('overlapping sources', (adapter) => {
  it('two providers report the same nights a few minutes apart, with different durations and scores', async () => {
    const read = async () => {
      const c = createClient(adapter, { seed: 360, users: 0, usersElsewhere: 0 });
      const userId = (await c.post('/v2/user', { client_user_id: 'two-rings' })).body.user_id as string;
      for (const provider of ['oura', 'fitbit']) await c.post('/v2/link/connect/demo', { user_id: userId, provider });
      await c.advance(6 * 3600);
      const of = async (provider: string) =>
        (await c.get(`/v2/summary/sleep/${userId}`, { query: { ...q, provider } })).body.sleep as Array<Record<string, any>>;
      return { oura: await of('oura'), fitbit: await of('fitbit') };
    };
    const { oura, fitbit } = await read();
    const byDate = new Map(fitbit.map((s) => [s.calendar_date, s]));
    const pairs = oura
      .filter((s) => byDate.has(s.calendar_date))
      .map((s): [Record<string, any>, Record<string, any>] => [s, byDate.get(s.calendar_date) as Record<string, any>]);
    expect(pairs.length).toBeGreaterThan(10);
    for (const [a, b] of pairs) {
      expect(minutes(a.bedtime_start, b.bedtime_start)).toBeLessThanOrEqual(20);
      expect(minutes(a.bedtime_stop, b.bedtime_stop)).toBeLessThanOrEqual(20);
    }
    const differs = (key: string) => pairs.filter(([a, b]) => a[key] !== b[key]).length;
    expect(differs('bedtime_start')).toBeGreaterThan(pairs.length / 2);
    expect(differs('duration')).toBeGreaterThan(pairs.length / 2);
    expect(differs('score')).toBeGreaterThan(0);
    // still deterministic
    const again = await read();
    expect(again.oura).toEqual(oura);
    expect(again.fitbit).toEqual(fitbit);
  });
});
