/**
 * The built-in test receiver `/_sandbox/receiver/:name`: reachable by the sandbox's own
 * deliveries on both adapters (a real listening express server; msw interception), configurable
 * answers, and its own signature verification.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'svix';
import { afterAll, expect, it } from 'vitest';
import { createExpressApp } from '../../src/express.js';
import { createClient, forEachAdapter, type AdapterName, type TestClient } from '../support/client.js';
import { attempts, createEndpoint, emit, flush, webhookBase, QUIET } from '../support/webhooks-support.js';

const servers: Server[] = [];
afterAll(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
});

/** A client whose sandbox is also reachable over its base URL (listening express, or msw). */
async function reachable(adapter: AdapterName): Promise<TestClient> {
  const c = createClient(adapter, QUIET);
  if (adapter === 'express') {
    const server = createExpressApp(c.sandbox).listen(0, '127.0.0.1');
    servers.push(server);
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    c.sandbox.setUrls({ base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
  }
  return c;
}

forEachAdapter('test receiver', (adapter) => {
  it('records, verifies and answers deliveries with the configured status (retries included)', async () => {
    const c = await reachable(adapter);
    const name = `rx-${adapter}`;
    const url = `${c.sandbox.world.urls.base}/_sandbox/receiver/${name}`;
    const put = await c.put(`/_sandbox/receiver/${name}`, { status: 503, body: { busy: true }, retry_after: 7 });
    expect(put.status).toBe(200);
    const { id, secret } = await createEndpoint(c, { url });
    emit(c, 'labtest.order.created', { id: 'o-9' });
    await flush(c);
    let got = await c.get(`/_sandbox/receiver/${name}`);
    expect(got.body.url).toBe(url);
    expect(got.body.deliveries).toHaveLength(1);
    expect(got.body.deliveries[0]).toMatchObject({
      verified: true,
      endpoint_id: id,
      verification_error: null,
      answered_status: 503,
      event_type: 'labtest.order.created',
    });
    const first = got.body.deliveries[0];
    expect(new Webhook(secret).verify(first.body, first.headers)).toMatchObject({ data: { id: 'o-9' } });
    const [a1] = await attempts(c, { endpoint_id: id });
    expect(a1).toMatchObject({
      status: 'failed',
      response: { status_code: 503, body: '{"busy":true}' },
      next_attempt_at: '2026-01-05T09:00:07.000Z',
    });
    expect(a1!.response.headers['retry-after']).toBe('7');
    await c.put(`/_sandbox/receiver/${name}`, { status: 200 });
    await c.advance(60);
    got = await c.get(`/_sandbox/receiver/${name}`);
    expect(got.body.deliveries.map((d: { verified: boolean; answered_status: number }) => [d.verified, d.answered_status])).toEqual([
      [true, 503],
      [true, 200],
    ]);
    expect(got.body.deliveries[1].msg_id).toBe(first.msg_id);
    expect(got.body.deliveries[1].received_at).toBe('2026-01-05T09:00:07.000Z');
    // After a rotation the receiver still verifies (old and new keys both sign for 24 h).
    await c.mgmt('POST', `${webhookBase(c)}/${id}/secret/rotate`, { body: {} });
    emit(c, 'labtest.order.updated');
    await flush(c);
    got = await c.get(`/_sandbox/receiver/${name}`, { query: { after: 2 } });
    expect(got.body.deliveries).toHaveLength(1);
    expect(got.body.deliveries[0]).toMatchObject({ verified: true, event_type: 'labtest.order.updated' });
  });

  it('reports forged or unsigned posts as unverified, and clears', async () => {
    const c = await reachable(adapter);
    const name = `forged-${adapter}`;
    await createEndpoint(c, { url: `${c.sandbox.world.urls.base}/_sandbox/receiver/${name}` });
    const body = JSON.stringify({ event_type: 'labtest.order.created', data: {} });
    const ts = String(Math.floor(Date.now() / 1000));
    const forged = await c.post(`/_sandbox/receiver/${name}`, body, {
      headers: { 'svix-id': 'msg_x', 'svix-timestamp': ts, 'svix-signature': 'v1,AAAA' },
    });
    expect(forged.status).toBe(200);
    expect(forged.body).toEqual({ ok: true });
    await c.post(`/_sandbox/receiver/${name}`, body);
    const stale = new Webhook(`whsec_${Buffer.alloc(24, 1).toString('base64')}`).sign('msg_y', new Date(Date.now() - 3600_000), body);
    await c.post(`/_sandbox/receiver/${name}`, body, {
      headers: { 'svix-id': 'msg_y', 'svix-timestamp': String(Math.floor(Date.now() / 1000) - 3600), 'svix-signature': stale },
    });
    const got = await c.get(`/_sandbox/receiver/${name}`);
    expect(got.body.deliveries.map((d: { verified: boolean; verification_error: string }) => [d.verified, d.verification_error])).toEqual([
      [false, 'No matching signature found'],
      [false, 'Missing required headers'],
      [false, 'Message timestamp too old'],
    ]);
    const nobody = await c.post('/_sandbox/receiver/nobody-points-here', body);
    expect(nobody.status).toBe(200);
    expect((await c.get('/_sandbox/receiver/nobody-points-here')).body.deliveries[0].verification_error).toMatch(
      /No webhook endpoint points at/,
    );
    expect((await c.delete(`/_sandbox/receiver/${name}`)).status).toBe(204);
    expect((await c.get(`/_sandbox/receiver/${name}`)).body.deliveries).toEqual([]);
    expect((await c.put(`/_sandbox/receiver/${name}`, { status: 99 })).status).toBe(422);
  });
});

it("the receiver's configuration routes follow the control-plane token; its POST needs none", async () => {
  const c = createClient('express', { ...QUIET, adminToken: 't0ken' });
  expect((await c.post('/_sandbox/receiver/open', '{}')).status).toBe(200);
  expect((await c.get('/_sandbox/receiver/open')).status).toBe(401);
  expect((await c.get('/_sandbox/receiver/open', { headers: { authorization: 'Bearer t0ken' } })).status).toBe(200);
  expect((await c.get('/_sandbox/webhooks/messages')).status).toBe(401);
});
