/**
 * Lab failure paths as the real service runs them (issue 41), driven with the official SDK
 * (`@tryvital/vital-node`, its requests carried by each adapter's own transport) and checked
 * through the webhooks, verified with `svix`: redraws as new orders in the same transaction
 * (fault, scripted zip, simulation), test-kit failures after shipping and the lifecycle's edges
 * for every fault, corrected results with documented statuses, match-review webhooks of an
 * unmatched-result run, the one served street in 85004, and demo users' expiry made visible.
 */
import type { VitalClient, VitalError } from '@tryvital/vital-node';
import { Webhook } from 'svix';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, it } from 'vitest';
import { createClient, forEachAdapter, type TestClient } from '../support/client.js';
import { sdkOf } from '../support/sdk-bridge.js';
import { oasValidator } from '../support/openapi.js';
import { createEndpoint, scriptedTransport } from '../support/webhooks-support.js';

const oas = oasValidator('data');
const DAY = 86_400;
const SMALL = { users: 2, usersElsewhere: 0, feed: 'off' } as const;
const patientDetails = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  dob: '1985-12-10',
  gender: 'female' as const,
  phoneNumber: '+14155550123',
  email: 'ada@example.com',
};

interface Hooks {
  c: TestClient;
  sdk: VitalClient;
  /** The verified deliveries so far: svix checks each signature with the endpoint's secret. */
  events(): Array<{ event_type: string; data: any; user_id?: string }>;
}

async function setup(adapter: 'express' | 'msw', seed: number, extra: Record<string, unknown> = {}): Promise<Hooks> {
  const scripted = scriptedTransport();
  const c = createClient(adapter, { seed, ...SMALL, webhookTransport: scripted.transport, ...extra });
  const { secret } = await createEndpoint(c, { url: 'http://127.0.0.1:9/hooks', filter_types: null });
  const wh = new Webhook(secret);
  return {
    c,
    sdk: sdkOf(c),
    events: () => scripted.received.map((r) => wh.verify(r.body, r.headers) as { event_type: string; data: any }),
  };
}

async function advance(h: Hooks, seconds: number): Promise<void> {
  expect((await h.c.advance(seconds)).status).toBe(200);
  await h.c.sandbox.settle();
}

async function place(h: Hooks, method: 'walk_in_test' | 'testkit' | 'at_home_phlebotomy', address: Record<string, string> = {}) {
  const userId = (await h.sdk.user.getAll({ limit: 1 })).users[0]?.userId ?? '';
  const test = (await h.sdk.labTests.get({ collectionMethod: method }))[0];
  const placed = await h.sdk.labTests.createOrder({
    userId,
    labTestId: test?.id ?? '',
    patientDetails,
    patientAddress: {
      receiverName: 'Ada Lovelace',
      firstLine: '1 Main Street',
      city: 'Austin',
      state: 'TX',
      zip: '78701',
      country: 'US',
      ...address,
    },
  });
  return placed.order;
}

/**
 * An order as the SDK parses it (its types parse every step), and as the wire has it: this SDK
 * version's ClientFacingOrder has no `last_event`, `origin` or `order_transaction`, so those are
 * read from the JSON, checked against the real OpenAPI's ClientFacingOrder.
 */
async function orderOf(h: Hooks, id: string): Promise<any> {
  const parsed = await h.sdk.labTests.getOrder(id);
  const wire = (await h.c.get(`/v3/order/${id}`)).body;
  oas?.expectValid('ClientFacingOrder', wire);
  expect(parsed.events.map((e) => e.status)).toEqual(wire.events.map((e: any) => e.status));
  expect(parsed.status).toBe(wire.status);
  return wire;
}

const fault = (h: Hooks, orderId: string, name: string) => h.c.post(`/_sandbox/orders/${orderId}/fault`, { fault: name });
const low = (status: string) => status.split('.')[2];
const orderEvents = (h: Hooks, orderId: string) =>
  h.events().filter((e) => e.event_type.startsWith('labtest.order.') && e.data.id === orderId);

