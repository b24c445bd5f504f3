/**
 * The CLI's webhook transport (src/adapters/node-transport.ts) with a delivery window: attempts to
 * one endpoint start in event order, several are in flight at once (pipelined on one keep-alive
 * connection), and they reach the receiver in event order; a receiver closing the connection
 * mid-pipeline loses nothing. Receivers on 127.0.0.1 only; waits are on events, never timers.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { Webhook } from 'svix';
import { createNodeTransport } from '../../src/adapters/node-transport.js';
import { createSandbox, type Sandbox } from '../../src/index.js';
import { emitNumbered } from '../support/webhooks-support.js';

const encoder = new TextEncoder();
const servers: Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.closeAllConnections(), s.close();
});

interface Got {
  req: IncomingMessage;
  res: ServerResponse;
  body: string;
}

async function receiver(onRequest: (got: Got, all: Got[]) => void): Promise<{ url: string; all: Got[]; sockets: Set<unknown> }> {
  const all: Got[] = [];
  const sockets = new Set<unknown>();
  const server = createServer((req, res) => {
    sockets.add(req.socket);
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (d: string) => (body += d));
    req.on('end', () => {
      const got = { req, res, body };
      all.push(got);
      onRequest(got, all);
    });
  });
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, all, sockets };
}

async function withEndpoint(sandbox: Sandbox, url: string): Promise<string> {
  const creds = sandbox.credentials();
  const team = creds.teams[0];
  if (!team) throw new Error('no team');
  const base = `/v1/org/${creds.org_id}/team/${team.team_id}/sandbox/webhook`;
  const headers = { 'x-management-key': creds.management_key, 'content-type': 'application/json' };
  const res = await sandbox.dispatch({
    method: 'POST',
    surface: 'management',
    path: base,
    query: {},
    headers,
    rawBody: encoder.encode(JSON.stringify({ url })),
  });
  expect(res.status).toBe(200);
  const id = (JSON.parse(new TextDecoder().decode(res.body)) as { id: string }).id;
  const secret = await sandbox.dispatch({
    method: 'GET',
    surface: 'management',
    path: `${base}/${id}/secret`,
    query: {},
    headers,
    rawBody: new Uint8Array(0),
  });
  return (JSON.parse(new TextDecoder().decode(secret.body)) as { key: string }).key;
}

const seqOf = (body: string): number => (JSON.parse(body) as { data: { seq: number } }).data.seq;

it('with a window of 4, four attempts are in flight at once on one connection, and every delivery arrives in event order, signed', async () => {
  const node = createNodeTransport();
  // Answers nothing until four requests are in its hands: a window of 1 would never get there.
  const r = await receiver((_got, all) => {
    if (all.length === 4) for (const g of all) g.res.writeHead(204).end();
    else if (all.length > 4) _got.res.writeHead(204).end();
  });
  const sandbox = createSandbox({
    seed: 3,
    world: 'empty',
    feed: 'off',
    logger: () => undefined,
    webhookTransport: node.transport,
    deliveryWindow: 4,
  });
  const secret = await withEndpoint(sandbox, r.url);
  emitNumbered(sandbox, 12);
  await sandbox.settle();
  expect(r.all.map((g) => seqOf(g.body))).toEqual([...Array(12).keys()]);
  expect(r.sockets.size).toBe(1);
  const wh = new Webhook(secret);
  for (const g of r.all) expect(() => wh.verify(g.body, g.req.headers as Record<string, string>)).not.toThrow();
  node.close();
});

it('a receiver that closes the connection mid-pipeline (chunked answer, connection: close) loses no delivery', async () => {
  const node = createNodeTransport();
  let answered = 0;
  const r = await receiver((got, all) => {
    if (all.length < 3) return;
    // Three in hand: answer the first with a chunked body and close; the rest were never processed.
    if (answered === 0) {
      answered++;
      const first = all[0] as Got;
      first.res.writeHead(200, { connection: 'close', 'content-type': 'text/plain' });
      first.res.write('hel');
      first.res.end('lo');
      return;
    }
    got.res.writeHead(204).end();
  });
  const sandbox = createSandbox({
    seed: 3,
    world: 'empty',
    feed: 'off',
    logger: () => undefined,
    webhookTransport: node.transport,
    deliveryWindow: 3,
  });
  await withEndpoint(sandbox, r.url);
  emitNumbered(sandbox, 6);
  await sandbox.settle();
  const res = await sandbox.dispatch({
    method: 'GET',
    surface: 'data',
    path: '/_sandbox/webhooks/attempts',
    query: { limit: ['50'] },
    headers: {},
    rawBody: new Uint8Array(0),
  });
  const list = (
    JSON.parse(new TextDecoder().decode(res.body)) as {
      attempts: Array<{ status: string; response: { status_code: number; body: string } | null }>;
    }
  ).attempts;
  expect(list).toHaveLength(6);
  expect(list.every((a) => a.status === 'success')).toBe(true);
  expect(list[0]?.response).toMatchObject({ status_code: 200, body: 'hello' });
  // The first connection carried three requests; the two unanswered ones went again on a new one.
  expect(r.sockets.size).toBe(2);
  expect(r.all.slice(-5).map((g) => seqOf(g.body))).toEqual([1, 2, 3, 4, 5]);
  node.close();
});

it('refuses a header name or value holding a line break before anything is written, and the next request on the connection goes out whole', async () => {
  const node = createNodeTransport();
  const r = await receiver((got) => got.res.writeHead(204).end());
  const signal = new AbortController().signal;
  const request = (headers: Record<string, string>) => node.transport({ url: r.url, method: 'POST', headers, body: '{"a":"é"}', signal });
  try {
    await expect(request({ 'x-one': 'a\r\nx-smuggled: 1' })).rejects.toThrow('Invalid header "x-one"');
    await expect(request({ 'x-one': 'a', 'x-two\n': 'b' })).rejects.toThrow('Invalid header "x-two\\n"');
    await expect(request({ 'x-one': 'a\rb' })).rejects.toThrow('Invalid header "x-one"');
    const answer = await request({ 'content-type': 'application/json', 'x-one': 'a' });
    expect(answer.status).toBe(204);
    expect(r.all).toHaveLength(1);
    const got = r.all[0] as Got;
    expect(got.body).toBe('{"a":"é"}');
    expect(got.req.headers['x-one']).toBe('a');
    expect(got.req.headers['x-smuggled']).toBeUndefined();
    expect(got.req.headers['content-length']).toBe(String(encoder.encode('{"a":"é"}').length));
  } finally {
    node.close();
  }
});
