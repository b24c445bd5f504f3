/**
 * The delivery window (issue 33, src/state/webhooks/delivery-window.ts): `'auto'` by default,
 * which with a transport that pipelines (the CLI's node transport) adapts to the receiver: it
 * grows while answers come back fast, stays one at a time for a slow receiver, and falls back to
 * 1 on a timeout or a connection error; a fixed window stays as given (1: one at a time). The
 * receiver's speed is the sandbox's injected wall clock (no timers, no sleeps): each read moves
 * it by a fixed step, so the latency every attempt records is known.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { parseCli } from '../../src/adapters/cli-options.js';
import { createNodeTransport } from '../../src/adapters/node-transport.js';
import { createSandbox, type Sandbox } from '../../src/index.js';
import { deliveryOf } from '../../src/state/webhooks/delivery.js';
import { ADAPTIVE_MAX, DeliveryWindows } from '../../src/state/webhooks/delivery-window.js';
import type { WebhookTransport } from '../../src/state/webhooks/transport.js';
import { attemptOf } from '../../src/state/webhooks/message.js';
import { emitNumbered } from '../support/webhooks-support.js';

it('the CLI takes --delivery-window auto (and HEALTH_SANDBOX_DELIVERY_WINDOW=auto)', () => {
  expect(parseCli(['--delivery-window', 'auto'], {}).deliveryWindow).toBe('auto');
  expect(parseCli([], { HEALTH_SANDBOX_DELIVERY_WINDOW: 'auto' }).deliveryWindow).toBe('auto');
  expect(parseCli([], {}).deliveryWindow).toBeUndefined();
  expect(() => parseCli(['--delivery-window', 'automatic'], {})).toThrow(/1 to 256 or auto/);
});

describe('DeliveryWindows', () => {
  const make = (setting: number | 'auto', pipelines: boolean) =>
    new DeliveryWindows(
      () => setting,
      () => pipelines,
      () => 15_000,
    );

  it('auto is 1 without a pipelining transport, and a fixed window stays as given', () => {
    const plain = make('auto', false);
    plain.answered('ep', 0);
    expect(plain.of('ep')).toBe(1);
    const fixed = make(8, true);
    for (let i = 0; i < 10; i++) fixed.answered('ep', 0);
    fixed.troubled('ep');
    expect(fixed.of('ep')).toBe(8);
  });

  it('doubles on fast answers up to the most, halves on slow ones, and is 1 again after a timeout, per endpoint', () => {
    const w = make('auto', true);
    expect(w.of('a')).toBe(1);
    const seen: number[] = [];
    for (let i = 0; i < 8; i++) {
      w.answered('a', 1_875); // within an eighth of the timeout
      seen.push(w.of('a'));
    }
    expect(seen).toEqual([2, 4, 8, 16, 32, 64, 64, 64]);
    expect(ADAPTIVE_MAX).toBe(64);
    expect(w.of('b')).toBe(1);
    w.answered('a', 3_000); // between an eighth and a quarter: unchanged
    expect(w.of('a')).toBe(64);
    w.answered('a', 3_751); // slower than a quarter of the timeout
    expect(w.of('a')).toBe(32);
    w.troubled('a');
    expect(w.of('a')).toBe(1);
    w.answered('a', 10_000);
    expect(w.of('a')).toBe(1);
  });
});

const servers: Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.closeAllConnections(), s.close();
});

/** A receiver answering 204 at once; what it got, in arrival order, and the sockets it saw. */
async function receiver(): Promise<{ url: string; seqs: number[]; sockets: Set<unknown> }> {
  const seqs: number[] = [];
  const sockets = new Set<unknown>();
  const server = createServer((req, res) => {
    sockets.add(req.socket);
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (d: string) => (body += d));
    req.on('end', () => {
      seqs.push((JSON.parse(body) as { data: { seq: number } }).data.seq);
      res.writeHead(204).end();
    });
  });
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, seqs, sockets };
}

