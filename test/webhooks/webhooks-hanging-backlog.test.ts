/**
 * Issue 11, a receiver that never answers (review 11, gaps 1 and 2): many messages queued to one
 * hanging endpoint cost one attempt timeout per retry step, not one per message (the timeout
 * breaker: attempts queued behind a timed-out one are recorded as failed, not sent; since issue
 * 27 an advance waits at most one attempt timeout in all, so the tests walk the retry steps one
 * advance each, `walk`); an advance
 * answers while writers keep adding messages; a failing endpoint holds a bounded number of
 * pending messages. Deliveries go through an injected transport that never settles until its
 * signal aborts; the assertions count calls and timeouts, never seconds. No traffic leaves the
 * process.
 */
import { callAt } from '../support/jobs.js';
import { expect, it } from 'vitest';
import { BACKLOG_FULL, MAX_PENDING_PER_ENDPOINT, NOT_SENT_AFTER_TIMEOUT } from '../../src/state/webhooks/backlog.js';
import type { TransportRequest, TransportResponse, WebhookTransport } from '../../src/state/webhooks/transport.js';
import { createClient, forAdapters, forEachAdapter } from '../support/client.js';
import { attempts, createEndpoint, emit, QUIET, walk } from '../support/webhooks-support.js';

const T0 = Date.parse('2026-01-05T09:00:00.000Z');
const iso = (offsetSeconds: number) => new Date(T0 + offsetSeconds * 1000).toISOString();
/** The sandbox time of each scheduled attempt when every one times out: 60 s (throttled), 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. */
const LADDER_S = [0, 60, 360, 2160, 9360, 27360, 63360, 99360];
const TIMEOUT_ERROR = 'timeout: no answer within 0.02 s';

const ok: TransportResponse = { status: 200, headers: {}, body: 'ok' };

/** A transport: `/hang` never answers (only the attempt's abort ends it), anything else answers 200. */
function hangingTransport(onHang: (request: TransportRequest) => void = () => undefined) {
  const counts = { hung: 0, aborted: 0, answered: 0 };
  const transport: WebhookTransport = (request) => {
    if (!request.url.endsWith('/hang')) {
      counts.answered++;
      return Promise.resolve(ok);
    }
    counts.hung++;
    onHang(request);
    return new Promise((_, reject) => {
      request.signal.addEventListener('abort', () => {
        counts.aborted++;
        reject(new Error('aborted'));
      });
    });
  };
  return { transport, counts };
}

