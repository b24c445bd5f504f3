/**
 * Webhook receivers under faults (issue 28): a receiver whose first delivery fails (the built-in
 * test receiver answering 503 once, or a real svix-verifying receiver on 127.0.0.1 whose first
 * connection drops) gets the redelivery of the same message on the real retry schedule (5 s
 * later); and a faulted API answer is never sent as a webhook event.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'svix';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/testing.js';
import { createClient, forEachAdapter } from '../support/client.js';
import { createEndpoint, flush } from '../support/webhooks-support.js';
import { newOrder } from '../support/lab-helpers.js';

/** A receiver that drops the first connection it gets, then answers 200; it records what arrived. */
let dropping: { url: string; received: Array<{ headers: Record<string, string>; body: string }>; dropNext: boolean };
let server: Server;
beforeAll(async () => {
  dropping = { url: '', received: [], dropNext: true };
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
      dropping.received.push({ headers, body: Buffer.concat(chunks).toString('utf8') });
      if (dropping.dropNext) {
        dropping.dropNext = false;
        req.socket.destroy();
        return;
      }
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  dropping.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const quiet = { users: 1, usersElsewhere: 0, feed: 'off' as const };

forEachAdapter('webhook receivers and faults', (adapter) => {
  it('a svix receiver whose connection dropped gets the redelivery; a faulted API answer sends nothing', async () => {
    dropping.received.length = 0;
    dropping.dropNext = true;
    const c = createClient(adapter, { ...quiet, seed: 62 });
    const { secret } = await createEndpoint(c, { url: `${dropping.url}/${adapter}`, filter_types: ['labtest.order.created'] });
    // A faulted order creation changes nothing: no order, no event, no delivery.
    await c.post('/_sandbox/faults', { match: { method: 'POST', path: '/v3/order' }, action: { status: 503 }, times: 1 });
    await expect(newOrder(c, 'walk_in_test')).rejects.toThrow();
    await flush(c);
    expect(dropping.received).toEqual([]);
    await newOrder(c, 'walk_in_test');
    await flush(c);
    expect(dropping.received).toHaveLength(1);
    await c.advance(5);
    await flush(c);
    expect(dropping.received).toHaveLength(2);
    const [a, b] = dropping.received;
    expect(a?.headers['svix-id']).toBe(b?.headers['svix-id']);
    for (const r of dropping.received)
      expect(new Webhook(secret).verify(r.body, r.headers)).toMatchObject({ event_type: 'labtest.order.created' });
  });
});

describe('the built-in test receiver (control client, scenario file)', () => {
  it('failing once, it gets the same message again 5 s later, signed', async () => {
    const server = await startSandbox({
      seed: 61,
      feed: 'off',
      scenario: {
        webhooks: [{ receiver: 'flaky', filter_types: ['labtest.order.created'], answers: { status: 503, times: 1 } }],
        users: [{ client_user_id: 'patient', lab_orders: [{ method: 'walk_in_test' }] }],
      },
    });
    try {
      await server.sandbox.settle();
      const flaky = server.receiver('flaky');
      expect((await flaky.deliveries()).map((d) => d.answered_status)).toEqual([503]);
      await server.advance(5);
      const both = await flaky.deliveries();
      expect(both.map((d) => d.answered_status)).toEqual([503, 200]);
      expect(both[1]?.msg_id).toBe(both[0]?.msg_id);
      expect(both.every((d) => d.verified)).toBe(true);
    } finally {
      await server.close();
    }
  });
});
