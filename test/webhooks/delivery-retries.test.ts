/**
 * Failure handling on the sandbox clock: the retry ladder (5 s, 5 min, 30 min, 2 h, 5 h, 10 h,
 * 10 h), Retry-After and throttling bounds, refused connections and redirects, exhaustion,
 * disabling and deleting, 5-day auto-disable, resend, recover and secret rotation. Receivers are
 * an injected transport (scripted answers, no network), except one real HTTP receiver on
 * 127.0.0.1 for refused connections and unfollowed redirects through the default fetch transport.
 */
import { Webhook } from 'svix';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snapshotWorld } from '../../src/engine/snapshot.js';
import { createClient, forEachAdapter } from '../support/client.js';
import {
  attempts,
  createEndpoint,
  emit,
  flush,
  scriptedTransport,
  startReceiver,
  webhookBase,
  type TestReceiver,
  QUIET,
} from '../support/webhooks-support.js';

let rx: TestReceiver;
beforeAll(async () => {
  rx = await startReceiver();
});
afterAll(async () => {
  await rx.close();
});

const T0 = Date.parse('2026-01-05T09:00:00.000Z');
const iso = (offsetSeconds: number) => new Date(T0 + offsetSeconds * 1000).toISOString();
const LADDER = [0, 5, 305, 2105, 9305, 27305, 63305, 99305];
const DAY = 86400;

function failing(path: string) {
  return (r: { path: string }) => r.path === path;
}

