/**
 * Issue 45: the wearable reads keep their sources and summaries between requests
 * (state/wearables/read-sources.ts, read-views.ts). On both adapters, a sandbox that reads a
 * user's summaries, timeseries, streams and introspection after each change (twice at first, so
 * the second read is served from what the first kept) answers every read with the bytes a fresh
 * sandbox answers after the same changes without the reads before: whatever changes an answer
 * (the clock moving over open buckets and revisions, the user's time zone, birth date and
 * ingestion bounds, the revision rate) is applied on every read, and nothing kept goes stale.
 */
import { expect, it } from 'vitest';
import { createClient, forEachAdapter, type AdapterName, type TestClient } from '../support/client.js';
import { fixedWall, refusedDelivery } from '../support/route-requests.js';

const OPTIONS = { seed: 21, users: 2, usersElsewhere: 0, feed: 'off', wallClock: fixedWall, webhookTransport: refusedDelivery } as const;
const WINDOW = { start_date: '2025-12-10' };

/** What changes the answers, one step after the other (the same requests in every sandbox). */
const STEPS: ReadonlyArray<(c: TestClient, userId: string) => Promise<unknown>> = [
  async () => undefined,
  async () => undefined,
  (c) => c.advance(95 * 60),
  (c, userId) => c.patch(`/v2/user/${userId}`, { fallback_time_zone: 'Asia/Tokyo' }),
  (c, userId) => c.patch(`/v2/user/${userId}`, { fallback_birth_date: '1950-03-04' }),
  (c, userId) => c.patch(`/v2/user/${userId}`, { ingestion_start: '2025-12-20' }),
  (c) => c.post('/_sandbox/wearables/feed', { revision_rate: 1 }),
  (c) => c.advance(13 * 3600),
];

const PATHS = [
  'summary/activity',
  'summary/activity/:id/raw',
  'summary/sleep',
  'summary/sleep/:id/raw',
  'summary/workouts',
  'summary/workouts/:id/raw',
  'summary/body',
  'summary/sleep_cycle',
  'summary/meal',
  'timeseries/:id/steps',
  'timeseries/:id/floors_climbed/grouped',
  'timeseries/:id/heartrate/grouped',
  'timeseries/:id/calories_active',
  'timeseries/:id/hypnogram',
  'timeseries/:id/weight',
];

/** Every read of the user, as bytes (the streams of the first sleep and workout the summaries name). */
async function readAll(c: TestClient, userId: string): Promise<string[]> {
  const out: string[] = [];
  const get = async (path: string, query?: Record<string, string>) => {
    const res = await c.get(path, query ? { query } : {});
    out.push(`${path} ${res.status} ${res.bytes.toString('base64')}`);
    return res;
  };
  for (const p of PATHS) await get(`/v2/${p.includes(':id') ? p.replace(':id', userId) : `${p}/${userId}`}`, WINDOW);
  const sleep = (await c.get(`/v2/summary/sleep/${userId}`, { query: WINDOW })).body.sleep?.[0];
  const workout = (await c.get(`/v2/summary/workouts/${userId}`, { query: WINDOW })).body.workouts?.[0];
  expect(sleep?.id).toBeTypeOf('string');
  expect(workout?.id).toBeTypeOf('string');
  await get(`/v2/timeseries/sleep/${sleep.id}/stream`);
  await get(`/v2/timeseries/workouts/${workout.id}/stream`);
  await get('/v2/introspect/historical_pull', { user_id: userId });
  return out;
}

async function userOf(adapter: AdapterName): Promise<{ c: TestClient; userId: string }> {
  const c = createClient(adapter, OPTIONS);
  const userId = (await c.get('/v2/user')).body.users[0].user_id as string;
  return { c, userId };
}

forEachAdapter('wearables: reads keep their sources between requests', (adapter) => {
  it('a sandbox reading after every change answers what a fresh one answers after the same changes', async () => {
    const warm = await userOf(adapter);
    const seen: string[][] = [];
    for (const step of STEPS) {
      await step(warm.c, warm.userId);
      seen.push(await readAll(warm.c, warm.userId));
    }
    // The answers move with the changes (so the comparison below compares something).
    expect(seen[2]).not.toEqual(seen[1]);
    expect(seen[3]).not.toEqual(seen[2]);
    expect(seen[6]).not.toEqual(seen[5]);
    for (const at of [1, 3, 4, 5, 7]) {
      const fresh = await userOf(adapter);
      for (const step of STEPS.slice(0, at + 1)) await step(fresh.c, fresh.userId);
      const answers = await readAll(fresh.c, fresh.userId);
      for (let i = 0; i < answers.length; i++) expect(seen[at]?.[i], `after step ${at}`).toBe(answers[i]);
    }
  });
});
