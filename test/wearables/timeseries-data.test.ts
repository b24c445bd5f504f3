/**
 * Summaries and timeseries on both adapters: date bounds (inclusive, date-only as the reference
 * says), provider filter, time zone, ingestion bounds, bad input as JSON 4xx, consistency between
 * summaries and samples, CGM cadence, grouped pages, workout streams, and every row and summary
 * against the reference's OpenAPI schemas.
 */
import { expect, it } from 'vitest';
import { TIMESERIES } from '../../src/fixtures/wearables/timeseries-table.js';
import { createClient, forAdapters, type TestClient } from '../support/client.js';
import { oasValidator } from '../support/openapi.js';

const oas = oasValidator('data');

/** Schema names of each row's sample and grouped response in the reference. */
function schemaNames(path: string): { grouped: string } {
  const doc = oas?.doc;
  const ref = doc?.paths[`/v2/timeseries/{user_id}/${path}/grouped`]?.get.responses['200'].content['application/json'].schema.$ref as
    | string
    | undefined;
  return { grouped: ref ? (ref.split('/').pop() as string) : '' };
}

async function demo(c: TestClient, id: string, providers: string[], extra: Record<string, unknown> = {}): Promise<string> {
  const userId = (await c.post('/v2/user', { client_user_id: id, ...extra })).body.user_id;
  for (const provider of providers) expect((await c.post('/v2/link/connect/demo', { user_id: userId, provider })).status).toBe(200);
  await c.advance(3 * 3600);
  return userId;
}