forEachAdapter('webhook retries', (adapter) => {
  it('retries on the clock while the receiver fails, then succeeds; every attempt verifies with svix', async () => {
    const s = scriptedTransport();
    const c = createClient(adapter, { ...QUIET, webhookTransport: s.transport });
    const path = `/${adapter}/ladder-ok`;
    const { id, secret } = await createEndpoint(c, { url: `http://127.0.0.1:9${path}` });
    s.fallback = { status: 200, body: 'ok' };
    const script = [{ status: 500, body: 'boom' }, { status: 404 }, { status: 502 }];
    // The script is consumed by whichever request arrives first, so only this test's endpoint may be live.
    s.script.push(...script);
    emit(c, 'labtest.order.created', { id: 'o-1' });
    await flush(c);
    expect((await attempts(c, { endpoint_id: id })).map((a) => a.status)).toEqual(['failed']);
    await c.advance(DAY);
    const log = await attempts(c, { endpoint_id: id });
    expect(log.map((a) => a.created_at)).toEqual([iso(0), iso(5), iso(305), iso(2105)]);
    expect(log.map((a) => a.status)).toEqual(['failed', 'failed', 'failed', 'success']);
    expect(log.map((a) => a.response.status_code)).toEqual([500, 404, 502, 200]);
    expect(log.map((a) => a.next_attempt_at)).toEqual([iso(5), iso(305), iso(2105), null]);
    expect(log[0]!.response.body).toBe('boom');
    const got = s.received.filter(failing(path));
    expect(got).toHaveLength(4);
    expect(new Set(got.map((r) => r.headers['svix-id'])).size).toBe(1);
    for (const r of got) expect(new Webhook(secret).verify(r.body, r.headers)).toMatchObject({ event_type: 'labtest.order.created' });
    const msg = await c.get(`/_sandbox/webhooks/messages/${log[0]!.msg_id}`);
    expect(msg.body.destinations[0]).toMatchObject({ status: 'success', attempts: 4, next_attempt_at: null });
    expect(msg.body.attempts).toHaveLength(4);
  });

  it('walks all eight attempts, then marks the message failed (exhausted)', async () => {
    const s = scriptedTransport();
    const c = createClient(adapter, { ...QUIET, webhookTransport: s.transport });
    const path = `/${adapter}/ladder-fail`;
    const { id } = await createEndpoint(c, { url: `http://127.0.0.1:9${path}` });
    s.script.push(...Array.from({ length: 8 }, () => ({ status: 503, body: 'down' })));
    emit(c, 'daily.data.steps.created');
    await flush(c);
    const jobs = await c.get('/_sandbox/jobs');
    expect(jobs.body.jobs.some((j: { at: string; label: string }) => j.at === iso(5) && j.label.includes(id))).toBe(true);
    await c.advance(2 * DAY);
    const log = await attempts(c, { endpoint_id: id });
    expect(log.map((a) => a.created_at)).toEqual(LADDER.map(iso));
    expect(log.every((a) => a.status === 'failed' && a.trigger === 'scheduled')).toBe(true);
    expect(log[7]!.next_attempt_at).toBeNull();
    const msgs = await c.get('/_sandbox/webhooks/messages', { query: { endpoint_id: id, status: 'failed' } });
    expect(msgs.body.messages).toHaveLength(1);
    expect(msgs.body.messages[0].destinations[0]).toMatchObject({ status: 'failed', failure_reason: 'exhausted', scheduled_attempts: 8 });
    const ops = await c.get('/_sandbox/webhooks/operational-events', { query: { endpoint_id: id } });
    expect(ops.body.events.map((e: { type: string }) => e.type)).toEqual(['message.attempt.failing', 'message.attempt.exhausted']);
    expect(s.received.filter(failing(path))).toHaveLength(8);
  });

  it('honours Retry-After within [delay, 2 x delay] and waits at least 60 s after a 429', async () => {
    const s = scriptedTransport();
    const c = createClient(adapter, { ...QUIET, webhookTransport: s.transport });
    const path = `/${adapter}/retry-after`;
    const { id } = await createEndpoint(c, { url: `http://127.0.0.1:9${path}` });
    s.script.push(
      { status: 503, headers: { 'retry-after': '30' } }, // 5 s scheduled -> capped at 10 s
      { status: 503, headers: { 'retry-after': '1' } }, // 300 s scheduled -> at least 300 s
      { status: 429 }, // 1800 s scheduled, >= 60 s anyway
      { status: 503, headers: { 'retry-after': new Date(Date.now() + DAY * 1000).toUTCString() } }, // 7200 s, date a day away -> capped 14400 s
    );
    emit(c, 'daily.data.steps.created');
    await flush(c);
    await c.advance(DAY);
    const log = await attempts(c, { endpoint_id: id });
    expect(log.map((a) => a.created_at)).toEqual([iso(0), iso(10), iso(310), iso(2110), iso(2110 + 14400)]);
    expect(log[4]!.status).toBe('success');
  });

  it('counts refused connections and redirects as failures (redirects are not followed)', async () => {
    const c = createClient(adapter, QUIET);
    const closed = await startReceiver();
    const deadUrl = `${closed.url}/gone`;
    await closed.close();
    const dead = await createEndpoint(c, { url: deadUrl });
    const redirectPath = `/${adapter}/redirect`;
    const moved = await createEndpoint(c, { url: `${rx.url}${redirectPath}` });
    rx.script.push({ status: 301, headers: { location: `${rx.url}/${adapter}/elsewhere` } });
    emit(c, 'daily.data.steps.created');
    await flush(c);
    const [refused] = await attempts(c, { endpoint_id: dead.id });
    expect(refused).toMatchObject({ status: 'failed', response: null, next_attempt_at: iso(5) });
    expect(refused!.error).toMatch(/connection error/);
    const [redirect] = await attempts(c, { endpoint_id: moved.id });
    expect(redirect).toMatchObject({ status: 'failed', response: { status_code: 301 }, next_attempt_at: iso(5) });
    expect(rx.received.some((r) => r.path === `/${adapter}/elsewhere`)).toBe(false);
  });

  it('stops pending attempts when the endpoint is disabled or deleted', async () => {
    const s = scriptedTransport();
    const c = createClient(adapter, { ...QUIET, webhookTransport: s.transport });
    const a = await createEndpoint(c, { url: `http://127.0.0.1:9/${adapter}/stop-a` });
    const b = await createEndpoint(c, { url: `http://127.0.0.1:9/${adapter}/stop-b` });
    s.script.push({ status: 500 }, { status: 500 });
    emit(c, 'daily.data.steps.created');
    await flush(c);
    const patched = await c.mgmt('PATCH', `${webhookBase(c)}/${a.id}`, { body: { disabled: true } });
    expect(patched.body.disabled).toBe(true);
    expect((await c.mgmt('DELETE', `${webhookBase(c)}/${b.id}`)).status).toBe(204);
    await c.advance(2 * DAY);
    expect(await attempts(c, { endpoint_id: a.id })).toHaveLength(1);
    expect(await attempts(c, { endpoint_id: b.id })).toHaveLength(1);
    const msgs = await c.get('/_sandbox/webhooks/messages', { query: { status: 'failed' } });
    const reasons = msgs.body.messages[0].destinations.map((d: { failure_reason: string }) => d.failure_reason).sort();
    expect(reasons).toEqual(['endpoint_deleted', 'endpoint_disabled']);
    // A disabled endpoint gets no new messages.
    emit(c, 'daily.data.sleep.created');
    await flush(c);
    expect(await attempts(c, { endpoint_id: a.id })).toHaveLength(1);
  });

  it('obeys the receiver opt-outs webhook-delivery: abort-message and disable', async () => {
    const s = scriptedTransport();
    const c = createClient(adapter, { ...QUIET, webhookTransport: s.transport });
    const abort = await createEndpoint(c, { url: `http://127.0.0.1:9/${adapter}/abort`, filter_types: ['labtest.order.created'] });
    s.script.push({ status: 500, headers: { 'webhook-delivery': 'abort-message' } });
    emit(c, 'labtest.order.created');
    await flush(c);
    const off = await createEndpoint(c, { url: `http://127.0.0.1:9/${adapter}/disable`, filter_types: ['labtest.order.updated'] });
    s.script.push({ status: 410, headers: { 'webhook-delivery': 'disable' } });
    emit(c, 'labtest.order.updated');
    await flush(c);
    await c.advance(DAY);
    expect(await attempts(c, { endpoint_id: abort.id })).toHaveLength(1);
    expect(await attempts(c, { endpoint_id: off.id })).toHaveLength(1);
    const aborted = await c.get('/_sandbox/webhooks/messages', { query: { endpoint_id: abort.id } });
    expect(aborted.body.messages[0].destinations[0]).toMatchObject({ status: 'failed', failure_reason: 'aborted_by_receiver' });
    expect((await c.mgmt('GET', `${webhookBase(c)}/${abort.id}`)).body.disabled).toBe(false);
    expect((await c.mgmt('GET', `${webhookBase(c)}/${off.id}`)).body.disabled).toBe(true);
  });

  it('disables an endpoint whose deliveries all fail for 5 days of sandbox time', async () => {
    const s = scriptedTransport();
    const c = createClient(adapter, { ...QUIET, webhookTransport: s.transport });
    const path = `/${adapter}/five-days`;
    const { id } = await createEndpoint(c, { url: `http://127.0.0.1:9${path}` });
    const previous = s.fallback;
    s.fallback = { status: 500 };
    try {
      for (let day = 0; day < 6; day++) {
        emit(c, `daily.data.day${day}.created`);
        await flush(c);
        await c.advance(DAY);
      }
    } finally {
      s.fallback = previous;
    }
    const ep = (await c.mgmt('GET', `${webhookBase(c)}/${id}`)).body;
    expect(ep.disabled).toBe(true);
    const ops = await c.get('/_sandbox/webhooks/operational-events', { query: { endpoint_id: id, type: 'endpoint.disabled' } });
    expect(ops.body.events).toHaveLength(1);
    expect(Date.parse(ops.body.events[0].at) - T0).toBeGreaterThanOrEqual(5 * DAY * 1000);
    const log = await attempts(c, { endpoint_id: id });
    expect(Date.parse(log[log.length - 1]!.created_at) - T0).toBe(Date.parse(ops.body.events[0].at) - T0);
  });

  it('resends one message to one endpoint: same id, fresh signature, a failed resend is not retried', async () => {
    const s = scriptedTransport();
    const c = createClient(adapter, { ...QUIET, webhookTransport: s.transport });
    const path = `/${adapter}/resend`;
    const { id, secret } = await createEndpoint(c, { url: `http://127.0.0.1:9${path}` });
    s.script.push(...Array.from({ length: 8 }, () => ({ status: 500 })));
    emit(c, 'labtest.order.updated');
    await flush(c);
    await c.advance(2 * DAY);
    const [first] = await attempts(c, { endpoint_id: id });
    const msgId = first!.msg_id as string;
    s.script.push({ status: 500 });
    const failed = await c.post(`/_sandbox/webhooks/messages/${msgId}/endpoints/${id}/resend`);
    expect(failed.status).toBe(200);
    expect(failed.body.attempt).toMatchObject({
      msg_id: msgId,
      trigger: 'manual',
      status: 'failed',
      next_attempt_at: null,
      attempt_number: 9,
    });
    await c.advance(DAY);
    expect(await attempts(c, { endpoint_id: id })).toHaveLength(9);
    const ok = await c.post(`/_sandbox/webhooks/messages/${msgId}/endpoints/${id}/resend`);
    expect(ok.body.attempt).toMatchObject({ trigger: 'manual', status: 'success' });
    const last = s.received.filter(failing(path)).at(-1)!;
    expect(last.headers['svix-id']).toBe(msgId);
    expect(new Webhook(secret).verify(last.body, last.headers)).toMatchObject({ event_type: 'labtest.order.updated' });
    const msg = await c.get(`/_sandbox/webhooks/messages/${msgId}`);
    expect(msg.body.destinations[0].status).toBe('success');
    expect((await c.post(`/_sandbox/webhooks/messages/msg_nope/endpoints/${id}/resend`)).status).toBe(404);
  });

  it('recovers every failed message of an endpoint since a time, in order', async () => {
    const s = scriptedTransport();
    const c = createClient(adapter, { ...QUIET, webhookTransport: s.transport });
    const path = `/${adapter}/recover`;
    const { id, secret } = await createEndpoint(c, { url: `http://127.0.0.1:9${path}` });
    const previous = s.fallback;
    s.fallback = { status: 500 };
    try {
      emit(c, 'daily.data.a.created');
      await flush(c);
      await c.advance(3600);
      emit(c, 'daily.data.b.created');
      emit(c, 'daily.data.c.created');
      await flush(c);
      await c.advance(2 * DAY);
    } finally {
      s.fallback = previous;
    }
    const failedMsgs = await c.get('/_sandbox/webhooks/messages', { query: { endpoint_id: id, status: 'failed' } });
    expect(failedMsgs.body.messages).toHaveLength(3);
    const before = s.received.filter(failing(path)).length;
    const res = await c.post(`/_sandbox/webhooks/endpoints/${id}/recover`, { since: iso(60) });
    expect(res.status, res.text).toBe(200);
    expect(res.body.recovered).toBe(2);
    const replayed = s.received.filter(failing(path)).slice(before);
    expect(replayed.map((r) => JSON.parse(r.body).event_type)).toEqual(['daily.data.b.created', 'daily.data.c.created']);
    for (const r of replayed) expect(new Webhook(secret).verify(r.body, r.headers)).toBeTruthy();
    const still = await c.get('/_sandbox/webhooks/messages', { query: { endpoint_id: id, status: 'failed' } });
    expect(still.body.messages.map((m: { event_type: string }) => m.event_type)).toEqual(['daily.data.a.created']);
    expect((await c.post(`/_sandbox/webhooks/endpoints/${id}/recover`, { since: iso(-15 * DAY) })).status).toBe(422);
    expect((await c.post(`/_sandbox/webhooks/endpoints/${id}/recover`, {})).status).toBe(422);
  });

  it('signs with old and new secret for 24 h after a rotation, then with the new one only', async () => {
    const s = scriptedTransport();
    const c = createClient(adapter, { ...QUIET, webhookTransport: s.transport });
    const path = `/${adapter}/rotate`;
    const { id, secret: oldSecret } = await createEndpoint(c, { url: `http://127.0.0.1:9${path}` });
    const rotate = await c.mgmt('POST', `${webhookBase(c)}/${id}/secret/rotate`, { body: {} });
    expect(rotate.status).toBe(204);
    const newSecret = (await c.mgmt('GET', `${webhookBase(c)}/${id}/secret`)).body.key as string;
    expect(newSecret).not.toBe(oldSecret);
    emit(c, 'daily.data.steps.created');
    await flush(c);
    const during = s.received.filter(failing(path)).at(-1)!;
    expect(during.headers['svix-signature']!.split(' ')).toHaveLength(2);
    expect(new Webhook(oldSecret).verify(during.body, during.headers)).toBeTruthy();
    expect(new Webhook(newSecret).verify(during.body, during.headers)).toBeTruthy();
    await c.advance(DAY);
    emit(c, 'daily.data.sleep.created');
    await flush(c);
    const after = s.received.filter(failing(path)).at(-1)!;
    expect(after.headers['svix-signature']!.split(' ')).toHaveLength(1);
    expect(new Webhook(newSecret).verify(after.body, after.headers)).toBeTruthy();
    expect(() => new Webhook(oldSecret).verify(after.body, after.headers)).toThrow();
    // A supplied key is used as given; a bad one is refused and changes nothing.
    const chosen = `whsec_${Buffer.alloc(24, 9).toString('base64')}`;
    expect((await c.mgmt('POST', `${webhookBase(c)}/${id}/secret/rotate`, { body: { key: chosen } })).status).toBe(204);
    expect((await c.mgmt('GET', `${webhookBase(c)}/${id}/secret`)).body.key).toBe(chosen);
    const bad = await c.mgmt('POST', `${webhookBase(c)}/${id}/secret/rotate`, { body: { key: 'whsec_abc' } });
    expect(bad.status).toBe(422);
    expect((await c.mgmt('GET', `${webhookBase(c)}/${id}/secret`)).body.key).toBe(chosen);
  });

  it('keeps at most 10 old keys', async () => {
    const s = scriptedTransport();
    const c = createClient(adapter, { ...QUIET, webhookTransport: s.transport });
    const path = `/${adapter}/many-keys`;
    const { id } = await createEndpoint(c, { url: `http://127.0.0.1:9${path}` });
    for (let i = 0; i < 12; i++) expect((await c.mgmt('POST', `${webhookBase(c)}/${id}/secret/rotate`, { body: {} })).status).toBe(204);
    emit(c, 'daily.data.steps.created');
    await flush(c);
    expect(s.received.filter(failing(path)).at(-1)!.headers['svix-signature']!.split(' ')).toHaveLength(11);
  });
});

