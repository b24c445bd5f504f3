/**
 * The README's in-process example, run as written against the compiled package (dist/, what
 * `import 'health-sandbox'` loads): msw setupServer on the real SDK base URL, then the official
 * SDK and plain fetch through it.
 */
import { VitalClient } from '@tryvital/vital-node';
import { setupServer } from 'msw/node';
import { afterAll, expect, it } from 'vitest';
import type * as Api from '../../src/index.js';
import type * as ExpressApi from '../../src/express.js';
import type * as MswApi from '../../src/msw.js';

const dist = '../../dist/';
const { createSandbox } = (await import(`${dist}index.js`)) as typeof Api;
const { createMswHandlers } = (await import(`${dist}msw.js`)) as typeof MswApi;
const { createExpressApp } = (await import(`${dist}express.js`)) as typeof ExpressApi;

const sandbox = createSandbox({ seed: 7, clock: 'manual', startAt: '2026-01-05T09:00:00Z' });
const server = setupServer(
  ...createMswHandlers(sandbox, {
    baseUrl: 'https://api.sandbox.tryvital.io',
    managementUrl: 'https://api.management.junction.com',
  }),
);
server.listen({ onUnhandledRequest: 'error' });
afterAll(() => server.close());

it('works as the README shows, from the compiled package', async () => {
  const { teams, management_key, org_id } = sandbox.credentials();
  const key = teams[0]?.api_keys.sandbox ?? '';
  const res = await fetch('https://api.sandbox.tryvital.io/v2/user', { headers: { 'x-vital-api-key': key } });
  expect(res.status).toBe(200);
  expect(((await res.json()) as { total: number }).total).toBe(25);

  const vital = new VitalClient({ apiKey: key, baseUrl: 'https://api.sandbox.tryvital.io', maxRetries: 0 });
  const created = await vital.user.create({ clientUserId: 'readme-1' });
  expect((await vital.user.get(created.userId)).clientUserId).toBe('readme-1');

  const team = await fetch(`https://api.management.junction.com/v1/org/${org_id}/team/${teams[0]?.team_id}`, {
    headers: { 'X-Management-Key': management_key },
  });
  expect(team.status).toBe(200);
  expect(((await team.json()) as { region: string }).region).toBe('us');

  await sandbox.advance(3600);
  expect(sandbox.world.clock.iso()).toBe('2026-01-05T10:00:00.000Z');
  expect(typeof createExpressApp(sandbox)).toBe('function');
});
