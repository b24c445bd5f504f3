/**
 * An advance's wait budget (issue 27 item 4) charges only waiting on work that stopped finishing
 * (issue 33): a long advance over a receiver that keeps answering is never given up, however much
 * wall time its own jobs take between barriers and however many barriers wait. Before, the budget
 * was a wall-clock deadline from the first wait: a 30-day advance over a receiver answering at
 * once gave up on it after 15 s, ran ahead of its deliveries and lost half of them to the pending
 * cap. The sandbox's wall clock is injected and moved by the test (no timers, no sleeps): each job
 * "costs" 20 s, each answer 100 ms; the receiver answers 500 on the next turn of the event loop.
 */
import { callAt } from '../support/jobs.js';
import { expect, it } from 'vitest';
import { createSandbox } from '../../src/index.js';
import type { WebhookTransport } from '../../src/state/webhooks/transport.js';
import { attempts, emit, endpoint } from './support.js';

it('a long advance over a receiver that keeps answering waits for every attempt: each retry at its exact time', async () => {
  let wall = 1_800_000_000_000;
  const transport: WebhookTransport = () =>
    new Promise((resolve) =>
      setImmediate(() => {
        wall += 100;
        resolve({ status: 500, headers: {}, body: '' });
      }),
    );
  const sandbox = createSandbox({
    seed: 2,
    world: 'empty',
    feed: 'off',
    logger: () => undefined,
    wallClock: () => wall,
    webhookTransport: transport,
  });
  await endpoint(sandbox, 'http://receiver.example/fail');
  const start = sandbox.world.clock.now();
  const MINUTE = 60_000;
  // One event a minute for an hour, each job taking 20 s of wall time (the advance's own work).
  for (let m = 1; m <= 60; m++)
    callAt(sandbox.world.scheduler, start + m * MINUTE, `test: event at minute ${m}`, () => {
      wall += 20_000;
      emit(sandbox, 1);
    });
  await sandbox.advance(2 * 3600);
  const list = await attempts(sandbox);
  const byMessage = new Map<string, number[]>();
  for (const a of list) byMessage.set(a.msg_id, [...(byMessage.get(a.msg_id) ?? []), Date.parse(a.created_at) - start]);
  expect(byMessage.size).toBe(60);
  // Every message's first attempts at its minute, +5 s, +5 min 5 s, +35 min 5 s (within the 2 h advanced).
  for (const times of byMessage.values()) {
    const first = times[0] as number;
    const due = [0, 5_000, 305_000, 2_105_000].map((d) => first + d).filter((t) => t <= 2 * 3600_000);
    expect(times.slice(0, due.length)).toEqual(due);
  }
  await sandbox.settle();
});
