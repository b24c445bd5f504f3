/** Placing, simulating and cancelling lab orders: validation, idempotency, simulate, cancel rules. */
import { LABS_ERRORS, LABS_TEXTS } from '../../src/state/labs/errors.js';
import { describe, expect, it } from 'vitest';
import { createClient, forEachAdapter } from '../support/client.js';
import { oasValidator } from '../support/openapi.js';
import {
  ADDRESS,
  PATIENT,
  SMALL,
  expectConsistent,
  firstUserId,
  getOrder,
  labEvents,
  lows,
  newOrder,
  placeOrder,
  standardTests,
} from '../support/lab-helpers.js';

const DAY = 86400;
const oas = oasValidator('data');

forEachAdapter('lab orders: create, simulate, cancel', (adapter) => {
  describe('create', () => {
    it('answers PostOrderResponse and emits labtest.order.created', async () => {
      const c = createClient(adapter, { seed: 21, ...SMALL });
      const res = await placeOrder(c, 'walk_in_test', {
        extra: { passthrough: 'abc', icd_codes: ['Z00.00'], physician: { first_name: 'Jo', last_name: 'Doc', npi: '1234567890' } },
      });
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('SUCCESS');
      expect(res.body.message).toBe('Order submitted');
      oas?.expectValid('PostOrderResponse', res.body);
      const order = res.body.order;
      expect(order).toMatchObject({
        has_abn: false,
        priority: false,
        billing_type: 'client_bill',
        passthrough: 'abc',
        icd_codes: ['Z00.00'],
        origin: 'initial',
        interpretation: null,
      });
      expect(order.physician).toEqual({ first_name: 'Jo', last_name: 'Doc', npi: '1234567890' });
      expect(order.patient_details.dob).toBe('1985-12-09T00:00:00+00:00');
      expect(order.patient_address.zip).toBe('78701');
      expect(order.sample_id).toMatch(/^\d{10}$/);
      expect(order.expected_result_by_date <= order.worst_case_result_by_date).toBe(true);
      expectConsistent(order);
      const tx = await c.get(`/v3/order_transaction/${order.order_transaction.id}`);
      expect(tx.status).toBe(200);
      expect(tx.body).toMatchObject({ id: order.order_transaction.id, team_id: order.team_id, status: 'active' });
      expect(tx.body.orders[0]).toMatchObject({ id: order.id, last_status: 'ordered', origin: 'initial' });
      oas?.expectValid('GetOrderTransactionResponse', tx.body);
      expect((await c.get('/v3/order_transaction/00000000-0000-4000-8000-000000000000')).status).toBe(404);
      const events = await labEvents(c, order.id);
      expect(events).toHaveLength(1);
      expect(events[0]?.type).toBe('labtest.order.created');
      expect(events[0]?.data).toEqual(order);
    });

    it('validates the patient and address like the reference', async () => {
      const c = createClient(adapter, { seed: 22, ...SMALL });
      const cases: Array<[Parameters<typeof placeOrder>[2], number, string[] | string]> = [
        [{ patient: { first_name: 'R0b<ert>' } }, 422, ['body', 'patient_details', 'first_name']],
        [{ patient: { last_name: '' } }, 422, ['body', 'patient_details', 'last_name']],
        [{ patient: { gender: 'robot' } }, 422, ['body', 'patient_details', 'gender']],
        [{ patient: { email: 'not-an-email' } }, 422, ['body', 'patient_details', 'email']],
        [{ patient: { phone_number: '12' } }, 422, ['body', 'patient_details', 'phone_number']],
        [{ patient: { dob: '2030-01-01' } }, 422, ['body', 'patient_details', 'dob']],
        [{ address: { state: 'Texas' } }, 422, ['body', 'patient_address', 'state']],
        [{ address: { zip: '7870' } }, 422, ['body', 'patient_address', 'zip']],
        [{ extra: { activate_by: '2025-01-01' } }, 422, ['body', 'activate_by']],
        [{ patient: { phone_number: '+15555550100' } }, 400, 'Phone number is not correct'],
        [{ patient: { dob: '2015-05-05' } }, 400, 'Ordering lab tests for patients under 18 is not enabled for this team'],
      ];
      for (const [options, status, where] of cases) {
        const res = await placeOrder(c, 'walk_in_test', options);
        expect(res.status, JSON.stringify(options)).toBe(status);
        if (Array.isArray(where)) expect(res.body.detail[0].loc).toEqual(where);
        else expect(res.body.detail).toBe(where);
      }
      const state = await placeOrder(c, 'walk_in_test', { address: { state: 'XX' } });
      expect(state.body.detail[0].msg).toBe(`Value error, ${LABS_TEXTS.invalidState('XX')}`);
      const phone = await placeOrder(c, 'walk_in_test', { patient: { phone_number: 'call me' } });
      expect(phone.body.detail[0].msg).toBe(`Value error, ${LABS_TEXTS.invalidPhone('call me')}`);
      const user = await firstUserId(c);
      const unknownUser = await c.post('/v3/order', {
        user_id: '00000000-0000-4000-8000-000000000000',
        lab_test_id: (await standardTests(c)).testkit,
        patient_details: PATIENT,
        patient_address: ADDRESS,
      });
      expect(unknownUser.status).toBe(404);
      expect(unknownUser.body).toEqual({ detail: LABS_ERRORS.userNotOnTeam });
      const noTest = await c.post('/v3/order', { user_id: user, patient_details: PATIENT, patient_address: ADDRESS });
      expect(noTest.status).toBe(422);
      expect(noTest.body.detail[0].loc).toEqual(['body', 'order_set']);
      const missing = await c.post('/v3/order', { user_id: user });
      expect(missing.status).toBe(422);
      expect(missing.body.detail.map((d: any) => d.loc.join('.'))).toEqual(['body.patient_details', 'body.patient_address']);
      expect(missing.body.detail[0].msg).toBe('Field required');
      const mismatch = await placeOrder(c, 'testkit', { extra: { collection_method: 'walk_in_test' } });
      expect(mismatch.status).toBe(400);
      // nothing of the refusals was stored
      expect(
        (await c.get('/v3/orders', { query: { user_id: user } })).body.orders.filter(
          (o: any) => o.patient_details?.email === PATIENT.email,
        ),
      ).toHaveLength(0);
      expect(await labEvents(c)).toHaveLength(0);
    });

    it('orders an order set: an auto-generated lab test holds its markers', async () => {
      const c = createClient(adapter, { seed: 23, ...SMALL });
      const tests = await standardTests(c);
      const user = await firstUserId(c);
      // The default world's seeded panels (an immunoglobulin panel among them) are auto-generated tests too.
      const autoBefore = (await c.get('/v3/lab_tests', { query: { generation_method: 'auto' } })).body.map((t: any) => t.id);
      const res = await c.post('/v3/order', {
        user_id: user,
        order_set: { lab_test_ids: [tests.walk_in_test], add_on: { provider_ids: ['899', '17306'] } },
        patient_details: PATIENT,
        patient_address: ADDRESS,
      });
      expect(res.status, res.text).toBe(200);
      const test = res.body.order.lab_test;
      expect(test.auto_generated).toBe(true);
      expect(test.method).toBe('walk_in_test');
      expect(test.markers.map((m: any) => m.provider_id)).toEqual(['10231', '6399', '7600', '496', '899', '17306']);
      const auto = await c.get('/v3/lab_tests', { query: { generation_method: 'auto' } });
      expect(auto.body.map((t: any) => t.id).sort()).toEqual([...autoBefore, test.id].sort());
      const manual = await c.get('/v3/lab_tests');
      expect(manual.body.map((t: any) => t.id)).not.toContain(test.id);
      const addOnOnly = await c.post('/v3/order', {
        user_id: user,
        order_set: { add_on: { provider_ids: ['899'] } },
        patient_details: PATIENT,
        patient_address: ADDRESS,
      });
      expect(addOnOnly.status).toBe(422);
      expect(addOnOnly.body.detail[0].loc).toEqual(['body', 'collection_method']);
      const ok = await c.post('/v3/order', {
        user_id: user,
        collection_method: 'walk_in_test',
        order_set: { add_on: { provider_ids: ['899'] } },
        patient_details: PATIENT,
        patient_address: ADDRESS,
      });
      expect(ok.status).toBe(200);
      expect(ok.body.order.lab_test.lab.slug).toBe('quest');
      const mixed = await c.post('/v3/order', {
        user_id: user,
        order_set: { lab_test_ids: [tests.walk_in_test], add_on: { provider_ids: ['004259'] } },
        patient_details: PATIENT,
        patient_address: ADDRESS,
      });
      expect(mixed.status).toBe(400);
    });

    it('replays an X-Idempotency-Key answer (success and business errors), never a 422', async () => {
      const c = createClient(adapter, { seed: 24, ...SMALL });
      const headers = { 'X-Idempotency-Key': 'order-1' };
      const first = await placeOrder(c, 'testkit', { headers });
      const second = await placeOrder(c, 'testkit', { headers });
      expect(second.status).toBe(200);
      expect(second.text).toBe(first.text);
      expect((await c.get('/v3/orders', { query: { order_type: 'testkit', search_input: 'grace' } })).body.total).toBe(1);
      const other = await placeOrder(c, 'testkit', { headers: { 'X-Idempotency-Key': 'order-2' } });
      expect(other.body.order.id).not.toBe(first.body.order.id);
      // keys are per endpoint: the same key on POST /v3/order/testkit is another request
      const kitBody = {
        user_id: first.body.order.user_id,
        lab_test_id: first.body.order.lab_test.id,
        shipping_details: { ...ADDRESS, phone_number: '+14155550100' },
      };
      const kit = await c.post('/v3/order/testkit', kitBody, { headers });
      expect(kit.status, kit.text).toBe(200);
      expect(kit.body.order.id).not.toBe(first.body.order.id);
      expect(kit.body.order.patient_details).toBeNull();
      const kitAgain = await c.post('/v3/order/testkit', kitBody, { headers });
      expect(kitAgain.text).toBe(kit.text);

      const invalid = await placeOrder(c, 'testkit', { headers: { 'X-Idempotency-Key': 'order-3' }, patient: { gender: 'x' } });
      expect(invalid.status).toBe(422);
      const valid = await placeOrder(c, 'testkit', { headers: { 'X-Idempotency-Key': 'order-3' } });
      expect(valid.status).toBe(200);

      const refused = await placeOrder(c, 'testkit', {
        headers: { 'X-Idempotency-Key': 'order-4' },
        patient: { phone_number: '+15555550100' },
      });
      expect(refused.status).toBe(400);
      const replayed = await placeOrder(c, 'testkit', { headers: { 'X-Idempotency-Key': 'order-4' } });
      expect(replayed.status).toBe(400);
      expect(replayed.body).toEqual({ detail: LABS_ERRORS.fictionalPhone });
      const noCache = { 'X-Idempotency-Key': 'order-5', 'X-Idempotency-Error': 'no-cache' };
      expect((await placeOrder(c, 'testkit', { headers: noCache, patient: { phone_number: '+15555550100' } })).status).toBe(400);
      expect((await placeOrder(c, 'testkit', { headers: noCache })).status).toBe(200);

      await c.advance(DAY + 1);
      const expired = await placeOrder(c, 'testkit', { headers });
      expect(expired.body.order.id).not.toBe(first.body.order.id);
    });
  });

  describe('simulate', () => {
    it('walks to final_status at once, answers "Success", emits each step in order', async () => {
      const c = createClient(adapter, { seed: 25, ...SMALL });
      const order = await newOrder(c, 'testkit');
      const res = await c.post(`/v3/order/${order.id}/test`, undefined, {
        query: { final_status: 'collecting_sample.testkit.with_customer' },
      });
      expect(res.status).toBe(200);
      expect(res.body).toBe('Success');
      let now = await getOrder(c, order.id);
      expect(lows(now)).toEqual(['ordered', 'requisition_created', 'transit_customer', 'out_for_delivery', 'with_customer']);
      expect(new Set(now.events.map((e: any) => e.created_at)).size).toBe(1);
      const none = await c.post(`/v3/order/${order.id}/test`);
      expect(none.status).toBe(200);
      now = await getOrder(c, order.id);
      expect(lows(now).at(-1)).toBe('completed');
      expect(now.interpretation).toBe('normal');
      const events = await labEvents(c, order.id);
      expect(events.map((e) => e.status)).toEqual(now.events.map((e: any) => e.status));
      expectConsistent(now);
      const done = await c.post(`/v3/order/${order.id}/test`, undefined, { query: { final_status: 'failed.testkit.lost' } });
      expect(done.status).toBe(400);
      expect(done.body.detail).toBe(LABS_TEXTS.alreadyFinal('completed'));
    });

    it('reaches side statuses, spaces steps with delay, and applies the result flags', async () => {
      const c = createClient(adapter, { seed: 26, ...SMALL });
      const lost = await newOrder(c, 'testkit');
      expect(
        (await c.post(`/v3/order/${lost.id}/test`, undefined, { query: { final_status: 'failed.testkit.failure_to_deliver_to_lab' } }))
          .status,
      ).toBe(200);
      expect(lows(await getOrder(c, lost.id))).toEqual([
        'ordered',
        'requisition_created',
        'transit_customer',
        'out_for_delivery',
        'with_customer',
        'transit_lab',
        'failure_to_deliver_to_lab',
      ]);

      const slow = await newOrder(c, 'testkit');
      const flags = { interpretation: 'abnormal', result_types: ['range', 'coded_value'], has_missing_results: true };
      expect(
        (await c.post(`/v3/order/${slow.id}/test`, flags, { query: { final_status: 'completed.testkit.completed', delay: 60 } })).status,
      ).toBe(200);
      expect(lows(await getOrder(c, slow.id))).toEqual(['ordered']);
      await c.advance(60);
      expect(lows(await getOrder(c, slow.id))).toEqual(['ordered', 'requisition_created']);
      await c.advance(60 * 6);
      const now = await getOrder(c, slow.id);
      expect(lows(now)).toEqual([
        'ordered',
        'requisition_created',
        'transit_customer',
        'out_for_delivery',
        'with_customer',
        'transit_lab',
        'delivered_to_lab',
        'completed',
      ]);
      const times = now.events.map((e: any) => Date.parse(e.created_at));
      expect(times.slice(1).map((t: number, i: number) => (t - times[i]) / 1000)).toEqual([60, 60, 60, 60, 60, 60, 60]);
      expect(now.interpretation).toBe('abnormal');
      expect(now.has_missing_results).toBe(true);
      const result = (await c.get(`/v3/order/${slow.id}/result`)).body;
      expect(new Set(result.results.map((r: any) => r.type))).toEqual(new Set(['range', 'coded_value']));
      expect(result.missing_results.length).toBeGreaterThan(0);
      expect(result.results.some((r: any) => r.interpretation === 'abnormal')).toBe(true);
      expect(result.results.some((r: any) => r.interpretation === 'critical')).toBe(false);

      const walk = await newOrder(c, 'walk_in_test');
      expect(
        (
          await c.post(`/v3/order/${walk.id}/test`, undefined, {
            query: { final_status: 'collecting_sample.walk_in_test.redraw_available' },
          })
        ).status,
      ).toBe(200);
      expect(lows(await getOrder(c, walk.id))).toEqual(['ordered', 'requisition_created', 'redraw_available']);
    });

    it('refuses what cannot be', async () => {
      const c = createClient(adapter, { seed: 27, ...SMALL });
      const order = await newOrder(c, 'walk_in_test');
      const bad = await c.post(`/v3/order/${order.id}/test`, undefined, { query: { final_status: 'received.walk_in_test.nonsense' } });
      expect(bad.status).toBe(422);
      expect(bad.body.detail[0].loc).toEqual(['query', 'final_status']);
      const other = await c.post(`/v3/order/${order.id}/test`, undefined, { query: { final_status: 'completed.testkit.completed' } });
      expect(other.status).toBe(400);
      const negative = await c.post(`/v3/order/${order.id}/test`, undefined, { query: { delay: -1 } });
      expect(negative.status).toBe(422);
      const unknown = await c.post('/v3/order/00000000-0000-4000-8000-000000000000/test');
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ detail: LABS_ERRORS.orderActionNotFound });
      const flags = await c.post(`/v3/order/${order.id}/test`, { interpretation: 'weird' });
      expect(flags.status).toBe(422);
      expect(lows(await getOrder(c, order.id))).toEqual(['ordered']);
      const prodKey = { 'x-service-api-key': c.creds.teams[0]?.api_keys.production ?? '' };
      expect((await c.post(`/v3/order/${order.id}/test`, undefined, { headers: prodKey })).status).toBe(404);
      const prodUser = await c.post('/v2/user', { client_user_id: 'prod-patient' }, { headers: prodKey });
      const tests = await c.get('/v3/lab_tests', { headers: prodKey });
      const prodOrder = await c.post(
        '/v3/order',
        { user_id: prodUser.body.user_id, lab_test_id: tests.body[0].id, patient_details: PATIENT, patient_address: ADDRESS },
        { headers: prodKey },
      );
      expect(prodOrder.status).toBe(200);
      const prod = await c.post(`/v3/order/${prodOrder.body.order.id}/test`, undefined, { headers: prodKey });
      expect(prod.status).toBe(400);
      expect(prod.body.detail).toBe(LABS_ERRORS.simulationProductionOnly);
    });
  });

  describe('cancel', () => {
    it('cancels from allowed statuses and refuses others with a 400 JSON body', async () => {
      const c = createClient(adapter, { seed: 28, ...SMALL });
      const order = await newOrder(c, 'at_home_phlebotomy');
      await c.post(`/v3/order/${order.id}/test`, undefined, {
        query: { final_status: 'collecting_sample.at_home_phlebotomy.draw_completed' },
      });
      const res = await c.post(`/v3/order/${order.id}/cancel`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: 'SUCCESS', message: 'Order cancelled' });
      expect(res.body.order.last_event.status).toBe('cancelled.at_home_phlebotomy.cancelled');
      expect(res.body.order.order_transaction.status).toBe('cancelled');
      expectConsistent(res.body.order);
      await c.advance(10 * DAY);
      expect(lows(await getOrder(c, order.id)).at(-1)).toBe('cancelled');
      const again = await c.post(`/v3/order/${order.id}/cancel`);
      expect(again.status).toBe(400);
      expect(again.body.detail).toBe(LABS_TEXTS.transitionNotAllowed('cancelled', 'cancelled'));

      const kit = await newOrder(c, 'testkit');
      await c.advance(2 * 3600);
      const shipped = await c.post(`/v3/order/${kit.id}/cancel`);
      expect(shipped.status).toBe(400);
      expect(shipped.body).toEqual({
        detail: LABS_TEXTS.transitionNotAllowed('transit_customer', 'cancelled'),
        error: 'Bad Request',
        message: LABS_TEXTS.transitionNotAllowed('transit_customer', 'cancelled'),
        status_code: 400,
      });

      const walk = await newOrder(c, 'walk_in_test');
      await c.advance(3 * DAY);
      expect((await c.post(`/v3/order/${walk.id}/cancel`)).status).toBe(400);
      const fresh = await newOrder(c, 'walk_in_test');
      expect((await c.post(`/v3/order/${fresh.id}/cancel`)).status).toBe(200);
      const events = await labEvents(c, fresh.id);
      expect(events.map((e) => e.status)).toEqual(['received.walk_in_test.ordered', 'cancelled.walk_in_test.cancelled']);
      expect((await c.post('/v3/order/00000000-0000-4000-8000-000000000000/cancel')).body).toEqual({
        detail: LABS_ERRORS.orderActionNotFound,
      });
      expect((await c.get('/v3/order/00000000-0000-4000-8000-000000000000')).body).toEqual({ detail: LABS_ERRORS.orderGetNotFound });
      expect((await c.get('/v3/order/not-a-uuid')).status).toBe(422);
    });

    it('resend_events re-emits chosen orders', async () => {
      const c = createClient(adapter, { seed: 29, ...SMALL });
      const a = await newOrder(c, 'walk_in_test');
      const b = await newOrder(c, 'testkit');
      const res = await c.post('/v3/order/resend_events', { order_ids: [b.id, '00000000-0000-4000-8000-000000000000'] });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ order_ids: [b.id] });
      expect((await labEvents(c, b.id)).map((e) => e.type)).toEqual(['labtest.order.created', 'labtest.order.created']);
      expect(await labEvents(c, a.id)).toHaveLength(1);
      expect((await c.post('/v3/order/resend_events', {})).status).toBe(422);
    });
  });
});