forEachAdapter('a receiver that never answers', (adapter) => {
  it('six messages queued to it: each retry step costs one timeout, the others are recorded as not sent', async () => {
    const { transport, counts } = hangingTransport();
    const c = createClient(adapter, { ...QUIET, webhookTransport: transport, deliveryTimeout: 0.02 });
    const hang = await createEndpoint(c, { url: 'http://127.0.0.1:9/hang' });
    const good = await createEndpoint(c, { url: 'http://127.0.0.1:9/good' });
    for (let i = 0; i < 6; i++) emit(c, 'daily.data.steps.created', { i });
    await walk(c, [...LADDER_S, 2 * 86400]);
    // One attempt per retry step was sent and timed out; before the breaker, 6 x 8 = 48.
    expect(counts.hung).toBe(8);
    expect(counts.aborted).toBe(8);
    expect(counts.answered).toBe(6);
    const log = await attempts(c, { endpoint_id: hang.id });
    expect(log).toHaveLength(48);
    const sent = log.filter((a) => a.error === TIMEOUT_ERROR);
    const notSent = log.filter((a) => a.error === NOT_SENT_AFTER_TIMEOUT);
    expect(sent.map((a) => a.created_at)).toEqual(LADDER_S.map(iso));
    expect(notSent).toHaveLength(40);
    // Each message walked the whole ladder at the same steps, in event order within a step.
    for (let step = 0; step < LADDER_S.length; step++) {
      const at = log.filter((a) => a.created_at === iso(LADDER_S[step]!));
      expect(at.map((a) => JSON.parse(a.request.body).data.i)).toEqual([0, 1, 2, 3, 4, 5]);
      expect(at.map((a) => a.error)).toEqual([TIMEOUT_ERROR, ...Array(5).fill(NOT_SENT_AFTER_TIMEOUT)]);
      expect(at.every((a) => a.status === 'failed' && a.response === null && a.trigger === 'scheduled')).toBe(true);
      expect(at.map((a) => a.next_attempt_at)).toEqual(Array(6).fill(step + 1 < LADDER_S.length ? iso(LADDER_S[step + 1]!) : null));
    }
    expect((await attempts(c, { endpoint_id: good.id })).every((a) => a.status === 'success')).toBe(true);
  });

  it('new events due within 60 s of sandbox time after a timeout are not sent either: a 60 s walk costs two timeouts', async () => {
    const { transport, counts } = hangingTransport();
    const c = createClient(adapter, { ...QUIET, webhookTransport: transport, deliveryTimeout: 0.02 });
    const hang = await createEndpoint(c, { url: 'http://127.0.0.1:9/hang' });
    emit(c, 'daily.data.steps.created', { i: 0 });
    // Jobs of the advance emit one event every 10 s (as demo connections' pulls do).
    for (let k = 1; k <= 5; k++)
      callAt(c.sandbox.world.scheduler, T0 + k * 10_000, 'test: own event', () => void emit(c, 'daily.data.steps.created', { i: k }));
    await walk(c, [0, 10, 20, 30, 40, 50, 60]);
    // At 0 s the first times out; the events at 10..50 s are not sent; at 60 s the retries are due:
    // one is sent (and times out), the others are not. Without the 60 s window: one per event time.
    expect(counts.hung).toBe(2);
    const log = await attempts(c, { endpoint_id: hang.id });
    expect(
      log.map((a) => [
        a.created_at,
        JSON.parse(a.request.body).data.i,
        a.error === TIMEOUT_ERROR ? 'sent' : a.error === NOT_SENT_AFTER_TIMEOUT ? 'not sent' : a.error,
      ]),
    ).toEqual([[iso(0), 0, 'sent'], ...[1, 2, 3, 4, 5].map((k) => [iso(k * 10), k, 'not sent']), [iso(60), 0, 'sent']]);
    // Their retries: 60 s after each (throttled like a timeout), so they follow at 70..110 s.
    expect(log.slice(1, 6).map((a) => a.next_attempt_at)).toEqual([70, 80, 90, 100, 110].map(iso));
  });

  it('once the receiver answers again, the breaker closes: the attempts behind the answer are sent', async () => {
    let calls = 0;
    let hungOnce = false;
    const transport: WebhookTransport = (request) => {
      calls++;
      if (hungOnce) return Promise.resolve(ok);
      hungOnce = true;
      return new Promise((_, reject) => request.signal.addEventListener('abort', () => reject(new Error('aborted'))));
    };
    const c = createClient(adapter, { ...QUIET, webhookTransport: transport, deliveryTimeout: 0.02 });
    const ep = await createEndpoint(c, { url: 'http://127.0.0.1:9/hang' });
    for (let i = 0; i < 3; i++) emit(c, 'daily.data.steps.created', { i });
    await walk(c, [0, 60]);
    expect(calls).toBe(4);
    const log = await attempts(c, { endpoint_id: ep.id });
    expect(log.map((a) => [a.created_at, JSON.parse(a.request.body).data.i, a.status, a.error])).toEqual([
      [iso(0), 0, 'failed', TIMEOUT_ERROR],
      [iso(0), 1, 'failed', NOT_SENT_AFTER_TIMEOUT],
      [iso(0), 2, 'failed', NOT_SENT_AFTER_TIMEOUT],
      [iso(60), 0, 'success', null],
      [iso(60), 1, 'success', null],
      [iso(60), 2, 'success', null],
    ]);
  });

  it('an advance answers while writers keep adding messages to the hanging endpoint; it waits less than one timeout', async () => {
    let writes = 0;
    let hungBeforeAnswer = -1;
    // A writer: each time the hanging receiver is called, requests add 5 more messages (80 in all).
    const { transport, counts } = hangingTransport(() => {
      for (let k = 0; k < 5 && writes < 80; k++) emit(c, 'daily.data.steps.created', { i: 100 + writes++ });
    });
    const c = createClient(adapter, { ...QUIET, webhookTransport: transport, deliveryTimeout: 0.02 });
    const hang = await createEndpoint(c, { url: 'http://127.0.0.1:9/hang' });
    // 20 messages queued before the advance (its own work), and jobs of the advance adding more.
    for (let i = 0; i < 20; i++) emit(c, 'daily.data.steps.created', { i });
    for (const at of [600, 1200, 1800])
      callAt(c.sandbox.world.scheduler, T0 + at * 1000, 'test: own event', () => void emit(c, 'daily.data.sleep.created'));
    const res = await c.advance(3600);
    hungBeforeAnswer = counts.hung;
    expect(res.status, res.text).toBe(200);
    expect(res.body.now).toBe(iso(3600));
    // The advance gave up on the hanging endpoint at its first barrier (80% of one timeout) and
    // awaited none of its later attempts: only the retries whose outcome came back while it was
    // still running (CPU time) were sent. Before issue 27, one timeout per own step (up to 24);
    // without the breaker every queued message costs a timeout per step (hundreds).
    expect(writes).toBeGreaterThan(0);
    expect(hungBeforeAnswer).toBeLessThanOrEqual(12);
    await c.sandbox.settle();
    const log = await attempts(c, { endpoint_id: hang.id });
    expect(log.filter((a) => a.error === NOT_SENT_AFTER_TIMEOUT).length).toBeGreaterThan(
      log.filter((a) => a.error === TIMEOUT_ERROR).length,
    );
  });
});

