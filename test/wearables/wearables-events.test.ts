/**
 * Wearable events against the reference, on both adapters: every event the area emits (demo
 * connects, connection error and reconnect, historical pulls, days of the periodic feed) is
 * valid against the OpenAPI `webhooks` payload schema of its event type (spec 6, api-facts F.2),
 * carries the spec 6.1 fields, and is announced once: samples that span time (nights, workouts,
 * hourly stand and UV buckets) are sent when they end, with the same compound key and value the
 * API serves (spec 6.3). Plus the paging details of grouped timeseries and introspection, and
 * the ECG device id (spec 2.3).
 */
import { expect, it } from 'vitest';
import { createClient, forAdapters, forEachAdapter, type TestClient } from '../support/client.js';
import { oasValidator } from '../support/openapi.js';

const oas = oasValidator('data');

/** All journal envelopes of a user (paged through the control plane). */
async function allEvents(c: TestClient, userId?: string): Promise<any[]> {
  const out: any[] = [];
  let after = 0;
  for (;;) {
    const res = await c.get('/_sandbox/events', { query: { limit: 10000, after_seq: after, ...(userId ? { user_id: userId } : {}) } });
    expect(res.status).toBe(200);
    out.push(...res.body.events.map((e: any) => e.envelope));
    if (res.body.events.length < 10000) return out;
    after = res.body.events[res.body.events.length - 1].seq;
  }
}

/** The OpenAPI webhook payload schema of an event type (exact key, else `<prefix>.*`). */
function webhookSchema(eventType: string): string | null {
  const hooks = oas?.doc.webhooks ?? {};
  const key = hooks[eventType] ? eventType : eventType.replace(/\.[^.]+$/, '.*');
  const ref = hooks[key]?.post?.requestBody?.content?.['application/json']?.schema?.$ref as string | undefined;
  return ref ? (ref.split('/').pop() as string) : null;
}

