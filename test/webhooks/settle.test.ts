/**
 * `settle()` means settled (issue 27, item 7): once it resolves, every delivery caused by work done
 * before it was called has an outcome in the attempt log, whatever the transport's timing (answers
 * on a later macrotask, a chain of `setImmediate` hops), and a stall of the process itself (a
 * loaded machine) does not turn a delivery in flight into a timeout that cut the request before
 * the receiver read it (the flaky "keeps webhooks on while svix is enabled": 0 deliveries).
 */
import { callAfter } from '../support/jobs.js';
import { expect, it } from 'vitest';
import { createSandbox } from '../../src/index.js';
import type { WebhookTransport } from '../../src/state/webhooks/transport.js';
import { attempts, emit, endpoint, receiver } from './support.js';

/** Answers 200 after `hops` setImmediate turns (each a macrotask). */
function lateTransport(hops: number, calls: string[]): WebhookTransport {
  return (request) =>
    new Promise((resolve) => {
      calls.push(request.url);
      let left = hops;
      const hop = (): void => {
        if (left-- > 0) setImmediate(hop);
        else resolve({ status: 200, headers: {}, body: 'ok' });
      };
      setImmediate(hop);
    });
}

for (const clock of ['manual', 'realtime'] as const)
  it(`(${clock}) every attempt caused before settle() has its outcome when it resolves, answers arriving macrotasks later`, async () => {
    const calls: string[] = [];
    const sandbox = createSandbox({
      seed: 1,
      world: 'empty',
      feed: 'off',
      clock,
      logger: () => undefined,
      webhookTransport: lateTransport(25, calls),
    });
    await endpoint(sandbox, 'http://receiver.example/a', 0);
    await endpoint(sandbox, 'http://receiver.example/b', 1);
    emit(sandbox, 3, 0);
    emit(sandbox, 2, 1);
    await sandbox.advance(0);
    await sandbox.settle();
    expect(calls).toHaveLength(5);
    const log = await attempts(sandbox);
    expect(log.map((a) => a.status)).toEqual(['success', 'success', 'success', 'success', 'success']);
    sandbox.close();
  });

it('settle() called while an advance runs waits for the deliveries its jobs start', async () => {
  const calls: string[] = [];
  const sandbox = createSandbox({
    seed: 1,
    world: 'empty',
    feed: 'off',
    logger: () => undefined,
    webhookTransport: lateTransport(10, calls),
  });
  await endpoint(sandbox, 'http://receiver.example/a', 0);
  // A job that emits when the clock passes it: the advance's own work.
  const world = sandbox.world;
  callAfter(world.scheduler, 1000, 'emit later', () => emit(sandbox, 2, 0));
  const advancing = sandbox.advance(2);
  await sandbox.settle();
  await advancing;
  await sandbox.settle();
  expect((await attempts(sandbox)).map((a) => a.status)).toEqual(['success', 'success']);
});

it('a stall of the process longer than the attempt timeout does not time out a delivery whose receiver had no chance to answer', async () => {
  const rx = await receiver((got) => got.res.writeHead(200).end('ok'));
  try {
    const sandbox = createSandbox({ seed: 1, world: 'empty', feed: 'off', logger: () => undefined, deliveryTimeout: 0.6 });
    await endpoint(sandbox, `${rx.origin}/hook`);
    emit(sandbox, 1);
    // The attempt starts (the global fetch begins connecting), then the process stalls: its
    // timers come due before the I/O that queued up meanwhile.
    await new Promise((resolve) => setImmediate(resolve));
    const until = performance.now() + 1400;
    while (performance.now() < until) {
      /* a long synchronous task */
    }
    await sandbox.settle();
    expect((await attempts(sandbox)).map((a) => [a.status, a.error])).toEqual([['success', null]]);
    expect(rx.all).toHaveLength(1);
  } finally {
    rx.close();
  }
});