// Once, in process: 10,000 messages go onto the bus in process (`emit`) and the cap is the
// backlog's own rule; only the two reads at the end cross the adapter, alike on every adapter
// (test/route-table/adapters-parity.test.ts). It was half of this file's CPU on each adapter.
forAdapters(['fetch'], 'a receiver that never answers, many messages', (adapter) => {
  it('a failing endpoint holds at most MAX_PENDING_PER_ENDPOINT pending messages; more fail at once, unsent', async () => {
    const { transport, counts } = hangingTransport();
    const c = createClient(adapter, { ...QUIET, webhookTransport: transport, deliveryTimeout: 0.02 });
    expect((await c.put('/_sandbox/webhooks/settings', { retention: 100_000 })).status).toBe(200);
    const hang = await createEndpoint(c, { url: 'http://127.0.0.1:9/hang' });
    const good = await createEndpoint(c, { url: 'http://127.0.0.1:9/good', filter_types: ['daily.data.steps.created'] });
    // The first attempt times out (the endpoint is failing from then on); the rest fill the cap.
    emit(c, 'daily.data.steps.created', { i: 0 });
    await c.sandbox.settle();
    const extra = 25;
    for (let i = 1; i < MAX_PENDING_PER_ENDPOINT + extra; i++) emit(c, 'daily.data.steps.created', { i });
    await c.sandbox.settle();
    // The clock stands still within the 60 s after the timeout: nothing more was sent.
    expect(counts.hung).toBe(1);
    const failed = await c.get('/_sandbox/webhooks/messages', { query: { endpoint_id: hang.id, status: 'failed', limit: 1000 } });
    expect(failed.status, failed.text).toBe(200);
    const list = failed.body.messages as Array<Record<string, any>>;
    // The last ones, once 10,000 were pending (message 0 waits for its retry, 1..9,999 too).
    expect(list.map((m) => m.payload.data.i)).toEqual(Array.from({ length: extra }, (_, k) => MAX_PENDING_PER_ENDPOINT + k));
    for (const m of list)
      expect(m.destinations).toEqual([
        expect.objectContaining({ endpoint_id: hang.id, status: 'failed', failure_reason: BACKLOG_FULL, attempts: 0 }),
      ]);
    // The healthy endpoint is not capped: it got every message.
    expect(counts.answered).toBe(MAX_PENDING_PER_ENDPOINT + extra);
    expect((await attempts(c, { endpoint_id: good.id, status: 'success' })).length).toBe(1000);
  });
});

it('in realtime mode the queue behind a hanging receiver empties at its timeout: one call, the rest not sent', async () => {
  const { transport, counts } = hangingTransport();
  const c = createClient('msw', { ...QUIET, clock: 'realtime', webhookTransport: transport, deliveryTimeout: 0.02 });
  const hang = await createEndpoint(c, { url: 'http://127.0.0.1:9/hang' });
  for (let i = 0; i < 10; i++) emit(c, 'daily.data.steps.created', { i });
  await c.sandbox.settle();
  expect(counts.hung).toBe(1);
  const log = await attempts(c, { endpoint_id: hang.id });
  expect(log.map((a) => a.error)).toEqual([TIMEOUT_ERROR, ...Array(9).fill(NOT_SENT_AFTER_TIMEOUT)]);
  // Each got its retry as a timed-out attempt would: at least 60 s later.
  for (const a of log) expect(Date.parse(a.next_attempt_at) - Date.parse(a.created_at)).toBeGreaterThanOrEqual(60_000);
});
