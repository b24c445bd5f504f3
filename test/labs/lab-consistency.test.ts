/**
 * Lab orders at every step of every lifecycle (issue 4): the order's events, status, last_event,
 * order_transaction, shipment and interpretation agree at each change, on the clock and by
 * simulation; every `labtest.*` webhook payload matches the reference's OpenAPI; cancel follows
 * the B.4 table; partial webhooks follow the team setting set through the management API.
 */
import { describe, expect, it } from 'vitest';
import { createClient, forAdapters, type TestClient } from '../support/client.js';
import { oasValidator } from '../support/openapi.js';
import {
  SMALL,
  bookPhlebotomy,
  getOrder,
  labEvents,
  lows,
  newOrder,
  orderTargets,
  type LabEvent,
  type Method,
} from '../support/lab-helpers.js';
import { LABS_TEXTS } from '../../src/state/labs/errors.js';

const DAY = 86400;
const oas = oasValidator('data');
const METHODS: Method[] = ['testkit', 'walk_in_test', 'at_home_phlebotomy', 'on_site_collection'];
const RESULT_LOWS = new Set(['partial_results', 'redraw_available', 'completed', 'corrected']);

/** Cancellation rules of api-facts B.4 (docs: lab/workflow/cancelling-an-order), written out independently. */
const CANCEL_FROM: Record<Method, string[]> = {
  testkit: ['ordered', 'requisition_created', 'requisition_bypassed', 'awaiting_registration', 'registered'],
  walk_in_test: [
    'ordered',
    'requisition_created',
    'requisition_bypassed',
    'appointment_pending',
    'appointment_scheduled',
    'appointment_cancelled',
  ],
  at_home_phlebotomy: [
    'ordered',
    'requisition_created',
    'requisition_bypassed',
    'appointment_pending',
    'appointment_scheduled',
    'appointment_cancelled',
    'draw_completed',
  ],
  on_site_collection: ['ordered', 'requisition_created', 'requisition_bypassed', 'draw_completed'],
};

/**
 * Problems of one order view (empty when its parts agree with each other and the OpenAPI).
 * `checked`: the view was already validated against `ClientFacingOrder` (a webhook envelope's
 * `data`, validated with `ClientFacingOrderChanged`, whose `data` is that schema).
 */
function problemsOf(o: any, checked = false): string[] {
  const out: string[] = [];
  const low0 = o.last_event ? String(o.last_event.status).split('.')[2] : '?';
  const tag = `${o.lab_test?.method} ${o.id} @${low0}`;
  if (!checked) for (const e of oas?.errors('ClientFacingOrder', o) ?? []) out.push(`${tag}: ${e}`);
  const last = o.events.at(-1);
  if (JSON.stringify(o.last_event) !== JSON.stringify(last)) out.push(`${tag}: last_event is not the last of events`);
  const [high, method, low] = String(last.status).split('.');
  if (o.status !== high) out.push(`${tag}: status ${o.status} vs ${high}`);
  if (method !== o.lab_test.method || o.details.type !== method) out.push(`${tag}: method mismatch`);
  const ids = o.events.map((e: any) => e.id);
  if (JSON.stringify([...ids].sort((a: number, b: number) => a - b)) !== JSON.stringify(ids)) out.push(`${tag}: event ids out of order`);
  const times = o.events.map((e: any) => e.created_at);
  if (JSON.stringify([...times].sort()) !== JSON.stringify(times)) out.push(`${tag}: event times out of order`);
  if (o.updated_at < last.created_at || o.details.data.updated_at !== o.updated_at) out.push(`${tag}: updated_at behind the last event`);
  const mine = o.order_transaction.orders.find((x: any) => x.id === o.id);
  if (mine?.low_level_status !== low || mine?.low_level_status_created_at !== last.created_at) out.push(`${tag}: transaction summary lags`);
  // The transaction follows all its orders (lab/workflow/redraws): an initial order at redraw_available is done, its redraw order decides.
  const FINAL_LOWS = ['completed', 'corrected', 'sample_error', 'failure_to_deliver_to_customer', 'failure_to_deliver_to_lab', 'lost'];
  const txLows: string[] = o.order_transaction.orders.map((x: any) => x.low_level_status);
  const txStatus = txLows.some((l) => ![...FINAL_LOWS, 'redraw_available', 'cancelled', 'do_not_process'].includes(l))
    ? 'active'
    : txLows.every((l) => ['cancelled', 'do_not_process'].includes(l))
      ? 'cancelled'
      : 'completed';
  if (o.order_transaction.status !== txStatus) out.push(`${tag}: transaction ${o.order_transaction.status}, expected ${txStatus}`);
  if (o.lab_test.method === 'testkit') {
    const s = o.details.data.shipment;
    const seen = new Set(lows(o));
    if (seen.has('transit_customer') !== (s.outbound_tracking_number !== null)) out.push(`${tag}: outbound tracking out of step`);
    if (seen.has('transit_lab') !== (s.inbound_tracking_number !== null)) out.push(`${tag}: inbound tracking out of step`);
    if (s.updated_at > o.updated_at) out.push(`${tag}: shipment newer than the order`);
  }
  if (RESULT_LOWS.has(low as string) !== (o.interpretation !== null)) out.push(`${tag}: interpretation ${o.interpretation}`);
  return out;
}