describe('webhook delivery determinism', () => {
  it('gives the same world snapshot for the same seed and the same requests', async () => {
    const run = async () => {
      const s = scriptedTransport();
      const c = createClient('express', { ...QUIET, seed: 5, webhookTransport: s.transport });
      const path = '/determinism';
      await createEndpoint(c, { url: `http://127.0.0.1:9${path}` });
      await createEndpoint(c, { url: `http://127.0.0.1:9${path}-2`, filter_types: ['labtest.order.created'] });
      s.script.push({ status: 500 }, { status: 500 });
      emit(c, 'labtest.order.created');
      emit(c, 'daily.data.steps.created');
      await flush(c);
      await c.advance(DAY);
      return snapshotWorld(c.sandbox.world);
    };
    const first = await run();
    expect(first).toContain('msg_');
    expect(await run()).toBe(first);
  });
});

describe('webhook retry jitter', () => {
  it('is off by default and, when turned on, stays within +-20% and reproducible for a seed', async () => {
    const run = async () => {
      const s = scriptedTransport();
      const c = createClient('express', { ...QUIET, seed: 8, webhookTransport: s.transport });
      expect((await c.put('/_sandbox/webhooks/settings', { jitter: true })).body).toEqual({ jitter: true, retention: 5000, evicted: 0 });
      const { id } = await createEndpoint(c, { url: `http://127.0.0.1:9/jitter` });
      s.script.push({ status: 500 }, { status: 500 }, { status: 500 });
      emit(c, 'daily.data.steps.created');
      await flush(c);
      await c.advance(DAY);
      return (await attempts(c, { endpoint_id: id })).map((a) => (Date.parse(a.created_at) - T0) / 1000);
    };
    const times = await run();
    expect(times).toHaveLength(4);
    const gaps = [times[1]! - times[0]!, times[2]! - times[1]!, times[3]! - times[2]!];
    [5, 300, 1800].forEach((base, i) => {
      expect(gaps[i]).toBeGreaterThanOrEqual(base * 0.8);
      expect(gaps[i]).toBeLessThanOrEqual(base * 1.2);
    });
    expect(gaps).not.toEqual([5, 300, 1800]);
    expect(await run()).toEqual(times);
  });
});

