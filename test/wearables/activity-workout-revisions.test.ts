/**
 * Revised data after a later sync for activity days and workouts (issue 42), on both adapters:
 * with a revision rate, the tick after a revision sends `daily.data.activity.updated` /
 * `daily.data.workouts.updated` with the revised object (only the fields the summary owns change,
 * `updated_at` is the revision), which the summary endpoints then serve; rate 0 (sandbox-wide or
 * per team) sends none; the same seed and requests give the same bytes.
 */
import { expect, it } from 'vitest';
import { createClient, forEachAdapter, type AdapterName, type TestClient } from '../support/client.js';
import { oasValidator } from '../support/openapi.js';

const oas = oasValidator('data');
const HOUR = 3600_000;

async function eventsOf(c: TestClient, userId: string, prefix: string): Promise<any[]> {
  const body = (await c.get('/_sandbox/events', { query: { limit: 10000, user_id: userId, event_type_prefix: prefix } })).body;
  return body.events.map((e: any) => e.envelope);
}

/** A user with a demo Fitbit (activity, workouts, sleep) fed for four days at `rate` (sandbox-wide, or for the team). */
async function fedUser(adapter: AdapterName, rate: number, teamRate?: number): Promise<{ c: TestClient; userId: string }> {
  const c = createClient(adapter, { seed: 4, users: 1, usersElsewhere: 0, feed: 'on' });
  expect((await c.post('/_sandbox/wearables/feed', { revision_rate: rate })).status).toBe(200);
  if (teamRate !== undefined) {
    const teamId = c.creds.teams[0]?.team_id as string;
    expect((await c.post('/_sandbox/wearables/feed', { revision_rate: teamRate, team_id: teamId })).status).toBe(200);
  }
  const userId = (await c.post('/v2/user', { client_user_id: 'revised' })).body.user_id as string;
  expect((await c.post('/v2/link/connect/demo', { user_id: userId, provider: 'fitbit' })).status).toBe(200);
  await c.advance(4 * 24 * 3600);
  return { c, userId };
}

/** The end of the local day of an activity summary (its date at midnight, shifted by its offset). */
const dayEnd = (a: any) => Date.parse(`${a.calendar_date}T00:00:00Z`) + 24 * HOUR - a.timezone_offset * 1000;

