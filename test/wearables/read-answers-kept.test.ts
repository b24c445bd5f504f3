/**
 * Issue 45: timeseries and summaries answers are kept for a kept user while what they are built
 * from holds (state/wearables/read-answers.ts). On both adapters, a sandbox that reads a user's
 * pages after each change (twice at first, so the second read is served from what the first
 * kept) answers every read with the bytes a fresh sandbox answers after the same changes without
 * the reads before: for a window long past (kept at any instant) and one up to now (kept for the
 * instant; read-settled.test.ts: a window settles), through the team's source priorities, the user's ingestion bounds and time zone, a
 * provider deregistered, the revision rate and the clock moving over revisions and days.
 */
import { expect, it } from 'vitest';
import { createClient, forEachAdapter, type AdapterName, type TestClient } from '../support/client.js';
import { fixedWall, refusedDelivery } from '../support/route-requests.js';

const OPTIONS = { seed: 21, users: 2, usersElsewhere: 0, feed: 'off', wallClock: fixedWall, webhookTransport: refusedDelivery } as const;
const WINDOWS: Array<Record<string, string>> = [{ start_date: '2025-12-18', end_date: '2025-12-24' }, { start_date: '2026-01-01' }];
const PATHS = [
  'timeseries/:id/steps',
  'timeseries/:id/steps/grouped',
  'timeseries/:id/heartrate/grouped',
  'timeseries/:id/hypnogram',
  'timeseries/:id/workout_duration/grouped',
  'summary/activity/:id',
  'summary/activity/:id/raw',
  'summary/sleep/:id/raw',
  'summary/workouts/:id',
  'summary/body/:id/raw',
  'summary/meal/:id',
  'summary/menstrual_cycle/:id',
  'summary/sleep_cycle/:id',
  'summary/electrocardiogram/:id',
];

/** What changes the answers, one step after the other (the same requests in every sandbox). */
const STEPS: ReadonlyArray<(c: TestClient, userId: string, providers: string[]) => Promise<unknown>> = [
  async () => undefined,
  async () => undefined,
  (c, _userId, providers) => c.patch('/v2/team/source/priorities', [{ data_type: 'timeseries', providers: [...providers].reverse() }]),
  (c, userId) => c.patch(`/v2/user/${userId}`, { ingestion_end: '2025-12-21' }),
  (c, userId) => c.patch(`/v2/user/${userId}`, { ingestion_end: null, fallback_time_zone: 'Asia/Tokyo' }),
  (c, userId, providers) => c.delete(`/v2/user/${userId}/${providers[0]}`),
  (c) => c.advance(3 * 86400 + 7 * 60),
  (c) => c.post('/_sandbox/wearables/feed', { revision_rate: 1 }),
  (c) => c.advance(13 * 3600),
];

async function readAll(c: TestClient, userId: string): Promise<string[]> {
  const out: string[] = [];
  for (const window of WINDOWS)
    for (const p of PATHS) {
      const res = await c.get(`/v2/${p.replace(':id', userId)}`, { query: window });
      out.push(`${p} ${JSON.stringify(window)} ${res.status} ${res.bytes.toString('base64')}`);
    }
  return out;
}

/** The world's second user: three providers (garmin, apple_health_kit, strava). */
async function userOf(adapter: AdapterName): Promise<{ c: TestClient; userId: string; providers: string[] }> {
  const c = createClient(adapter, OPTIONS);
  const userId = (await c.get('/v2/user')).body.users[1].user_id as string;
  const groups = (await c.get(`/v2/timeseries/${userId}/heartrate/grouped`, { query: WINDOWS[0] })).body.groups;
  return { c, userId, providers: Object.keys(groups) };
}

forEachAdapter('wearables: timeseries pages kept between requests', (adapter) => {
  it('a sandbox reading after every change answers what a fresh one answers after the same changes', async () => {
    const warm = await userOf(adapter);
    expect(warm.providers.length).toBe(3);
    const seen: string[][] = [];
    for (const step of STEPS) {
      await step(warm.c, warm.userId, warm.providers);
      seen.push(await readAll(warm.c, warm.userId));
    }
    // Each change moves some answer (so the comparison below compares something).
    // (A provider deregistered keeps what it delivered: its pages change once the clock moves.)
    for (const at of [2, 3, 4, 6, 7, 8]) expect(seen[at], `step ${at}`).not.toEqual(seen[at - 1]);
    for (const at of [1, 2, 3, 4, 5, 6, 7, 8]) {
      const fresh = await userOf(adapter);
      for (const step of STEPS.slice(0, at + 1)) await step(fresh.c, fresh.userId, fresh.providers);
      const answers = await readAll(fresh.c, fresh.userId);
      for (let i = 0; i < answers.length; i++) expect(seen[at]?.[i], `after step ${at}: ${answers[i]?.slice(0, 60)}`).toBe(answers[i]);
    }
  });
});
