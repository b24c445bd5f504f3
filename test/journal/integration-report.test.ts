/**
 * The integration report (`GET /_sandbox/report`, `control.report()`, issue 46) after a scripted
 * run through the official SDK, on the express and msw adapters: the routes called with their
 * statuses (a fault's 429 included), routes never called, error statuses, the webhook event types
 * delivered and acknowledged per endpoint, fault kinds, providers; `?format=md`; a reset empties it.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { VitalClient } from '@tryvital/vital-node';
import { setupServer } from 'msw/node';
import { afterEach, describe, expect, it } from 'vitest';
import { createExpressApp } from '../../src/express.js';
import { createSandbox, type Sandbox } from '../../src/index.js';
import { createMswHandlers } from '../../src/msw.js';
import { connectSandbox } from '../../src/testing.js';
import { loopbackOnly } from '../support/loopback.js';

const closers: Array<() => void> = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

async function serve(adapter: 'express' | 'msw'): Promise<{ sandbox: Sandbox; base: string }> {
  const sandbox = createSandbox({
    seed: 46,
    clock: 'manual',
    startAt: '2026-01-05T09:00:00Z',
    logger: () => undefined,
    webhookTransport: loopbackOnly,
  });
  closers.push(() => sandbox.close());
  if (adapter === 'express') {
    const server: Server = createExpressApp(sandbox).listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    sandbox.setUrls({ base, management: `${base}/management` });
    closers.push(() => {
      server.closeAllConnections();
      server.close();
    });
    return { sandbox, base };
  }
  const base = 'http://report-msw.test';
  const msw = setupServer(...createMswHandlers(sandbox, { baseUrl: base, managementUrl: `${base}/management` }));
  msw.listen({ onUnhandledRequest: 'bypass' });
  closers.push(() => msw.close());
  return { sandbox, base };
}

for (const adapter of ['express', 'msw'] as const) {
  describe(`integration report [${adapter}]`, () => {
    it('names the routes, statuses (a fault 429 included) and event types of a scripted SDK run', async () => {
      const { sandbox, base } = await serve(adapter);
      const control = connectSandbox(base);
      const creds = await control.credentials();
      const team = creds.teams[0]!;
      // A webhook endpoint to the built-in receiver, through the management API.
      const created = await fetch(`${base}/management/v1/org/${creds.org_id}/team/${team.team_id}/sandbox/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-management-key': creds.management_key },
        body: JSON.stringify({ url: `${base}/_sandbox/receiver/report` }),
      });
      expect(created.status).toBe(200);
      const endpointId = ((await created.json()) as { id: string }).id;

      await control.faults.add({ match: { route: 'users.get' }, action: { status: 429 }, times: 1 });
      await control.faults.outage('oura', { seconds: 60 });
      const vital = new VitalClient({ apiKey: team.api_keys.sandbox, baseUrl: base, maxRetries: 0 });
      const user = await vital.user.create({ clientUserId: `report-${adapter}` });
      await expect(vital.user.get(user.userId)).rejects.toMatchObject({ statusCode: 429 });
      expect((await vital.user.get(user.userId)).userId).toBe(user.userId);
      await expect(vital.user.get('00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({ statusCode: 404 });
      await vital.link.connectDemoProvider({ userId: user.userId, provider: 'fitbit' });
      await control.advance('1h');
      await sandbox.settle();

      const report = await control.report();
      const get = report.routes_called.find((r) => r.route_id === 'users.get')!;
      expect(get).toMatchObject({ method: 'GET', count: 3, statuses: { '200': 1, '404': 1, '429': 1 }, faulted: 1 });
      expect(report.routes_called.find((r) => r.route_id === 'users.create')).toMatchObject({ count: 1, statuses: { '200': 1 } });
      expect(report.routes_called.some((r) => r.route_id.startsWith('sandbox.'))).toBe(false);
      expect(report.routes_never_called.some((r) => r.route_id === 'users.delete')).toBe(true);
      expect(report.error_statuses).toMatchObject({ '404': 1, '429': 1 });
      expect(report.fault_kinds).toEqual(['http:status', 'provider_outage']);
      expect(report.lab_orders.low_level_statuses.length).toBeGreaterThanOrEqual(report.lab_orders.statuses.length);
      expect(report.providers_connected).toContain('fitbit');
      const hooks = report.webhooks.find((w) => w.endpoint_id === endpointId)!;
      expect(hooks.url).toBe(`${base}/_sandbox/receiver/report`);
      expect(hooks.event_types['provider.connection.created']).toEqual({ delivered: 1, acknowledged: 1 });
      expect(Object.keys(hooks.event_types).some((t) => t.startsWith('historical.data.'))).toBe(true);

      const md = await control.reportMarkdown();
      expect(md).toContain('# Integration report');
      expect(md).toContain('| users.get | GET | /v2/user/:user_id | 3 | 200×1, 404×1, 429×1 | 1 |');
      expect(md).toContain('provider.connection.created: 1 delivered, 1 acknowledged');

      await control.reset();
      const fresh = await control.report();
      expect(fresh.requests).toBe(0);
      expect(fresh.routes_called).toEqual([]);
      expect(fresh.webhooks).toEqual([]);
    });

    it('counts a dropped connection among the error statuses', async () => {
      const { base } = await serve(adapter);
      const control = connectSandbox(base);
      const team = (await control.credentials()).teams[0]!;
      await control.faults.add({ match: { route: 'users.list' }, action: { drop: true }, times: 1 });
      await fetch(`${base}/v2/user`, { headers: { 'x-vital-api-key': team.api_keys.sandbox } }).catch(() => null);
      const report = await control.report();
      expect(report.error_statuses).toEqual({ dropped: 1 });
      expect(report.fault_kinds).toEqual(['http:drop']);
      expect(report.routes_called.find((r) => r.route_id === 'users.list')).toMatchObject({ statuses: { dropped: 1 }, faulted: 1 });
    });
  });
}