describe('webhook retries in realtime mode', () => {
  it('runs retries from the realtime clock without a manual advance', async () => {
    // The wall clock is injected: moving it moves the realtime sandbox clock (x200), no sleeping.
    let wall = T0;
    const scripted = scriptedTransport();
    const c = createClient('express', {
      ...QUIET,
      clock: 'realtime',
      timeScale: 200,
      startAt: T0,
      wallClock: () => wall,
      webhookTransport: scripted.transport,
    });
    try {
      const { id } = await createEndpoint(c, { url: 'http://127.0.0.1:9/realtime/retry' });
      scripted.script.push({ status: 500 });
      emit(c, 'daily.data.steps.created');
      await c.sandbox.settle();
      expect((await attempts(c, { endpoint_id: id })).map((a) => [a.created_at, a.status, a.next_attempt_at])).toEqual([
        [iso(0), 'failed', iso(5)],
      ]);
      wall += 4000 / 200;
      // Any request lets due jobs run (the timer does too); nothing is due 4 s in.
      await c.get('/_sandbox/clock');
      await c.sandbox.settle();
      expect(await attempts(c, { endpoint_id: id })).toHaveLength(1);
      wall += 1000 / 200;
      await c.get('/_sandbox/clock');
      await c.sandbox.settle();
      const log = await attempts(c, { endpoint_id: id });
      expect(log.map((a) => [a.created_at, a.status])).toEqual([
        [iso(0), 'failed'],
        [iso(5), 'success'],
      ]);
      expect(scripted.received).toHaveLength(2);
    } finally {
      c.sandbox.close();
    }
  });
});
