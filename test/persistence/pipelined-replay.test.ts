/**
 * Pipelined deliveries replay byte for byte (issue 33: the CLI's transport pipelines by default,
 * `deliveryWindow` 'auto'). A live world delivers over the node transport to a real receiver
 * that fails some requests (so retries are scheduled while other attempts are in flight); the
 * window grows past 1 without being asked; the world's document, replayed with no receiver at
 * all, gives the same attempt log. And the replay dispatches each request that arrived during an
 * advance once, even when several pipelined attempts ask for it at once.
 */
import { afterEach, expect, it } from 'vitest';
import { createNodeTransport } from '../../src/adapters/node-transport.js';
import { type RequestEntry, WorldLog } from '../../src/engine/persist.js';
import { createSandbox, type SandboxOptions } from '../../src/sandbox.js';
import { deliveryOf } from '../../src/state/webhooks/delivery.js';
import type { WebhookTransport } from '../../src/state/webhooks/transport.js';
import { startReceiver, type TestReceiver } from '../support/webhooks-support.js';

const encoder = new TextEncoder();
const receivers: TestReceiver[] = [];
afterEach(async () => {
  for (const r of receivers.splice(0)) await r.close();
});

/** A wall clock that moves 3 ms at every read (latencies far below an eighth of the timeout). */
function steppingWall(start: number): () => number {
  let t = start;
  return () => (t += 3);
}

const OPTIONS: SandboxOptions = { seed: 21, users: 2, usersElsewhere: 0, clock: 'manual', logger: () => undefined };

it('a world whose deliveries were pipelined (the default with the node transport) replays the same attempt log', async () => {
  const rx = await startReceiver();
  receivers.push(rx);
  // Every 5th request of the first 60 fails: retries interleave with pipelined first attempts.
  rx.script = Array.from({ length: 60 }, (_, i) => (i % 5 === 4 ? { status: 500, body: 'no' } : { status: 204 }));
  const node = createNodeTransport();
  let inFlight = 0;
  let most = 0;
  const counted: WebhookTransport = Object.assign(
    (request: Parameters<WebhookTransport>[0]) => {
      most = Math.max(most, ++inFlight);
      return node.transport(request).finally(() => inFlight--);
    },
    { sharesSignals: true, pipelines: true },
  );
  const a = createSandbox({ ...OPTIONS, wallClock: steppingWall(1_767_600_000_000), webhookTransport: counted });
  await a.ready;
  const creds = a.credentials();
  const res = await a.dispatch({
    method: 'POST',
    surface: 'management',
    path: `/v1/org/${creds.org_id}/team/${creds.teams[0]?.team_id}/sandbox/webhook`,
    query: {},
    headers: { 'x-management-key': creds.management_key, 'content-type': 'application/json' },
    rawBody: encoder.encode(JSON.stringify({ url: `${rx.url}/hook` })),
  });
  expect(res.status).toBe(200);
  await a.advance('6h');
  await a.settle();
  node.close();
  const log = deliveryOf(a.world).log;
  const attempts = JSON.stringify(deliveryOf(a.world).toJSON());
  expect(most).toBeGreaterThan(1);
  expect(rx.received.length).toBeGreaterThan(100);
  expect(attempts).toContain('"status_code":500');
  expect(log.messages.size).toBeGreaterThan(50);

  const unreachable: WebhookTransport = Object.assign(() => Promise.reject(new Error('a restored world sent a delivery again')), {
    pipelines: true,
  });
  const b = createSandbox({
    ...OPTIONS,
    seed: 99,
    wallClock: steppingWall(1_900_000_000_000),
    webhookTransport: unreachable,
    from: a.exportWorld(),
  });
  await b.ready;
  await b.settle();
  expect(JSON.stringify(deliveryOf(b.world).toJSON())).toBe(attempts);
});

it('replays each nested request once when several attempts ask for it at once', async () => {
  const build = { seed: 1, scenario: null, users: 0, usersElsewhere: 0, limits: true, feed: 'off', world: 'empty', startAt: 0 } as const;
  const nested = (p: string): RequestEntry => ({ k: 'req', d: true, at: 0, m: 'POST', s: 'data', p, q: {}, h: {}, b: '' });
  const log = new WorldLog(build, [
    nested('/a'),
    nested('/b'),
    nested('/c'),
    { k: 'out', key: 'x', r: { status: 204, headers: {}, body: '' } },
  ]);
  const dispatched: string[] = [];
  log.replayDispatch = async (e) => {
    dispatched.push(e.p);
    await Promise.resolve();
  };
  // Three pipelined attempts whose answers come after all three requests ask at once.
  await Promise.all([log.replayNested(3), log.replayNested(3), log.replayNested(3)]);
  expect(dispatched).toEqual(['/a', '/b', '/c']);
});
