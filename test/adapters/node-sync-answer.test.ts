/**
 * The node:http adapter writes an answer the engine made synchronously in the turn the request
 * arrived (no promise, no microtask before the write), the same bytes as `Sandbox.dispatch`; a
 * sandbox whose `dispatch` a caller replaced is served through the replacement.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/index.js';
import { createNodeListener } from '../../src/node.js';

function fakeRequest(url: string, apiKey: string): IncomingMessage {
  return {
    url,
    method: 'GET',
    httpVersionMajor: 1,
    httpVersionMinor: 1,
    headers: { host: '127.0.0.1:4000', 'x-service-api-key': apiKey },
    rawHeaders: ['Host', '127.0.0.1:4000', 'x-service-api-key', apiKey],
  } as unknown as IncomingMessage;
}

function fakeResponse() {
  const written: { status?: number; head?: unknown; body?: Uint8Array } = {};
  const res = {
    headersSent: false,
    writeHead(status: number, head: unknown) {
      written.status = status;
      written.head = head;
      return res;
    },
    end(body?: Uint8Array) {
      written.body = body;
    },
  };
  return { res: res as unknown as ServerResponse, written };
}

describe('the node:http adapter and a synchronous answer', () => {
  it('writes it before the listener returns, the bytes dispatch answers', async () => {
    const sandbox = createSandbox({ seed: 3, users: 2, usersElsewhere: 0, feed: 'off', logger: () => undefined });
    await sandbox.ready;
    const apiKey = sandbox.credentials().teams[0]?.api_keys.sandbox ?? '';
    const listener = createNodeListener(sandbox);
    const path = '/v2/user/?limit=1';
    // The first request after the world is ready learns that it is (through its promise).
    const warm = fakeResponse();
    listener(fakeRequest(path, apiKey), warm.res);
    await new Promise((resolve) => setImmediate(resolve));
    expect(warm.written.status).toBe(200);

    const now = fakeResponse();
    listener(fakeRequest(path, apiKey), now.res);
    expect(now.written.status).toBe(200);
    const expected = await sandbox.dispatch({
      method: 'GET',
      surface: 'data',
      path: '/v2/user/',
      query: { limit: ['1'] },
      headers: { 'x-service-api-key': apiKey },
      rawBody: new Uint8Array(0),
    });
    expect(Buffer.from(now.written.body ?? new Uint8Array(0)).toString()).toBe(Buffer.from(expected.body).toString());
    expect(now.written.head).toEqual(['content-type', 'application/json', 'content-length', expected.body.byteLength]);
  });

  it('serves through a dispatch a caller put in place of the sandbox own', async () => {
    const sandbox = createSandbox({ seed: 3, users: 2, usersElsewhere: 0, feed: 'off', logger: () => undefined });
    await sandbox.ready;
    const listener = createNodeListener(sandbox);
    const own = sandbox.dispatch.bind(sandbox);
    const seen: string[] = [];
    sandbox.dispatch = (req) => {
      seen.push(req.path);
      return own(req);
    };
    const first = fakeResponse();
    listener(fakeRequest('/v2/user/?limit=1', 'no key'), first.res);
    await new Promise((resolve) => setImmediate(resolve));
    expect(first.written.status).toBe(401);
    expect(seen).toEqual(['/v2/user']);
  });
});
