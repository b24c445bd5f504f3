/**
 * Issue 40 item 1, driven from the route table: a write to any route that is refused before its
 * handler (no key, a wrong key, a body that is not the route's) never enters the world's log,
 * however large its body; so a client without a key cannot grow the sandbox's memory. One client
 * per adapter (express over HTTP; the in-process fetch handler).
 */
import { describe, expect, it } from 'vitest';
import { worldLogOf } from '../../src/engine/persist.js';
import { surfaceOf } from '../../src/engine/router.js';
import { ROUTES } from '../../src/routes.js';
import { createClient, forAdapters } from '../support/client.js';
import { pathFor, routeParams } from '../support/route-params.js';

const WRITES = ROUTES.filter((r) => r.method !== 'GET' && r.auth !== 'none');
const PAD = 'p'.repeat(64 * 1024);

forAdapters(['express', 'fetch'], 'refused writes never enter the world log', (adapter) => {
  it(`every write route (${WRITES.length}) refused without a key, with a wrong key, or with a body not its own`, async () => {
    const c = createClient(adapter, { seed: 8, users: 2, usersElsewhere: 0, clock: 'manual', feed: 'off', adminToken: 'admin-secret' });
    const params = await routeParams(c);
    await c.sandbox.ready;
    const log = worldLogOf(c.sandbox.world);
    if (!log) throw new Error('no world log');
    // Requests only: receivers' answers to deliveries in flight are logged meanwhile.
    const requests = (): number => log.entries.filter((e) => e.k === 'req').length;
    const statuses = new Set<number>();
    for (const route of WRITES) {
      const path = pathFor(route, params);
      const surface = surfaceOf(route);
      const wrong =
        route.auth === 'control' ? { authorization: 'Bearer wrong' } : { 'x-service-api-key': 'sk_us_wrong', 'x-management-key': 'wrong' };
      const before = requests();
      for (const headers of [{}, wrong]) {
        const res = await c.call(route.method, path, { surface, anonymous: true, headers, body: { pad: PAD } });
        statuses.add(res.status);
        expect(res.status, `${route.id}`).toBeGreaterThanOrEqual(400);
      }
      expect(requests(), `${route.id} without a key`).toBe(before);
      // The right key, a body that is not the route's (a JSON array): refused by validation (a route that reads no body may accept it).
      const keyed: Record<string, string> = route.auth === 'control' ? { authorization: 'Bearer admin-secret' } : {};
      const res = await c.call(route.method, path, { surface, headers: keyed, body: [PAD] });
      statuses.add(res.status);
      if (res.status >= 400 && res.status < 500) expect(requests(), `${route.id} ${res.status}`).toBe(before);
    }
    expect([...statuses]).toEqual(expect.arrayContaining([401, 422]));
  });
});

describe('the route table has write routes', () => {
  it('many', () => expect(WRITES.length).toBeGreaterThan(50));
});
