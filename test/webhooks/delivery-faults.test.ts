/**
 * Webhook delivery faults (issue 42: at-least-once delivery with no order promise): duplicate,
 * out of order, delayed on the virtual clock, and a stale signature timestamp, through
 * `POST /_sandbox/faults/webhooks` and a scenario's `webhook_faults:`, to a real receiver on
 * 127.0.0.1 that verifies with `standardwebhooks` / `svix`. No timers: the clock is moved and
 * `settle()` awaited.
 */
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { Webhook } from 'svix';
import { afterAll, expect, it } from 'vitest';
import { createClient, forEachAdapter, type AdapterName, type TestClient } from '../support/client.js';
import { createEndpoint, emit, flush, QUIET, webhookBase } from '../support/webhooks-support.js';
import { receiver, type Got, type Receiver } from './support.js';

const receivers: Receiver[] = [];
afterAll(() => {
  for (const r of receivers) r.close();
});

interface Arrival {
  id: string;
  timestamp: number;
  type: string;
  data: Record<string, unknown>;
  verified: string | null;
}

/** A receiver verifying each delivery with the endpoint's secret (standardwebhooks over svix-* headers): 204, or 400 with the error. */
async function verifying(): Promise<{ url: string; arrivals: Arrival[]; secret: { value: string } }> {
  const arrivals: Arrival[] = [];
  const secret = { value: '' };
  const r = await receiver((got: Got) => {
    const h = got.req.headers as Record<string, string>;
    let error: string | null = null;
    try {
      new StandardWebhook(secret.value).verify(got.body, {
        'webhook-id': h['svix-id']!,
        'webhook-timestamp': h['svix-timestamp']!,
        'webhook-signature': h['svix-signature']!,
      });
    } catch (e) {
      error = (e as Error).message;
    }
    const body = JSON.parse(got.body) as { event_type: string; data: Record<string, unknown> };
    arrivals.push({ id: h['svix-id']!, timestamp: Number(h['svix-timestamp']), type: body.event_type, data: body.data, verified: error });
    got.res.writeHead(error === null ? 204 : 400).end(error ?? '');
  });
  receivers.push(r);
  return { url: `${r.origin}/hook`, arrivals, secret };
}

async function setup(adapter: AdapterName): Promise<{ c: TestClient; arrivals: Arrival[]; endpointId: string; secret: string }> {
  const c = createClient(adapter, { ...QUIET, clock: 'manual', feed: 'off' });
  const rx = await verifying();
  const ep = await createEndpoint(c, { url: rx.url });
  rx.secret.value = ep.secret;
  return { c, arrivals: rx.arrivals, endpointId: ep.id, secret: ep.secret };
}

async function addFault(c: TestClient, body: Record<string, unknown>) {
  const res = await c.post('/_sandbox/faults/webhooks', body);
  expect(res.status, res.text).toBe(200);
  return res.body as { id: string; remaining: number };
}

