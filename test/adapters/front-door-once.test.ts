/**
 * Design.md rules 12 and 17: a request's canonical path is computed once, at the front door,
 * whichever adapter it came through; the sandbox and dispatch read the recorded verdict. (Before
 * the front door the node adapters computed it four times per request, msw and fetch three.)
 */
import { afterAll, describe, expect, it } from 'vitest';
import { canonicalPathsAsked } from '../../src/engine/canonical-path.js';
import { ALL_ADAPTERS, closeClients, createClient, type TestClient } from '../support/client.js';

afterAll(closeClients);

/** How many canonical paths one request costs, and its answer. */
async function cost(send: () => Promise<{ status: number }>): Promise<{ asked: number; status: number }> {
  const before = canonicalPathsAsked();
  const { status } = await send();
  return { asked: canonicalPathsAsked() - before, status };
}

describe('the canonical path is computed once per request', () => {
  for (const adapter of ALL_ADAPTERS) {
    it(`through ${adapter}`, async () => {
      const client: TestClient = createClient(adapter, { seed: 48, users: 1, usersElsewhere: 0, clock: 'manual' });
      await client.get('/v2/user'); // warm: the client's own first steps are not the request's
      expect(await cost(() => client.get('/v2/user'))).toEqual({ asked: 1, status: 200 });
      expect(await cost(() => client.get('/v2/./user//'))).toEqual({ asked: 1, status: 200 });
      expect(await cost(() => client.mgmt('GET', `/v1/org/${client.orgId}`))).toEqual({ asked: 1, status: 200 });
      expect(await cost(() => client.get('/_sandbox/%63lock'))).toEqual({ asked: 1, status: 200 });
      // A path with no canonical form: its verdict is recorded too, and the engine answers 400.
      expect(await cost(() => client.get('/v2/%E0%A4%A'))).toEqual({ asked: 1, status: 400 });
    });
  }
});

describe('an in-process dispatch computes it once too', () => {
  it('Sandbox.dispatch with a raw path', async () => {
    const client = createClient('fetch', { seed: 48, users: 1, usersElsewhere: 0, clock: 'manual' });
    const request = {
      method: 'GET',
      surface: 'data' as const,
      path: '/_sandbox//clock',
      query: {},
      headers: {},
      rawBody: new Uint8Array(0),
    };
    expect(await cost(() => client.sandbox.dispatch(request))).toEqual({ asked: 1, status: 200 });
  });
});
