/**
 * Providers and connections on both adapters: the catalogue, demo connections and their events,
 * the user's providers and connected_sources, deregistration (one provider, or all on user
 * deletion), and the control plane's error / reconnect with provider.connection.error.
 */
import { describe, expect, it } from 'vitest';
import { createClient, forEachAdapter, type TestClient } from '../support/client.js';
import { oasValidator } from '../support/openapi.js';
import { WEARABLES_ERRORS } from '../../src/state/wearables/errors.js';

const oas = oasValidator('data');

async function newUser(c: TestClient, id: string, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await c.post('/v2/user', { client_user_id: id, ...extra });
  expect(res.status).toBe(200);
  return res.body.user_id;
}

async function events(c: TestClient, userId: string, prefix = ''): Promise<any[]> {
  const res = await c.get('/_sandbox/events', { query: { user_id: userId, ...(prefix ? { event_type_prefix: prefix } : {}) } });
  return res.body.events.map((e: any) => e.envelope);
}

forEachAdapter('wearables: providers and connections', (adapter) => {
  it('lists the provider catalogue, filters by source_type, rejects an unknown source_type', async () => {
    const c = createClient(adapter, { seed: 3 });
    const res = await c.get('/v2/providers');
    expect(res.status).toBe(200);
    const slugs = res.body.map((p: any) => p.slug);
    for (const slug of [
      'oura',
      'fitbit',
      'garmin',
      'apple_health_kit',
      'freestyle_libre',
      'withings',
      'dexcom_v3',
      'kardia',
      'whoop_v2',
      'health_connect',
    ])
      expect(slugs).toContain(slug);
    const oura = res.body.find((p: any) => p.slug === 'oura');
    expect(oura).toMatchObject({ name: 'Oura', auth_type: 'oauth', logo: 'https://storage.googleapis.com/vital-assets/oura.png' });
    expect(oura.supported_resources).toEqual(expect.arrayContaining(['sleep', 'activity', 'heartrate']));
    expect(res.body.find((p: any) => p.slug === 'apple_health_kit').logo).toBe(
      'https://storage.googleapis.com/vital-assets/apple_health.png',
    );
    for (const p of res.body) oas?.expectValid('ClientFacingProviderDetailed', p);
    const apps = await c.get('/v2/providers', { query: { source_type: 'app' } });
    expect(apps.body.map((p: any) => p.slug)).toContain('apple_health_kit');
    expect(apps.body.map((p: any) => p.slug)).not.toContain('oura');
    const bad = await c.get('/v2/providers', { query: { source_type: 'spaceship' } });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0]).toMatchObject({ type: 'enum', loc: ['query', 'source_type'] });
  });

  it('demo connect: connection, connected_sources, provider.connection.created, pull scheduled', async () => {
    const c = createClient(adapter, { seed: 3 });
    const userId = await newUser(c, 'demo-a');
    const res = await c.post('/v2/link/connect/demo', { user_id: userId, provider: 'fitbit' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, detail: WEARABLES_ERRORS.demoConnected(userId, 'fitbit') });
    oas?.expectValid('DemoConnectionStatus', res.body);

    const providers = await c.get(`/v2/user/providers/${userId}`);
    expect(providers.status).toBe(200);
    expect(providers.body.providers).toHaveLength(1);
    const fitbit = providers.body.providers[0];
    expect(fitbit).toMatchObject({
      name: 'Fitbit',
      slug: 'fitbit',
      status: 'connected',
      error_details: null,
      created_on: '2026-01-05T09:00:00.000Z',
    });
    expect(fitbit.resource_availability.sleep.status).toBe('available');
    expect(fitbit.resource_availability.sleep.scope_requirements.user_granted.required).toEqual(['sleep']);
    oas?.expectValid('ClientFacingProviderWithStatus', fitbit);

    const user = await c.get(`/v2/user/${userId}`);
    expect(user.body.connected_sources).toEqual([
      {
        created_on: '2026-01-05T09:00:00.000Z',
        provider: { name: 'Fitbit', slug: 'fitbit', logo: fitbit.logo },
        source: { name: 'Fitbit', slug: 'fitbit', logo: fitbit.logo },
      },
    ]);
    const created = await events(c, userId, 'provider.connection.created');
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({
      event_type: 'provider.connection.created',
      user_id: userId,
      client_user_id: 'demo-a',
      team_id: user.body.team_id,
    });
    expect(created[0].data).toMatchObject({
      user_id: userId,
      provider: { slug: 'fitbit', name: 'Fitbit' },
      source: { slug: 'fitbit' },
      external_user_id: null,
    });
    expect(created[0].data.resource_availability.activity.status).toBe('available');
    oas?.expectValid('ProviderConnectionCreated', created[0].data);
  });

  it('rejects demo connects that the real sandbox refuses, and bad input, with JSON 4xx', async () => {
    const c = createClient(adapter, { seed: 3 });
    const userId = await newUser(c, 'demo-b');
    expect((await c.post('/v2/link/connect/demo', { user_id: userId, provider: 'oura' })).status).toBe(200);
    const again = await c.post('/v2/link/connect/demo', { user_id: userId, provider: 'oura' });
    expect(again.status).toBe(400);
    expect(again.body.detail.error_type).toBe('INVALID_REQUEST');
    const garmin = await c.post('/v2/link/connect/demo', { user_id: userId, provider: 'garmin' });
    expect(garmin.status).toBe(422);
    expect(garmin.body.detail[0]).toMatchObject({ type: 'enum', loc: ['body', 'provider'] });
    const unknown = await c.post('/v2/link/connect/demo', { user_id: '6f1c1c1e-0000-4000-8000-000000000000', provider: 'oura' });
    expect(unknown.status).toBe(404);
    expect((await c.post('/v2/link/connect/demo', { user_id: 'nope', provider: 'oura' })).status).toBe(422);
    // A seeded user has real connections: demo ones cannot be mixed in.
    const seeded = (await c.get('/v2/user', { query: { limit: 1 } })).body.users[0];
    const mixed = await c.post('/v2/link/connect/demo', { user_id: seeded.user_id, provider: 'oura' });
    expect(mixed.status).toBe(400);
    // Production environment: no demo connections.
    const prodKey = c.creds.teams[0]?.api_keys.production ?? '';
    const prodUser = await c.post('/v2/user', { client_user_id: 'prod-1' }, { headers: { 'x-service-api-key': prodKey } });
    const prod = await c.post(
      '/v2/link/connect/demo',
      { user_id: prodUser.body.user_id, provider: 'oura' },
      { headers: { 'x-service-api-key': prodKey } },
    );
    expect(prod.status).toBe(400);
    // Another team environment cannot see the user.
    const other = await c.get(`/v2/user/providers/${userId}`, { headers: { 'x-service-api-key': prodKey } });
    expect(other.status).toBe(404);
    expect((await c.get('/v2/user/providers/6f1c1c1e-0000-4000-8000-000000000000')).status).toBe(404);
  });

  it('deregisters one provider: connected_sources follow, delivered data stays readable', async () => {
    const c = createClient(adapter, { seed: 3 });
    const userId = await newUser(c, 'demo-c');
    await c.post('/v2/link/connect/demo', { user_id: userId, provider: 'oura' });
    await c.post('/v2/link/connect/demo', { user_id: userId, provider: 'freestyle_libre' });
    await c.advance(3600);
    const del = await c.delete(`/v2/user/${userId}/oura`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ success: true });
    const user = await c.get(`/v2/user/${userId}`);
    expect(user.body.connected_sources.map((s: any) => s.provider.slug)).toEqual(['freestyle_libre']);
    expect((await c.get(`/v2/user/providers/${userId}`)).body.providers.map((p: any) => p.slug)).toEqual(['freestyle_libre']);
    const hr = await c.get(`/v2/timeseries/${userId}/heartrate`, { query: { start_date: '2026-01-05', provider: 'oura' } });
    const last = hr.body[hr.body.length - 1];
    expect(Date.parse(last.timestamp)).toBeLessThanOrEqual(Date.parse('2026-01-05T10:00:00Z'));
    await c.advance(6 * 3600);
    const later = await c.get(`/v2/timeseries/${userId}/heartrate`, { query: { start_date: '2026-01-05', provider: 'oura' } });
    expect(later.body.length).toBe(hr.body.length);
    expect((await c.delete(`/v2/user/${userId}/oura`)).status).toBe(404);
    const bad = await c.delete(`/v2/user/${userId}/spaceship`);
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['path', 'provider']);
  });

  it('deleting the user deregisters every connection at once', async () => {
    const c = createClient(adapter, { seed: 3 });
    const userId = await newUser(c, 'demo-d');
    await c.post('/v2/link/connect/demo', { user_id: userId, provider: 'oura' });
    await c.post('/v2/link/connect/demo', { user_id: userId, provider: 'fitbit' });
    expect((await c.delete(`/v2/user/${userId}`)).status).toBe(200);
    expect((await c.get(`/v2/user/providers/${userId}`)).status).toBe(404);
    expect((await c.post('/v2/user/undo_delete', undefined, { query: { user_id: userId } })).status).toBe(200);
    const user = await c.get(`/v2/user/${userId}`);
    expect(user.body.connected_sources).toEqual([]);
    expect((await c.get(`/v2/user/providers/${userId}`)).body.providers).toEqual([]);
  });

  it('control plane: error with a chosen type emits provider.connection.error and stops data; reconnect recovers', async () => {
    // No seeded users: feed 'on' would feed all of them for eight hours; the test reads this one's.
    const c = createClient(adapter, { seed: 3, users: 0, usersElsewhere: 0, feed: 'on' });
    const userId = await newUser(c, 'demo-e');
    await c.post('/v2/link/connect/demo', { user_id: userId, provider: 'oura' });
    await c.advance(3600);
    const err = await c.post(`/_sandbox/connections/${userId}/oura/error`, { error_type: 'required_scopes_not_granted' });
    expect(err.status).toBe(200);
    expect(err.body.status).toBe('error');
    expect(err.body.error_details).toMatchObject({ error_type: 'required_scopes_not_granted', errored_at: '2026-01-05T10:00:00.000Z' });
    const listed = (await c.get(`/v2/user/providers/${userId}`)).body.providers[0];
    expect(listed.status).toBe('error');
    expect(listed.error_details.error_type).toBe('required_scopes_not_granted');
    oas?.expectValid('ClientFacingProviderWithStatus', listed);
    const errors = await events(c, userId, 'provider.connection.error');
    expect(errors).toHaveLength(1);
    expect(errors[0].data).toMatchObject({ provider: 'oura', user_id: userId, error_type: 'required_scopes_not_granted' });
    expect(typeof errors[0].data.message).toBe('string');
    expect(typeof errors[0].data.error_details).toBe('string');
    oas?.expectValid('ProviderConnectionError', errors[0].data);

    await c.advance(5 * 3600);
    const hr = await c.get(`/v2/timeseries/${userId}/heartrate`, { query: { start_date: '2026-01-05' } });
    expect(Date.parse(hr.body[hr.body.length - 1].timestamp)).toBeLessThanOrEqual(Date.parse('2026-01-05T10:00:00Z'));
    const dailyDuringError = (await events(c, userId, 'daily.data.heartrate')).length;

    expect((await c.post(`/_sandbox/connections/${userId}/oura/reconnect`)).status).toBe(200);
    expect((await c.post(`/_sandbox/connections/${userId}/oura/reconnect`)).status).toBe(409);
    expect((await c.get(`/v2/user/providers/${userId}`)).body.providers[0]).toMatchObject({ status: 'connected', error_details: null });
    expect(await events(c, userId, 'provider.connection.created')).toHaveLength(2);
    const after = await c.get(`/v2/timeseries/${userId}/heartrate`, { query: { start_date: '2026-01-05' } });
    expect(Date.parse(after.body[after.body.length - 1].timestamp)).toBeGreaterThan(Date.parse('2026-01-05T14:00:00Z'));
    await c.advance(2 * 3600);
    expect((await events(c, userId, 'daily.data.heartrate')).length).toBeGreaterThan(dailyDuringError);

    expect((await c.post(`/_sandbox/connections/${userId}/garmin/error`, {})).status).toBe(404);
    expect((await c.post(`/_sandbox/connections/${userId}/oura/error`, { error_type: 'bogus' })).status).toBe(422);
    expect((await c.post('/_sandbox/connections/6f1c1c1e-0000-4000-8000-000000000000/oura/error', {})).status).toBe(404);
  });
});

describe('wearables: seeded connections', () => {
  it('most seeded users have one to three connections, some in error; seeding emits no events', async () => {
    const c = createClient('express', { seed: 8, users: 50 });
    expect((await c.get('/_sandbox/events')).body.events).toEqual([]);
    const users = (await c.get('/v2/user', { query: { limit: 50 } })).body.users;
    const counts = users.map((u: any) => u.connected_sources.length);
    expect(counts.filter((n: number) => n >= 1 && n <= 3).length).toBeGreaterThan(35);
    expect(Math.max(...counts)).toBeLessThanOrEqual(3);
    const statuses: string[] = [];
    for (const u of users) {
      const res = await c.get(`/v2/user/providers/${u.user_id}`);
      for (const p of res.body.providers) {
        statuses.push(p.status);
        oas?.expectValid('ClientFacingProviderWithStatus', p);
      }
    }
    expect(statuses).toContain('error');
    expect(statuses.filter((s) => s === 'connected').length).toBeGreaterThan(statuses.length / 2);
  });
});