/** Checks the redraw of `initialId`: frozen initial with readable results, the redraw order in the same transaction, its own events. */
async function expectRedraw(h: Hooks, initialId: string): Promise<string> {
  const initial = await orderOf(h, initialId);
  expect(initial.last_event.status).toBe('collecting_sample.walk_in_test.redraw_available');
  expect(initial.last_event.status_detail).toBe('sample_quantity_not_sufficient');
  expect(initial.has_missing_results).toBe(true);
  const tx = initial.order_transaction;
  expect(tx?.orders.map((o: any) => [o.origin, o.parent_id])).toEqual([
    ['initial', null],
    ['redraw', initialId],
  ]);
  const redrawId = tx?.orders[1]?.id ?? '';
  const redraw = await orderOf(h, redrawId);
  expect(redraw).toMatchObject({ origin: 'redraw', user_id: initial.user_id });
  expect(redraw.order_transaction.id).toBe(tx?.id);
  // the initial order's results are readable at redraw_available: final, some missing
  const raw = await h.sdk.labTests.getResultRaw(initialId);
  expect(raw.metadata.status).toBe('final');
  expect(raw.missingResults?.length).toBeGreaterThan(0);
  // it can no longer be cancelled
  const cancel = await h.sdk.labTests.cancelOrder(initialId).catch((e: unknown) => e);
  expect((cancel as VitalError).statusCode).toBe(400);
  const txView = await h.c.get(`/v3/order_transaction/${tx?.id}`);
  oas?.expectValid('GetOrderTransactionResponse', txView.body);
  expect(txView.body.orders[1]).toMatchObject({ id: redrawId, origin: 'redraw', parent_id: initialId });
  return redrawId;
}

forEachAdapter('redraws as new orders (lab/workflow/redraws)', (adapter) => {
  it('draw_failed: the initial order stops at redraw_available; the redraw order joins the transaction, with its own events, and completes it', async () => {
    const h = await setup(adapter, 4101);
    const order = await place(h, 'walk_in_test');
    await advance(h, 600);
    expect((await fault(h, order.id, 'draw_failed')).body.status).toBe('collecting_sample.walk_in_test.redraw_available');
    await advance(h, 0);
    const redrawId = await expectRedraw(h, order.id);
    expect((await h.c.get(`/v3/order_transaction/${(await orderOf(h, order.id)).order_transaction.id}`)).body.status).toBe('active');
    await advance(h, 600);
    expect(orderEvents(h, redrawId).map((e) => [e.event_type, low(e.data.last_event.status)])).toEqual([
      ['labtest.order.created', 'ordered'],
      ['labtest.order.updated', 'requisition_created'],
    ]);
    const createdTx = orderEvents(h, redrawId)[0]?.data.order_transaction;
    expect(createdTx.orders.map((o: any) => o.origin)).toEqual(['initial', 'redraw']);
    await advance(h, 5 * DAY);
    const initial = await orderOf(h, order.id);
    expect(low(initial.last_event.status)).toBe('redraw_available'); // no further updates
    expect(orderEvents(h, order.id).map((e) => low(e.data.last_event.status))).toEqual([
      'ordered',
      'requisition_created',
      'redraw_available',
    ]);
    const redraw = await orderOf(h, redrawId);
    expect(redraw.events.map((e: any) => low(e.status))).toEqual(['ordered', 'requisition_created', 'partial_results', 'completed']);
    expect(redraw.order_transaction.status).toBe('completed');
    const combined = await h.c.get(`/v3/order_transaction/${redraw.order_transaction.id}/result`);
    expect(combined.status).toBe(200);
    oas?.expectValid('LabResultsRaw', combined.body);
    expect(Object.keys(combined.body.sample_information)).toHaveLength(2);
    expect(combined.body.missing_results).toEqual([]);
    // one redraw per transaction
    expect((await fault(h, redrawId, 'draw_failed')).status).toBe(409);
    const again = await h.sdk.labTests
      .simulateOrderProcess(redrawId, { finalStatus: 'collecting_sample.walk_in_test.redraw_available', body: {} })
      .catch((e: unknown) => e);
    expect((again as VitalError).statusCode).toBe(400);
  });

  it('the scripted path (zip 00021) and the simulate endpoint lead to the same redraw', async () => {
    const h = await setup(adapter, 4102);
    const scripted = await place(h, 'walk_in_test', { zip: '00021' });
    await advance(h, 4 * DAY);
    await expectRedraw(h, scripted.id);
    const simulated = await place(h, 'walk_in_test');
    await h.sdk.labTests.simulateOrderProcess(simulated.id, { finalStatus: 'collecting_sample.walk_in_test.redraw_available', body: {} });
    const redrawId = await expectRedraw(h, simulated.id);
    await advance(h, 0);
    expect(orderEvents(h, redrawId)[0]?.event_type).toBe('labtest.order.created');
  });
});

