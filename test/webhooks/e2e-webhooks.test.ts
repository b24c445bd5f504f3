/**
 * End to end: a webhook endpoint, then a user who connects a demo provider and places a lab
 * order; the clock moves; a real receiver verifies every delivery with `svix` and sees exactly
 * the team's events, in the order they happened. Needs the wearables (issue 3) and lab testing
 * (issue 4) routes.
 *
 * Deliveries (about 1,400 per adapter: the connection's backfill and ten days of its feed) go out
 * through the CLI's webhook transport (`createNodeTransport`: one keep-alive connection, attempts
 * in event order), the one a served sandbox uses: the global-fetch transport costs about 2 ms more
 * CPU per attempt and is covered by the webhooks-* tests.
 */
import { Webhook } from 'svix';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createNodeTransport } from '../../src/adapters/node-transport.js';
import { createClient, forEachAdapter } from '../support/client.js';
import { createEndpoint, startReceiver, teamOf, type TestReceiver, QUIET } from '../support/webhooks-support.js';

let rx: TestReceiver;
const deliveries = createNodeTransport();
beforeAll(async () => {
  rx = await startReceiver();
});
afterAll(async () => {
  deliveries.close();
  await rx.close();
});

forEachAdapter('e2e webhooks', (adapter) => {
  it('delivers, signed and in order, every event of a connection and a lab order', async () => {
    const c = createClient(adapter, { ...QUIET, webhookTransport: deliveries.transport });
    const path = `/${adapter}/e2e`;
    const { secret } = await createEndpoint(c, { url: `${rx.url}${path}` });
    const lifecycle = await createEndpoint(c, {
      url: `${rx.url}${path}-lifecycle`,
      filter_types: ['provider.connection.created', 'labtest.order.created', 'labtest.order.updated'],
    });

    const user = await c.post('/v2/user', { client_user_id: `e2e-${adapter}` });
    expect(user.status, user.text).toBe(200);
    const userId = user.body.user_id as string;

    const connect = await c.post('/v2/link/connect/demo', { user_id: userId, provider: 'oura' });
    expect(connect.status, connect.text).toBe(200);

    const tests = await c.get('/v3/lab_tests');
    expect(tests.status, tests.text).toBe(200);
    const list = (Array.isArray(tests.body) ? tests.body : tests.body.data) as Array<{ id: string; method?: string }>;
    const labTest = list.find((t) => t.method === 'testkit') ?? list[0];
    expect(labTest).toBeDefined();
    const order = await c.post('/v3/order', {
      user_id: userId,
      lab_test_id: labTest!.id,
      patient_details: {
        first_name: 'Jane',
        last_name: 'Doe',
        dob: '1990-02-03',
        gender: 'female',
        phone_number: '+14155550100',
        email: 'jane.doe@example.com',
      },
      patient_address: {
        receiver_name: 'Jane Doe',
        first_line: '1 Market St',
        city: 'San Francisco',
        state: 'CA',
        zip: '94105',
        country: 'US',
      },
    });
    expect(order.status, order.text).toBe(200);
    // A demo user expires after 7 days (test/users/demo-users.test.ts): the order steps an hour apart instead of over 9 days.
    const simulated = await c.post(`/v3/order/${order.body.order.id}/test`, undefined, { query: { delay: 3600 } });
    expect(simulated.status, simulated.text).toBe(200);

    await c.advance(86400);
    // An advance waits for deliveries one attempt timeout at most (issue 27): on a loaded machine
    // the deliveries can outlast it; they go on, in order, and settle() waits for them.
    await c.sandbox.settle();

    const journal = await c.get('/_sandbox/events', { query: { team_id: teamOf(c), environment: 'sandbox', limit: 10000 } });
    const emitted = (journal.body.events as Array<{ envelope: { event_type: string; user_id: string } }>)
      .filter((e) => e.envelope.user_id === userId)
      .map((e) => e.envelope.event_type);
    const delivered = rx.received
      .filter((r) => r.path === path)
      .map((r) => new Webhook(secret).verify(r.body, r.headers) as { event_type: string; user_id: string })
      .filter((p) => p.user_id === userId)
      .map((p) => p.event_type);

    // Exactly the user's events, each once, in the order they happened.
    expect(delivered).toEqual(emitted);
    // And the story they tell: the connection, its backfill, then the order and its progress.
    const first = (type: string) => delivered.findIndex((t) => t.startsWith(type));
    expect(first('provider.connection.created')).toBe(0);
    expect(first('historical.data.')).toBeGreaterThan(0);
    expect(first('labtest.order.created')).toBeGreaterThan(first('provider.connection.created'));
    expect(first('labtest.order.updated')).toBeGreaterThan(first('labtest.order.created'));
    expect(delivered.filter((t) => t === 'labtest.order.created')).toHaveLength(1);

    // The filtered endpoint: exactly the connection and the order's life, in order.
    const story = rx.received
      .filter((r) => r.path === `${path}-lifecycle`)
      .map((r) => new Webhook(lifecycle.secret).verify(r.body, r.headers) as { event_type: string; data: { status?: string } });
    expect(story.map((p) => p.event_type)).toEqual([
      'provider.connection.created',
      'labtest.order.created',
      ...Array.from({ length: 7 }, () => 'labtest.order.updated'),
    ]);
    expect(story.at(-1)?.data.status).toBe('completed');
    const failed = await c.get('/_sandbox/webhooks/messages', { query: { status: 'failed' } });
    expect(failed.body.messages).toEqual([]);
  });
});
