/**
 * Issue 42 over HTTP, on both adapters: over a backfill and two days of live feed, a seeded Apple
 * Watch wearer's workouts (backfill summaries and feed events) have six hr_zones adding up to
 * their moving time, lie inside their day and counted in its totals, the day's max heart rate is
 * at least theirs, sleeps' resting heart rate is at most their average, and every data timestamp
 * is in the documented `+00:00` form.
 */
import { expect, it } from 'vitest';
import { createClient, forEachAdapter } from '../support/client.js';

const TS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?\+00:00$/;

forEachAdapter('wearables: one body, one day over HTTP', (adapter) => {
  it('backfill and live feed agree across resources', async () => {
    const c = createClient(adapter, { seed: 12, users: 2, usersElsewhere: 0, feed: 'on' });
    const userId = (await c.get('/v2/user')).body.users[0].user_id as string;
    await c.advance(2 * 24 * 3600);
    const q = { start_date: '2025-12-01', end_date: '2026-01-08', provider: 'apple_health_kit' };
    const workouts = (await c.get(`/v2/summary/workouts/${userId}`, { query: q })).body.workouts as any[];
    const activity = (await c.get(`/v2/summary/activity/${userId}`, { query: q })).body.activity as any[];
    const sleeps = (await c.get(`/v2/summary/sleep/${userId}`, { query: q })).body.sleep as any[];
    expect(workouts.length).toBeGreaterThan(5);
    const fed = (await c.get('/_sandbox/events', { query: { limit: 10000, user_id: userId, event_type_prefix: 'daily.data.workouts.' } }))
      .body.events;
    const all = [...workouts, ...fed.map((e: any) => e.envelope.data)];
    const byDay = new Map(activity.map((a) => [a.calendar_date, a]));
    let prevEnd = '';
    for (const w of all) {
      expect(w.hr_zones).toHaveLength(6);
      expect(w.hr_zones.reduce((a: number, b: number) => a + b, 0)).toBe(w.moving_time);
      expect(w.time_start).toMatch(TS);
      const day = byDay.get(w.calendar_date);
      if (!day) continue;
      expect(day.calories_active).toBeGreaterThanOrEqual(w.calories);
      if (w.distance !== null) expect(day.distance).toBeGreaterThanOrEqual(w.distance);
      expect(day.heart_rate.max_bpm).toBeGreaterThanOrEqual(w.max_hr);
    }
    for (const w of workouts) {
      expect(w.time_start > prevEnd).toBe(true);
      prevEnd = w.time_end;
    }
    for (const s of sleeps) {
      expect(s.bedtime_stop).toMatch(TS);
      expect(s.hr_lowest).toBeLessThanOrEqual(s.hr_resting);
      expect(s.hr_resting).toBeLessThanOrEqual(s.hr_average);
    }
  });
});
