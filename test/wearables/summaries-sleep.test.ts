/**
 * Sleep cycles and sleep streams on both adapters: one cycle per sleep of a stage-recording
 * provider, consistent with the sleep summary (stage seconds) and the hypnogram; the stream of a
 * listed sleep holds the night's samples; unknown ids answer 404.
 */
import { expect, it } from 'vitest';
import { WEARABLES_ERRORS as E } from '../../src/state/wearables/errors.js';
import { createClient, forEachAdapter } from '../support/client.js';
import { oasValidator } from '../support/openapi.js';

const oas = oasValidator('data');
const q = { start_date: '2025-12-25', end_date: '2026-01-05' };

forEachAdapter('summaries: sleep cycles and sleep streams', (adapter) => {
  it('cycles match the sleep summaries; streams hold the night; 404 for unknown sleeps', async () => {
    const c = createClient(adapter, { seed: 8, users: 2, usersElsewhere: 0 });
    const userId = (await c.post('/v2/user', { client_user_id: 'sleep-a' })).body.user_id as string;
    for (const provider of ['oura', 'freestyle_libre'])
      expect((await c.post('/v2/link/connect/demo', { user_id: userId, provider })).status).toBe(200);
    await c.advance(6 * 3600);

    const sleeps = (await c.get(`/v2/summary/sleep/${userId}`, { query: q })).body.sleep as any[];
    expect(sleeps.length).toBeGreaterThan(5);
    const cycles = await c.get(`/v2/summary/sleep_cycle/${userId}`, { query: q });
    expect(cycles.status).toBe(200);
    oas?.expectValid('ClientSleepCycleResponse', cycles.body);
    const list = cycles.body.sleep_cycle as any[];
    expect(list.map((x) => x.sleep_id)).toEqual(sleeps.map((s) => s.id));
    for (const [i, cycle] of list.entries()) {
      const s = sleeps[i];
      expect(cycle).toMatchObject({ session_start: s.bedtime_start, session_end: s.bedtime_stop, source_provider: 'oura' });
      const secs: Record<number, number> = {};
      for (const [k, type] of cycle.stage_type.entries())
        secs[type] = (secs[type] ?? 0) + cycle.stage_end_offset_second[k] - cycle.stage_start_offset_second[k];
      expect([secs[1] ?? 0, secs[2] ?? 0, secs[3] ?? 0, secs[4] ?? 0]).toEqual([s.deep, s.light, s.rem, s.awake]);
    }

    // Demo data has no streams (test/users/demo-users.test.ts): the stream is a seeded user's night (Apple HealthKit).
    const seeded = (await c.get('/v2/user')).body.users[0].user_id as string;
    const first = (await c.get(`/v2/summary/sleep/${seeded}`, { query: { ...q, provider: 'apple_health_kit' } })).body.sleep[0];
    const stream = await c.get(`/v2/timeseries/sleep/${first.id}/stream`);
    expect(stream.status).toBe(200);
    oas?.expectValid('ClientFacingSleepStream', stream.body);
    const hypnogram = await c.get(`/v2/timeseries/${seeded}/hypnogram`, {
      query: { start_date: first.bedtime_start, end_date: first.bedtime_stop, provider: 'apple_health_kit' },
    });
    expect(stream.body.hypnogram).toEqual(hypnogram.body);
    expect(stream.body.heartrate.length).toBeGreaterThan(10);
    for (const x of stream.body.heartrate) expect(Date.parse(x.timestamp)).toBeGreaterThanOrEqual(Date.parse(first.bedtime_start));

    const unknown = await c.get('/v2/timeseries/sleep/00000000-0000-4000-8000-000000000000/stream');
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail).toBe(E.sleepNotFound);
    expect((await c.get('/v2/timeseries/sleep/nope/stream')).status).toBe(422);
    expect((await c.get(`/v2/summary/sleep_cycle/${userId}`, { query: { start_date: '2026-01-01T00:00:00Z' } })).status).toBe(422);
  });
});
