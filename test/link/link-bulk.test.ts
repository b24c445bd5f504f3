/** Link bulk operations: import, export, list. */
import { expect, it } from 'vitest';
import { createClient, forEachAdapter, type TestClient } from '../support/client.js';
import { oasValidator } from '../support/openapi.js';
import { expectWire } from '../support/wire.js';

const oas = oasValidator('data');

forEachAdapter('link bulk operations', (adapter) => {
  it('imports credentials as connections (unknown users fail), exports them, lists the op', async () => {
    const c = createClient(adapter, { seed: 5, users: 0, usersElsewhere: 0 });
    const a = (await c.post('/v2/user', { client_user_id: 'bulk-a' })).body.user_id as string;
    const b = (await c.post('/v2/user', { client_user_id: 'bulk-b' })).body.user_id as string;
    const missing = '00000000-0000-4000-8000-000000000000';
    const recipe = (userId: string) => ({
      user_id: userId,
      access_token: `at-${userId}`,
      refresh_token: `rt-${userId}`,
      provider_id: `p-${userId}`,
      expires_at: 1_800_000_000,
    });
    const imported = await c.post('/v2/link/bulk_import', {
      provider: 'fitbit',
      connections: [recipe(a), recipe(missing)],
      wait_for_completion: true,
    });
    expect(imported.status).toBe(200);
    oas?.expectValid('BulkImportConnectionsResponse', imported.body);
    expect(imported.body).toEqual({ user_ids_imported: [a], user_ids_failed: [missing] });
    expect((await c.post('/v2/link/bulk_import', { provider: 'fitbit', connections: [recipe(b)] })).status).toBe(202);
    const events = await c.get('/_sandbox/events', { query: { event_type: 'provider.connection.created' } });
    expect(events.body.events.map((e: { envelope: { user_id: string } }) => e.envelope.user_id).sort()).toEqual([a, b].sort());
    const exported = await c.post('/v2/link/bulk_export', { provider: 'fitbit' });
    expect(exported.status).toBe(200);
    oas?.expectValid('BulkExportConnectionsResponse', exported.body);
    expect(exported.body.data.map((r: { access_token: string }) => r.access_token).sort()).toEqual([`at-${a}`, `at-${b}`].sort());
    expect((await c.post('/v2/link/bulk_export', { provider: 'fitbit', user_ids: [b] })).body.data).toHaveLength(1);
    expect((await c.post('/v2/link/bulk_export', { provider: 'nokia' })).status).toBe(422);
    const ops = await c.get('/v2/link/bulk_op', { query: { page_size: 1 } });
    oas?.expectValid('BulkOpsResponse', ops.body);
    expect(ops.body.data).toHaveLength(1);
    expect(ops.body.data[0]).toMatchObject({ type: 'link_bulk_import', status: 'success', provider: 'fitbit', processed: 1 });
    const next = await c.get('/v2/link/bulk_op', { query: { page_size: 5, next_cursor: ops.body.next_cursor } });
    expect(next.body.data.map((o: { processed: number }) => o.processed)).toEqual([2]);
    expect(next.body.next_cursor).toBeNull();
  });
});

const DAY_S = 24 * 3600;

