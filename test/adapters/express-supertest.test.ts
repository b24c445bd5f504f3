/**
 * The express app as a user's tests reach it: through supertest (README: `createExpressApp()`
 * "(supertest, or app.listen)"). The suite's express client (test/support/express-request.ts)
 * sends node:http requests the way supertest does, at a fifth of its CPU; this file holds that
 * claim: the same calls, on two sandboxes of the same seed, one through supertest and one through
 * the suite's client, answer the same status, content type, content length and bytes: reads,
 * writes, a validation error, an unknown route, a form body, dot segments, HEAD, management.
 */
import request from 'supertest';
import { afterAll, describe, expect, it } from 'vitest';
import { createExpressApp } from '../../src/adapters/express.js';
import { createSandbox, type Sandbox } from '../../src/sandbox.js';
import { closeClients, createClient } from '../support/client.js';
import { loopbackOnly } from '../support/loopback.js';

const OPTIONS = { seed: 21, users: 3, feed: 'off' as const, logger: () => undefined, webhookTransport: loopbackOnly };

interface Call {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'HEAD';
  path: string;
  surface?: 'management';
  body?: string;
  contentType?: string;
}

const CALLS: Call[] = [
  { method: 'GET', path: '/v2/user?limit=2' },
  { method: 'POST', path: '/v2/user', body: '{"client_user_id":"supertest-1"}', contentType: 'application/json' },
  { method: 'POST', path: '/v2/user', body: '{"client_user_id":"supertest-1"}', contentType: 'application/json' },
  { method: 'POST', path: '/v2/user', body: '{"truncated":', contentType: 'application/json' },
  { method: 'POST', path: '/v2/user', body: 'client_user_id=form-body' },
  { method: 'GET', path: '/v2/user/resolve/supertest-1' },
  { method: 'GET', path: '/v2/./user/../user?limit=1' },
  { method: 'GET', path: '/v2/no-such-route' },
  { method: 'HEAD', path: '/v2/user?limit=1' },
  { method: 'GET', path: '/v3/orders?size=2' },
  { method: 'GET', path: '/v1/org/{org}/team', surface: 'management' },
];

interface Seen {
  status: number;
  type: string | undefined;
  length: string | undefined;
  bytes: string;
}

function through(sandbox: Sandbox): (call: Call) => Promise<Seen> {
  const app = createExpressApp(sandbox);
  const creds = sandbox.credentials();
  return async (call) => {
    const path = call.path.replace('{org}', creds.org_id);
    const full = call.surface === 'management' ? `/management${path}` : path;
    let test = request(app)[call.method.toLowerCase() as 'get'](full).buffer(true);
    test = test.set(
      call.surface === 'management' ? 'x-management-key' : 'x-service-api-key',
      call.surface === 'management' ? creds.management_key : (creds.teams[0]?.api_keys.sandbox ?? ''),
    );
    if (call.contentType) test = test.set('Content-Type', call.contentType);
    // Bytes as received, whatever the content type (superagent parses JSON and text otherwise).
    test = test.parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done(null, Buffer.concat(chunks)));
    });
    const res = call.body === undefined ? await test : await test.send(call.body);
    return {
      status: res.status,
      type: res.headers['content-type'],
      length: res.headers['content-length'],
      bytes: Buffer.isBuffer(res.body) ? res.body.toString('latin1') : '',
    };
  };
}

describe('the express app through supertest and through the suite express client', () => {
  afterAll(() => closeClients());

  it('answers every call alike: status, content type, content length and bytes', async () => {
    const viaSupertest = through(createSandbox(OPTIONS));
    const client = createClient('express', OPTIONS);
    const seen: Array<[Seen, Seen]> = [];
    for (const call of CALLS) {
      const a = await viaSupertest(call);
      const path = call.path.replace('{org}', client.orgId);
      const b = await client.call(call.method, path, {
        ...(call.surface ? { surface: call.surface } : {}),
        ...(call.body !== undefined ? { body: call.body } : {}),
        // The suite client sends a string body as JSON unless told otherwise ('' leaves the header out).
        ...(call.body !== undefined ? { headers: { 'content-type': call.contentType ?? '' } } : {}),
      });
      seen.push([
        a,
        { status: b.status, type: b.headers['content-type'], length: b.headers['content-length'], bytes: b.bytes.toString('latin1') },
      ]);
    }
    // Preconditions: the calls reach what they are meant to (a success, a 422, a 404, a form body refused or taken).
    expect(seen.map(([a]) => a.status)).toEqual([200, 200, 400, 422, seen[4]?.[0].status, 200, 200, 404, 200, 200, 200]);
    for (const [i, [a, b]] of seen.entries()) expect(b, `${CALLS[i]?.method} ${CALLS[i]?.path}`).toEqual(a);
  });
});
