/**
 * Demo users (issue 31 items 5 and 6; api-facts H): a user with demo connections expires with
 * its data 7 days after its first demo connection, and demo data is summaries only (no raw
 * records, no streams). Over the HTTP API on both adapters.
 */
import { expect, it } from 'vitest';
import { createClient, forEachAdapter } from '../support/client.js';

const DAY = 86_400;
const EMPTY_WORKOUT_STREAM = [
  'time',
  'heartrate',
  'velocity_smooth',
  'distance',
  'altitude',
  'lat',
  'lng',
  'cadence',
  'power',
  'resistance',
];

forEachAdapter('demo users', (adapter) => {
  it('serve summaries only: raw lists and streams are empty, summaries are not', async () => {
    const c = createClient(adapter, { seed: 330, users: 2, usersElsewhere: 0 });
    const user = (await c.post('/v2/user', { client_user_id: 'demo-summaries' })).body;
    expect((await c.post('/v2/link/connect/demo', { user_id: user.user_id, provider: 'oura' })).status).toBe(200);
    await c.post('/v2/link/connect/demo', { user_id: user.user_id, provider: 'apple_health_kit' });
    await c.advance(DAY);
    const range = { query: { start_date: '2025-12-20', end_date: '2026-01-06' } };
    const sleep = await c.get(`/v2/summary/sleep/${user.user_id}`, range);
    expect(sleep.body.sleep.length).toBeGreaterThan(0);
    const workouts = await c.get(`/v2/summary/workouts/${user.user_id}`, range);
    expect(workouts.body.workouts.length).toBeGreaterThan(0);
    for (const resource of ['activity', 'sleep', 'body', 'workouts']) {
      const raw = await c.get(`/v2/summary/${resource}/${user.user_id}/raw`, range);
      expect(raw.status, resource).toBe(200);
      expect(raw.body, resource).toEqual({ [resource]: [] });
    }
    const sleepStream = await c.get(`/v2/timeseries/sleep/${sleep.body.sleep[0].id}/stream`);
    expect(sleepStream.status).toBe(200);
    for (const value of Object.values(sleepStream.body)) expect(value).toEqual([]);
    const workoutStream = await c.get(`/v2/timeseries/workouts/${workouts.body.workouts[0].id}/stream`);
    expect(workoutStream.status).toBe(200);
    for (const field of EMPTY_WORKOUT_STREAM) expect(workoutStream.body[field], field).toEqual([]);
  });

  it('expire with their data 7 days after the first demo connection; the client_user_id is then free', async () => {
    const c = createClient(adapter, { seed: 331, users: 2, usersElsewhere: 0 });
    const user = (await c.post('/v2/user', { client_user_id: 'demo-expiring' })).body;
    const kept = (await c.post('/v2/user', { client_user_id: 'not-demo' })).body;
    await c.post('/v2/link/connect/demo', { user_id: user.user_id, provider: 'fitbit' });
    await c.advance(3 * DAY);
    await c.post('/v2/link/connect/demo', { user_id: user.user_id, provider: 'oura' }); // does not extend the life
    await c.advance(4 * DAY - 60);
    expect((await c.get(`/v2/user/${user.user_id}`)).status).toBe(200);
    expect(
      (await c.get(`/v2/summary/activity/${user.user_id}`, { query: { start_date: '2025-12-20' } })).body.activity.length,
    ).toBeGreaterThan(0);
    await c.advance(60);
    expect((await c.get(`/v2/user/${user.user_id}`)).status).toBe(404);
    expect((await c.get(`/v2/summary/activity/${user.user_id}`, { query: { start_date: '2025-12-20' } })).status).toBe(404);
    expect((await c.get('/v2/user/resolve/demo-expiring')).status).toBe(404);
    const ids = ((await c.get('/v2/user', { query: { limit: 100 } })).body.users as Array<{ user_id: string }>).map((u) => u.user_id);
    expect(ids).toContain(kept.user_id);
    expect(ids).not.toContain(user.user_id);
    expect((await c.post('/v2/user', { client_user_id: 'demo-expiring' })).status).toBe(200);
    expect((await c.get(`/v2/user/${kept.user_id}`)).status).toBe(200);
  });
});