forAdapters(['fetch', 'express'], 'wearables: summaries and timeseries', (adapter) => {
  // Bounds, filters and time zones on both; the heavy data checks (months of samples, every row
  // against the reference schemas) in process only: parity proves every adapter answers alike.
  const heavy = it.runIf(adapter === 'fetch');

  it('bounds are inclusive, date-only as the reference says; bad input is JSON 4xx', async () => {
    const c = createClient(adapter, { seed: 6 });
    const userId = await demo(c, 'data-a', ['fitbit']);
    const hr = await c.get(`/v2/timeseries/${userId}/heartrate`, { query: { start_date: '2026-01-01', end_date: '2026-01-02' } });
    expect(hr.status).toBe(200);
    expect(hr.body[0].timestamp).toBe('2026-01-01T00:00:00+00:00');
    expect(hr.body[hr.body.length - 1].timestamp).toBe('2026-01-02T23:55:00+00:00');
    expect(hr.body).toHaveLength(2 * 288);
    const exact = await c.get(`/v2/timeseries/${userId}/heartrate`, {
      query: { start_date: '2026-01-01T10:00:00Z', end_date: '2026-01-01T11:00:00Z' },
    });
    expect(exact.body.map((s: any) => s.timestamp)).toHaveLength(13);
    const act = await c.get(`/v2/summary/activity/${userId}`, { query: { start_date: '2026-01-01', end_date: '2026-01-03' } });
    expect(act.body.activity.map((a: any) => a.calendar_date)).toEqual(['2026-01-01', '2026-01-02', '2026-01-03']);
    // end_date defaults to now; nothing from the future.
    const open = await c.get(`/v2/timeseries/${userId}/heartrate`, { query: { start_date: '2026-01-05' } });
    expect(open.body[open.body.length - 1].timestamp).toBe('2026-01-05T12:00:00+00:00');

    const reversed = await c.get(`/v2/timeseries/${userId}/heartrate`, { query: { start_date: '2026-01-03', end_date: '2026-01-01' } });
    expect(reversed.status).toBe(422);
    expect(reversed.body.detail[0]).toMatchObject({ type: 'value_error', loc: ['query', 'end_date'] });
    expect((await c.get(`/v2/summary/sleep/${userId}`, { query: { start_date: '2026-01-03', end_date: '2026-01-01' } })).status).toBe(422);
    expect((await c.get(`/v2/timeseries/${userId}/heartrate`, { query: { start_date: '01/02/2026' } })).status).toBe(422);
    expect((await c.get(`/v2/timeseries/${userId}/heartrate`, {})).body.detail[0]).toMatchObject({
      type: 'missing',
      loc: ['query', 'start_date'],
    });
    expect((await c.get(`/v2/summary/electrocardiogram/${userId}`, { query: { start_date: '2026-01-01T00:00:00Z' } })).status).toBe(422);
    const badProvider = await c.get(`/v2/timeseries/${userId}/heartrate`, { query: { start_date: '2026-01-01', provider: 'spaceship' } });
    expect(badProvider.status).toBe(422);
    expect(badProvider.body.detail[0]).toMatchObject({ type: 'enum', loc: ['query', 'provider'] });
    expect((await c.get(`/v2/summary/activity/${userId}`, { query: { start_date: '2026-01-01', provider: 'spaceship' } })).status).toBe(
      422,
    );
    const unknown = await c.get('/v2/timeseries/6f1c1c1e-0000-4000-8000-000000000000/heartrate', { query: { start_date: '2026-01-01' } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail).toBeDefined();
    expect((await c.get('/v2/summary/sleep/not-a-uuid', { query: { start_date: '2026-01-01' } })).status).toBe(422);
    expect(
      (await c.get(`/v2/timeseries/${userId}/heartrate/grouped`, { query: { start_date: '2026-01-01', next_cursor: 'garbage' } })).status,
    ).toBe(422);
    // A provider the user is not connected to: empty, not an error.
    expect((await c.get(`/v2/timeseries/${userId}/heartrate`, { query: { start_date: '2026-01-01', provider: 'garmin' } })).body).toEqual(
      [],
    );
  });

  it('summaries agree with samples; provider filter; CGM every 5 minutes; steps unit count', async () => {
    const c = createClient(adapter, { seed: 6 });
    const userId = await demo(c, 'data-b', ['apple_health_kit', 'oura', 'freestyle_libre']);
    const q = { start_date: '2026-01-02', end_date: '2026-01-02' };
    const act = (await c.get(`/v2/summary/activity/${userId}`, { query: { ...q, provider: 'oura' } })).body.activity;
    expect(act).toHaveLength(1);
    const steps = (await c.get(`/v2/timeseries/${userId}/steps`, { query: { ...q, provider: 'oura' } })).body;
    expect(steps.every((s: any) => s.unit === 'count' && s.start && s.end)).toBe(true);
    expect(act[0].steps).toBe(steps.reduce((a: number, s: any) => a + s.value, 0));
    const hr = (await c.get(`/v2/timeseries/${userId}/heartrate`, { query: { ...q, provider: 'oura' } })).body.map((s: any) => s.value);
    expect(act[0].heart_rate.max_bpm).toBe(Math.max(...hr));
    expect(act[0].source).toMatchObject({ provider: 'oura', slug: 'oura', name: 'Oura' });
    const both = (await c.get(`/v2/summary/activity/${userId}`, { query: q })).body.activity;
    expect(both.map((a: any) => a.source.provider).sort()).toEqual(['apple_health_kit', 'oura']);

    const sleep = (await c.get(`/v2/summary/sleep/${userId}`, { query: { ...q, provider: 'oura' } })).body.sleep[0];
    const hyp = (
      await c.get(`/v2/timeseries/${userId}/hypnogram`, {
        query: { start_date: sleep.bedtime_start, end_date: sleep.bedtime_stop, provider: 'oura' },
      })
    ).body;
    expect(hyp.filter((s: any) => s.value === 1).length * 300).toBe(sleep.deep);
    expect(hyp.filter((s: any) => s.value === 3).length * 300).toBe(sleep.rem);
    expect(sleep.total).toBe(sleep.deep + sleep.light + sleep.rem);
    expect(sleep.duration).toBe(sleep.total + sleep.awake);

    const glucose = (await c.get(`/v2/timeseries/${userId}/glucose`, { query: { ...q, provider: 'freestyle_libre' } })).body;
    expect(glucose).toHaveLength(288);
    expect(glucose.every((s: any) => s.unit === 'mmol/L' && s.type === 'automatic' && s.value > 3 && s.value < 15)).toBe(true);
    const gaps = glucose.slice(1).map((s: any, i: number) => Date.parse(s.timestamp) - Date.parse(glucose[i].timestamp));
    expect(new Set(gaps)).toEqual(new Set([300_000]));
    const grouped = (await c.get(`/v2/timeseries/${userId}/glucose/grouped`, { query: q })).body;
    expect(Object.keys(grouped.groups).sort()).toEqual(['apple_health_kit', 'freestyle_libre']);
    expect(grouped.groups.freestyle_libre[0].source).toMatchObject({ provider: 'freestyle_libre', type: 'automatic' });
    expect(grouped.next_cursor).toBeNull();
  });

  it('fallback_time_zone sets local days and offsets; ingestion bounds clip the data', async () => {
    const c = createClient(adapter, { seed: 6 });
    const userId = await demo(c, 'data-c', ['oura'], {
      fallback_time_zone: 'America/Los_Angeles',
      ingestion_start: '2025-12-20',
      ingestion_end: '2026-01-03',
    });
    const act = (await c.get(`/v2/summary/activity/${userId}`, { query: { start_date: '2025-12-01', end_date: '2026-01-10' } })).body
      .activity;
    expect(act[0].calendar_date).toBe('2025-12-20');
    expect(act[act.length - 1].calendar_date).toBe('2026-01-03');
    expect(act[0]).toMatchObject({ time_zone: 'America/Los_Angeles', timezone_offset: -28800 });
    const hr = (await c.get(`/v2/timeseries/${userId}/heartrate`, { query: { start_date: '2025-12-01', end_date: '2026-01-10' } })).body;
    expect(hr[0]).toMatchObject({ timestamp: '2025-12-20T08:00:00+00:00', timezone_offset: -28800 });
    expect(hr[hr.length - 1].timestamp).toBe('2026-01-04T07:55:00+00:00');
    expect((await c.patch(`/v2/user/${userId}`, { ingestion_end: null })).status).toBe(204);
    const more = (await c.get(`/v2/timeseries/${userId}/heartrate`, { query: { start_date: '2025-12-01', end_date: '2026-01-10' } })).body;
    expect(more.length).toBeGreaterThan(hr.length);
  });

  heavy('grouped pages by time and the pages add up to the raw list', async () => {
    const c = createClient(adapter, { seed: 6 });
    const userId = (await c.get('/v2/user', { query: { limit: 1 } })).body.users[0].user_id;
    // 40 days: a grouped heart-rate page holds 34 days (10,000 samples at 5 minutes), so two pages.
    const q = { start_date: '2025-11-26', end_date: '2026-01-04' };
    const raw = (await c.get(`/v2/timeseries/${userId}/heartrate`, { query: q })).body;
    const paged: any[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: any = await c.get(`/v2/timeseries/${userId}/heartrate/grouped`, {
        query: { ...q, ...(cursor ? { next_cursor: cursor } : {}) },
      });
      expect(res.status).toBe(200);
      oas?.expectValid('GroupedHeartRateResponse', res.body);
      for (const g of Object.values(res.body.groups) as any[]) paged.push(...g[0].data);
      cursor = res.body.next_cursor;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBeGreaterThan(1);
    expect(paged).toEqual(raw);
  });

  heavy('workouts and their streams: equal-length arrays, cumulative distance, plausible heart rate', async () => {
    const c = createClient(adapter, { seed: 6 });
    const userId = (await c.get('/v2/user', { query: { limit: 1 } })).body.users[0].user_id;
    // A month: about 20 workouts, of which the first 8 are checked with their streams.
    const workouts = (await c.get(`/v2/summary/workouts/${userId}`, { query: { start_date: '2025-12-06', end_date: '2026-01-05' } })).body
      .workouts;
    expect(workouts.length).toBeGreaterThan(5);
    const sports = new Set<string>();
    for (const w of workouts.slice(0, 8)) {
      oas?.expectValid('ClientFacingWorkout', w);
      const res = await c.get(`/v2/timeseries/workouts/${w.id}/stream`);
      expect(res.status).toBe(200);
      oas?.expectValid('ClientFacingStream', res.body);
      const s = res.body;
      const n = s.time.length;
      expect(n).toBeGreaterThan(10);
      for (const [key, arr] of Object.entries(s) as Array<[string, any[]]>) if (arr.length) expect(arr.length, key).toBe(n);
      expect(s.time[0]).toBe(Date.parse(w.time_start) / 1000);
      // One assertion over the whole stream (an expect per point costs more than the stream).
      expect(
        s.distance.flatMap((d: number, i: number) => (i > 0 && d < s.distance[i - 1] ? [i] : [])),
        'indexes where distance decreases',
      ).toEqual([]);
      if (s.distance.length) expect(w.distance).toBe(s.distance[n - 1]);
      expect(Math.min(...s.heartrate)).toBeGreaterThan(40);
      expect(Math.max(...s.heartrate)).toBeLessThan(210);
      expect(w.average_hr).toBe(Math.round(s.heartrate.reduce((a: number, b: number) => a + b, 0) / n));
      const sport = w.sport.slug;
      sports.add(sport);
      if (sport === 'yoga') expect(w.average_hr).toBeLessThan(130);
      if (sport === 'running') expect(w.average_hr).toBeGreaterThan(120);
    }
    expect((await c.get('/v2/timeseries/workouts/6f1c1c1e-0000-4000-8000-000000000000/stream')).status).toBe(404);
    expect((await c.get('/v2/timeseries/workouts/nope/stream')).status).toBe(422);
    // Another team environment cannot read the stream.
    const prodKey = c.creds.teams[0]?.api_keys.production ?? '';
    expect((await c.get(`/v2/timeseries/workouts/${workouts[0].id}/stream`, { headers: { 'x-service-api-key': prodKey } })).status).toBe(
      404,
    );
  });

  heavy('every row and summary matches the reference schemas', async () => {
    if (!oas) return;
    const c = createClient(adapter, { seed: 6 });
    const users = (await c.get('/v2/user', { query: { limit: 14 } })).body.users;
    const q = { start_date: '2025-12-29', end_date: '2026-01-05' };
    const seen = new Set<string>();
    for (const u of users) {
      for (const row of TIMESERIES) {
        // A row already seen with data (and validated) needs no more users.
        if (seen.has(row.path) && (!row.raw || seen.has(`raw:${row.path}`))) continue;
        const res = await c.get(`/v2/timeseries/${u.user_id}/${row.path}/grouped`, { query: q });
        expect(res.status).toBe(200);
        oas.expectValid(schemaNames(row.path).grouped, res.body);
        if (Object.keys(res.body.groups).length) seen.add(row.path);
        if (row.raw && !seen.has(`raw:${row.path}`)) {
          const raw = await c.get(`/v2/timeseries/${u.user_id}/${row.path}`, { query: q });
          if (raw.body.length) {
            seen.add(`raw:${row.path}`);
            const item = oas.doc.paths[`/v2/timeseries/{user_id}/${row.path}`].get.responses['200'].content[
              'application/json'
            ].schema.items.$ref
              .split('/')
              .pop();
            for (const s of raw.body.slice(0, 50)) oas.expectValid(item, s);
          }
        }
      }
      for (const [path, schema] of [
        ['activity', 'ClientActivityResponse'],
        ['sleep', 'ClientSleepResponse'],
        ['body', 'ClientBodyResponse'],
        ['workouts', 'ClientWorkoutResponse'],
      ] as const) {
        const res = await c.get(`/v2/summary/${path}/${u.user_id}`, { query: q });
        oas.expectValid(schema, res.body);
      }
      oas.expectValid(
        'ClientFacingElectrocardiogramResponse',
        (await c.get(`/v2/summary/electrocardiogram/${u.user_id}`, { query: q })).body,
      );
    }
    // Rare rows (falls: a trait of 30% of people, on 15% of their days) may need two weeks.
    const wide = { start_date: '2025-12-22', end_date: '2026-01-05' };
    for (const u of users) {
      for (const row of TIMESERIES) {
        if (seen.has(row.path)) continue;
        const res = await c.get(`/v2/timeseries/${u.user_id}/${row.path}/grouped`, { query: wide });
        expect(res.status).toBe(200);
        oas.expectValid(schemaNames(row.path).grouped, res.body);
        if (Object.keys(res.body.groups).length) seen.add(row.path);
      }
    }
    const missing = TIMESERIES.filter((r) => !seen.has(r.path)).map((r) => r.path);
    expect(missing, 'rows without data for any of these users').toEqual([]);
  });
});
