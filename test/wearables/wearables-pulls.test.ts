/**
 * Historical pulls and introspection on both adapters: the lifecycle on the sandbox clock,
 * historical.data.<resource>.created on completion, forced outcomes (retrying with a retriable
 * detail, failure with a non-retriable one; preset for the next connection or applied to the
 * current one), what a failed pull means for data, and the introspection pages and filters.
 */
import { expect, it } from 'vitest';
import { createClient, forEachAdapter, type TestClient } from '../support/client.js';
import { oasValidator } from '../support/openapi.js';

const oas = oasValidator('data');

async function demoUser(c: TestClient, id: string, provider: string): Promise<string> {
  const userId = (await c.post('/v2/user', { client_user_id: id })).body.user_id;
  return userId;
}

async function pulls(c: TestClient, userId: string, provider: string): Promise<any> {
  const res = await c.get('/v2/introspect/historical_pull', { query: { user_id: userId } });
  expect(res.status).toBe(200);
  oas?.expectValid('UserHistoricalPullsResponse', res.body);
  return res.body.data[0]?.provider[provider];
}

forEachAdapter('wearables: historical pulls', (adapter) => {
  it('runs scheduled -> in_progress -> success on the clock and announces each resource once', async () => {
    const c = createClient(adapter, { seed: 4 });
    const userId = await demoUser(c, 'pull-a', 'oura');
    await c.post('/v2/link/connect/demo', { user_id: userId, provider: 'oura' });
    const first = await pulls(c, userId, 'oura');
    expect(Object.values(first.pulled).every((s: any) => s.status === 'scheduled')).toBe(true);
    expect(first.pulled.sleep).toMatchObject({
      range_start: '2025-12-06T09:00:00+00:00',
      range_end: '2026-01-05T09:00:00+00:00',
      days_with_data: 0,
    });
    expect(first.pulled.sleep.timeline).toMatchObject({ scheduled_at: '2026-01-05T09:00:00+00:00', started_at: null, ended_at: null });
    // Every resource Oura lists is simulated now (profile included).
    expect(first.pulled.profile).toMatchObject({ status: 'scheduled' });
    expect(first.not_pulled).toEqual([]);
    // Before the history arrives only new data is visible.
    expect((await c.get(`/v2/summary/sleep/${userId}`, { query: { start_date: '2025-12-01' } })).body.sleep).toEqual([]);
    await c.advance(30);
    const mid = await pulls(c, userId, 'oura');
    expect(Object.values(mid.pulled).some((s: any) => s.status === 'in_progress')).toBe(true);
    await c.advance(3 * 3600);
    const done = await pulls(c, userId, 'oura');
    for (const s of Object.values(done.pulled) as any[]) {
      expect(s.status).toBe('success');
      expect(s.error_details).toBeNull();
      expect(Date.parse(s.timeline.ended_at)).toBeGreaterThan(Date.parse(s.timeline.started_at));
    }
    expect(done.pulled.sleep.days_with_data).toBeGreaterThan(25);
    const sleep = (await c.get(`/v2/summary/sleep/${userId}`, { query: { start_date: '2025-12-01' } })).body.sleep;
    expect(sleep.length).toBeGreaterThan(25);
    const hist = (await c.get('/_sandbox/events', { query: { user_id: userId, event_type_prefix: 'historical.data.' } })).body.events.map(
      (e: any) => e.envelope,
    );
    const types = hist.map((e: any) => e.event_type);
    expect(new Set(types).size).toBe(types.length);
    expect(types).toEqual(
      expect.arrayContaining([
        'historical.data.sleep.created',
        'historical.data.activity.created',
        'historical.data.heartrate.created',
        'historical.data.hrv.created',
        'historical.data.profile.created',
        'historical.data.sleep_cycle.created',
      ]),
    );
    expect(types).not.toContain('historical.data.hypnogram.created');
    expect(hist[0].data).toEqual({
      user_id: userId,
      start_date: '2025-12-06T09:00:00+00:00',
      end_date: '2026-01-05T09:00:00+00:00',
      is_final: true,
      provider: 'oura',
    });
    oas?.expectValid('HistoricalPullCompleted', hist[0].data);
  });

  it('forced outcomes: preset failure for the next connection, retrying then success on the current one', async () => {
    const c = createClient(adapter, { seed: 4 });
    const userId = await demoUser(c, 'pull-b', 'fitbit');
    const preset = await c.post(`/_sandbox/historical_pulls/${userId}/fitbit`, {
      outcome: 'failure',
      resources: ['sleep'],
      error_details: 'unexpected_error',
    });
    expect(preset.status).toBe(200);
    expect(preset.body.applies_to).toBe('next_connection');
    await c.post('/v2/link/connect/demo', { user_id: userId, provider: 'fitbit' });
    const forced = await c.post(`/_sandbox/historical_pulls/${userId}/fitbit`, {
      outcome: 'retry_then_success',
      resources: ['heartrate', 'steps'],
      error_details: 'provider_rate_limit_exceeded',
      finish_in_seconds: 1800,
    });
    expect(forced.status).toBe(200);
    expect(forced.body).toMatchObject({ applies_to: 'current_connection', resources: ['heartrate', 'steps'] });
    await c.advance(20 * 60);
    const retrying = await pulls(c, userId, 'fitbit');
    expect(retrying.pulled.heartrate).toMatchObject({ status: 'retrying', error_details: 'provider_rate_limit_exceeded' });
    expect(retrying.pulled.heartrate.timeline.ended_at).not.toBeNull();
    await c.advance(3 * 3600);
    const done = await pulls(c, userId, 'fitbit');
    expect(done.pulled.heartrate).toMatchObject({ status: 'success', error_details: null });
    expect(done.pulled.sleep).toMatchObject({ status: 'failure', error_details: 'unexpected_error', days_with_data: 0 });
    const types = (await c.get('/_sandbox/events', { query: { user_id: userId, event_type_prefix: 'historical.data.' } })).body.events.map(
      (e: any) => e.envelope.event_type,
    );
    expect(types).toContain('historical.data.heartrate.created');
    expect(types).not.toContain('historical.data.sleep.created');
    // A failed pull leaves no history: only sleep after the connection exists.
    const sleep = (await c.get(`/v2/summary/sleep/${userId}`, { query: { start_date: '2025-12-01', end_date: '2026-01-10' } })).body.sleep;
    expect(sleep.every((s: any) => Date.parse(s.bedtime_stop) >= Date.parse('2026-01-05T09:00:00Z'))).toBe(true);
    expect((await c.get(`/v2/summary/activity/${userId}`, { query: { start_date: '2025-12-10' } })).body.activity.length).toBeGreaterThan(
      20,
    );
    // Finished pulls cannot be rewritten; bad input is a 4xx.
    expect((await c.post(`/_sandbox/historical_pulls/${userId}/fitbit`, { outcome: 'failure' })).status).toBe(409);
    expect(
      (await c.post(`/_sandbox/historical_pulls/${userId}/fitbit`, { outcome: 'retry_then_success', error_details: 'unexpected_error' }))
        .status,
    ).toBe(422);
    expect((await c.post(`/_sandbox/historical_pulls/${userId}/fitbit`, { outcome: 'sometimes' })).status).toBe(422);
    expect((await c.post(`/_sandbox/historical_pulls/${userId}/fitbit`, { outcome: 'failure', resources: ['meal'] })).status).toBe(422);
  });

  it('retry then failure ends in failure with retry_quota_exhausted; finish_in_seconds 0 finishes now', async () => {
    const c = createClient(adapter, { seed: 4 });
    const userId = await demoUser(c, 'pull-c', 'oura');
    await c.post('/v2/link/connect/demo', { user_id: userId, provider: 'oura' });
    const res = await c.post(`/_sandbox/historical_pulls/${userId}/oura`, { outcome: 'retry_then_failure', finish_in_seconds: 0 });
    expect(res.status).toBe(200);
    const now = await pulls(c, userId, 'oura');
    for (const s of Object.values(now.pulled) as any[])
      expect(s).toMatchObject({ status: 'failure', error_details: 'retry_quota_exhausted' });
    expect((await c.get('/_sandbox/events', { query: { user_id: userId, event_type_prefix: 'historical.data.' } })).body.events).toEqual(
      [],
    );
  });

  it('introspection pages through users with connections, filters by user and provider, 422 on bad input', async () => {
    const c = createClient(adapter, { seed: 4 });
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: any = await c.get('/v2/introspect/historical_pull', {
        query: { user_limit: 7, ...(cursor ? { next_cursor: cursor } : {}) },
      });
      expect(res.status).toBe(200);
      expect(res.body.data.length).toBeLessThanOrEqual(7);
      for (const d of res.body.data) seen.push(d.user_id);
      cursor = res.body.next_cursor;
      pages++;
    } while (cursor && pages < 20);
    expect(new Set(seen).size).toBe(seen.length);
    const users = (await c.get('/v2/user', { query: { limit: 100 } })).body.users
      .filter((u: any) => u.connected_sources.length > 0)
      .map((u: any) => u.user_id);
    expect(seen).toEqual(users);
    const statuses = new Set<string>();
    for (const id of seen) {
      const body = (await c.get('/v2/introspect/historical_pull', { query: { user_id: id } })).body;
      for (const p of Object.values(body.data[0].provider) as any[])
        for (const s of Object.values(p.pulled) as any[]) statuses.add(s.status);
    }
    expect(statuses.has('success')).toBe(true);
    expect([...statuses].some((s) => s !== 'success')).toBe(true);

    const resources = await c.get('/v2/introspect/resources', { query: { user_limit: 3 } });
    expect(resources.status).toBe(200);
    oas?.expectValid('UserResourcesResponse', resources.body);
    const first = Object.values(resources.body.data[0].provider)[0] as any;
    const stats = Object.values(first)[0] as any;
    expect(stats.last_attempt.status).toMatch(/success|failure/);
    expect(Date.parse(stats.oldest_data)).toBeLessThan(Date.parse(stats.newest_data));

    const apple = await c.get('/v2/introspect/historical_pull', { query: { provider: 'apple_health_kit', user_limit: 100 } });
    expect(apple.body.data.length).toBeGreaterThan(0);
    for (const d of apple.body.data) expect(Object.keys(d.provider)).toEqual(['apple_health_kit']);
    expect((await c.get('/v2/introspect/historical_pull', { query: { provider: 'spaceship' } })).status).toBe(422);
    expect((await c.get('/v2/introspect/historical_pull', { query: { user_limit: 0 } })).status).toBe(422);
    expect((await c.get('/v2/introspect/historical_pull', { query: { next_cursor: '!!!' } })).status).toBe(422);
    expect((await c.get('/v2/introspect/resources', { query: { user_id: 'nope' } })).status).toBe(422);
  });
});
