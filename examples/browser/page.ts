/**
 * The browser side of the setupWorker recipe (examples/browser-worker.example.ts): what runs in
 * your page or component test. An in-page sandbox answers the app's `fetch` calls through msw's
 * service worker; every test starts from `sandbox.reset()` and works in its own team, so tests
 * never see each other's users.
 * In your project: `import { createSandbox } from 'health-sandbox'` and
 * `import { createMswHandlers } from 'health-sandbox/msw'` (this page is bundled with them).
 */
import { setupWorker } from 'msw/browser';
import { createSandbox } from '../../src/index.js';
import { createMswHandlers } from '../../src/msw.js';

export const BASE = 'https://api.sandbox.example.test';
export const MANAGEMENT = 'https://api.sandbox.example.test/management';

/** The code under test: your app's tiny client of the service. */
export function healthClient(apiKey: string) {
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${BASE}${path}`, {
      method,
      headers: { 'x-vital-api-key': apiKey, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  return {
    createUser: (clientUserId: string) => call('POST', '/v2/user', { client_user_id: clientUserId }),
    users: () => call('GET', '/v2/user'),
    connectDemo: (userId: string, provider: string) => call('POST', '/v2/link/connect/demo', { user_id: userId, provider }),
    providers: (userId: string) => call('GET', `/v2/user/providers/${userId}`),
  };
}

export interface Outcome {
  test: string;
  ok: boolean;
  detail: unknown;
}

/** Starts the worker and runs the page's tests; answers one outcome per test. */
export async function runBrowserRecipe(): Promise<Outcome[]> {
  const sandbox = createSandbox({ world: 'empty', feed: 'off' });
  const worker = setupWorker(...createMswHandlers(sandbox, { baseUrl: BASE, managementUrl: MANAGEMENT }));
  await worker.start({ quiet: true, onUnhandledRequest: 'error' });
  /** A team of its own for one test (parallel tests against one sandbox never collide). */
  const ownTeam = async (name: string): Promise<string> => {
    const creds = sandbox.credentials();
    const res = await fetch(`${MANAGEMENT}/v1/org/${creds.org_id}/team`, {
      method: 'POST',
      headers: { 'x-management-key': creds.management_key, 'content-type': 'application/json' },
      body: JSON.stringify({ name, region: 'us' }),
    });
    const team = (await res.json()) as { id: string };
    const key = sandbox.credentials().teams.find((t) => t.team_id === team.id)?.api_keys.sandbox;
    if (!key) throw new Error(`no key for team ${name}`);
    return key;
  };
  const outcomes: Outcome[] = [];
  const test = async (name: string, body: () => Promise<unknown>) => {
    sandbox.reset(); // a fresh world: options (empty, feed off) and credentials stay
    try {
      outcomes.push({ test: name, ok: true, detail: await body() });
    } catch (error) {
      outcomes.push({ test: name, ok: false, detail: String(error) });
    }
  };
  await test('creates a user and connects a demo provider', async () => {
    const client = healthClient(await ownTeam('browser-a'));
    const user = await client.createUser('alice');
    if (user.status !== 200) throw new Error(`create: ${user.status}`);
    const linked = await client.connectDemo(user.body.user_id, 'oura');
    if (linked.status !== 200) throw new Error(`connect: ${linked.status}`);
    const providers = await client.providers(user.body.user_id);
    return providers.body.providers.map((p: { slug: string }) => p.slug);
  });
  await test('starts from an empty world after the reset', async () => {
    const client = healthClient(sandbox.credentials().teams[0]?.api_keys.sandbox ?? '');
    return (await client.users()).body.total;
  });
  await test('a missing key answers 401 as the real service does', async () => {
    const res = await fetch(`${BASE}/v2/user`);
    return res.status;
  });
  worker.stop();
  return outcomes;
}
