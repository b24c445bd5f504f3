/**
 * Issue 11, the clock bound under overload: an advance whose own deliveries share an endpoint
 * with a flood of request-caused deliveries answers without waiting for them (its own attempts
 * go first in the endpoint's lane and have their own window); once no advance runs, what is still
 * queued starts in queue order; `settle()` waits for everything. Deliveries go through an
 * injected transport the test releases by hand: no timers, no traffic leaves the process (the
 * `node` adapter serves the control plane on 127.0.0.1, as the CLI does).
 */
import { callAt } from '../support/jobs.js';
import { describe, expect, it } from 'vitest';
import { EndpointQueues } from '../../src/state/webhooks/endpoint-queue.js';
import type { TransportRequest, TransportResponse, WebhookTransport } from '../../src/state/webhooks/transport.js';
import { createClient, type AnyAdapter } from '../support/client.js';
import { attempts, createEndpoint, emit, QUIET } from '../support/webhooks-support.js';

const T0 = Date.parse('2026-01-05T09:00:00.000Z');
const iso = (offsetSeconds: number) => new Date(T0 + offsetSeconds * 1000).toISOString();

interface Gate {
  promise: Promise<void>;
  open(): void;
}
function gate(): Gate {
  let open!: () => void;
  const promise = new Promise<void>((r) => (open = r));
  return { promise, open };
}

/** Yields to the event loop once (lets I/O callbacks due now run); not a timed wait. */
const turn = () => new Promise<void>((r) => setImmediate(r));

const ok: TransportResponse = { status: 200, headers: {}, body: 'ok' };
const eventOf = (r: TransportRequest) => JSON.parse(r.body) as { event_type: string; data: { i?: number } };

const FLOOD = 60;

for (const adapter of ['msw', 'node'] as const satisfies readonly AnyAdapter[]) {
  for (const window of [1, 3]) {
    describe(`the clock under a flood of request deliveries [${adapter}, window ${window}]`, () => {
      it('an advance answers while request-caused deliveries to the same endpoint hang; they follow in order; settle() waits for them', {
        timeout: 20_000,
      }, async () => {
        const firstGate = gate();
        const firstCalled = gate();
        const floodGate = gate();
        const started: string[] = [];
        let floodFinished = 0;
        const transport: WebhookTransport = async (request) => {
          const { event_type: type, data } = eventOf(request);
          started.push(type === 'flood.created' ? `flood ${data.i}` : type);
          if (type === 'own.first.created') {
            firstCalled.open();
            await firstGate.promise;
          } else if (type === 'flood.created') {
            // Request-caused: answers only when the test says so (long after the advance answered).
            await floodGate.promise;
            floodFinished++;
          }
          return ok;
        };
        const c = createClient(adapter, { ...QUIET, webhookTransport: transport, deliveryTimeout: 300, deliveryWindow: window });
        const ep = await createEndpoint(c, { url: 'http://127.0.0.1:9/one-endpoint' });
        // Jobs of the advance emit its own events: the first while the flood arrives, the others
        // in later steps, so their attempts are queued after the flood's on the same endpoint.
        callAt(c.sandbox.world.scheduler, T0 + 10_000, 'test: own event 1', () => void emit(c, 'own.first.created'));
        callAt(c.sandbox.world.scheduler, T0 + 20_000, 'test: own event 2', () => void emit(c, 'own.second.created'));
        callAt(c.sandbox.world.scheduler, T0 + 30_000, 'test: own event 3', () => void emit(c, 'own.third.created'));
        const advanced = c.advance(6 * 3600);
        try {
          await firstCalled.promise;
          await turn();
          // The advance waits at its 10 s barrier: requests are served, and the flood is queued.
          expect((await c.get('/_sandbox/clock')).status).toBe(200);
          for (let i = 0; i < FLOOD; i++) emit(c, 'flood.created', { i });
          expect((await c.get('/_sandbox/clock')).status).toBe(200);
          firstGate.open();
          const res = await advanced;
          expect(res.status, res.text).toBe(200);
          expect(res.body.now).toBe(iso(6 * 3600));
          // The advance did not wait for the flood: at most a window of it started, none finished.
          expect(floodFinished).toBe(0);
          const floodStarted = started.filter((s) => s.startsWith('flood'));
          expect(floodStarted.length).toBeLessThanOrEqual(window);
          expect(floodStarted).toEqual(Array.from({ length: floodStarted.length }, (_, i) => `flood ${i}`));
          expect(started.filter((s) => s.startsWith('own'))).toEqual(['own.first.created', 'own.second.created', 'own.third.created']);
        } finally {
          firstGate.open();
        }
        // Requests after the advance: queued behind what the flood left, in queue order.
        for (let i = 0; i < 3; i++) emit(c, 'after.created', { i });
        let settled = false;
        const settling = c.sandbox.settle().then(() => (settled = true));
        await turn();
        expect(settled).toBe(false);
        expect(started.filter((s) => s.startsWith('after'))).toEqual([]);
        floodGate.open();
        await settling;
        expect(floodFinished).toBe(FLOOD);
        expect(started.filter((s) => !s.startsWith('own'))).toEqual([
          ...Array.from({ length: FLOOD }, (_, i) => `flood ${i}`),
          'after.created',
          'after.created',
          'after.created',
        ]);
        const log = await attempts(c, { endpoint_id: ep.id });
        const own = log.filter((a) => String(a.event_type).startsWith('own'));
        expect(own.map((a) => [a.event_type, a.created_at, a.status])).toEqual([
          ['own.first.created', iso(10), 'success'],
          ['own.second.created', iso(20), 'success'],
          ['own.third.created', iso(30), 'success'],
        ]);
        expect(log.filter((a) => a.status === 'success')).toHaveLength(3 + FLOOD + 3);
      });
    });
  }
}

