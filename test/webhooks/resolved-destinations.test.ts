/**
 * Destinations checked as resolved (issue 27, item 2): the CLI's transport resolves an endpoint's
 * host (an injected resolver here: no real DNS) and judges every address as the literal address
 * would be judged. A name resolving to the sandbox's own listener is refused (recorded as
 * `refused: ...`, nothing sent, the world untouched); one resolving to a receiver on loopback is
 * delivered like `http://127.0.0.1:<port>` would be; link-local and metadata addresses are refused
 * whichever address of the name carries them; and the connection goes to the address checked.
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { createNodeServer } from '../../src/adapters/node-http.js';
import { createNodeTransport, type Lookup, type NodeTransport } from '../../src/adapters/node-transport.js';
import { createSandbox, type Sandbox } from '../../src/index.js';
import { attempts, emit, endpoint, type Receiver, receiver } from './support.js';

const cleanup: Array<() => void> = [];
afterEach(() => {
  for (const fn of cleanup.splice(0)) fn();
});

function resolver(table: Record<string, string[]>, calls: string[] = []): Lookup {
  return async (hostname) => {
    calls.push(hostname);
    const all = table[hostname];
    if (all === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return all.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}

async function served(lookup: Lookup): Promise<{ sandbox: Sandbox; port: number; node: NodeTransport; seen: string[] }> {
  const node = createNodeTransport({ lookup });
  const sandbox = createSandbox({ seed: 7, world: 'empty', feed: 'off', logger: () => undefined, webhookTransport: node.transport });
  const server = createNodeServer(sandbox).listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  sandbox.setUrls({ base: `http://127.0.0.1:${port}`, management: `http://127.0.0.1:${port}/management` });
  const seen: string[] = [];
  server.on('request', (req) => seen.push(req.url ?? ''));
  cleanup.push(() => {
    node.close();
    server.closeAllConnections();
    server.close();
  });
  return { sandbox, port, node, seen };
}

async function ok(): Promise<Receiver> {
  const r = await receiver((got) => got.res.writeHead(204).end());
  cleanup.push(() => r.close());
  return r;
}

it('refuses a name that resolves to the sandbox itself: recorded with its reason, nothing sent, the world not reset', async () => {
  const { sandbox, port, seen } = await served(resolver({ 'rebind.test': ['127.0.0.1'] }));
  const before = sandbox.credentials().management_key;
  // Registration judges the name as written (it is not loopback): accepted.
  const id = await endpoint(sandbox, `http://rebind.test:${port}/_sandbox/reset`);
  emit(sandbox, 1);
  await sandbox.settle();
  const [attempt, ...more] = await attempts(sandbox);
  expect(more).toEqual([]);
  expect(attempt).toMatchObject({ endpoint_id: id, status: 'failed' });
  expect(attempt?.error).toMatch(/^refused: rebind\.test resolves to 127\.0\.0\.1: Endpoint URLs must not point at the sandbox's own/);
  expect(seen).toEqual([]);
  // The world is the same one: same keys, the endpoint and its attempt still there.
  expect(sandbox.credentials().management_key).toBe(before);
  expect(sandbox.world.events.emitted).toBe(1);
});

it('delivers to a name that resolves to a loopback receiver on another port, as the literal address would be', async () => {
  const r = await ok();
  const { sandbox } = await served(resolver({ 'receiver.test': ['127.0.0.1'] }));
  await endpoint(sandbox, `http://receiver.test:${r.port}/hook`);
  emit(sandbox, 2);
  await sandbox.settle();
  expect((await attempts(sandbox)).map((a) => [a.status, a.error])).toEqual([
    ['success', null],
    ['success', null],
  ]);
  expect(r.all.map((g) => g.req.headers.host)).toEqual([`receiver.test:${r.port}`, `receiver.test:${r.port}`]);
});

it('refuses a name when any of its addresses is link-local or metadata', async () => {
  const r = await ok();
  const { sandbox } = await served(
    resolver({ 'meta.test': ['127.0.0.1', '169.254.169.254'], 'meta6.test': ['fd00:ec2::254'], 'mapped.test': ['::ffff:169.254.1.1'] }),
  );
  for (const host of ['meta.test', 'meta6.test', 'mapped.test']) await endpoint(sandbox, `http://${host}:${r.port}/hook`);
  emit(sandbox, 1);
  await sandbox.settle();
  const errors = (await attempts(sandbox)).map((a) => a.error ?? '').sort();
  expect(errors).toHaveLength(3);
  for (const e of errors) expect(e).toMatch(/^refused: \S+ resolves to \S+: Endpoint URLs must not point at link-local or cloud metadata/);
  expect(r.all).toEqual([]);
});

it('connects to the address it checked: a name that rebinds after the first lookup still reaches the checked receiver', async () => {
  const r = await ok();
  const calls: string[] = [];
  let answer = ['127.0.0.1'];
  const lookup: Lookup = async (hostname) => {
    const out = await resolver({ 'flip.test': answer }, calls)(hostname);
    answer = ['169.254.169.254']; // every later lookup would rebind to metadata
    return out;
  };
  const { sandbox } = await served(lookup);
  await endpoint(sandbox, `http://flip.test:${r.port}/hook`);
  emit(sandbox, 3);
  await sandbox.settle();
  expect((await attempts(sandbox)).map((a) => a.status)).toEqual(['success', 'success', 'success']);
  expect(r.all).toHaveLength(3);
  expect(calls).toEqual(['flip.test']);
});

it('a name that does not resolve fails the attempt as a connection error (retried on the ladder)', async () => {
  const { sandbox } = await served(resolver({}));
  await endpoint(sandbox, 'http://nowhere.test:9/hook');
  emit(sandbox, 1);
  await sandbox.settle();
  const [attempt] = await attempts(sandbox);
  expect(attempt?.error).toMatch(/^connection error.*ENOTFOUND/);
});

it('tries the checked addresses in turn: a name resolving to ::1 first reaches a receiver listening on 127.0.0.1 only', async () => {
  const r = await ok();
  const { sandbox } = await served(resolver({ 'dual.test': ['::1', '127.0.0.1'] }));
  await endpoint(sandbox, `http://dual.test:${r.port}/hook`);
  emit(sandbox, 2);
  await sandbox.settle();
  expect((await attempts(sandbox)).map((a) => a.status)).toEqual(['success', 'success']);
  expect(r.all).toHaveLength(2);
});
