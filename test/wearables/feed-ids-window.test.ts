/**
 * The feed's handed-out sleep and workout ids are remembered for FEED_ID_DAYS sandbox days (issue
 * 27: they grew by one per user per day for ever). An older id is found again in the data, as a
 * summary's id is: the stream answers the same, and a purged user's ids still go with the user.
 */
import { describe, expect, it } from 'vitest';
import { wearablesOf } from '../../src/state/wearables/connections.js';
import { ByUserMap, FEED_ID_DAYS } from '../../src/state/wearables/handed-out-ids.js';
import { createClient, type TestClient } from '../support/client.js';

const DAY_S = 86_400;

async function feedIds(c: TestClient, prefix: string, field: string): Promise<Array<{ user: string; id: string }>> {
  const res = await c.get('/_sandbox/events', { query: { limit: 10_000, event_type_prefix: prefix } });
  expect(res.status).toBe(200);
  return res.body.events.map((e: any) => ({ user: e.envelope.user_id, id: e.envelope.data[field] }));
}

describe('the feed remembers its handed-out ids for a window of days', () => {
  it('forgets ids past the window, and their streams answer the same from the data', async () => {
    const c = createClient('fetch', { seed: 27, users: 3, usersElsewhere: 0, feed: 'on', journalLimit: 100_000 });
    const state = wearablesOf(c.sandbox.world);
    await c.advance(2 * DAY_S);
    const sleeps = await feedIds(c, 'daily.data.sleep.created', 'id');
    const workouts = await feedIds(c, 'daily.data.workouts.created', 'id');
    expect(sleeps.length).toBeGreaterThan(0);
    expect(workouts.length).toBeGreaterThan(0);
    for (const { id } of sleeps) expect(state.sleeps.has(id)).toBe(true);
    for (const { id } of workouts) expect(state.workouts.has(id)).toBe(true);
    const stream = (kind: string, id: string) => c.get(`/v2/timeseries/${kind}/${id}/stream`);
    const sleepBefore = await stream('sleep', sleeps[0]?.id as string);
    const workoutBefore = await stream('workouts', workouts[0]?.id as string);
    expect(sleepBefore.status).toBe(200);
    expect(workoutBefore.status).toBe(200);

    await c.advance((FEED_ID_DAYS + 3) * DAY_S);
    for (const { id } of sleeps) expect(state.sleeps.has(id)).toBe(false);
    for (const { id } of workouts) expect(state.workouts.has(id)).toBe(false);
    // What is kept is the window's days only, whatever the time run.
    const today = Math.floor(c.sandbox.world.clock.now() / (DAY_S * 1000));
    for (const ids of [state.sleeps, state.workouts]) expect(Math.min(...ids.days())).toBeGreaterThanOrEqual(today - FEED_ID_DAYS - 1);
    expect(state.sleeps.size).toBeGreaterThan(0);

    const sleepAfter = await stream('sleep', sleeps[0]?.id as string);
    const workoutAfter = await stream('workouts', workouts[0]?.id as string);
    expect(sleepAfter.status).toBe(200);
    expect(sleepAfter.text).toBe(sleepBefore.text);
    expect(workoutAfter.status).toBe(200);
    expect(workoutAfter.text).toBe(workoutBefore.text);
  });

  it('drops ids by day and by user through their indexes', () => {
    const m = new ByUserMap<{ userId: string; day: number }>();
    m.set('a', { userId: 'u1', day: 10 });
    m.set('b', { userId: 'u2', day: 11 });
    m.set('c', { userId: 'u1', day: 12 });
    m.set('b', { userId: 'u1', day: 12 });
    expect(m.days()).toEqual([10, 11, 12]);
    m.dropDaysBefore(12);
    expect([...m.keys()]).toEqual(['b', 'c']);
    expect(m.days()).toEqual([12]);
    m.dropUser('u1');
    expect(m.size).toBe(0);
    m.set('d', { userId: 'u3', day: 9 });
    m.delete('d');
    m.dropDaysBefore(100);
    expect(m.size).toBe(0);
  });
});
