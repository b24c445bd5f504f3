/**
 * Endpoints isolated from each other (issue 27, item 3): two endpoints of two teams on one
 * receiver host and port, one path that never answers and one that answers at once. Through the
 * CLI's transport each endpoint has its own connection, so the fast one gets every delivery on
 * its first attempt while the other's request is still open. No wall-clock race: the hanging path
 * holds its request until the fast path has had all its deliveries (a shared pipeline never lets
 * them through: the test then fails after the attempt timeout), then answers 500.
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
  const held: Array<{ res: import('node:http').ServerResponse }> = [];
  let fastSeen = 0;
  let fastWhileHeld = 0;
  const r = await receiver((got) => {
    if (got.path === '/fast') {
      fastSeen++;
      if (held.length > 0) fastWhileHeld++;
      got.res.writeHead(200).end('ok');
      if (fastSeen === 8) for (const h of held.splice(0)) h.res.writeHead(500).end('late');
    } else if (fastSeen >= 8) got.res.writeHead(500).end('late');
    // '/hang' before the fast deliveries are all in: held open.
    else held.push(got);
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
    deliveryTimeout: 60,
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
  // Fast deliveries went through while a request to the hanging endpoint stood open (all of them
  // but any that came before the first hanging request reached the receiver).
  expect(fastWhileHeld).toBeGreaterThan(0);
  // Two connections to one host:port: one per endpoint.
  expect(new Set(r.all.map((g) => g.req.socket.remotePort)).size).toBe(2);
});