/** The node transport, counting how many requests were in flight at once at most. */
function counted(): { transport: WebhookTransport; most: () => number; close: () => void } {
  const node = createNodeTransport();
  let now = 0;
  let most = 0;
  const transport: WebhookTransport = Object.assign(
    (request: Parameters<WebhookTransport>[0]) => {
      most = Math.max(most, ++now);
      return node.transport(request).finally(() => now--);
    },
    { sharesSignals: true, pipelines: true },
  );
  return { transport, most: () => most, close: node.close };
}

async function deliverBurst(options: { step: number; window?: number | 'auto'; n: number }) {
  const rx = await receiver();
  const t = counted();
  // Every read of the sandbox's wall clock moves it by `step` ms: an attempt's latency is one step.
  let wall = 1_800_000_000_000;
  const sandbox = createSandbox({
    seed: 5,
    world: 'empty',
    feed: 'off',
    logger: () => undefined,
    wallClock: () => (wall += options.step),
    webhookTransport: t.transport,
    ...(options.window === undefined ? {} : { deliveryWindow: options.window }),
  });
  await endpoint(sandbox, rx.url);
  emitNumbered(sandbox, options.n);
  await sandbox.settle();
  t.close();
  const attempts = deliveryAttempts(sandbox);
  return { rx, most: t.most(), attempts };
}

describe('the window with the node transport', () => {
  it('adapts by default (auto): pipelined for a receiver that answers at once, in event order', async () => {
    const { rx, most, attempts } = await deliverBurst({ step: 1, n: 50 });
    expect(rx.seqs).toEqual([...Array(50).keys()]);
    expect(most).toBeGreaterThan(1);
    expect(attempts.every((a) => a.status === 'success')).toBe(true);
  });

  it('deliveryWindow 1 is one at a time, even for a receiver that answers at once', async () => {
    const { rx, most } = await deliverBurst({ step: 1, n: 50, window: 1 });
    expect(rx.seqs).toEqual([...Array(50).keys()]);
    expect(most).toBe(1);
  });

  it('auto grows for a receiver that answers at once: many in flight on one connection, every delivery in event order', async () => {
    const { rx, most, attempts } = await deliverBurst({ step: 1, n: 300, window: 'auto' });
    expect(rx.seqs).toEqual([...Array(300).keys()]);
    expect(rx.sockets.size).toBe(1);
    expect(most).toBeGreaterThan(1);
    expect(most).toBeLessThanOrEqual(ADAPTIVE_MAX);
    expect(attempts.every((a) => a.status === 'success')).toBe(true);
  });

  it('auto stays one at a time for a slow receiver (answers slower than an eighth of the timeout)', async () => {
    const { rx, most } = await deliverBurst({ step: 2_000, n: 20, window: 'auto' });
    expect(rx.seqs).toEqual([...Array(20).keys()]);
    expect(most).toBe(1);
  });

  it('a fixed window is kept: deliveryWindow 3 has at most 3 in flight', async () => {
    const { rx, most } = await deliverBurst({ step: 1, n: 50, window: 3 });
    expect(rx.seqs).toEqual([...Array(50).keys()]);
    expect(most).toBeLessThanOrEqual(3);
  });
});

const encoder = new TextEncoder();

async function endpoint(sandbox: Sandbox, url: string): Promise<void> {
  const creds = sandbox.credentials();
  const team = creds.teams[0];
  if (!team) throw new Error('no team');
  const res = await sandbox.dispatch({
    method: 'POST',
    surface: 'management',
    path: `/v1/org/${creds.org_id}/team/${team.team_id}/sandbox/webhook`,
    query: {},
    headers: { 'x-management-key': creds.management_key, 'content-type': 'application/json' },
    rawBody: encoder.encode(JSON.stringify({ url })),
  });
  expect(res.status).toBe(200);
}

function deliveryAttempts(sandbox: Sandbox): Array<{ status: string }> {
  const out: Array<{ status: string }> = [];
  for (const msg of deliveryOf(sandbox.world).log.messages.values())
    for (const dest of msg.destinations.values()) out.push(...dest.attempts.map(attemptOf));
  return out;
}
