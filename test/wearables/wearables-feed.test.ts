/**
 * New data as the clock moves, on both adapters: daily.data.<resource>.created every two
 * simulated hours; an open time bucket re-sent in .updated with the same compound key and a new
 * value (spec 6.3); activity re-sent with the same id (spec 6.2); the shallow workout-stream
 * event (spec 6.4); payload shapes (spec 6.1); the feed switch. Plus: same seed, same bytes.
 */
import { describe, expect, it } from 'vitest';
import { wearablesOf } from '../../src/state/wearables/connections.js';
import { createClient, forAdapters, forEachAdapter, type TestClient } from '../support/client.js';
import { oasValidator } from '../support/openapi.js';
import { runCount } from '../support/run-size.js';

const oas = oasValidator('data');

async function journal(c: TestClient, query: Record<string, string>): Promise<any[]> {
  return (await c.get('/_sandbox/events', { query: { limit: 10000, ...query } })).body.events.map((e: any) => e.envelope);
}

forEachAdapter('wearables: periodic feed', (adapter) => {
  it('emits new samples, re-sends open buckets and open summaries, with spec 6 payloads', async () => {
    // One seeded user besides the demo one: feed 'on' feeds every connected user, and the
    // assertions read the demo user's events.
    const c = createClient(adapter, { seed: 9, users: 1, usersElsewhere: 0, feed: 'on' });
    const userId = (await c.post('/v2/user', { client_user_id: 'feed-a' })).body.user_id;
    await c.post('/v2/link/connect/demo', { user_id: userId, provider: 'apple_health_kit' });
    await c.advance(2 * 3600); // 11:00: one tick at 10:30
    await c.advance(2 * 3600); // 13:00: second tick at 12:30
    const steps = await journal(c, { user_id: userId, event_type_prefix: 'daily.data.steps.' });
    const created = steps.filter((e) => e.event_type === 'daily.data.steps.created');
    const updated = steps.filter((e) => e.event_type === 'daily.data.steps.updated');
    expect(created.length).toBe(2);
    expect(updated.length).toBe(1);
    const e = created[0];
    expect(e).toMatchObject({ user_id: userId, client_user_id: 'feed-a' });
    expect(e.data).toMatchObject({
      user_id: userId,
      source_id: expect.any(Number),
      source: {
        name: 'Apple HealthKit',
        slug: 'apple_health_kit',
        logo: expect.stringMatching(/^https:\/\//),
        provider: 'apple_health_kit',
      },
    });
    for (const s of e.data.data)
      expect(Object.keys(s).sort()).toEqual(['end', 'start', 'timestamp', 'timezone_offset', 'type', 'unit', 'value']);
    oas?.expectValid('GroupedStepsResponse', { groups: { apple_health_kit: [{ source: e.data.source, data: e.data.data }] } });
    // The 10:00 bucket was open at the 10:30 tick (partial) and is re-sent complete at 12:30.
    const open = created[0].data.data.find((s: any) => s.timestamp === '2026-01-05T10:00:00+00:00');
    const resent = updated[0].data.data.find((s: any) => s.timestamp === '2026-01-05T10:00:00+00:00');
    expect(open.end).toBe('2026-01-05T10:30:00+00:00');
    expect(resent.end).toBe('2026-01-05T11:00:00+00:00');
    expect(resent.value).not.toBe(open.value);
    const now = (
      await c.get(`/v2/timeseries/${userId}/steps`, { query: { start_date: '2026-01-05T10:00:00Z', end_date: '2026-01-05T10:00:00Z' } })
    ).body;
    expect(now[0].value).toBe(resent.value);

    const activity = await journal(c, { user_id: userId, event_type_prefix: 'daily.data.activity.' });
    expect(activity.length).toBe(2);
    expect(activity[0].data.id).toBe(activity[1].data.id);
    expect(activity[1].data.steps).toBeGreaterThanOrEqual(activity[0].data.steps);
    oas?.expectValid('ClientFacingActivity', activity[1].data);
    const hr = await journal(c, { user_id: userId, event_type: 'daily.data.heartrate.created' });
    expect(hr[1].data.data[0].timestamp).toBe('2026-01-05T10:35:00+00:00');
    oas?.expectValid('GroupedHeartRate', hr[0].data);
  });
});

// Once, in process: three days of feed (most of the block's CPU) emitted by the engine, read from
// its journal, the same bytes on every adapter (test/route-table/adapters-parity.test.ts).
forAdapters(['fetch'], 'wearables: periodic feed over days', (adapter) => {
  it('emits sleep, workouts with the shallow workout stream event, and stops when switched off', async () => {
    // The demo user and one seeded user (Apple HealthKit): feed 'on' feeds every connected user for the three days.
    const c = createClient(adapter, { seed: 9, users: 1, usersElsewhere: 0, feed: 'on' });
    const userId = (await c.post('/v2/user', { client_user_id: 'feed-b' })).body.user_id;
    await c.post('/v2/link/connect/demo', { user_id: userId, provider: 'apple_health_kit' });
    await c.advance(3 * 24 * 3600);
    const sleep = await journal(c, { user_id: userId, event_type: 'daily.data.sleep.created' });
    expect(sleep.length).toBeGreaterThanOrEqual(2);
    oas?.expectValid('ClientFacingSleep', sleep[0].data);
    const workouts = await journal(c, { user_id: userId, event_type: 'daily.data.workouts.created' });
    // Demo data is summaries only (api-facts H): no workout stream events for the demo user
    expect(await journal(c, { user_id: userId, event_type: 'daily.data.workout_stream.created' })).toEqual([]);
    expect(workouts.length).toBeGreaterThan(0);
    // the seeded first user (Apple HealthKit, not a demo connection) gets them, with its stream
    const seeded = (await c.get('/v2/user')).body.users[0].user_id;
    const seededWorkouts = await journal(c, { user_id: seeded, event_type: 'daily.data.workouts.created' });
    const streams = await journal(c, { user_id: seeded, event_type: 'daily.data.workout_stream.created' });
    expect(streams.length).toBe(seededWorkouts.length);
    expect(streams.length).toBeGreaterThan(0);
    {
      const s = streams[0].data;
      expect(s).toMatchObject({
        user_id: seeded,
        workout_id: seededWorkouts[0].data.id,
        provider_id: seededWorkouts[0].data.provider_id,
        source: { slug: 'apple_health_kit' },
        sport: { slug: seededWorkouts[0].data.sport.slug },
      });
      expect(s.message).toContain('/v2/timeseries/workouts/{workout_id}/stream');
      oas?.expectValid('ClientFacingShallowWorkoutStream', s);
      const stream = await c.get(`/v2/timeseries/workouts/${s.workout_id}/stream`);
      expect(stream.status).toBe(200);
      expect(stream.body.time.length).toBeGreaterThan(10);
    }
    expect((await c.post('/_sandbox/wearables/feed', { enabled: false })).body.enabled).toBe(false);
    const before = (await c.get('/_sandbox/events', { query: { limit: 10000, event_type_prefix: 'daily.data.' } })).body.total;
    await c.advance(6 * 3600);
    expect((await c.get('/_sandbox/events', { query: { limit: 10000, event_type_prefix: 'daily.data.' } })).body.total).toBe(before);
    expect((await c.get('/_sandbox/wearables/feed')).body.enabled).toBe(false);
  });
});

describe('wearables: determinism', () => {
  async function run(adapter: 'express' | 'msw'): Promise<string[]> {
    const c = createClient(adapter, { seed: 13 });
    const out: string[] = [];
    const users = (await c.get('/v2/user', { query: { limit: 3 } })).body.users;
    const demo = (await c.post('/v2/user', { client_user_id: 'det-1' })).body.user_id;
    out.push((await c.post('/v2/link/connect/demo', { user_id: demo, provider: 'oura' })).text);
    await c.advance(5 * 3600);
    for (const u of [...users.map((x: any) => x.user_id), demo]) {
      const q = { query: { start_date: '2026-01-03', end_date: '2026-01-05' } };
      for (const path of [
        `/v2/user/providers/${u}`,
        `/v2/summary/activity/${u}`,
        `/v2/summary/sleep/${u}`,
        `/v2/summary/workouts/${u}`,
        `/v2/summary/electrocardiogram/${u}`,
        `/v2/timeseries/${u}/heartrate`,
        `/v2/timeseries/${u}/glucose/grouped`,
      ]) {
        out.push((await c.get(path, path.includes('providers') ? {} : q)).text);
      }
    }
    out.push((await c.get('/v2/introspect/historical_pull')).text);
    out.push((await c.get('/_sandbox/events', { query: { limit: 10000 } })).text);
    return out;
  }

  it('the same seed and the same requests give the same bytes, on both adapters', async () => {
    const a = await run('express');
    const b = await run('msw');
    expect(a.length).toBe(b.length);
    a.forEach((text, i) => expect(text, `answer ${i}`).toBe(b[i]));
    expect(JSON.parse(a[6] as string).length).toBeGreaterThan(100);
  });

  // Building 100k users is most of this file's CPU (6 of its 7 s): CI builds them; a local run
  // proves the same bounds (nothing scheduled per user, the per-tick cap) on 2,000, ten times the cap.
  const BIG = runCount(100_000, 2_000);
  it(`a world of ${BIG} users starts without generating data; demo users are fed at once`, async () => {
    const c = createClient('express', { seed: 2, users: BIG, feed: 'on' });
    expect(c.sandbox.world.events.size).toBe(0);
    expect(c.sandbox.world.scheduler.pending()).toBeLessThan(400);
    // Preconditions: more connected seeded users than one tick feeds (200), and than 400 jobs.
    expect(wearablesOf(c.sandbox.world).ring.length).toBeGreaterThan(1_000);
    const userId = (await c.post('/v2/user', { client_user_id: 'big-demo' })).body.user_id;
    await c.post('/v2/link/connect/demo', { user_id: userId, provider: 'oura' });
    await c.advance(2 * 3600);
    const daily = (await c.get('/_sandbox/events', { query: { user_id: userId, event_type_prefix: 'daily.data.' } })).body.events;
    expect(daily.length).toBeGreaterThan(3);
    // The seeded part of the feed is capped per tick.
    const all = (await c.get('/_sandbox/events', { query: { event_type_prefix: 'daily.data.heartrate.', limit: 10000 } })).body.events;
    expect(new Set(all.map((e: any) => e.envelope.user_id)).size).toBeLessThanOrEqual(201);
  });
});

describe('wearables: the feed costs what is observed (design rule 11)', () => {
  it('auto mode generates nothing where nobody listens; data stays readable', async () => {
    const c = createClient('express', { seed: 4 });
    expect((await c.get('/_sandbox/wearables/feed')).body).toMatchObject({ enabled: true, mode: 'auto' });
    const users = (await c.get('/v2/user', { query: { limit: 1 } })).body.users;
    await c.advance(30 * 86400);
    const daily = (await c.get('/_sandbox/events', { query: { event_type_prefix: 'daily.data.' } })).body.events;
    expect(daily).toHaveLength(0);
    const hr = await c.get(`/v2/timeseries/${users[0].user_id}/heartrate`, { query: { start_date: '2026-02-01', end_date: '2026-02-02' } });
    expect(hr.status).toBe(200);
  });

  it('a webhook endpoint filtered to one type makes that type, and only it, be generated', async () => {
    const c = createClient('express', { seed: 4, users: 2, usersElsewhere: 0 });
    const team = c.creds.teams[0]?.team_id;
    const ep = await c.mgmt('POST', `/v1/org/${c.orgId}/team/${team}/sandbox/webhook`, {
      body: { url: 'http://127.0.0.1:9/hook', filter_types: ['daily.data.steps.created'] },
    });
    expect(ep.status, ep.text).toBe(200);
    const userId = (await c.post('/v2/user', { client_user_id: 'listened' })).body.user_id;
    await c.post('/v2/link/connect/demo', { user_id: userId, provider: 'apple_health_kit' });
    await c.advance(4 * 3600);
    const types = new Set(
      (await c.get('/_sandbox/events', { query: { user_id: userId, event_type_prefix: 'daily.data.', limit: 10000 } })).body.events.map(
        (e: any) => e.envelope.event_type,
      ),
    );
    expect([...types].sort()).toEqual(['daily.data.steps.created', 'daily.data.steps.updated']);
  });

  it('an in-process subscriber hears everything; the option survives a reset', async () => {
    const c = createClient('express', { seed: 4, users: 1, usersElsewhere: 0, feed: 'off' });
    expect((await c.get('/_sandbox/wearables/feed')).body.mode).toBe('off');
    expect((await c.post('/_sandbox/wearables/feed', { mode: 'auto' })).body.mode).toBe('auto');
    const seen: string[] = [];
    const stop = c.sandbox.subscribe((entry) => seen.push(entry.envelope.event_type));
    const userId = (await c.post('/v2/user', { client_user_id: 'sub' })).body.user_id;
    await c.post('/v2/link/connect/demo', { user_id: userId, provider: 'oura' });
    await c.advance(3 * 3600);
    stop();
    expect(seen.filter((t) => t.startsWith('daily.data.')).length).toBeGreaterThan(3);
    await c.post('/_sandbox/reset', {});
    expect((await c.get('/_sandbox/wearables/feed')).body.mode).toBe('off');
    expect((await c.post('/_sandbox/wearables/feed', { mode: 'sometimes' })).status).toBe(422);
  });
});
