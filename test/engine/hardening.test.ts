/**
 * Issue 11 findings 3 and 4 on every adapter: body, head and nesting bounds answer JSON with the
 * same bytes on express, msw and node:http; the control plane refuses non-JSON bodies, foreign
 * `Host` values and cross-origin pages; `cors` answers preflights.
 */
import { rawRequest, serveOnLoopback } from '../support/network-server.js';
import { afterAll, describe, expect, it } from 'vitest';
import { createSandbox, GUARD_MESSAGES, LIMITS, LIMIT_MESSAGES } from '../../src/index.js';
import { CONTENT_MESSAGES } from '../../src/engine/dispatch.js';
import { snapshotWorld } from '../../src/engine/snapshot.js';
import { ALL_ADAPTERS, createClient, type CallOptions, type TestClient, type TestResponse } from '../support/client.js';

function deepJson(depth: number): string {
  return `${'['.repeat(depth)}1${']'.repeat(depth)}`;
}

const clients = new Map(ALL_ADAPTERS.map((a) => [a, createClient(a, { seed: 3, users: 2, usersElsewhere: 0 })]));

/**
 * The same request on every adapter. `skipSupertest`: msw's request interceptor (active once an
 * msw client exists) cannot carry heads over 16 KB from the express client, so those cases check express
 * with a raw request below instead.
 */
async function onAll(method: string, path: string, options?: CallOptions, skipSupertest = false): Promise<TestResponse[]> {
  const out: TestResponse[] = [];
  for (const c of clients.values()) if (!(skipSupertest && c.adapter === 'express')) out.push(await c.call(method, path, options));
  return out;
}

function sameBytes(answers: TestResponse[]): TestResponse {
  const [first, ...rest] = answers as [TestResponse, ...TestResponse[]];
  for (const r of rest) {
    expect(r.status).toBe(first.status);
    expect(r.headers['content-type']).toBe(first.headers['content-type']);
    expect(r.bytes.toString('base64')).toBe(first.bytes.toString('base64'));
  }
  return first;
}

describe('bounds, byte-identical on express, msw and node:http', () => {
  it('JSON nested deeper than the bound answers 422 with a truncated echo, changing nothing', async () => {
    const before = [...clients.values()].map((c: TestClient) => snapshotWorld(c.sandbox.world));
    const res = sameBytes(await onAll('POST', '/v2/user', { body: deepJson(10_000) }));
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({ type: 'json_invalid', loc: ['body', 0], ctx: { error: LIMIT_MESSAGES.tooDeep } });
    expect(res.bytes.length).toBeLessThan(LIMITS.echoString + 500);
    [...clients.values()].forEach((c, i) => expect(snapshotWorld(c.sandbox.world)).toBe(before[i]));
    // At the bound it is an ordinary validation answer.
    const ok = sameBytes(await onAll('POST', '/v2/user', { body: deepJson(LIMITS.jsonDepth) }));
    expect(ok.status).toBe(422);
    expect(ok.body.detail[0].type).toBe('model_attributes_type');
  });

  it('a 60 KB query string answers 431 JSON', async () => {
    const res = sameBytes(await onAll('GET', '/v2/user', { query: { q: 'x'.repeat(60_000) } }, true));
    expect(res.status).toBe(431);
    expect(res.body).toEqual({ detail: LIMIT_MESSAGES.headersTooLarge });
  });

  it('headers over the bound answer 431 JSON', async () => {
    const res = sameBytes(await onAll('GET', '/v2/user', { headers: { 'x-padding': 'p'.repeat(LIMITS.headerBytes) } }, true));
    expect(res.status).toBe(431);
    expect(res.body).toEqual({ detail: LIMIT_MESSAGES.headersTooLarge });
  });

  it('a body over the bound answers 413 JSON', async () => {
    const res = sameBytes(await onAll('POST', '/v2/user', { body: `{"client_user_id":"${'a'.repeat(LIMITS.bodyBytes)}"}` }));
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ detail: LIMIT_MESSAGES.bodyTooLarge });
  });

  it('an unknown Content-Encoding answers 415 JSON everywhere', async () => {
    const res = sameBytes(await onAll('POST', '/v2/user', { body: { client_user_id: 'enc' }, headers: { 'content-encoding': 'br' } }));
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ detail: LIMIT_MESSAGES.unsupportedEncoding });
  });

  it('a text/plain POST to the control plane answers 415 JSON and changes nothing', async () => {
    for (const c of clients.values()) {
      const before = c.sandbox.world.clock.now();
      const res = await c.call('POST', '/_sandbox/clock/advance', { body: '{"seconds":3600}', headers: { 'content-type': 'text/plain' } });
      expect(res.status).toBe(415);
      expect(res.body).toEqual({ detail: CONTENT_MESSAGES.controlNeedsJson });
      expect(c.sandbox.world.clock.now()).toBe(before);
      const reset = await c.call('POST', '/_sandbox/reset', { body: '{}', headers: { 'content-type': 'text/plain;charset=UTF-8' } });
      expect(reset.status).toBe(415);
    }
  });

  it('a text/plain body on a data route is validated as text, like FastAPI (422 model_attributes_type)', async () => {
    const res = sameBytes(
      await onAll('POST', '/v2/user', { body: '{"client_user_id":"plain"}', headers: { 'content-type': 'text/plain' } }),
    );
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([
      {
        type: 'model_attributes_type',
        loc: ['body'],
        msg: 'Input should be a valid dictionary or object to extract fields from',
        input: '{"client_user_id":"plain"}',
      },
    ]);
  });
});

