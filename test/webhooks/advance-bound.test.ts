/**
 * An advance bounded by what it ran (issue 27, item 4), with injected transports and a 200 ms
 * attempt timeout: the advance waits at most one attempt timeout in all, so no attempt to a
 * receiver that never answers times out before it answers (the first barrier gives up at 80% of
 * the timeout); endpoints in trouble are given up side by side; a failing endpoint beside a
 * hanging one gets every attempt due in the window; attempts the advance did not wait for are
 * recorded with their outcome when it arrives and retried on the simulated schedule. Counts, not
 * stopwatches: how many attempts timed out before the advance answered.
 */
import { expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/index.js';
import type { WebhookTransport } from '../../src/state/webhooks/transport.js';
import { attempts, emit, endpoint } from './support.js';

interface Harness {
  sandbox: Sandbox;
  /** Attempts to `/hang` aborted (timed out) so far. */
  timeouts(): number;
  calls: string[];
}

/** `/hang` never answers; `/fail` answers 500 at once; anything else 204. */
function harness(seed = 1): Harness {
  let aborted = 0;
  const calls: string[] = [];
  const transport: WebhookTransport = (request) => {
    const path = new URL(request.url).pathname;
    calls.push(path);
    if (path.startsWith('/hang'))
      return new Promise((_resolve, reject) =>
        request.signal.addEventListener('abort', () => {
          aborted++;
          reject(new Error('aborted'));
        }),
      );
    return Promise.resolve({ status: path.startsWith('/fail') ? 500 : 204, headers: {}, body: '' });
  };
  const sandbox = createSandbox({
    seed,
    world: 'empty',
    feed: 'off',
    logger: () => undefined,
    webhookTransport: transport,
    deliveryTimeout: 0.2,
  });
  return { sandbox, timeouts: () => aborted, calls };
}

const HOUR = 3600;

it('a 2-day advance over a hanging receiver waits less than one attempt timeout: no attempt timed out before it answered', async () => {
  const h = harness();
  await endpoint(h.sandbox, 'http://receiver.example/hang');
  emit(h.sandbox, 20);
  await h.sandbox.advance(2 * 24 * HOUR);
  // Given up at 80% of the timeout: at most the first attempt's timeout can fire while the rest
  // of the advance runs (CPU). The old model waited for one timeout per retry step (7 in 2 days).
  expect(h.timeouts()).toBeLessThanOrEqual(1);
  await h.sandbox.settle();
  expect(h.timeouts()).toBeGreaterThan(0);
});

it('a failing endpoint beside a hanging one gets every attempt due in the advanced hour', async () => {
  const h = harness();
  await endpoint(h.sandbox, 'http://receiver.example/hang', 0);
  const fail = await endpoint(h.sandbox, 'http://receiver.example/fail', 1);
  emit(h.sandbox, 1, 0);
  emit(h.sandbox, 1, 1);
  const start = Date.parse(h.sandbox.world.clock.iso());
  await h.sandbox.advance(HOUR);
  expect(h.timeouts()).toBeLessThanOrEqual(1);
  await h.sandbox.settle();
  const failing = (await attempts(h.sandbox)).filter((a) => a.endpoint_id === fail);
  // 0, +5 s, +5 min, +30 min: the ladder's four attempts within the hour, each at its exact time.
  expect(failing.map((a) => (Date.parse(a.created_at) - start) / 1000)).toEqual([0, 5, 305, 2105]);
});

it('several hanging endpoints are given up side by side, once per advance, however many messages wait', async () => {
  const h = harness();
  for (let n = 0; n < 3; n++) await endpoint(h.sandbox, `http://receiver.example/hang-${n}`);
  emit(h.sandbox, 5);
  await h.sandbox.advance(24 * HOUR);
  // Side by side: at most the three first attempts' timeouts (the old model: three per retry step).
  expect(h.timeouts()).toBeLessThanOrEqual(3);
  await h.sandbox.settle();
  await h.sandbox.advance(24 * HOUR);
  // The second advance gives up once more at its first barrier.
  expect(h.timeouts()).toBeLessThanOrEqual(6);
  await h.sandbox.settle();
});

it('an attempt the advance gave up on is recorded with its outcome when it arrives and retried on the simulated schedule', async () => {
  const h = harness();
  const hang = await endpoint(h.sandbox, 'http://receiver.example/hang');
  emit(h.sandbox, 1);
  const start = Date.parse(h.sandbox.world.clock.iso());
  await h.sandbox.advance(HOUR);
  await h.sandbox.settle();
  const [first] = (await attempts(h.sandbox)).filter((a) => a.endpoint_id === hang);
  expect(first).toMatchObject({ status: 'failed', created_at: new Date(start).toISOString() });
  expect(first?.error).toMatch(/^timeout/);
  // The ladder's time after a timeout (at least 60 s after the attempt started), though the clock is an hour on.
  expect((first as unknown as { next_attempt_at: string }).next_attempt_at).toBe(new Date(start + 60_000).toISOString());
  const sent = h.calls.length;
  await h.sandbox.advance(0);
  expect(h.calls.length).toBe(sent + 1);
  await h.sandbox.settle();
});

it('with writers running, a slow and a hanging receiver: a 1 h advance answers within its budget, the writers never extend it', async () => {
  let aborted = 0;
  let slowAnswers = 0;
  let slowMs = 150;
  const transport: WebhookTransport = (request) => {
    const path = new URL(request.url).pathname;
    if (path === '/slow')
      // Answers after 150 ms: under the 200 ms timeout, but most of the advance's 160 ms window.
      return new Promise((resolve) =>
        setTimeout(() => {
          slowAnswers++;
          resolve({ status: 200, headers: {}, body: '' });
        }, slowMs),
      );
    return new Promise((_resolve, reject) =>
      request.signal.addEventListener('abort', () => {
        aborted++;
        reject(new Error('aborted'));
      }),
    );
  };
  const sandbox = createSandbox({
    seed: 2,
    world: 'empty',
    feed: 'off',
    logger: () => undefined,
    webhookTransport: transport,
    deliveryTimeout: 0.2,
  });
  await endpoint(sandbox, 'http://receiver.example/slow', 0);
  await endpoint(sandbox, 'http://receiver.example/hang', 1);
  emit(sandbox, 5, 0);
  emit(sandbox, 5, 1);
  let done = false;
  let written = 0;
  // Writers: a burst of events every macrotask while the advance runs (requests served meanwhile).
  const writer = async (team: number) => {
    while (!done && written < 40) {
      emit(sandbox, 2, team);
      written += 2;
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  const writers = [writer(0), writer(1)];
  await sandbox.advance(HOUR);
  done = true;
  await Promise.all(writers);
  expect(written).toBeGreaterThan(0);
  // Given up at the first barrier: no hanging attempt was waited for in full, and the slow
  // receiver's queue (10 messages plus the writers', 150 ms each) was not drained first.
  expect(aborted).toBeLessThanOrEqual(2);
  expect(slowAnswers).toBeLessThan(5 + written / 2);
  slowMs = 0;
  await sandbox.settle();
});