forEachAdapter('the redraw scenario (scenarios/lab-walk-in-redraw.yaml)', (adapter) => {
  it('its redraw user ends with the initial order at redraw_available and a completed redraw order in the transaction', async () => {
    const scenario = readFileSync(resolve(import.meta.dirname, '../../scenarios/lab-walk-in-redraw.yaml'), 'utf8');
    const h = await setup(adapter, 4108, { scenario });
    await advance(h, 30 * DAY);
    const orders = (await h.sdk.labTests.getOrders({ size: 50 })).orders;
    const redraw = orders.find((o) => (o as unknown as { origin?: string }).origin === 'redraw');
    expect(redraw).toBeDefined();
    const wire = await orderOf(h, redraw?.id ?? '');
    expect(low(wire.last_event.status)).toBe('completed');
    expect(wire.order_transaction.status).toBe('completed');
    await expectRedraw(h, wire.parent_id ?? wire.order_transaction.orders[0].id);
    expect(
      orderEvents(h, redraw?.id ?? '')
        .map((e) => low(e.data.last_event.status))
        .at(-1),
    ).toBe('completed');
  });
});

forEachAdapter('test-kit failures after shipping and the lifecycle edges of every fault', (adapter) => {
  it('a shipped kit is lost or undeliverable (failed.testkit.*), never cancelled; faults the lifecycle forbids answer 409 naming the status', async () => {
    const h = await setup(adapter, 4103);
    const fresh = await place(h, 'testkit');
    const early = await fault(h, fresh.id, 'sample_rejected');
    expect(early.status).toBe(409);
    expect(early.body.detail).toContain('received.testkit.ordered');
    expect((await fault(h, fresh.id, 'undeliverable_to_lab')).status).toBe(409);

    const lost = await place(h, 'testkit');
    const toCustomer = await place(h, 'testkit');
    const toLab = await place(h, 'testkit');
    await advance(h, 3 * 3600); // shipped: transit_customer
    const refused = await fault(h, lost.id, 'cancelled_by_lab');
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toContain('collecting_sample.testkit.transit_customer');
    expect((await fault(h, lost.id, 'lost_in_transit')).body.status).toBe('failed.testkit.lost');
    expect((await fault(h, toCustomer.id, 'undeliverable_to_customer')).body.status).toBe('failed.testkit.failure_to_deliver_to_customer');
    expect((await fault(h, toLab.id, 'undeliverable_to_lab')).status).toBe(409);
    await advance(h, 3 * DAY + 12 * 3600); // on its way back: transit_lab
    expect(low((await orderOf(h, toLab.id)).last_event.status)).toBe('transit_lab');
    expect((await fault(h, toLab.id, 'undeliverable_to_lab')).body.status).toBe('failed.testkit.failure_to_deliver_to_lab');
    const after = await fault(h, toLab.id, 'lost_in_transit');
    expect(after.status).toBe(409);
    expect(after.body.detail).toContain('failed.testkit.failure_to_deliver_to_lab');

    for (const [id, status] of [
      [lost.id, 'failed.testkit.lost'],
      [toCustomer.id, 'failed.testkit.failure_to_deliver_to_customer'],
      [toLab.id, 'failed.testkit.failure_to_deliver_to_lab'],
    ] as const) {
      const o = await orderOf(h, id);
      expect(o.last_event.status).toBe(status);
      expect(o.status).toBe('failed');
      expect(o.order_transaction.status).toBe('completed');
      expect(orderEvents(h, id).at(-1)?.data.last_event.status).toBe(status);
    }
    // walk-in: a sample is rejected once drawn; the lab cancels only where the lifecycle cancels
    const walkIn = await place(h, 'walk_in_test');
    await advance(h, 600);
    expect((await fault(h, walkIn.id, 'sample_rejected')).body.status).toBe('failed.walk_in_test.sample_error');
  });
});