describe('jobs that requests schedule during an advance', () => {
  it('run in that advance when due, but the advance waits neither for their deliveries nor for those of the jobs they schedule', {
    timeout: 20_000,
  }, async () => {
    const firstGate = gate();
    const firstCalled = gate();
    const lateGate = gate();
    const started: string[] = [];
    let lateFinished = 0;
    const transport: WebhookTransport = async (request) => {
      const type = eventOf(request).event_type;
      started.push(type);
      if (type === 'own.first.created') {
        firstCalled.open();
        await firstGate.promise;
      } else if (type.startsWith('req.')) {
        await lateGate.promise;
        lateFinished++;
      }
      return ok;
    };
    const c = createClient('msw', { ...QUIET, webhookTransport: transport, deliveryTimeout: 300 });
    await createEndpoint(c, { url: 'http://127.0.0.1:9/one-endpoint' });
    const { scheduler } = c.sandbox.world;
    // Scheduled before the advance: its work, awaited.
    callAt(scheduler, T0 + 10_000, 'test: own event', () => void emit(c, 'own.first.created'));
    callAt(scheduler, T0 + 7200_000, 'test: own event later', () => void emit(c, 'own.later.created'));
    const advanced = c.advance(6 * 3600);
    try {
      await firstCalled.promise;
      await turn();
      expect(scheduler.foreignNow()).toBe(true);
      // While the advance waits: a request schedules a job inside the advance's window (as a lab
      // order placed now schedules its next status), and that job schedules another.
      callAt(scheduler, T0 + 60_000, 'test: request job', () => {
        expect(scheduler.foreignNow()).toBe(true);
        emit(c, 'req.job.created');
        callAt(scheduler, T0 + 3600_000, 'test: its next job', () => void emit(c, 'req.child.created'));
      });
      firstGate.open();
      const res = await advanced;
      expect(res.status, res.text).toBe(200);
      expect(res.body.now).toBe(iso(6 * 3600));
      // Both jobs ran (their events were emitted and their attempts started), none answered yet.
      expect(lateFinished).toBe(0);
      expect(started).toContain('req.job.created');
      expect(started).toContain('own.later.created');
      expect(scheduler.foreignNow()).toBe(false);
    } finally {
      firstGate.open();
    }
    lateGate.open();
    await c.sandbox.settle();
    expect(lateFinished).toBe(2);
    expect(started.filter((t) => t.startsWith('req.'))).toEqual(['req.job.created', 'req.child.created']);
  });

  it('a lab order placed through the API while the advance waits: the advance walks its whole lifecycle without waiting for its deliveries', {
    timeout: 30_000,
  }, async () => {
    const firstGate = gate();
    const firstCalled = gate();
    const orderGate = gate();
    const orderEvents: string[] = [];
    let orderFinished = 0;
    const transport: WebhookTransport = async (request) => {
      const { event_type: type } = eventOf(request);
      if (type === 'own.first.created') {
        firstCalled.open();
        await firstGate.promise;
      } else if (type.startsWith('labtest.order.')) {
        orderEvents.push(type);
        await orderGate.promise;
        orderFinished++;
      }
      return ok;
    };
    const c = createClient('node', { ...QUIET, webhookTransport: transport, deliveryTimeout: 300 });
    await createEndpoint(c, {
      url: 'http://127.0.0.1:9/orders',
      filter_types: ['own.first.created', 'labtest.order.created', 'labtest.order.updated'],
    });
    const user = await c.post('/v2/user', { client_user_id: 'overload-order' });
    expect(user.status, user.text).toBe(200);
    const tests = await c.get('/v3/lab_tests');
    const list = (Array.isArray(tests.body) ? tests.body : tests.body.data) as Array<{ id: string; method?: string }>;
    const labTest = list.find((t) => t.method === 'testkit') ?? list[0];
    callAt(c.sandbox.world.scheduler, T0 + 10_000, 'test: own event', () => void emit(c, 'own.first.created'));
    const advanced = c.advance(10 * 86400);
    let placed = '';
    try {
      await firstCalled.promise;
      await turn();
      const order = await c.post('/v3/order', {
        user_id: user.body.user_id,
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
      placed = order.body.order.id;
      firstGate.open();
      const res = await advanced;
      expect(res.status, res.text).toBe(200);
      expect(orderFinished).toBe(0);
    } finally {
      firstGate.open();
    }
    // The advance ran the order's lifecycle (it completes on day 9) ...
    const now = await c.get(`/v3/order/${placed}`);
    expect(now.body.status).toBe('completed');
    // ... and its deliveries follow, in event order, once the receiver answers.
    orderGate.open();
    await c.sandbox.settle();
    const journal = await c.get('/_sandbox/events', {
      query: { team_id: c.creds.teams[0]!.team_id, environment: 'sandbox', limit: 10000 },
    });
    const emitted = (journal.body.events as Array<{ envelope: { event_type: string } }>)
      .map((e) => e.envelope.event_type)
      .filter((t) => t.startsWith('labtest.order.'));
    expect(emitted.length).toBeGreaterThan(3);
    expect(orderEvents).toEqual(emitted);
    expect(orderFinished).toBe(emitted.length);
  });

  it("a job a request scheduled during one advance is the next advance's own work", async () => {
    const c = createClient('msw', { ...QUIET, webhookTransport: async () => ok });
    const { scheduler } = c.sandbox.world;
    const seen: boolean[] = [];
    let inner: Promise<void> | undefined;
    callAt(scheduler, T0 + 1000, 'test: waits a turn', async () => {
      // Code run outside the job while it waits is foreign to this advance.
      inner = turn().then(() => {
        seen.push(scheduler.foreignNow());
        callAt(scheduler, T0 + 2000, 'test: in this advance', () => void seen.push(scheduler.foreignNow()));
        callAt(scheduler, T0 + 10_000, 'test: in the next advance', () => void seen.push(scheduler.foreignNow()));
      });
      await inner;
    });
    seen.push(scheduler.foreignNow());
    expect((await c.advance(5)).status).toBe(200);
    expect((await c.advance(10)).status).toBe(200);
    // Before any advance: own; while the job waits: foreign, and so is the job that code
    // scheduled, when this advance runs it; the other one runs in the next advance: own.
    expect(seen).toEqual([false, true, true, false]);
  });
});

describe('per-endpoint order when no advance runs', () => {
  for (const window of [1, 4]) {
    it(`attempts to one endpoint start in event order [window ${window}]`, async () => {
      const order: number[] = [];
      const held: Array<() => void> = [];
      const transport: WebhookTransport = (request) => {
        order.push(eventOf(request).data.i as number);
        return new Promise((resolve) => held.push(() => resolve(ok)));
      };
      const c = createClient('msw', { ...QUIET, webhookTransport: transport, deliveryTimeout: 300, deliveryWindow: window });
      await createEndpoint(c, { url: 'http://127.0.0.1:9/ordered' });
      for (let i = 0; i < 40; i++) emit(c, 'daily.data.steps.created', { i });
      const settling = c.sandbox.settle();
      // Answer by hand, most recent first: still nothing starts out of order.
      while (order.length < 40 || held.length > 0) {
        await turn();
        const batch = held.splice(0);
        expect(batch.length).toBeLessThanOrEqual(window);
        for (const answer of batch.reverse()) answer();
      }
      await settling;
      expect(order).toEqual(Array.from({ length: 40 }, (_, i) => i));
    });
  }
});

describe('EndpointQueues: the lane rules', () => {
  /** A lane harness: each queued attempt records its start and waits for the test to finish it. */
  function harness(window: number) {
    let advancing = false;
    const q = new EndpointQueues(
      () => window,
      () => advancing,
    );
    const started: string[] = [];
    const finish = new Map<string, () => void>();
    const add = (name: string, own: boolean) =>
      q.schedule(
        'ep',
        () =>
          new Promise<void>((resolve) => {
            started.push(name);
            finish.set(name, resolve);
          }),
        () => undefined,
        own,
      );
    const done = async (name: string) => {
      finish.get(name)?.();
      await turn();
    };
    return { started, add, done, setAdvancing: (v: boolean) => (advancing = v) };
  }

  it('while an advance runs, own attempts start before deferred ones queued earlier, with their own window', async () => {
    const h = harness(1);
    h.setAdvancing(true);
    h.add('own-1', true);
    for (const n of ['req-1', 'req-2', 'req-3']) h.add(n, false);
    await turn();
    expect(h.started).toEqual(['own-1']);
    h.add('own-2', true);
    await h.done('own-1');
    // own-2 was queued after the deferred attempts and still goes first.
    expect(h.started).toEqual(['own-1', 'own-2']);
    await h.done('own-2');
    // Nothing own waits: a deferred attempt takes the free slot...
    expect(h.started).toEqual(['own-1', 'own-2', 'req-1']);
    // ...and an own attempt queued while it hangs starts at once, beside it.
    h.add('own-3', true);
    await turn();
    expect(h.started).toEqual(['own-1', 'own-2', 'req-1', 'own-3']);
    await h.done('own-3');
    expect(h.started).toHaveLength(4);
    // The advance ends: what is left starts in queue order (req-2, req-3, then own-4).
    h.setAdvancing(false);
    h.add('own-4', true);
    await turn();
    expect(h.started).toHaveLength(4);
    await h.done('req-1');
    await h.done('req-2');
    await h.done('req-3');
    expect(h.started).toEqual(['own-1', 'own-2', 'req-1', 'own-3', 'req-2', 'req-3', 'own-4']);
  });

  it('without an advance, own and deferred attempts start strictly in queue order within the window', async () => {
    const h = harness(2);
    h.add('req-1', false);
    h.add('own-1', true);
    h.add('req-2', false);
    h.add('own-2', true);
    await turn();
    expect(h.started).toEqual(['req-1', 'own-1']);
    await h.done('own-1');
    expect(h.started).toEqual(['req-1', 'own-1', 'req-2']);
    await h.done('req-1');
    expect(h.started).toEqual(['req-1', 'own-1', 'req-2', 'own-2']);
  });
});
