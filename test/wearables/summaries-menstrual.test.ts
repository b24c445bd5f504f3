/**
 * Menstrual cycles on both adapters: for people who track them, consecutive cycles of plausible
 * length with their period, flow, ovulation tests and a basal body temperature that rises after
 * ovulation (Apple HealthKit); other people and providers give none; real schema.
 */
import { expect, it } from 'vitest';
import { createClient, forEachAdapter } from '../support/client.js';
import { oasValidator } from '../support/openapi.js';

const oas = oasValidator('data');
const q = { start_date: '2025-10-01', end_date: '2026-01-05' };
const dayOf = (d: string) => Date.parse(`${d}T00:00:00Z`) / 86_400_000;

forEachAdapter('summaries: menstrual cycles', (adapter) => {
  it('consecutive cycles with period, flow and a post-ovulation temperature rise', async () => {
    const c = createClient(adapter, { seed: 10, users: 1, usersElsewhere: 0 });
    let cycles: any[] = [];
    let without = 0;
    for (let i = 0; i < 12 && cycles.length === 0; i++) {
      const userId = (await c.post('/v2/user', { client_user_id: `cycle-${i}` })).body.user_id as string;
      expect((await c.post('/v2/link/connect/demo', { user_id: userId, provider: 'apple_health_kit' })).status).toBe(200);
      await c.advance(3 * 3600);
      const res = await c.get(`/v2/summary/menstrual_cycle/${userId}`, { query: q });
      expect(res.status).toBe(200);
      oas?.expectValid('MenstrualCycleResponse', res.body);
      cycles = res.body.menstrual_cycle;
      if (cycles.length === 0) without++;
    }
    // Demo history is 30 days: at least one cycle starts in it.
    expect(cycles.length).toBeGreaterThan(0);
    expect(without).toBeGreaterThan(0);
    const userId = cycles[0].user_id as string;
    expect((await c.get(`/v2/summary/profile/${userId}`)).body.sex).toBe('female');
    // Six more days (a demo user expires after 7, test/users/demo-users.test.ts): with seed 10 a new cycle starts in them.
    await c.advance(6 * 24 * 3600);
    cycles = (await c.get(`/v2/summary/menstrual_cycle/${userId}`, { query: { start_date: '2025-10-01', end_date: '2026-02-20' } })).body
      .menstrual_cycle;
    expect(cycles.filter((x) => x.cycle_end).length).toBeGreaterThan(0);
    for (const [i, cycle] of cycles.entries()) {
      expect(cycle.source_provider).toBe('apple_health_kit');
      if (cycle.period_end) expect(dayOf(cycle.period_end) - dayOf(cycle.period_start)).toBeGreaterThanOrEqual(3);
      expect(cycle.menstrual_flow[0]).toEqual({ date: cycle.period_start, flow: 'medium' });
      const next = cycles[i + 1];
      if (next) expect(dayOf(cycle.cycle_end) + 1).toBe(dayOf(next.period_start));
      if (cycle.cycle_end) {
        const len = dayOf(cycle.cycle_end) - dayOf(cycle.period_start) + 1;
        expect(len).toBeGreaterThanOrEqual(24);
        expect(len).toBeLessThanOrEqual(34);
        const surge = cycle.ovulation_test.find((t: any) => t.test_result === 'luteinizing_hormone_surge');
        const temps = cycle.basal_body_temperature as Array<{ date: string; value: number }>;
        const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
        const before = temps.filter((t) => t.date <= surge.date).map((t) => t.value);
        const after = temps.filter((t) => t.date > surge.date).map((t) => t.value);
        expect(mean(after) - mean(before)).toBeGreaterThan(0.15);
      } else {
        expect(i).toBe(cycles.length - 1);
      }
    }
    expect((await c.get(`/v2/summary/menstrual_cycle/${cycles[0].user_id}`, { query: { ...q, provider: 'oura' } })).body).toEqual({
      menstrual_cycle: [],
    });
  });
});
