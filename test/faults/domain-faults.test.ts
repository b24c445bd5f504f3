/**
 * Domain faults (issue 28), each through the control plane and moving the world as the real
 * service does, with its events: a provider connection error and the reconnect through Link, a
 * historical pull that fails, a provider outage (pulls retry, then catch up), and the lab faults
 * (a rejected sample, a failed draw, a cancellation by the lab, a refused requisition, results
 * partial then corrected, a critical result, an appointment cancelled by the phlebotomist).
 */
import { describe, expect, it } from 'vitest';
import { SANDBOX_PASSWORD } from '../../src/fixtures/link/credentials.js';
import { createClient, forEachAdapter, type TestClient } from '../support/client.js';
import { SMALL, getOrder, labEvents, lows, newOrder } from '../support/lab-helpers.js';

const low = (o: any): string => String(o.last_event.status).split('.')[2] ?? '';

async function linkedUser(c: TestClient, name: string): Promise<string> {
  const user = (await c.post('/v2/user', { client_user_id: name })).body.user_id as string;
  await connectPeloton(c, user);
  return user;
}

async function connectPeloton(c: TestClient, userId: string): Promise<void> {
  const token = (await c.post('/v2/link/token', { user_id: userId })).body.link_token as string;
  const res = await c.post(
    '/v2/link/provider/password/peloton',
    { username: 'u', password: SANDBOX_PASSWORD },
    { headers: { 'x-vital-link-token': token }, anonymous: true },
  );
  expect(res.body).toMatchObject({ state: 'success', connected: true });
}

const pulls = async (c: TestClient, userId: string, provider: string) =>
  (await c.get('/v2/introspect/historical_pull', { query: { user_id: userId } })).body.data[0].provider[provider];

const eventsOf = async (c: TestClient, userId: string, type: string) =>
  (await c.get('/_sandbox/events', { query: { user_id: userId, event_type: type } })).body.events as Array<{ envelope: any }>;

forEachAdapter('provider faults', (adapter) => {
  it('a revoked token: the connection shows the error, provider.connection.error is sent, Link reconnects it', async () => {
    const c = createClient(adapter, { seed: 31, ...SMALL, feed: 'off' });
    const user = await linkedUser(c, 'revoked');
    const failed = await c.post(`/_sandbox/connections/${user}/peloton/error`, { error_type: 'token_refresh_failed' });
    expect(failed.status, failed.text).toBe(200);
    const providers = (await c.get(`/v2/user/providers/${user}`)).body.providers;
    expect(providers[0]).toMatchObject({ slug: 'peloton', status: 'error', error_details: { error_type: 'token_refresh_failed' } });
    const [error] = await eventsOf(c, user, 'provider.connection.error');
    expect(error?.envelope.data).toMatchObject({ provider: 'peloton', user_id: user, error_type: 'token_refresh_failed' });
    await connectPeloton(c, user);
    expect((await c.get(`/v2/user/providers/${user}`)).body.providers[0]).toMatchObject({ slug: 'peloton', status: 'connected' });
    expect(await eventsOf(c, user, 'provider.connection.created')).toHaveLength(2);
  });

  it('a provider outage: pulls in the window retry with provider_unavailable, then catch up when it ends', async () => {
    const c = createClient(adapter, { seed: 32, ...SMALL, feed: 'off' });
    const outage = await c.post('/_sandbox/providers/peloton/outage', { duration: '6h' });
    expect(outage.status, outage.text).toBe(200);
    expect(outage.body).toMatchObject({ provider: 'peloton', starts_at: '2026-01-05T09:00:00.000Z', ends_at: '2026-01-05T15:00:00.000Z' });
    const user = await linkedUser(c, 'outage');
    await c.advance(4 * 3600);
    const during = Object.values((await pulls(c, user, 'peloton')).pulled) as Array<{ status: string; error_details: string | null }>;
    expect(during.length).toBeGreaterThan(0);
    expect(during.every((p) => p.status === 'retrying' && p.error_details === 'provider_unavailable')).toBe(true);
    const announced = async () =>
      (await c.get('/_sandbox/events', { query: { user_id: user, event_type_prefix: 'historical.data.' } })).body.events;
    expect(await announced()).toEqual([]);
    await c.advance(3 * 3600);
    const after = Object.values((await pulls(c, user, 'peloton')).pulled) as Array<{ status: string }>;
    expect(after.every((p) => p.status === 'success')).toBe(true);
    const caughtUp = await announced();
    expect(caughtUp.length).toBeGreaterThan(0);
    expect(caughtUp.every((e: { occurred_at: string }) => e.occurred_at >= '2026-01-05T15:00:00.000Z')).toBe(true);
  });

  it('a provider outage holds the periodic feed; its first tick after the window catches up', async () => {
    const c = createClient(adapter, { seed: 34, ...SMALL, feed: 'on' });
    const user = (await c.post('/v2/user', { client_user_id: 'fed' })).body.user_id as string;
    expect((await c.post('/v2/link/connect/demo', { user_id: user, provider: 'oura' })).status).toBe(200);
    await c.advance(86400);
    const daily = async () =>
      (
        (await c.get('/_sandbox/events', { query: { user_id: user, event_type_prefix: 'daily.data.', limit: 10000 } })).body
          .events as Array<{ occurred_at: string }>
      ).map((e) => e.occurred_at);
    const before = (await daily()).length;
    expect(before).toBeGreaterThan(0);
    const outage = (await c.post('/_sandbox/providers/oura/outage', { duration: '6h' })).body;
    await c.advance(5 * 3600);
    expect((await daily()).length).toBe(before);
    await c.advance(3 * 3600);
    const after = (await daily()).slice(before);
    expect(after.length).toBeGreaterThan(0);
    expect(after.every((at) => at >= outage.ends_at)).toBe(true);
  });

  it('a historical pull that fails (forced before the connection), and an outage of an unknown provider', async () => {
    const c = createClient(adapter, { seed: 33, ...SMALL, feed: 'off' });
    const user = (await c.post('/v2/user', { client_user_id: 'pull-fails' })).body.user_id as string;
    const forced = await c.post(`/_sandbox/historical_pulls/${user}/peloton`, { outcome: 'failure', error_details: 'non_retriable_error' });
    expect(forced.body.applies_to).toBe('next_connection');
    await connectPeloton(c, user);
    await c.advance(86400);
    const pulled = Object.values((await pulls(c, user, 'peloton')).pulled) as Array<{ status: string; error_details: string }>;
    expect(pulled.every((p) => p.status === 'failure' && p.error_details === 'non_retriable_error')).toBe(true);
    expect((await c.post('/_sandbox/providers/nokiaa/outage', { seconds: 60 })).status).toBe(404);
    expect((await c.post('/_sandbox/providers/peloton/outage', { seconds: 60, duration: '1h' })).status).toBe(422);
  });
});