forEachAdapter('corrected results, match-review webhooks, the served address in 85004', (adapter) => {
  it('a corrected result keeps metadata.status final; the correction shows in the event and the value', async () => {
    const h = await setup(adapter, 4104);
    const order = await place(h, 'walk_in_test');
    await h.sdk.labTests.simulateOrderProcess(order.id, { finalStatus: 'completed.walk_in_test.completed', body: {} });
    const before = await h.sdk.labTests.getResultRaw(order.id);
    expect((await fault(h, order.id, 'partial_then_corrected')).body.status).toBe('completed.walk_in_test.corrected');
    await advance(h, 0);
    const after = await h.sdk.labTests.getResultRaw(order.id);
    expect(after.metadata.status).toBe('final');
    oas?.expectValid('LabResultsRaw', (await h.c.get(`/v3/order/${order.id}/result`)).body);
    const metadata = await h.sdk.labTests.getResultMetadata(order.id);
    expect(metadata.status).toBe('final');
    const values = (raw: { results: unknown }) => (raw.results as Array<{ result: string }>).map((r) => r.result);
    const changed = values(after).filter((v, i) => v !== values(before)[i]);
    expect(changed).toHaveLength(1);
    expect(orderEvents(h, order.id).at(-1)?.data.last_event.status).toBe('completed.walk_in_test.corrected');
  });

  it('an unmatched-result run emits labtest.match_review.created; resolving it, .updated', async () => {
    const h = await setup(adapter, 4105);
    const run = await h.c.post(
      '/v3/unmatched_result_test',
      { case: 'match_completed', order_source: 'managed' },
      { headers: { 'x-idempotency-key': 'mr-1' } },
    );
    expect(run.status, run.text).toBe(202);
    await advance(h, 60);
    const done = await h.c.get(`/v3/unmatched_result_test/${run.body.run_id}`);
    expect(done.body.status).toBe('succeeded');
    const id = done.body.raw_result_id as string;
    const created = h.events().filter((e) => e.event_type === 'labtest.match_review.created');
    expect(created.map((e) => e.data)).toEqual([
      { id, status: 'pending_customer_review', decision_code: 'match_completed', sub_reason_codes: [] },
    ]);
    oas?.expectValid('MatchReviewWebhookPayload', created[0]?.data);
    expect((await h.c.post(`/v3/unmatched_result/${id}/resolve`, { action: 'reject' })).status).toBe(200);
    await advance(h, 0);
    const updated = h.events().filter((e) => e.event_type === 'labtest.match_review.updated');
    expect(updated.map((e) => e.data)).toEqual([
      {
        id,
        status: 'resolved',
        decision_code: 'match_completed',
        sub_reason_codes: [],
        resolution_action: 'reject',
        resolved_user_id: null,
        resolved_order_id: null,
      },
    ]);
    oas?.expectValid('MatchReviewWebhookPayload', updated[0]?.data);
  });

  it('at-home phlebotomy in 85004 is served on West Lincoln Street only', async () => {
    const h = await setup(adapter, 4106);
    const phoenix = { city: 'Phoenix', state: 'AZ', zipCode: '85004' };
    const served = await h.sdk.labTests.getPhlebotomyAppointmentAvailability({
      body: { firstLine: '256 West Lincoln Street', ...phoenix },
    });
    expect(served.slots.flatMap((d) => d.slots).length).toBeGreaterThan(0);
    const other = await h.sdk.labTests.getPhlebotomyAppointmentAvailability({ body: { firstLine: '1 Main Street', ...phoenix } });
    expect(other.slots.flatMap((d) => d.slots)).toEqual([]);
    const key = served.slots.flatMap((d) => d.slots)[0]?.bookingKey ?? '';
    const elsewhere = await place(h, 'at_home_phlebotomy', { city: 'Phoenix', state: 'AZ', zip: '85004' });
    await advance(h, 600);
    const refused = await h.sdk.labTests.bookPhlebotomyAppointment(elsewhere.id, { bookingKey: key }).catch((e: unknown) => e);
    expect((refused as VitalError).statusCode).toBe(400);
    expect((refused as VitalError).body).toEqual({ detail: 'At-home phlebotomy is not available at this address' });
    const home = await place(h, 'at_home_phlebotomy', { firstLine: '1 West Lincoln Street', city: 'Phoenix', state: 'AZ', zip: '85004' });
    await advance(h, 600);
    const booked = await h.sdk.labTests.bookPhlebotomyAppointment(home.id, { bookingKey: key });
    expect(booked.status).toBe('confirmed');
  });
});

forEachAdapter('demo users expire visibly', (adapter) => {
  it('the advance counts expired demo users in caused.expired_users and the log says so', async () => {
    const lines: string[] = [];
    const h = await setup(adapter, 4107, { logger: (message: string) => lines.push(message) });
    const user = await h.sdk.user.create({ clientUserId: 'demo-expiring' });
    expect((await h.c.post('/v2/link/connect/demo', { user_id: user.userId, provider: 'oura' })).status).toBe(200);
    const first = await h.c.advance(6 * DAY);
    expect(first.body.caused.expired_users).toBe(0);
    const second = await h.c.advance(2 * DAY);
    expect(second.body.caused.expired_users).toBe(1);
    expect(lines.filter((l) => l.startsWith('Demo user demo-expiring'))).toHaveLength(1);
    expect((await h.c.get(`/v2/user/${user.userId}`)).status).toBe(404);
    // The event view says so too: a sandbox notice beside the event journal (no event is sent).
    const events = await h.c.get('/_sandbox/events', { query: { user_id: user.userId } });
    expect(events.body.notices).toEqual([
      expect.objectContaining({ kind: 'demo_user_expired', user_id: user.userId, text: expect.stringContaining('demo-expiring') }),
    ]);
    expect(events.body.events.map((e: { envelope: { event_type: string } }) => e.envelope.event_type)).not.toContain('demo_user_expired');
  });
});