forEachAdapter('webhook delivery faults', (adapter) => {
  it('duplicate: the same message twice (same svix-id), each attempt freshly signed and verifying with svix', async () => {
    const { c, arrivals, endpointId, secret } = await setup(adapter);
    await addFault(c, { fault: 'duplicate', endpoint_id: endpointId });
    emit(c, 'labtest.order.updated', { n: 1 });
    emit(c, 'labtest.order.updated', { n: 2 });
    await flush(c);
    expect(arrivals.map((a) => a.data.n)).toEqual([1, 1, 2]);
    expect(arrivals[0]!.id).toBe(arrivals[1]!.id);
    expect(arrivals.every((a) => a.verified === null)).toBe(true);
    const attempts = (await c.get('/_sandbox/webhooks/attempts', { query: { endpoint_id: endpointId } })).body.attempts as Array<{
      request: { headers: Record<string, string>; body: string };
    }>;
    for (const a of attempts) expect(() => new Webhook(secret).verify(a.request.body, a.request.headers)).not.toThrow();
    expect((await c.get('/_sandbox/faults/webhooks')).body.faults).toEqual([]);
  });

  it('out_of_order: a held message arrives after the next one to its endpoint', async () => {
    const { c, arrivals } = await setup(adapter);
    await addFault(c, { fault: 'out_of_order', event_type: 'labtest.order.created' });
    emit(c, 'labtest.order.created', { n: 1 });
    await flush(c);
    expect(arrivals).toEqual([]);
    emit(c, 'labtest.order.updated', { n: 2 });
    await flush(c);
    expect(arrivals.map((a) => [a.type, a.data.n])).toEqual([
      ['labtest.order.updated', 2],
      ['labtest.order.created', 1],
    ]);
    expect(arrivals.every((a) => a.verified === null)).toBe(true);
  });

  it('out_of_order with no later message: delivered after its longest hold (seconds) on the sandbox clock', async () => {
    const { c, arrivals } = await setup(adapter);
    await addFault(c, { fault: 'out_of_order', seconds: 30 });
    emit(c, 'labtest.order.created', { n: 1 });
    await flush(c);
    await c.advance(29);
    await c.sandbox.settle();
    expect(arrivals).toHaveLength(0);
    await c.advance(1);
    await c.sandbox.settle();
    expect(arrivals.map((a) => a.data.n)).toEqual([1]);
  });

  it('delayed: the first attempt waits its seconds on the virtual clock; later messages overtake it', async () => {
    const { c, arrivals } = await setup(adapter);
    await addFault(c, { fault: 'delayed', seconds: 120, times: 1 });
    emit(c, 'labtest.order.created', { n: 1 });
    await flush(c);
    emit(c, 'labtest.order.updated', { n: 2 });
    await flush(c);
    expect(arrivals.map((a) => a.data.n)).toEqual([2]);
    await c.advance(119);
    await c.sandbox.settle();
    expect(arrivals).toHaveLength(1);
    await c.advance(1);
    await c.sandbox.settle();
    expect(arrivals.map((a) => a.data.n)).toEqual([2, 1]);
    expect(arrivals[1]!.verified).toBeNull();
  });

  it('stale_timestamp: a verifying receiver refuses the first attempt (too old); the retry 5 s later is accepted', async () => {
    const { c, arrivals, endpointId } = await setup(adapter);
    await addFault(c, { fault: 'stale_timestamp' });
    emit(c, 'labtest.order.created', { n: 1 });
    await flush(c);
    expect(arrivals).toHaveLength(1);
    expect(arrivals[0]!.verified).toMatch(/too old/i);
    await c.advance(5);
    await c.sandbox.settle();
    expect(arrivals).toHaveLength(2);
    expect(arrivals[1]!.id).toBe(arrivals[0]!.id);
    expect(arrivals[1]!.verified).toBeNull();
    expect(arrivals[1]!.timestamp - arrivals[0]!.timestamp).toBeGreaterThanOrEqual(600);
    const attempts = (await c.get('/_sandbox/webhooks/attempts', { query: { endpoint_id: endpointId } })).body.attempts as Array<{
      status: string;
    }>;
    expect(attempts.map((a) => a.status).sort()).toEqual(['failed', 'success']);
  });

  it('refuses bad rules with 422 naming the field; lists, clears, and a reset drops them', async () => {
    const { c } = await setup(adapter);
    const bad = await c.post('/_sandbox/faults/webhooks', { fault: 'delayed' });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body.detail)).toContain('seconds');
    expect((await c.post('/_sandbox/faults/webhooks', { fault: 'stale_timestamp', seconds: 200 })).status).toBe(422);
    expect((await c.post('/_sandbox/faults/webhooks', { fault: 'sometimes' })).status).toBe(422);
    await addFault(c, { fault: 'duplicate', times: 3 });
    expect((await c.get('/_sandbox/faults/webhooks')).body.faults).toMatchObject([{ fault: 'duplicate', times: 3, remaining: 3 }]);
    expect((await c.delete('/_sandbox/faults/webhooks')).body).toEqual({ removed: 1 });
    await addFault(c, { fault: 'duplicate' });
    expect((await c.post('/_sandbox/reset', {})).status).toBe(200);
    expect((await c.get('/_sandbox/faults/webhooks')).body.faults).toEqual([]);
  });
});

it('a scenario declares webhook_faults (every endpoint), again after a reset; the report names them', async () => {
  const c = createClient('fetch', { ...QUIET, clock: 'manual', feed: 'off' });
  const rx = await verifying();
  const loaded = await c.put('/_sandbox/scenario', {
    webhooks: [{ url: rx.url }],
    webhook_faults: [{ fault: 'duplicate', times: 2 }],
  });
  expect(loaded.status, loaded.text).toBe(200);
  expect((await c.get('/_sandbox/faults/webhooks')).body.faults).toMatchObject([{ fault: 'duplicate', remaining: 2 }]);
  expect((await c.post('/_sandbox/reset', {})).status).toBe(200);
  expect((await c.get('/_sandbox/faults/webhooks')).body.faults).toMatchObject([{ fault: 'duplicate', remaining: 2 }]);
  const [ep] = (await c.mgmt('GET', webhookBase(c))).body.data as Array<{ id: string }>;
  rx.secret.value = (await c.mgmt('GET', `${webhookBase(c)}/${ep!.id}/secret`)).body.key as string;
  emit(c, 'labtest.order.created', { n: 1 });
  await flush(c);
  expect(rx.arrivals.map((a) => [a.data.n, a.verified])).toEqual([
    [1, null],
    [1, null],
  ]);
  const report = (await c.get('/_sandbox/report')).body as { fault_kinds: string[]; webhooks: Array<{ event_types: object }> };
  expect(report.fault_kinds).toEqual(['webhook:duplicate']);
  expect(report.webhooks[0]!.event_types).toEqual({ 'labtest.order.created': { delivered: 1, acknowledged: 2 } });
  const bad = await c.put('/_sandbox/scenario', { webhook_faults: [{ fault: 'delayed' }] });
  expect(bad.status).toBe(422);
  expect(JSON.stringify(bad.body)).toContain('webhook_faults');
});
