/**
 * Issue 42, connections as documented, on both adapters: deregistering an Apple HealthKit
 * connection has no effect (the Health SDK's default Auto Connect mode) while a cloud provider's
 * ends; connections are paused once the 7-day catchment after the user's ingestion end has passed.
 */
import { expect, it } from 'vitest';
import { createClient, forEachAdapter, type TestClient } from '../support/client.js';

async function providers(c: TestClient, userId: string): Promise<Record<string, string>> {
  const res = await c.get(`/v2/user/providers/${userId}`);
  expect(res.status, res.text).toBe(200);
  const body = res.body;
  return Object.fromEntries(body.providers.map((p: any) => [p.slug, p.status]));
}

forEachAdapter('wearables: deregistration and ingestion bounds', (adapter) => {
  it('deregistering Apple HealthKit has no effect; a cloud provider is removed', async () => {
    const c = createClient(adapter, { seed: 3, users: 1, usersElsewhere: 0 });
    const userId = (await c.post('/v2/user', { client_user_id: 'dereg' })).body.user_id as string;
    for (const provider of ['apple_health_kit', 'fitbit'])
      expect((await c.post('/v2/link/connect/demo', { user_id: userId, provider })).status).toBe(200);
    expect((await c.delete(`/v2/user/${userId}/apple_health_kit`)).body).toEqual({ success: true });
    expect((await c.delete(`/v2/user/${userId}/fitbit`)).body).toEqual({ success: true });
    expect(await providers(c, userId)).toEqual({ apple_health_kit: 'connected' });
  });

  it('pauses every connection once the catchment after the ingestion end date has passed', async () => {
    // A seeded user (demo users expire after 7 days): the showcase user, wearing an Apple Watch.
    const c = createClient(adapter, { seed: 3, users: 3, usersElsewhere: 0 });
    const userId = (await c.get('/v2/user')).body.users[0].user_id as string;
    expect(await providers(c, userId)).toEqual({ apple_health_kit: 'connected' });
    const now = Date.parse((await c.get('/_sandbox/clock')).body.now as string);
    const end = new Date(now - 3 * 86_400_000).toISOString().slice(0, 10);
    expect((await c.patch(`/v2/user/${userId}`, { ingestion_end: end })).status).toBe(204);
    // The catchment ends 7 days after the end date's local day (within a day of today + 5).
    await c.advance(4 * 24 * 3600);
    expect(await providers(c, userId)).toEqual({ apple_health_kit: 'connected' });
    await c.advance(2 * 24 * 3600);
    expect(await providers(c, userId)).toEqual({ apple_health_kit: 'paused' });
    // Paused stays paused: extending the end date afterwards does not resume it.
    expect((await c.patch(`/v2/user/${userId}`, { ingestion_end: null })).status).toBe(204);
    expect(await providers(c, userId)).toEqual({ apple_health_kit: 'paused' });
  });
});
