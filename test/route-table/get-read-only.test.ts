/**
 * No state change on a GET (design rule 13), for every GET route of the table: each route's valid
 * request (the route-table tests' request, test/support/valid-requests.ts, its precondition arranged
 * first for every route) leaves the world's export (`snapshotWorld`, the in-process equivalent of
 * `GET /_sandbox/world`'s state, less the request journal every request writes) and the id counters
 * unchanged. A store a read first creates empty does not count. A new GET route is covered without
 * edits; a GET that must change state is named in WRITES with the reason, a list that only shrinks.
 */
import { describe, expect, it } from 'vitest';
import type { Route } from '../../src/engine/route.js';
import { surfaceOf } from '../../src/engine/router.js';
import { ROUTES } from '../../src/routes.js';
import type { WebhookTransport } from '../../src/state/webhooks/transport.js';
import { type CallOptions, createClient } from '../support/client.js';
import { queryFor } from '../support/route-params.js';
import { routeIds, validRequest } from '../support/valid-requests.js';
import { changedParts, stateOf } from '../support/world-state.js';

/** GET routes that change state by design, with the reason. An entry whose route no longer does fails. */
const WRITES: Record<string, string> = {};

const GETS = ROUTES.filter((r) => r.method === 'GET');

/** Every delivery fails at once, as a refused connection (no wall-time latency in the attempt log). */
const refused: WebhookTransport = () =>
  Promise.reject(new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) }));

describe('no state change on a GET', () => {
  it('every GET route of the table leaves the world export (less the request journal) unchanged', async () => {
    const c = createClient('fetch', {
      seed: 6,
      users: 2,
      usersElsewhere: 1,
      feed: 'off',
      wallClock: () => Date.parse('2026-01-05T09:00:00Z'),
      webhookTransport: refused,
    });
    const ids = await routeIds(c);
    const requests = new Map<Route, { path: string; options: CallOptions }>();
    let serial = 0;
    for (const route of GETS) requests.set(route, await validRequest(c, route, ids, serial++, queryFor(route)));
    await c.sandbox.settle();

    const writes: Record<string, string[]> = {};
    let answered = 0;
    for (const route of GETS) {
      const request = requests.get(route) as { path: string; options: CallOptions };
      const before = stateOf(c.sandbox.world);
      const res = await c.call('GET', request.path, { ...request.options, surface: surfaceOf(route), redirect: 'manual' });
      await c.sandbox.settle();
      if (res.status < 400) answered++;
      const parts = changedParts(before, stateOf(c.sandbox.world));
      if (parts.length > 0) writes[route.id] = parts;
    }
    // The requests reached the handlers (not a table of 4xx answers that change nothing by refusing).
    expect(answered).toBeGreaterThan(GETS.length * 0.9);
    expect(
      Object.keys(writes).filter((id) => !(id in WRITES)),
      JSON.stringify(writes, null, 1),
    ).toEqual([]);
    expect(Object.keys(WRITES).filter((id) => !(id in writes))).toEqual([]);
  });
});