forEachAdapter('wearables: activity and workouts revised after a later sync', (adapter) => {
  it('sends daily.data.workouts.updated with the re-estimated calories, which the API then serves', async () => {
    const { c, userId } = await fedUser(adapter, 1);
    const events = await eventsOf(c, userId, 'daily.data.workouts.');
    const created = events.filter((e) => e.event_type === 'daily.data.workouts.created');
    const updated = events.filter((e) => e.event_type === 'daily.data.workouts.updated');
    expect(created.length).toBeGreaterThanOrEqual(2);
    expect(updated.length).toBeGreaterThanOrEqual(2);
    let matched = 0;
    for (const u of updated) {
      oas?.expectValid('ClientFacingWorkout', u.data);
      const revisedAt = Date.parse(u.data.updated_at);
      const end = Date.parse(u.data.time_end);
      expect(revisedAt - end).toBeGreaterThanOrEqual(3 * HOUR);
      expect(revisedAt - end).toBeLessThanOrEqual(12 * HOUR);
      const first = created.find((e) => e.data.id === u.data.id);
      if (!first) continue;
      matched++;
      expect(events.indexOf(first)).toBeLessThan(events.indexOf(u));
      expect(u.data.calories).toBeLessThan(first.data.calories);
      expect(u.data.calories).toBeGreaterThanOrEqual(Math.floor(first.data.calories * 0.92 * 10) / 10 - 0.1);
      // Only what the summary owns changes: the stream's numbers stay.
      expect({ ...u.data, calories: 0, updated_at: '' }).toEqual({ ...first.data, calories: 0, updated_at: '' });
    }
    expect(matched).toBeGreaterThanOrEqual(1);
    const last = updated[updated.length - 1].data;
    const date = last.calendar_date.slice(0, 10);
    const served = (await c.get(`/v2/summary/workouts/${userId}`, { query: { start_date: date, end_date: date } })).body.workouts;
    expect(served).toContainEqual(last);
    // The day still counts the whole workout.
    const day = (await c.get(`/v2/summary/activity/${userId}`, { query: { start_date: date, end_date: date } })).body.activity[0];
    expect(day.calories_active).toBeGreaterThanOrEqual(last.calories);
  });

  it('sends daily.data.activity.updated after the day with the revised totals, which the API then serves', async () => {
    const { c, userId } = await fedUser(adapter, 1);
    const events = await eventsOf(c, userId, 'daily.data.activity.');
    // A revision is the `.updated` sent after the day ended; the day's own `.updated`s come while it fills.
    const revisions = events.filter(
      (e) => e.event_type === 'daily.data.activity.updated' && Date.parse(e.data.updated_at) > dayEnd(e.data),
    );
    expect(revisions.length).toBeGreaterThanOrEqual(2);
    let matched = 0;
    for (const r of revisions) {
      oas?.expectValid('ClientFacingActivity', r.data);
      const after = Date.parse(r.data.updated_at) - dayEnd(r.data);
      expect(after).toBeGreaterThanOrEqual(3 * HOUR);
      expect(after).toBeLessThanOrEqual(12 * HOUR);
      expect(revisions.filter((e) => e.data.id === r.data.id)).toHaveLength(1);
      // The last version sent before the revision (the complete day, as first sent).
      const before = events.slice(0, events.indexOf(r)).filter((e) => e.data.id === r.data.id);
      const first = before[before.length - 1];
      if (!first || Date.parse(first.data.updated_at) < dayEnd(first.data)) continue;
      matched++;
      expect(r.data.calories_total).toBeGreaterThan(first.data.calories_total);
      expect(r.data.calories_total).toBeLessThanOrEqual(first.data.calories_total * 1.04 + 0.2);
      expect(r.data.low + r.data.medium + r.data.high).toBe(first.data.low + first.data.medium + first.data.high);
      expect(r.data.medium - first.data.medium).toBe(first.data.low - r.data.low);
      expect([15, 30, first.data.low]).toContain(r.data.medium - first.data.medium);
      // The timeseries' sums stay.
      const keep = (a: any) => [a.steps, a.calories_active, a.distance, a.floors_climbed, a.heart_rate, a.created_at];
      expect(keep(r.data)).toEqual(keep(first.data));
    }
    expect(matched).toBeGreaterThanOrEqual(1);
    const last = revisions[revisions.length - 1].data;
    const date = last.calendar_date;
    const served = (await c.get(`/v2/summary/activity/${userId}`, { query: { start_date: date, end_date: date } })).body.activity;
    expect(served).toContainEqual(last);
  });

  it('is switched off by rate 0, per team, and sleep revisions stay as they were', async () => {
    const { c, userId } = await fedUser(adapter, 1, 0);
    const activity = await eventsOf(c, userId, 'daily.data.activity.');
    expect(activity.some((e) => e.event_type === 'daily.data.activity.created')).toBe(true);
    expect(activity.filter((e) => Date.parse(e.data.updated_at) > dayEnd(e.data))).toEqual([]);
    const workouts = await eventsOf(c, userId, 'daily.data.workouts.');
    expect(workouts.some((e) => e.event_type === 'daily.data.workouts.created')).toBe(true);
    expect(workouts.filter((e) => e.event_type === 'daily.data.workouts.updated')).toEqual([]);
    expect((await eventsOf(c, userId, 'daily.data.sleep.updated')).length).toBe(0);
    const q = { start_date: '2020-01-01', end_date: '2030-01-01' };
    for (const w of (await c.get(`/v2/summary/workouts/${userId}`, { query: q })).body.workouts) expect(w.updated_at).toBe(w.time_end);
  });

  it('the same seed and the same requests give the same bytes', async () => {
    const bytes = async () => {
      const { c, userId } = await fedUser(adapter, 0.5);
      const events = [...(await eventsOf(c, userId, 'daily.data.activity.')), ...(await eventsOf(c, userId, 'daily.data.workouts.'))];
      return JSON.stringify(events);
    };
    const a = await bytes();
    expect(a).toContain('daily.data.workouts.updated');
    expect(await bytes()).toBe(a);
  });
});
