/**
 * Profile, devices and the `/raw` summary variants on both adapters: real response schemas,
 * consistency with the summaries they wrap, provider filter, errors.
 */
import { expect, it } from 'vitest';
import { WEARABLES_ERRORS as E } from '../../src/state/wearables/errors.js';
import { createClient, forEachAdapter, type TestClient } from '../support/client.js';
import { oasValidator } from '../support/openapi.js';

const oas = oasValidator('data');

async function demoUser(c: TestClient, id: string, providers: string[], extra: Record<string, unknown> = {}): Promise<string> {
  const res = await c.post('/v2/user', { client_user_id: id, ...extra });
  expect(res.status).toBe(200);
  for (const provider of providers)
    expect((await c.post('/v2/link/connect/demo', { user_id: res.body.user_id, provider })).status).toBe(200);
  await c.advance(6 * 3600);
  return res.body.user_id;
}

const q = { start_date: '2025-12-20', end_date: '2026-01-05' };

forEachAdapter('summaries: profile, devices and raw variants', (adapter) => {
  it('profile: birth date from the user, per-provider fields, raw record, 404 without a profile', async () => {
    const c = createClient(adapter, { seed: 8, users: 2, usersElsewhere: 0 });
    const userId = await demoUser(c, 'raw-a', ['oura', 'fitbit'], { fallback_birth_date: '1984-03-07' });
    const profile = await c.get(`/v2/summary/profile/${userId}`);
    expect(profile.status).toBe(200);
    oas?.expectValid('ClientFacingProfile', profile.body);
    // Oura comes first in the catalogue; the birth date is the user's.
    expect(profile.body).toMatchObject({ user_id: userId, birth_date: '1984-03-07', gender: null, source: { provider: 'oura' } });
    expect(profile.body.height).toBeGreaterThan(150);
    const fitbit = await c.get(`/v2/summary/profile/${userId}`, { query: { provider: 'fitbit' } });
    expect(fitbit.body).toMatchObject({
      height: profile.body.height,
      sex: profile.body.sex,
      gender: profile.body.sex,
      source: { provider: 'fitbit' },
    });
    const raw = await c.get(`/v2/summary/profile/${userId}/raw`, { query: { provider: 'fitbit' } });
    oas?.expectValid('RawProfile', raw.body);
    expect(raw.body.profile).toMatchObject({ id: fitbit.body.id, user_id: userId, source: { slug: 'fitbit' } });
    expect(raw.body.profile.data).toMatchObject({ height: fitbit.body.height, birthDate: '1984-03-07' });

    const devices = await c.get(`/v2/summary/devices/${userId}/raw`);
    oas?.expectValid('RawDevicesResponse', devices.body);
    expect(devices.body.devices.map((d: any) => d.source.slug)).toEqual(['oura', 'fitbit']);

    const bare = (await c.post('/v2/user', { client_user_id: 'raw-none' })).body.user_id;
    const none = await c.get(`/v2/summary/profile/${bare}`);
    expect(none.status).toBe(404);
    expect(none.body.detail).toBe(E.profileNotFound);
    expect((await c.get(`/v2/summary/devices/${bare}/raw`)).body).toEqual({ devices: [] });
    const badProvider = await c.get(`/v2/summary/profile/${userId}`, { query: { provider: 'spaceship' } });
    expect(badProvider.status).toBe(422);
  });

  it('raw activity, sleep, body and workouts wrap the summaries one to one', async () => {
    // A seeded user with its (non-demo) connections: demo data is summaries only (test/users/demo-users.test.ts).
    const c = createClient(adapter, { seed: 8, users: 4, usersElsewhere: 0 });
    const users = (await c.get('/v2/user')).body.users as Array<{ user_id: string; connected_sources: unknown[] }>;
    const userId = [...users].sort((a, b) => b.connected_sources.length - a.connected_sources.length)[0]?.user_id ?? '';
    const schemas: Record<string, string> = {
      activity: 'RawActivityResponse',
      sleep: 'RawSleepResponse',
      body: 'RawBodyResponse',
      workouts: 'RawWorkoutResponse',
    };
    for (const resource of ['activity', 'sleep', 'body', 'workouts']) {
      const summary = await c.get(`/v2/summary/${resource}/${userId}`, { query: q });
      const raw = await c.get(`/v2/summary/${resource}/${userId}/raw`, { query: q });
      expect(raw.status).toBe(200);
      oas?.expectValid(schemas[resource] as string, raw.body);
      const items = summary.body[resource] as any[];
      const records = raw.body[resource] as any[];
      expect(records.map((r) => r.id)).toEqual(items.map((s) => s.id));
      expect(records.length).toBeGreaterThan(0);
      for (const [i, r] of records.entries()) {
        const s = items[i];
        expect(r.source.slug).toBe(s.source.provider);
        expect(r.user_id).toBe(userId);
        expect(r.data.user_id ?? r.data.userId).toBeUndefined();
        if (resource === 'activity') expect(r.data.steps).toBe(s.steps);
        if (resource === 'sleep') expect(r.source.slug === 'fitbit' ? r.data.bedtimeStart : r.data.bedtime_start).toBe(s.bedtime_start);
        if (resource === 'workouts') expect(r.sport_id).toBe(s.sport.id);
      }
    }
    const ouraOnly = await c.get(`/v2/summary/sleep/${userId}/raw`, { query: { ...q, provider: 'oura' } });
    expect(ouraOnly.body.sleep.every((r: any) => r.source.slug === 'oura')).toBe(true);
    expect((await c.get(`/v2/summary/sleep/${userId}/raw`, { query: { start_date: '2026-01-05', end_date: '2026-01-01' } })).status).toBe(
      422,
    );
  });
});
