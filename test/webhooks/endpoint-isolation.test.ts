/**
 * Endpoints isolated from each other (issue 27, item 3): two endpoints of two teams on one
 * receiver host and port, one path that never answers and one that answers at once. Through the
 * CLI's transport each endpoint has its own connection, so the fast one gets every delivery on
 * its first attempt while the other times out (a 200 ms attempt timeout: no long waits).
 */
import { afterEach, expect, it } from 'vitest';
import { createNodeTransport } from '../../src/adapters/node-transport.js';
import { createSandbox } from '../../src/index.js';
import { attempts, emit, endpoint, receiver } from './support.js';

const cleanup: Array<() => void> = [];
afterEach(() => {
  for (const fn of cleanup.splice(0)) fn();
});

it('a hanging endpoint costs only itself: the fast endpoint on the same host:port gets every delivery on attempt 1', async () => {
  const r = await receiver((got) => {
    if (got.path === '/fast') got.res.writeHead(200).end('ok');
    // '/hang': never answered.
  });
  const node = createNodeTransport();
  cleanup.push(() => {
    node.close();
    r.close();
  });
  const sandbox = createSandbox({
    seed: 5,
    world: 'empty',
    feed: 'off',
    logger: () => undefined,
    webhookTransport: node.transport,
    deliveryTimeout: 0.2,
    deliveryWindow: 4,
  });
  const hang = await endpoint(sandbox, `${r.origin}/hang`, 0);
  const fast = await endpoint(sandbox, `${r.origin}/fast`, 1);
  // The hanging endpoint's events first, so a shared pipeline would put the fast ones behind them.
  emit(sandbox, 4, 0);
  emit(sandbox, 8, 1);
  await sandbox.settle();
  const log = await attempts(sandbox);
  const fastOnes = log.filter((a) => a.endpoint_id === fast);
  expect(fastOnes.map((a) => [a.attempt_number, a.status])).toEqual(Array.from({ length: 8 }, () => [1, 'success']));
  const hangOnes = log.filter((a) => a.endpoint_id === hang);
  expect(hangOnes.length).toBeGreaterThan(0);
  expect(hangOnes.every((a) => a.status === 'failed')).toBe(true);
  expect(r.all.filter((g) => g.path === '/fast')).toHaveLength(8);
  // Two connections to one host:port: one per endpoint.
  expect(new Set(r.all.map((g) => g.req.socket.remotePort)).size).toBe(2);
});
