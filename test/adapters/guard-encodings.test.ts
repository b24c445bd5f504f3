/**
 * Issue 27 item 1 over the wire: no spelling of `/_sandbox` gets past the Host and Origin checks
 * on the node:http server (the CLI's) and the express app, because the guard reads the canonical
 * path the router reads. A path with no canonical form answers 400 JSON on every adapter.
 */
import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATH_MESSAGES } from '../../src/engine/canonical-path.js';
import { createExpressApp } from '../../src/express.js';
import { createSandbox, GUARD_MESSAGES, type Sandbox } from '../../src/index.js';
import { createNodeServer } from '../../src/node.js';
import { ALL_ADAPTERS, createClient } from '../support/client.js';

/** Spellings of `/_sandbox` the router resolves to the control plane. */
const DISGUISES = [
  '/%5Fsandbox',
  '/%5fsandbox',
  '/_%73andbox',
  '/_sandbo%78',
  '/%5F%73%61%6E%64%62%6F%78',
  '//_sandbox',
  '/./_sandbox',
  '/%2e/_sandbox',
  '/x/../_sandbox',
  '/x/%2E%2e/_sandbox',
  '/x/.%2e/_sandbox',
  '/../_sandbox',
  '/management/../_sandbox',
  '/%6Danagement/../_sandbox',
  '/management/%2e%2e/%5Fsandbox',
  '/_sandbox/',
];
/** Spellings that are not the control plane at all (one segment holding a slash, double encoding): 404. */
const NOT_CONTROL = [
  '/_sandbox%2Fcredentials',
  '/%5Fsandbox%2fcredentials',
  '/%255Fsandbox/credentials',
  '/%255fsandbox%252Fcredentials',
  '/_SANDBOX/credentials',
  '/_sandbox;/credentials',
  '/%EF%BC%BFsandbox/credentials',
];

const FOREIGN = { host: 'attacker.example', origin: 'https://attacker.example' };

interface Answer {
  status: number;
  text: string;
}
type Send = (method: string, path: string, headers: Record<string, string>, body?: string) => Promise<Answer>;

function fresh(): Sandbox {
  return createSandbox({ seed: 27, users: 1, usersElsewhere: 0, clock: 'manual', logger: () => undefined });
}

const servers: Server[] = [];
afterAll(() => {
  for (const s of servers) s.close();
});

/** The node:http server, sent raw so the path and `Host` go out exactly as written. */
async function nodeSend(sandbox: Sandbox): Promise<Send> {
  const server = createNodeServer(sandbox);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return (method, path, headers, body) =>
    new Promise((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, method, path, headers: { connection: 'close', ...headers } }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          text += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on('error', reject);
      req.end(body);
    });
}

/** The express app through supertest (which sends the path as written). */
function expressSend(sandbox: Sandbox): Send {
  const app = createExpressApp(sandbox);
  return async (method, path, headers, body) => {
    let test = request(app)[method.toLowerCase() as 'get' | 'post'](path);
    for (const [k, v] of Object.entries(headers)) test = test.set(k, v);
    const res = body === undefined ? await test : await test.send(body);
    return { status: res.status, text: res.text };
  };
}

const KINDS: Array<[string, (s: Sandbox) => Send | Promise<Send>]> = [
  ['node', nodeSend],
  ['express', expressSend],
];

describe.each(KINDS)('[%s] the guard reads the canonical path', (_kind, make) => {
  let sandbox: Sandbox;
  let send: Send;
  beforeAll(async () => {
    sandbox = fresh();
    send = await make(sandbox);
  });
  afterAll(() => sandbox.close());

  it('refuses every spelling of /_sandbox/credentials from a foreign Host or Origin', async () => {
    const key = sandbox.credentials().teams[0]?.api_keys.sandbox as string;
    for (const prefix of DISGUISES) {
      const path = `${prefix}/credentials`;
      const rebound = await send('GET', path, FOREIGN);
      expect(rebound.status, path).toBe(403);
      expect(JSON.parse(rebound.text), path).toEqual({ detail: GUARD_MESSAGES.badHost });
      const page = await send('GET', path, { host: '127.0.0.1', origin: FOREIGN.origin });
      expect(page.status, path).toBe(403);
      expect(JSON.parse(page.text), path).toEqual({ detail: GUARD_MESSAGES.crossOrigin });
      expect(`${rebound.text}${page.text}`).not.toContain(key);
      // The same spelling from loopback reaches the control plane: the check and the router agree.
      const own = await send('GET', path, { host: '127.0.0.1' });
      expect(own.status, path).toBe(200);
      expect(own.text).toContain(key);
    }
  });

  it('answers 404 for spellings that are not the control plane (encoded slash, double encoding)', async () => {
    for (const path of NOT_CONTROL) {
      const res = await send('GET', path, FOREIGN);
      expect(res.status, path).toBe(404);
      expect(res.text).not.toContain('api_keys');
    }
  });

  it('a cross-site POST to an encoded /clock/advance does not move the clock', async () => {
    const before = sandbox.world.clock.now();
    for (const prefix of DISGUISES) {
      const path = `${prefix}/clock/advance`;
      for (const headers of [FOREIGN, { host: '127.0.0.1', origin: FOREIGN.origin }, { host: FOREIGN.host }]) {
        const res = await send('POST', path, headers, '{"seconds":3600}');
        expect(res.status, `${path} ${JSON.stringify(headers)}`).toBe(403);
      }
    }
    expect(sandbox.world.clock.now()).toBe(before);
  });

  it('picks the management surface from the canonical path', async () => {
    const plain = await send('GET', '/management/openapi.json', { host: '127.0.0.1' });
    const encoded = await send('GET', '/%6Danagement/openapi.json', { host: '127.0.0.1' });
    const dotted = await send('GET', '/v2/../management/./openapi.json', { host: '127.0.0.1' });
    expect(plain.status).toBe(200);
    expect(encoded.text).toBe(plain.text);
    expect(dotted.text).toBe(plain.text);
  });
});

describe('a path with no canonical form answers 400 JSON on every adapter', () => {
  const clients = ALL_ADAPTERS.map((a) => createClient(a, { seed: 27, users: 1, usersElsewhere: 0 }));
  afterAll(() => {
    for (const c of clients) c.sandbox.close();
  });

  it.each(['/v2/user/%ZZ', '/_sandbox/%C3', '/%5Fsandbox/%E2%82/x', '/v2/user/%C0%AF'])('%s', async (path) => {
    const answers = await Promise.all(clients.map((c) => c.call('GET', path)));
    for (const [i, res] of answers.entries()) {
      expect(res.status, ALL_ADAPTERS[i]).toBe(400);
      expect(res.headers['content-type']).toContain('application/json');
      expect(res.body).toEqual({ detail: PATH_MESSAGES.invalid });
    }
  });

  it('and through Sandbox.dispatch called directly, which also takes a raw path', async () => {
    const sandbox = clients[0]?.sandbox as Sandbox;
    const base = { surface: 'data' as const, query: {}, headers: {}, rawBody: new Uint8Array(0) };
    const bad = await sandbox.dispatch({ ...base, method: 'GET', path: '/v2/%ZZ' });
    expect(bad.status).toBe(400);
    const ok = await sandbox.dispatch({ ...base, method: 'GET', path: '//%5Fsandbox/./health/' });
    expect(ok.status).toBe(200);
    expect(JSON.parse(new TextDecoder().decode(ok.body))).toEqual({ status: 'ok' });
  });
});
