/**
 * `--cors` with no origin list (issue 40, item 9), on the express and node:http adapters: any web
 * page may call the API routes, but the control plane (credentials, reset, faults, ...) answers a
 * cross-origin page only when its origin is listed by name.
 */
import { rawRequest, serveOnLoopback } from '../support/network-server.js';
import { afterAll, describe, expect, it } from 'vitest';
import { createSandbox, GUARD_MESSAGES } from '../../src/index.js';

const servers: Array<{ close(): void }> = [];
afterAll(() => servers.forEach((s) => s.close()));

async function listen(kind: 'express' | 'node', cors: true | string[]): Promise<{ port: number; key: string }> {
  const sandbox = createSandbox({ seed: 2, users: 1, usersElsewhere: 0, feed: 'off', logger: () => undefined });
  const served = await serveOnLoopback(kind, sandbox, { cors });
  servers.push(served);
  const { port } = served;
  return { port, key: sandbox.credentials().teams[0]?.api_keys.sandbox as string };
}

const page = 'https://any-page.example';

for (const kind of ['express', 'node'] as const) {
  describe(`--cors with no origin list [${kind}]`, () => {
    it('opens the API routes to any page', async () => {
      const { port, key } = await listen(kind, true);
      const pre = await rawRequest(port, 'OPTIONS', '/v2/user', { origin: page, 'access-control-request-method': 'GET' });
      expect(pre.status).toBe(204);
      expect(pre.headers['access-control-allow-origin']).toBe(page);
      const get = await rawRequest(port, 'GET', '/v2/user', { origin: page, 'x-vital-api-key': key });
      expect(get.status).toBe(200);
      expect(get.headers['access-control-allow-origin']).toBe(page);
    });

    it('keeps the control plane closed to every page not listed', async () => {
      const { port } = await listen(kind, true);
      const creds = await rawRequest(port, 'GET', '/_sandbox/credentials', { origin: page });
      expect(creds.status).toBe(403);
      expect(JSON.parse(creds.text)).toEqual({ detail: GUARD_MESSAGES.crossOrigin });
      expect(creds.headers['access-control-allow-origin']).toBeUndefined();
      const reset = await rawRequest(port, 'POST', '/_sandbox/reset', { origin: page, 'content-type': 'application/json' }, '{}');
      expect(reset.status).toBe(403);
      const pre = await rawRequest(port, 'OPTIONS', '/_sandbox/reset', { origin: page, 'access-control-request-method': 'POST' });
      expect(pre.status).toBe(403);
      expect(pre.headers['access-control-allow-origin']).toBeUndefined();
      // The sandbox's own pages and non-browser clients are unaffected.
      expect((await rawRequest(port, 'GET', '/_sandbox/credentials', {})).status).toBe(200);
      expect((await rawRequest(port, 'GET', '/_sandbox/health', { origin: `http://127.0.0.1:${port}` })).status).toBe(200);
    });

    it('a listed origin still reaches the control plane', async () => {
      const { port } = await listen(kind, [page]);
      const creds = await rawRequest(port, 'GET', '/_sandbox/credentials', { origin: page });
      expect(creds.status).toBe(200);
      expect(creds.headers['access-control-allow-origin']).toBe(page);
    });
  });
}
