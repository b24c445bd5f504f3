/** Unmatched results: test runs on the clock, listing, accept onto an order, resolve (issue 13). */
import { expect, it } from 'vitest';
import { createClient, forEachAdapter, type TestClient } from '../support/client.js';
import { oasValidator } from '../support/openapi.js';
import { SMALL, placeOrder } from '../support/lab-helpers.js';
import { LABS_ERRORS, LABS_TEXTS } from '../../src/state/labs/errors.js';
import { UNKNOWN_ID } from '../support/route-params.js';
import { expectWire } from '../support/wire.js';

const oas = oasValidator('data');

async function run(c: TestClient, body: Record<string, unknown>, key: string) {
  const res = await c.post('/v3/unmatched_result_test', body, { headers: { 'x-idempotency-key': key } });
  expect(res.status, res.text).toBe(202);
  oas?.expectValid('CreateUnmatchedResultTestResponse', res.body);
  expectWire('unmatched.test_run.create', res);
  return res.body.run_id as string;
}

forEachAdapter('unmatched results', (adapter) => {
  it('lists the test cases; a managed run creates orders and an unmatched result on the clock', async () => {
    const c = createClient(adapter, { seed: 151, ...SMALL });
    const cases = await c.get('/v3/unmatched_result_test/case');
    oas?.expectValid('ListUnmatchedResultTestCasesResponse', cases.body);
    expectWire('unmatched.test_cases', cases);
    expect(cases.body.data).toHaveLength(8);
    expect(cases.body.data.find((d: any) => d.case === 'multiple_demo_match')).toEqual({
      case: 'multiple_demo_match',
      order_roles: ['first', 'second'],
      required_statuses: { first: 'requisition_created', second: 'requisition_created' },
      lab_constraints: ['same_lab'],
    });

    const runId = await run(c, { case: 'match_completed', order_source: 'managed', interpretation: 'abnormal' }, 'run-1');
    expect(await run(c, { case: 'match_completed', order_source: 'managed' }, 'run-1')).toBe(runId);
    const queued = await c.get(`/v3/unmatched_result_test/${runId}`);
    expect(queued.body).toMatchObject({
      run_id: runId,
      status: 'queued',
      stage: 'queued',
      case: 'match_completed',
      order_source: 'managed',
      result_status: 'final',
      orders: {},
      raw_result_id: null,
      started_at: null,
    });
    oas?.expectValid('GetUnmatchedResultTestResponse', queued.body);
    expectWire('unmatched.test_run.get', queued);
    await c.advance(5);
    expect((await c.get(`/v3/unmatched_result_test/${runId}`)).body).toMatchObject({ status: 'running', stage: 'selecting_configuration' });
    await c.advance(60);
    const done = await c.get(`/v3/unmatched_result_test/${runId}`);
    oas?.expectValid('GetUnmatchedResultTestResponse', done.body);
    expectWire('unmatched.test_run.get', done);
    expect(done.body).toMatchObject({ status: 'succeeded', stage: 'succeeded', error: null });
    const target = done.body.orders.target;
    expect((await c.get(`/v3/order/${target.order_id}`)).body.status).toBe('completed');

    const raw = await c.get(`/v3/unmatched_result/${done.body.raw_result_id}`);
    oas?.expectValid('GetUnmatchedResultResponse', raw.body);
    expectWire('unmatched.get', raw);
    expect(raw.body).toMatchObject({
      status: 'pending_customer_review',
      decision_code: 'match_completed',
      interpretation: 'abnormal',
      result_status: 'final',
      lab: { slug: 'quest' },
      allowed_actions: ['accept', 'reject', 'unsure'],
      resolution_action: null,
      patient: { first_name: 'Riley', last_name: 'Matcher', dob: '1984-05-17T00:00:00+00:00' },
    });
    expect(raw.body.candidate_groups).toEqual([
      {
        user_id: target.user_id,
        candidates: [
          expect.objectContaining({
            candidate_type: 'provenance_order',
            order_id: target.order_id,
            last_status: 'completed',
            confidence_level: 'high',
          }),
        ],
      },
    ]);
    expect(raw.body.markers.length).toBeGreaterThan(0);

    // Accepting onto the completed order corrects it.
    const accepted = await c.post(`/v3/unmatched_result/${raw.body.id}/accept`, { note: 'ours' });
    expect(accepted.status, accepted.text).toBe(200);
    oas?.expectValid('ClientFacingOrder', accepted.body);
    expectWire('unmatched.accept', accepted);
    expect(accepted.body).toMatchObject({ id: target.order_id, status: 'completed' });
    expect(accepted.body.events.at(-1).status).toBe('completed.walk_in_test.corrected');
    const after = await c.get(`/v3/unmatched_result/${raw.body.id}`);
    expect(after.body).toMatchObject({
      status: 'matched',
      resolution_action: 'accept',
      resolved_order_id: target.order_id,
      resolved_user_id: target.user_id,
      note: 'ours',
      allowed_actions: [],
    });
    const again = await c.post(`/v3/unmatched_result/${raw.body.id}/accept`, {});
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ detail: LABS_ERRORS.unmatchedAlreadyResolved });
  });

  it('accepts a partial result onto an open order: partial results now, final a day later', async () => {
    const c = createClient(adapter, { seed: 152, ...SMALL });
    const runId = await run(c, { case: 'match_demo', order_source: 'managed', result_status: 'partial' }, 'demo');
    await c.advance(60);
    const done = (await c.get(`/v3/unmatched_result_test/${runId}`)).body;
    const target = done.orders.target;
    const raw = (await c.get(`/v3/unmatched_result/${done.raw_result_id}`)).body;
    expect(raw.candidate_groups[0].candidates[0]).toMatchObject({
      candidate_type: 'order_option',
      confidence_level: 'medium',
      last_status: 'requisition_created',
    });
    const wrongUser = await c.post(`/v3/unmatched_result/${raw.id}/accept`, { order_id: target.order_id, user_id: UNKNOWN_ID });
    expect(wrongUser.body).toEqual({ detail: LABS_ERRORS.unmatchedOrderOtherUser });
    expect((await c.post(`/v3/unmatched_result/${raw.id}/accept`, { order_id: UNKNOWN_ID })).status).toBe(404);
    const accepted = await c.post(`/v3/unmatched_result/${raw.id}/accept`, { user_id: target.user_id });
    expect(accepted.body.events.at(-1).status).toBe('sample_with_lab.walk_in_test.partial_results');
    await c.advance(86_400);
    const order = await c.get(`/v3/order/${target.order_id}`);
    expect(order.body.status).toBe('completed');
    expect((await c.get(`/v3/order/${target.order_id}/result`)).status).toBe(200);

    // A result accepted onto a cancelled order revives it with results, and the order's event goes out.
    const cancelledRun = await run(c, { case: 'match_cancelled', order_source: 'managed', interpretation: 'critical' }, 'cancelled');
    await c.advance(60);
    const cr = (await c.get(`/v3/unmatched_result_test/${cancelledRun}`)).body;
    const cancelledOrder = cr.orders.target.order_id as string;
    expect((await c.get(`/v3/order/${cancelledOrder}`)).body.status).toBe('cancelled');
    const revived = await c.post(`/v3/unmatched_result/${cr.raw_result_id}/accept`, { order_id: cancelledOrder });
    expect(revived.body.status).toBe('completed');
    const journal = (await c.get('/_sandbox/events', { query: { event_type: 'labtest.order.updated' } })).body.events;
    expect(journal.at(-1).envelope.data).toMatchObject({ id: cancelledOrder, status: 'completed' });
    expect(revived.body.interpretation).toBe('critical');
    expect((await c.get(`/v3/order/${cancelledOrder}/result`)).status).toBe(200);
  });

  it('resolves, lists with filters and cursors, fails runs with bad orders, and answers the real errors', async () => {
    const c = createClient(adapter, { seed: 153, ...SMALL });
    const ids: string[] = [];
    for (const [i, kase] of (['no_match', 'wrong_lab', 'multiple_demo_match'] as const).entries())
      ids.push(await run(c, { case: kase, order_source: 'managed' }, `k${i}`));
    await c.advance(60);
    const runs = await Promise.all(ids.map(async (id) => (await c.get(`/v3/unmatched_result_test/${id}`)).body));
    expect(runs.map((r) => r.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    const [noMatch, wrongLab, multi] = await Promise.all(
      runs.map(async (r) => (await c.get(`/v3/unmatched_result/${r.raw_result_id}`)).body),
    );
    expect(noMatch.candidate_groups).toEqual([]);
    expect(noMatch.patient.first_name).not.toBe('Riley');
    expect(wrongLab).toMatchObject({ lab: { slug: 'labcorp' }, sub_reason_codes: ['lab_account_mismatch'] });
    expect(multi.candidate_groups[0].candidates).toHaveLength(2);
    expect((await c.post(`/v3/unmatched_result/${multi.id}/accept`, {})).body).toEqual({ detail: LABS_ERRORS.unmatchedNeedsOrder });

    const unsure = await c.post(`/v3/unmatched_result/${noMatch.id}/resolve`, { action: 'unsure', note: 'who?' });
    oas?.expectValid('UnmatchedResult', unsure.body);
    expectWire('unmatched.resolve', unsure);
    expect(unsure.body).toMatchObject({ status: 'pending_ops_review', resolution_action: 'unsure', allowed_actions: ['accept', 'reject'] });
    expect((await c.post(`/v3/unmatched_result/${noMatch.id}/resolve`, { action: 'unsure' })).status).toBe(400);
    expect((await c.post(`/v3/unmatched_result/${wrongLab.id}/resolve`, { action: 'reject' })).body.status).toBe('resolved');
    expect((await c.post(`/v3/unmatched_result/${wrongLab.id}/resolve`, { action: 'accept' })).status).toBe(422);

    const all = await c.get('/v3/unmatched_result');
    oas?.expectValid('ListUnmatchedResultResponse', all.body);
    expectWire('unmatched.list', all);
    expect(all.body.total).toBe(3);
    expect(all.body.data.map((d: any) => d.id)).toEqual([multi.id, wrongLab.id, noMatch.id]);
    const first = await c.get('/v3/unmatched_result', { query: { limit: 2 } });
    expect(first.body.data.map((d: any) => d.id)).toEqual([multi.id, wrongLab.id]);
    const second = await c.get('/v3/unmatched_result', { query: { limit: 2, next_cursor: first.body.next_cursor } });
    expect(second.body).toMatchObject({ total: 3, next_cursor: null });
    expect(second.body.data.map((d: any) => d.id)).toEqual([noMatch.id]);
    expect((await c.get('/v3/unmatched_result', { query: { status: 'pending_ops_review' } })).body.data.map((d: any) => d.id)).toEqual([
      noMatch.id,
    ]);
    expect((await c.get('/v3/unmatched_result', { query: { status: 'resolved' } })).body.data.map((d: any) => d.id)).toEqual([wrongLab.id]);
    expect((await c.get('/v3/unmatched_result', { query: { decision_code: 'multiple_demo_match' } })).body.total).toBe(1);
    expect((await c.get('/v3/unmatched_result', { query: { lab_slug: 'labcorp' } })).body.data.map((d: any) => d.id)).toEqual([
      wrongLab.id,
    ]);
    expect((await c.get('/v3/unmatched_result', { query: { search_input: 'riley' } })).body.total).toBe(2);
    expect((await c.get('/v3/unmatched_result', { query: { search_input: '1984-05-17' } })).body.total).toBe(2);
    expect((await c.get('/v3/unmatched_result', { query: { created_at_start: '2999-01-01' } })).body).toEqual({
      data: [],
      next_cursor: null,
      total: 0,
    });
    expect((await c.get('/v3/unmatched_result', { query: { next_cursor: 'nope' } })).status).toBe(422);

    // Provided orders must be in the case's status.
    const placed = await placeOrder(c, 'walk_in_test');
    const bad = await run(c, { case: 'match_cancelled', order_source: 'provided', orders: { target: placed.body.order.id } }, 'bad');
    const missing = await run(c, { case: 'match_demo', order_source: 'provided', orders: {} }, 'missing');
    await c.advance(60);
    const badRun = (await c.get(`/v3/unmatched_result_test/${bad}`)).body;
    oas?.expectValid('GetUnmatchedResultTestResponse', badRun);
    expect(badRun).toMatchObject({ status: 'failed', stage: 'failed', raw_result_id: null, error: { code: 'order_status_mismatch' } });
    expect((await c.get(`/v3/unmatched_result_test/${missing}`)).body.error).toEqual({
      code: 'invalid_orders',
      message: LABS_TEXTS.runRoleMissing('target'),
    });

    const noKey = await c.post('/v3/unmatched_result_test', { case: 'no_match', order_source: 'managed' });
    expect(noKey.status).toBe(422);
    expect(noKey.body.detail[0]).toMatchObject({ type: 'missing', loc: ['header', 'X-Idempotency-Key'] });
    expect(
      (
        await c.post(
          '/v3/unmatched_result_test',
          { case: 'no_match', order_source: 'managed', extra: 1 },
          { headers: { 'x-idempotency-key': 'x' } },
        )
      ).status,
    ).toBe(422);
    expect((await c.get(`/v3/unmatched_result_test/${UNKNOWN_ID}`)).body).toEqual({ detail: LABS_ERRORS.unmatchedRunNotFound });
    expect((await c.get(`/v3/unmatched_result/${UNKNOWN_ID}`)).body).toEqual({ detail: LABS_ERRORS.unmatchedNotFound });
    // Another team sees none of it.
    const other = c.creds.teams[1]?.api_keys.sandbox ?? '';
    expect((await c.get(`/v3/unmatched_result/${multi.id}`, { headers: { 'x-service-api-key': other } })).status).toBe(404);
  });
});