describe('the control plane over the network', () => {
  const servers: Array<{ close(): void }> = [];
  afterAll(() => servers.forEach((s) => s.close()));

  async function listen(kind: 'express' | 'node', options: { cors?: true | string[] } = {}): Promise<number> {
    const sandbox = createSandbox({ seed: 2, users: 1, usersElsewhere: 0, logger: () => undefined });
    const served = await serveOnLoopback(kind, sandbox, options);
    servers.push(served);
    return served.port;
  }

  for (const kind of ['express', 'node'] as const) {
    it(`[${kind}] refuses a rebound Host and a cross-origin page, accepts its own addresses`, async () => {
      const port = await listen(kind);
      const evil = await rawRequest(port, 'GET', '/_sandbox/credentials', { host: `evil.example:${port}` });
      expect(evil.status).toBe(403);
      expect(JSON.parse(evil.text)).toEqual({ detail: GUARD_MESSAGES.badHost });
      for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]) {
        expect((await rawRequest(port, 'GET', '/_sandbox/health', { host })).status).toBe(200);
      }
      const page = await rawRequest(
        port,
        'POST',
        '/_sandbox/reset',
        { host: `127.0.0.1:${port}`, origin: 'https://evil.example', 'content-type': 'application/json' },
        '{}',
      );
      expect(page.status).toBe(403);
      expect(JSON.parse(page.text)).toEqual({ detail: GUARD_MESSAGES.crossOrigin });
      const self = await rawRequest(port, 'GET', '/_sandbox/health', { host: `127.0.0.1:${port}`, origin: `http://127.0.0.1:${port}` });
      expect(self.status).toBe(200);
      // Without --cors a preflight is not answered (405 as any unknown method) and no CORS header is sent.
      const pre = await rawRequest(port, 'OPTIONS', '/v2/user', {
        host: `127.0.0.1:${port}`,
        origin: 'https://app.example',
        'access-control-request-method': 'GET',
      });
      expect(pre.status).toBe(405);
      expect(pre.headers['access-control-allow-origin']).toBeUndefined();
    });

    it(`[${kind}] with cors answers preflights and tags answers for the listed origins only`, async () => {
      const port = await listen(kind, { cors: ['https://app.example'] });
      const host = `127.0.0.1:${port}`;
      const pre = await rawRequest(port, 'OPTIONS', '/v2/user', {
        host,
        origin: 'https://app.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'x-service-api-key, content-type',
      });
      expect(pre.status).toBe(204);
      expect(pre.headers).toMatchObject({
        'access-control-allow-origin': 'https://app.example',
        'access-control-allow-headers': 'x-service-api-key, content-type',
      });
      expect(String(pre.headers['access-control-allow-methods'])).toContain('POST');
      const get = await rawRequest(port, 'GET', '/_sandbox/health', { host, origin: 'https://app.example' });
      expect(get.status).toBe(200);
      expect(get.headers['access-control-allow-origin']).toBe('https://app.example');
      const other = await rawRequest(port, 'OPTIONS', '/v2/user', {
        host,
        origin: 'https://other.example',
        'access-control-request-method': 'GET',
      });
      expect(other.status).toBe(403);
      expect((await rawRequest(port, 'GET', '/_sandbox/health', { host, origin: 'https://other.example' })).status).toBe(403);
    });

    it(`[${kind}] a request head past the transport limit answers 431 JSON, not an empty answer`, async () => {
      const port = await listen(kind);
      const within = await rawRequest(port, 'GET', `/v2/user?q=${'x'.repeat(LIMITS.headerBytes)}`, { host: `127.0.0.1:${port}` });
      expect(within.status).toBe(431);
      expect(JSON.parse(within.text)).toEqual({ detail: LIMIT_MESSAGES.headersTooLarge });
      const res = await rawRequest(port, 'GET', `/v2/user?q=${'x'.repeat(LIMITS.transportHeaderBytes + 1000)}`, {
        host: `127.0.0.1:${port}`,
      });
      expect(res.status).toBe(431);
      expect(JSON.parse(res.text)).toEqual({ detail: LIMIT_MESSAGES.headersTooLarge });
    });
  }
});