/** Problems of the journal's lab events: payload schemas and per-order sequences. */
function journalProblems(events: LabEvent[]): string[] {
  const out: string[] = [];
  const seen = new Map<string, number>();
  for (const e of events) {
    if (e.type.startsWith('labtest.appointment.')) continue; // the bookings of phlebotomy orders (labs-appointments tests)
    const envelope = {
      event_type: e.type,
      user_id: e.data.user_id,
      team_id: e.data.team_id,
      client_user_id: '00000000-0000-4000-8000-000000000000',
      data: e.data,
    };
    if (e.type === 'labtest.result.critical') {
      for (const err of oas?.errors('ClientFacingCriticalResultIdentified', envelope) ?? []) out.push(`critical: ${err}`);
      if (!['partial', 'final'].includes(e.data.status)) out.push(`critical: status ${e.data.status}`);
      continue;
    }
    for (const err of oas?.errors('ClientFacingOrderChanged', envelope) ?? []) out.push(`order event: ${err}`);
    out.push(...problemsOf(e.data, oas !== null));
    const before = seen.get(e.data.id);
    if (
      e.type === 'labtest.order.created'
        ? before !== undefined || e.data.events.length !== 1
        : before === undefined || e.data.events.length <= before
    ) {
      out.push(`${e.data.id}: ${e.type} with ${e.data.events.length} events after ${before}`);
    }
    seen.set(e.data.id, e.data.events.length);
  }
  return out;
}

async function enablePartialWebhooks(c: TestClient): Promise<void> {
  const teamId = c.creds.teams[0]?.team_id ?? '';
  const res = await c.mgmt('PATCH', `/v1/org/${c.orgId}/team/${teamId}`, { body: { sandbox: { partial_webhooks_enabled: true } } });
  expect(res.status, res.text).toBe(200);
  expect(res.body.sandbox.partial_webhooks_enabled).toBe(true);
}