forEachAdapter('lab faults', (adapter) => {
  const fault = (c: TestClient, id: string, name: string) => c.post(`/_sandbox/orders/${id}/fault`, { fault: name });

  it('a rejected sample, a failed draw, a cancellation by the lab, a refused requisition', async () => {
    const c = createClient(adapter, { seed: 41, ...SMALL });
    const rejected = await newOrder(c, 'testkit');
    await c.advance(600);
    const early = await fault(c, rejected.id, 'sample_rejected'); // no sample collected yet
    expect(early.status).toBe(409);
    expect(early.body.detail).toContain('received.testkit.requisition_created');
    await c.advance(6 * 86400); // the kit is back at the lab
    const res = await fault(c, rejected.id, 'sample_rejected');
    expect(res.body).toEqual({ order_id: rejected.id, fault: 'sample_rejected', status: 'failed.testkit.sample_error' });
    const events = await labEvents(c, rejected.id);
    expect(events.at(-1)).toMatchObject({ type: 'labtest.order.updated', status: 'failed.testkit.sample_error' });
    expect((await fault(c, rejected.id, 'cancelled_by_lab')).status).toBe(409);

    const redraw = await newOrder(c, 'walk_in_test');
    await c.advance(600);
    expect((await fault(c, redraw.id, 'draw_failed')).body.status).toBe('collecting_sample.walk_in_test.redraw_available');
    await c.advance(10 * 86400);
    const initial = await getOrder(c, redraw.id);
    expect(lows(initial).slice(-1)).toEqual(['redraw_available']);
    const second = initial.order_transaction.orders[1];
    expect(second).toMatchObject({ origin: 'redraw', parent_id: redraw.id, low_level_status: 'completed' });
    expect(initial.order_transaction.status).toBe('completed');
    expect((await fault(c, rejected.id, 'draw_failed')).status).toBe(409);
    expect((await fault(c, second.id, 'draw_failed')).status).toBe(409);

    const shipped = await newOrder(c, 'testkit');
    await c.advance(3 * 3600); // shipped: the lifecycle has no cancelled edge any more
    const refusedCancel = await fault(c, shipped.id, 'cancelled_by_lab');
    expect(refusedCancel.status).toBe(409);
    expect(refusedCancel.body.detail).toContain('collecting_sample.testkit.transit_customer');
    expect((await fault(c, shipped.id, 'undeliverable_to_customer')).body.status).toBe('failed.testkit.failure_to_deliver_to_customer');
    const cancelled = await newOrder(c, 'testkit');
    expect((await fault(c, cancelled.id, 'cancelled_by_lab')).body.status).toBe('cancelled.testkit.cancelled');

    const refused = await newOrder(c, 'walk_in_test');
    expect((await fault(c, refused.id, 'requisition_failed')).body.status).toBe('cancelled.walk_in_test.cancelled');
    expect(low(await getOrder(c, refused.id))).toBe('cancelled');
    const late = await newOrder(c, 'walk_in_test');
    await c.advance(600);
    expect((await fault(c, late.id, 'requisition_failed')).status).toBe(409);
    expect((await c.post('/_sandbox/orders/6f1c1c1e-0000-4000-8000-000000000000/fault', { fault: 'sample_rejected' })).status).toBe(404);
    expect((await fault(c, late.id, 'gremlins')).status).toBe(422);
  });

  it('results partial then corrected, a critical result, an appointment cancelled by the phlebotomist', async () => {
    const c = createClient(adapter, { seed: 42, ...SMALL });
    const corrected = await newOrder(c, 'walk_in_test');
    expect((await fault(c, corrected.id, 'partial_then_corrected')).status).toBe(200);
    await c.advance(10 * 86400);
    expect(lows(await getOrder(c, corrected.id)).slice(-3)).toEqual(['partial_results', 'completed', 'corrected']);

    const critical = await newOrder(c, 'walk_in_test');
    expect((await fault(c, critical.id, 'critical_result')).status).toBe(200);
    await c.advance(10 * 86400);
    expect((await labEvents(c, critical.id)).map((e) => e.type)).toContain('labtest.result.critical');
    expect((await fault(c, critical.id, 'critical_result')).status).toBe(409);

    const phleb = await newOrder(c, 'at_home_phlebotomy', {
      address: { first_line: '1 West Lincoln Street', zip: '85004', state: 'AZ', city: 'Phoenix' },
    });
    await c.advance(600);
    expect((await fault(c, phleb.id, 'appointment_cancelled')).status).toBe(404);
    const home = { first_line: '1 West Lincoln Street', city: 'Phoenix', state: 'AZ', zip_code: '85004' };
    const slots = (await c.post('/v3/order/phlebotomy/appointment/availability', home)).body.slots.flatMap((d: any) => d.slots);
    expect((await c.post(`/v3/order/${phleb.id}/phlebotomy/appointment/book`, { booking_key: slots[0].booking_key })).status).toBe(200);
    const res = await fault(c, phleb.id, 'appointment_cancelled');
    expect(res.body.status).toBe('collecting_sample.at_home_phlebotomy.appointment_cancelled');
    const appointment = (await c.get(`/v3/order/${phleb.id}/phlebotomy/appointment`)).body;
    expect(appointment.status).toBe('cancelled');
    const updates = (await c.get('/_sandbox/events', { query: { event_type: 'labtest.appointment.updated' } })).body.events;
    expect(updates.at(-1).envelope.data.status).toBe('cancelled');
  });
});

describe('domain faults in a scenario file', () => {
  it('lab_orders[].fault and provider_outages', async () => {
    const c = createClient('fetch', { seed: 43, feed: 'off' });
    const loaded = await c.put('/_sandbox/scenario', {
      provider_outages: [{ provider: 'oura', duration: '2h' }],
      users: [
        { client_user_id: 'faulty', connections: [{ provider: 'oura' }], lab_orders: [{ method: 'testkit', fault: 'requisition_failed' }] },
      ],
    });
    expect(loaded.status, loaded.text).toBe(200);
    const user = (await c.get('/v2/user')).body.users[0].user_id as string;
    const pulled = Object.values((await pulls(c, user, 'oura')).pulled) as Array<{ status: string }>;
    expect(pulled.every((p) => p.status !== 'success')).toBe(true);
    const orders = (await c.get(`/v3/orders`, { query: { user_id: user } })).body.orders;
    expect(orders[0].status).toBe('cancelled');
  });
});