forEachAdapter('link bulk pause and historical trigger', (adapter) => {
  const setup = async () => {
    const c = createClient(adapter, { seed: 5, users: 0, usersElsewhere: 0, feed: 'on' });
    const ids: string[] = [];
    for (const name of ['p-a', 'p-b']) ids.push((await c.post('/v2/user', { client_user_id: name })).body.user_id as string);
    const recipe = (userId: string) => ({
      user_id: userId,
      access_token: 'at',
      refresh_token: 'rt',
      provider_id: 'p',
      expires_at: 1_800_000_000,
    });
    expect(
      (await c.post('/v2/link/bulk_import', { provider: 'oura', connections: ids.map(recipe), wait_for_completion: true })).status,
    ).toBe(200);
    await c.advance(DAY_S);
    return { c, a: ids[0] as string, b: ids[1] as string };
  };
  const activityDays = async (c: TestClient, userId: string) =>
    (
      (await c.get(`/v2/summary/activity/${userId}`, { query: { start_date: '2025-01-01' } })).body.activity as Array<{
        calendar_date: string;
      }>
    ).length;
  const userEvents = async (c: TestClient, userId: string, prefix: string) =>
    (await c.get('/_sandbox/events', { query: { user_id: userId, event_type_prefix: prefix, limit: 10000 } })).body.events.length as number;
  const missing = '00000000-0000-4000-8000-000000000000';

  it('pause marks connections paused: no new data, no feed events, no pulls; the user reconnects through Link', async () => {
    const { c, a, b } = await setup();
    const paused = await c.post('/v2/link/bulk_pause', { user_ids: [a, missing], provider: 'oura' });
    expect(paused.status, paused.text).toBe(200);
    expectWire('link.bulk_pause', paused);
    expect(paused.body).toEqual({ user_ids_paused: [a], user_ids_failed: [missing] });
    const providers = (await c.get(`/v2/user/providers/${a}`)).body.providers;
    expect(providers.map((p: { slug: string; status: string }) => [p.slug, p.status])).toEqual([['oura', 'paused']]);
    oas?.expectValid('ClientFacingProviderWithStatus', providers[0]);
    // Pausing again, or a provider the user has not connected, fails.
    expect((await c.post('/v2/link/bulk_pause', { user_ids: [a], provider: 'oura' })).body).toEqual({
      user_ids_paused: [],
      user_ids_failed: [a],
    });
    expect((await c.post('/v2/link/bulk_pause', { user_ids: [b], provider: 'fitbit' })).body.user_ids_failed).toEqual([b]);

    const [daysA, daysB, feedA, feedB] = [
      await activityDays(c, a),
      await activityDays(c, b),
      await userEvents(c, a, 'daily.'),
      await userEvents(c, b, 'daily.'),
    ];
    await c.advance(3 * DAY_S);
    expect(await activityDays(c, a)).toBe(daysA);
    expect(await activityDays(c, b)).toBeGreaterThan(daysB);
    expect(await userEvents(c, a, 'daily.')).toBe(feedA);
    expect(await userEvents(c, b, 'daily.')).toBeGreaterThan(feedB);
    // A historical trigger cannot run on a paused connection; the bulk op records the failure.
    const trigger = await c.post('/v2/link/bulk_trigger_historical_pull', { user_ids: [a], provider: 'oura', wait_for_completion: true });
    expect(trigger.body).toMatchObject({ type: 'link_bulk_historical_trigger', status: 'failure', processed: 1 });
    // A refresh reports the paused source as failed.
    expect((await c.post(`/v2/user/refresh/${a}`)).body).toMatchObject({ success: false, failed_sources: ['oura'] });
    // Reconnecting replaces the paused connection.
    expect(
      (
        await c.post('/v2/link/bulk_import', {
          provider: 'oura',
          connections: [{ user_id: a, access_token: 'x', refresh_token: 'y', provider_id: 'z', expires_at: 1_800_000_000 }],
        })
      ).body.user_ids_imported,
    ).toEqual([a]);
    expect((await c.get(`/v2/user/providers/${a}`)).body.providers[0].status).toBe('connected');
  });

  it('a pause during the historical pull stops it: no completion event follows, the history never appears', async () => {
    const c = createClient(adapter, { seed: 5, users: 0, usersElsewhere: 0 });
    const user = (await c.post('/v2/user', { client_user_id: 'p-mid' })).body.user_id as string;
    await c.post('/v2/link/bulk_import', {
      provider: 'oura',
      connections: [{ user_id: user, access_token: 'a', refresh_token: 'r', provider_id: 'p', expires_at: 1_800_000_000 }],
    });
    expect((await c.post('/v2/link/bulk_pause', { user_ids: [user], provider: 'oura' })).body.user_ids_paused).toEqual([user]);
    await c.advance(3 * DAY_S);
    expect(await userEvents(c, user, 'historical.')).toBe(0);
    expect(await activityDays(c, user)).toBeLessThanOrEqual(1);
    const pulls = (await c.get('/v2/introspect/historical_pull', { query: { user_id: user } })).body.data[0].provider.oura.pulled;
    expect(Object.values(pulls).some((s) => (s as { status: string }).status === 'success')).toBe(false);
  });

  it('trigger starts a new historical pull on the clock, recorded as a bulk op; the connection and its data stay', async () => {
    const { c, a, b } = await setup();
    const before = (await c.get(`/v2/user/providers/${a}`)).body.providers[0];
    const [days, historical, historicalB] = [
      await activityDays(c, a),
      await userEvents(c, a, 'historical.'),
      await userEvents(c, b, 'historical.'),
    ];
    expect(historical).toBeGreaterThan(0);
    const res = await c.post('/v2/link/bulk_trigger_historical_pull', { user_ids: [a, missing], provider: 'oura' });
    expect(res.status, res.text).toBe(202);
    // The unknown user is processed at once; a's pull runs on the clock (bulk-progress tests follow it).
    expect(res.body).toMatchObject({
      type: 'link_bulk_historical_trigger',
      status: 'in_progress',
      provider: 'oura',
      pending: 1,
      processed: 1,
      ended_at: null,
    });
    oas?.expectValid('BulkOp', res.body);
    expectWire('link.bulk_trigger_historical_pull', res);
    expect((await c.get(`/v2/user/providers/${a}`)).body.providers[0]).toEqual(before);
    expect(await activityDays(c, a)).toBe(days);
    const pulls = (await c.get('/v2/introspect/historical_pull', { query: { user_id: a } })).body.data[0].provider.oura.pulled;
    expect(Object.values(pulls).some((s) => ['scheduled', 'in_progress'].includes((s as { status: string }).status))).toBe(true);
    await c.advance(DAY_S);
    expect(await userEvents(c, a, 'historical.')).toBeGreaterThan(historical);
    expect(await userEvents(c, b, 'historical.')).toBe(historicalB);
    const ops = await c.get('/v2/link/bulk_op');
    oas?.expectValid('BulkOpsResponse', ops.body);
    expect(ops.body.data.map((o: { type: string }) => o.type)).toEqual(['link_bulk_historical_trigger', 'link_bulk_import']);
    expect(ops.body.data[0]).toMatchObject({ status: 'success', pending: 0, processed: 2 });
    // Pulls take minutes: waiting for completion (at most 20 s) still answers 202, in progress.
    expect(
      (await c.post('/v2/link/bulk_trigger_historical_pull', { user_ids: [b], provider: 'oura', wait_for_completion: true })).status,
    ).toBe(202);
    expect((await c.post('/v2/link/bulk_trigger_historical_pull', { user_ids: ['nope'], provider: 'oura' })).status).toBe(422);
    expect((await c.post('/v2/link/bulk_pause', { user_ids: [a], provider: 'peloton' })).status).toBe(422);
  });
});
