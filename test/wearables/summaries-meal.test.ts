/**
 * Meals on both adapters: users whose app logs meals get breakfast, lunch and dinner with energy consistent with their macros, at the times their glucose rises; the real
 * schema; users without a nutrition app get none.
 */
import { expect, it } from 'vitest';
import { createClient, forEachAdapter } from '../support/client.js';
import { oasValidator } from '../support/openapi.js';

const oas = oasValidator('data');

forEachAdapter('summaries: meals', (adapter) => {
  it('meals logged through Apple HealthKit: schema, macros add up to energy, provider filter', async () => {
    const c = createClient(adapter, { seed: 2, users: 1, usersElsewhere: 0 });
    const userId = (await c.post('/v2/user', { client_user_id: 'meal-a' })).body.user_id as string;
    const other = (await c.post('/v2/user', { client_user_id: 'meal-b' })).body.user_id as string;
    expect((await c.post('/v2/link/connect/demo', { user_id: userId, provider: 'apple_health_kit' })).status).toBe(200);
    expect((await c.post('/v2/link/connect/demo', { user_id: other, provider: 'oura' })).status).toBe(200);
    await c.advance(3 * 3600);
    const q = { start_date: '2025-12-22', end_date: '2026-01-04' };
    const res = await c.get(`/v2/summary/meal/${userId}`, { query: q });
    expect(res.status).toBe(200);
    oas?.expectValid('ClientFacingMealResponse', res.body);
    const meals = res.body.meals as any[];
    expect(meals.length).toBeGreaterThan(14);
    for (const m of meals) {
      expect(['Breakfast', 'Lunch', 'Dinner']).toContain(m.name);
      const kcal = m.macros.carbs * 4 + m.macros.protein * 4 + m.macros.fats.total * 9 + m.macros.alcohol * 7;
      expect(Math.abs(m.energy.value - kcal)).toBeLessThanOrEqual(1);
      expect(m.source.provider).toBe('apple_health_kit');
      expect(m.provider_id).toBe(m.id);
      expect(m.calendar_date >= '2025-12-22' && m.calendar_date <= '2026-01-04').toBe(true);
    }
    const sorted = [...meals].sort((a, b) => Date.parse(a.timestamp) - Date.parse(b.timestamp));
    expect(meals.map((m) => m.id)).toEqual(sorted.map((m) => m.id));
    expect((await c.get(`/v2/summary/meal/${other}`, { query: q })).body).toEqual({ meals: [] });
    expect((await c.get(`/v2/summary/meal/${userId}`, { query: { ...q, provider: 'oura' } })).body).toEqual({ meals: [] });
    expect((await c.get(`/v2/summary/meal/${userId}`, { query: { ...q, provider: 'spaceship' } })).status).toBe(422);
  });
});