// In process only: nothing here depends on the transport (adapters-parity covers it).
forAdapters(['fetch'], 'lab order consistency', (adapter) => {
  it('every step of every method and scenario on the clock: views and webhook payloads agree', async () => {
    const c = createClient(adapter, { seed: 51, ...SMALL });
    await enablePartialWebhooks(c);
    const targets = await orderTargets(c);
    const zips = ['78701', '00010', '00011', '00012', '00013', '00014', '00015', '00020', '00021', '00030', '00031', '00040'];
    const orders: any[] = [];
    for (const method of METHODS) for (const zip of zips) orders.push(await newOrder(c, method, { address: { zip }, targets }));
    for (const method of METHODS) orders.push(await newOrder(c, method, { patient: { last_name: 'Critical' }, targets }));
    // phlebotomy goes on only once booked, and only at a served zip code (the others wait at requisition_created)
    for (const o of orders) if (o.patient_address.zip === '85004') await bookPhlebotomy(c, o.id);
    await c.advance(3600);
    for (const o of orders)
      if (o.lab_test.method === 'on_site_collection') expect((await c.patch(`/v3/order/${o.id}/draw_completed`)).status).toBe(200);
    await c.advance(30 * DAY);

    const events = await labEvents(c);
    expect(journalProblems(events)).toEqual([]);
    for (const o of orders) {
      const now = await getOrder(c, o.id);
      expect(problemsOf(now)).toEqual([]);
      // with partial webhooks on, every status change was announced, in order
      const announced = events.filter((e) => e.type.startsWith('labtest.order.') && e.data.id === o.id).map((e) => e.status);
      expect(announced).toEqual(now.events.map((e: any) => e.status));
      const criticals = events.filter((e) => e.type === 'labtest.result.critical' && e.data.order_id === o.id);
      expect(criticals.length > 0, `${o.id} ${now.last_event.status}`).toBe(o.patient_details.last_name === 'Critical');
      if (RESULT_LOWS.has(lows(now).at(-1) as string)) {
        const raw = await c.get(`/v3/order/${o.id}/result`);
        expect(raw.status).toBe(200);
        oas?.expectValid('LabResultsRaw', raw.body);
        expect(raw.body.metadata.interpretation).toBe(now.interpretation);
      }
    }
    const critical = events.filter((e) => e.type === 'labtest.result.critical').map((e) => e.data.status);
    expect(new Set(critical)).toEqual(new Set(['partial', 'final']));
  });

  it('simulation reaches every status of each method consistently, and cancel follows the B.4 table', async () => {
    const c = createClient(adapter, { seed: 52, ...SMALL });
    const table = (await c.get('/_sandbox/labs/lifecycle')).body.methods;
    const targets = await orderTargets(c);
    for (const method of METHODS) {
      expect([...table[method].cancellable_from].sort()).toEqual([...CANCEL_FROM[method]].sort());
      for (const [low, full] of Object.entries(table[method].statuses) as Array<[string, string]>) {
        // not reachable from a fresh order: no path bypasses the requisition; registration needs a registrable kit
        if (low === 'requisition_bypassed' || low === 'awaiting_registration' || low === 'registered') continue;
        const order = await newOrder(c, method, { targets });
        if (method === 'at_home_phlebotomy' && !['ordered', 'requisition_created', 'cancelled'].includes(low))
          await bookPhlebotomy(c, order.id);
        const res = await c.post(`/v3/order/${order.id}/test`, undefined, { query: { final_status: full } });
        expect(res.status, `${full}: ${res.text}`).toBe(200);
        const now = await getOrder(c, order.id);
        expect(now.last_event.status).toBe(full);
        expect(problemsOf(now)).toEqual([]);
        const cancel = await c.post(`/v3/order/${order.id}/cancel`);
        expect(cancel.status, `cancel from ${full}`).toBe(CANCEL_FROM[method].includes(low) ? 200 : 400);
        if (cancel.status === 200) {
          expect(cancel.body.order.last_event.status).toBe(`cancelled.${method}.cancelled`);
          expect(problemsOf(cancel.body.order)).toEqual([]);
        } else {
          expect(cancel.body).toMatchObject({ detail: LABS_TEXTS.transitionNotAllowed(low, 'cancelled'), status_code: 400 });
          expect((await getOrder(c, order.id)).last_event.status).toBe(full);
        }
      }
    }
    expect(journalProblems(await labEvents(c))).toEqual([]);
  });

  describe('webhooks', () => {
    it('partial results are announced only once the team turns partial_webhooks_enabled on (management API)', async () => {
      const c = createClient(adapter, { seed: 53, ...SMALL });
      const before = await newOrder(c, 'walk_in_test');
      await c.post(`/v3/order/${before.id}/test`, undefined, {
        query: { final_status: 'sample_with_lab.walk_in_test.partial_results' },
      });
      expect((await labEvents(c, before.id)).map((e) => e.status?.split('.')[2])).toEqual(['ordered', 'requisition_created']);
      await enablePartialWebhooks(c);
      await c.post(`/v3/order/${before.id}/test`);
      const after = await newOrder(c, 'walk_in_test');
      await c.post(`/v3/order/${after.id}/test`);
      expect((await labEvents(c, before.id)).map((e) => e.status?.split('.')[2]).slice(-1)).toEqual(['completed']);
      expect((await labEvents(c, after.id)).map((e) => e.status?.split('.')[2]).slice(-2)).toEqual(['partial_results', 'completed']);
    });

    it('simulate with interpretation critical emits labtest.result.critical for the partial and the final results', async () => {
      const c = createClient(adapter, { seed: 54, ...SMALL });
      const order = await newOrder(c, 'on_site_collection');
      expect((await c.post(`/v3/order/${order.id}/test`, { interpretation: 'critical' })).status).toBe(200);
      const events = await labEvents(c, order.id);
      expect(events.map((e) => `${e.type} ${e.status}`)).toEqual([
        'labtest.order.created received.on_site_collection.ordered',
        'labtest.order.updated received.on_site_collection.requisition_created',
        'labtest.order.updated sample_with_lab.on_site_collection.draw_completed',
        'labtest.result.critical partial',
        'labtest.order.updated completed.on_site_collection.completed',
        'labtest.result.critical final',
      ]);
      expect(journalProblems(events)).toEqual([]);
      const final = events.at(-1)?.data;
      expect(final).toMatchObject({ order_id: order.id, sample_id: order.sample_id, interpretation: 'critical', status: 'final' });
      expect(events[3]?.data.created_at).toBe(final.created_at);
      const listed = await c.get('/v3/orders', { query: { is_critical: 'true', order_ids: order.id } });
      expect(listed.body.total).toBe(1);
      const normal = await newOrder(c, 'on_site_collection');
      await c.post(`/v3/order/${normal.id}/test`, { interpretation: 'abnormal' });
      expect((await labEvents(c, normal.id)).some((e) => e.type === 'labtest.result.critical')).toBe(false);
      expect((await c.get('/v3/orders', { query: { is_critical: 'false', order_ids: normal.id } })).body.total).toBe(1);
    });
  });
});
