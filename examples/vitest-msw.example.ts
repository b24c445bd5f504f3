/**
 * Recipe: vitest + msw/node + your own fetch-based client. No port: msw answers `fetch` calls to
 * the base URL (and its management API) from an in-process sandbox. An empty world, reset between
 * tests, and every test in a team of its own (tests that share the sandbox never see each other's
 * users, so they may run concurrently).
 * In your project: `import { createSandbox } from 'health-sandbox'` and
 * `import { createMswHandlers } from 'health-sandbox/msw'`.
 */
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSandbox } from '../src/index.js';
import { createMswHandlers } from '../src/msw.js';
import { ownTeam } from './own-team.js';

const BASE = 'https://api.sandbox.example.test';

/** The code under test: a tiny client of the service. */
function healthClient(apiKey: string) {
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${BASE}${path}`, {
      method,
      headers: { 'x-vital-api-key': apiKey, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };
  return {
    createUser: (clientUserId: string) => call('POST', '/v2/user', { client_user_id: clientUserId }),
    connectDemo: (userId: string, provider: string) => call('POST', '/v2/link/connect/demo', { user_id: userId, provider }),
    providers: (userId: string) => call('GET', `/v2/user/providers/${userId}`),
  };
}

const sandbox = createSandbox({ world: 'empty', feed: 'off' });
const server = setupServer(...createMswHandlers(sandbox, { baseUrl: BASE }));

describe('recipe: vitest with msw/node', () => {
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => server.close());
  // A fresh world for every test: options (empty world, feed off) and credentials stay.
  beforeEach(() => sandbox.reset());

  /** This test's own team (created through the management API, which msw answers too). */
  const client = async () => healthClient((await ownTeam(sandbox)).apiKey);
  const managementKey = sandbox.credentials().management_key;
  let previousTeam = '';

  it('creates a user and connects a demo provider', async () => {
    const { teamId, apiKey } = await ownTeam(sandbox);
    previousTeam = teamId;
    const api = healthClient(apiKey);
    const user = await api.createUser('alice');
    expect(user.status).toBe(200);
    expect((await api.connectDemo(user.body.user_id, 'oura')).status).toBe(200);
    const providers = await api.providers(user.body.user_id);
    expect(providers.body.providers.map((p: { slug: string }) => p.slug)).toEqual(['oura']);
  });

  it("starts from a fresh world: the previous test's team is gone, the keys stay", async () => {
    expect(previousTeam).not.toBe('');
    expect(sandbox.credentials().teams.map((t) => t.team_id)).not.toContain(previousTeam);
    expect(sandbox.credentials().management_key).toBe(managementKey);
    expect((await (await client()).createUser('alice')).status).toBe(200);
  });

  it('moves time with a duration', async () => {
    await sandbox.advance('3d');
    expect(sandbox.world.clock.iso()).toBe('2026-01-08T09:00:00.000Z');
  });
});