// The two journal checks run once, in process: what they read is what the engine emitted as the
// clock moved (2 and 3 days of feed, most of this file's CPU), the same bytes on every adapter
// (test/route-table/adapters-parity.test.ts); the API reads below run on both adapters.
forAdapters(['fetch'], 'wearables: events against the reference', (adapter) => {
  it('every emitted event validates against its OpenAPI webhook payload and carries the spec 6.1 fields', async () => {
    const c = createClient(adapter, { seed: 17, users: 3, usersElsewhere: 0, feed: 'on' });
    const users: string[] = [];
    for (const provider of ['apple_health_kit', 'fitbit', 'freestyle_libre', 'oura']) {
      const userId = (await c.post('/v2/user', { client_user_id: `ev-${provider}` })).body.user_id as string;
      users.push(userId);
      expect((await c.post('/v2/link/connect/demo', { user_id: userId, provider })).status).toBe(200);
    }
    expect((await c.post(`/_sandbox/connections/${users[1]}/fitbit/error`, { error_type: 'provider_password_expired' })).status).toBe(200);
    expect((await c.post(`/_sandbox/connections/${users[1]}/fitbit/reconnect`)).status).toBe(200);
    await c.advance(2 * 24 * 3600);
    const events = await allEvents(c);
    const types = new Set(events.map((e) => e.event_type));
    for (const t of [
      'provider.connection.created',
      'provider.connection.error',
      'historical.data.sleep.created',
      'daily.data.steps.updated',
      'daily.data.workout_stream.created',
      'daily.data.electrocardiogram.created',
      'daily.data.glucose.created',
      'daily.data.body_temperature_delta.created',
      'daily.data.sleep_breathing_disturbance.created',
      'daily.data.workout_duration.created',
    ]) {
      expect(types, t).toContain(t);
    }
    const failures: string[] = [];
    for (const e of events) {
      const schema = webhookSchema(e.event_type);
      if (oas) expect(schema, `${e.event_type} is in the reference's catalogue`).not.toBeNull();
      // The reference's OpenAPI types client_user_id as a uuid (it is the customer's own string): ignore that one.
      const errors = (oas && schema ? oas.errors(schema, e) : []).filter((x) => !x.startsWith('/client_user_id '));
      if (errors.length && failures.length < 10) failures.push(`${e.event_type}: ${errors.join('; ')}`);
      if (e.event_type.startsWith('daily.data.')) {
        expect(e.data.user_id).toBe(e.user_id);
        expect(e.data.source).toMatchObject({
          name: expect.any(String),
          slug: expect.any(String),
          logo: expect.stringMatching(/^https:\/\//),
        });
      }
    }
    expect(failures).toEqual([]);
  });

  it('spans are announced once, when they end, with the value and key the API serves', async () => {
    const c = createClient(adapter, { seed: 17, users: 1, usersElsewhere: 0, feed: 'on' });
    const userId = (await c.post('/v2/user', { client_user_id: 'ev-spans' })).body.user_id as string;
    await c.post('/v2/link/connect/demo', { user_id: userId, provider: 'apple_health_kit' });
    // Mid-bucket (09:40): an hourly stand / UV bucket does not exist before it ends.
    await c.advance(40 * 60);
    const q = { start_date: '2026-01-05T09:00:00Z', end_date: '2026-01-05T09:40:00Z' };
    for (const path of ['stand_hour', 'uv_exposure']) {
      const body = (await c.get(`/v2/timeseries/${userId}/${path}/grouped`, { query: q })).body;
      for (const g of Object.values(body.groups) as any[])
        for (const s of g[0].data) expect(Date.parse(s.end), path).toBeLessThanOrEqual(Date.parse('2026-01-05T09:40:00Z'));
    }
    await c.advance(3 * 24 * 3600 - 40 * 60);
    const events = await allEvents(c, userId);
    const since = Date.parse('2026-01-05T09:00:00Z');
    const now = Date.parse('2026-01-08T08:30:00Z'); // the last feed tick
    const mustHave = new Set(['sleep_breathing_disturbance', 'workout_duration', 'stand_hour', 'uv_exposure']);
    for (const resource of [
      'sleep_breathing_disturbance',
      'workout_duration',
      'workout_distance',
      'stand_hour',
      'uv_exposure',
      'heart_rate_recovery_one_minute',
      'mindfulness_minutes',
    ]) {
      const sent = events.filter((e) => e.event_type.startsWith(`daily.data.${resource}.`));
      expect(
        sent.every((e) => e.event_type.endsWith('.created')),
        resource,
      ).toBe(true);
      const samples = sent.flatMap((e) =>
        e.data.data.map((s: any) => ({ ...s, provider: e.data.source.provider, source_type: e.data.source.type })),
      );
      // Compound key (spec 6.3): resource, provider, source type, timestamp. Each once.
      const keys = samples.map((s) => `${s.provider}|${s.source_type}|${s.timestamp}`);
      expect(new Set(keys).size, resource).toBe(keys.length);
      // Every span that ended since the connection was announced, with the value the API serves.
      const path = resource;
      const api = (
        await c.get(`/v2/timeseries/${userId}/${path}/grouped`, { query: { start_date: '2026-01-04', end_date: '2026-01-08T09:00:00Z' } })
      ).body;
      const served = ((api.groups.apple_health_kit?.[0]?.data ?? []) as any[]).filter(
        (s) => Date.parse(s.end) > since && Date.parse(s.end) <= now && Date.parse(s.start) >= since,
      );
      if (mustHave.has(resource)) expect(served.length, resource).toBeGreaterThan(0);
      const byKey = new Map(samples.map((s) => [s.timestamp, s]));
      for (const s of served) {
        const e = byKey.get(s.timestamp);
        expect(e, `${resource} ${s.timestamp} announced`).toBeDefined();
        expect(e.value).toBe(s.value);
        expect(e.end).toBe(s.end);
      }
      for (const s of samples) expect(Date.parse(s.end), `${resource} announced after it ended`).toBeLessThanOrEqual(now);
    }
  });
});

forEachAdapter('wearables: paging and devices', (adapter) => {
  it('grouped pages start at the first data and stop after the last; next mirrors next_cursor', async () => {
    const c = createClient(adapter, { seed: 17, users: 1, usersElsewhere: 0, feed: 'on' });
    const userId = (await c.post('/v2/user', { client_user_id: 'ev-pages' })).body.user_id as string;
    await c.post('/v2/link/connect/demo', { user_id: userId, provider: 'freestyle_libre' });
    await c.advance(3 * 3600);
    // Twenty-six years of window, thirty days of data: the first page has data, few pages in all.
    const q = { start_date: '2000-01-01', end_date: '2026-01-05T12:00:00Z' };
    const first = (await c.get(`/v2/timeseries/${userId}/glucose/grouped`, { query: q })).body;
    expect(first.groups.freestyle_libre[0].data.length).toBeGreaterThan(0);
    expect(first.next).toBe(first.next_cursor);
    const raw = (await c.get(`/v2/timeseries/${userId}/glucose`, { query: q })).body;
    const paged: any[] = [...first.groups.freestyle_libre[0].data];
    let cursor = first.next_cursor as string | null;
    let pages = 1;
    while (cursor && pages < 20) {
      // Paging with the deprecated `cursor` works the same.
      const res = (await c.get(`/v2/timeseries/${userId}/glucose/grouped`, { query: { ...q, cursor } })).body;
      expect(res.next).toBe(res.next_cursor);
      paged.push(...(res.groups.freestyle_libre?.[0]?.data ?? []));
      cursor = res.next_cursor;
      pages++;
    }
    expect(cursor).toBeNull();
    expect(pages).toBeLessThanOrEqual(2);
    expect(paged).toEqual(raw);
    // Nothing visible in the window: one empty page, no cursor.
    const empty = (await c.get(`/v2/timeseries/${userId}/glucose/grouped`, { query: { start_date: '2001-01-01', end_date: '2001-02-01' } }))
      .body;
    expect(empty).toEqual({ groups: {}, next: null, next_cursor: null });

    // Introspection: `next` mirrors `next_cursor`; a user_limit above the cap is served, not refused.
    const intro = (await c.get('/v2/introspect/historical_pull', { query: { user_limit: 1 } })).body;
    expect(intro.next_cursor).toBeTruthy();
    expect(intro.next).toBe(intro.next_cursor);
    const big = await c.get('/v2/introspect/resources', { query: { user_limit: 5000 } });
    expect(big.status).toBe(200);
    expect(big.body.next).toBe(big.body.next_cursor);
    oas?.expectValid('UserResourcesResponse', big.body);
  });

  it('ECG summaries and their voltages carry the recording device id (spec 2.3)', async () => {
    const c = createClient(adapter, { seed: 17, users: 1, usersElsewhere: 0, feed: 'on' });
    const userId = (await c.get('/v2/user', { query: { limit: 1 } })).body.users[0].user_id as string;
    const ecg = (await c.get(`/v2/summary/electrocardiogram/${userId}`, { query: { start_date: '2025-12-20', end_date: '2026-01-05' } }))
      .body.electrocardiogram;
    expect(ecg.length).toBeGreaterThan(2);
    const device = ecg[0].source.device_id;
    expect(device).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    for (const s of ecg) {
      expect(s.source.device_id).toBe(device);
      expect(s.source_device_id).toBe(device);
      oas?.expectValid('ClientFacingElectrocardiogram', s);
    }
    // The session's first second (every sample of a session is served: ecg-traces.test.ts).
    const end = new Date(Date.parse(ecg[0].session_start) + 999).toISOString();
    const volts = (
      await c.get(`/v2/timeseries/${userId}/electrocardiogram_voltage/grouped`, {
        query: { start_date: ecg[0].session_start, end_date: end },
      })
    ).body;
    expect(volts.groups.apple_health_kit[0].source.device_id).toBe(device);
    expect(volts.groups.apple_health_kit[0].data.length).toBe(ecg[0].sampling_frequency_hz);
  });
});
