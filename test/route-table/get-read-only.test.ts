/**
 * No state change on a GET (design rule 13), for every GET route of the table: each route's valid
 * request (the route-table tests' request, test/support/valid-requests.ts, its precondition arranged
 * first for every route) leaves the world's export (`exportOf`: `snapshotWorld`, the in-process
 * equivalent of `GET /_sandbox/world`'s state, and the id counters; the request journal is the
 * sandbox's, not the world's) unchanged. A store a read first creates empty does not count.
 *
 * The export of this world is megabytes, so it is taken once around all the reads, not around
 * each: when they changed the world, the same world is built again (same seed, same requests) and
 * the reads are checked one by one, to name the routes. A new GET route is covered without edits;
 * a GET that changes state says why (`changesOnRead`, in WRITES), is read last and checked on its own
 * (an entry whose route no longer writes fails).
 */
import { describe, expect, it } from 'vitest';
import type { Route } from '../../src/engine/route.js';
import { surfaceOf } from '../../src/engine/router.js';
import { ROUTES } from '../../src/routes.js';
import { type CallOptions, createClient, type TestClient } from '../support/client.js';
import { queryFor } from '../support/route-params.js';
import { routeIds, validRequest } from '../support/valid-requests.js';
import { changedParts, exportOf, partsOf } from '../support/world-state.js';
import { fixedWall, refusedDelivery } from '../support/route-requests.js';

/** GET routes that change state, by design, with why (the route says so: `changesOnRead`; a saved world logs only these reads). */
const WRITES: Record<string, string> = Object.fromEntries(ROUTES.flatMap((r) => (r.changesOnRead ? [[r.id, r.changesOnRead]] : [])));

const GETS = ROUTES.filter((r) => r.method === 'GET');

type Requests = Map<Route, { path: string; options: CallOptions }>;

/** A small world with every GET's precondition arranged, in table order (the same world each time). */
async function prepared(): Promise<{ c: TestClient; requests: Requests }> {
  const c = createClient('fetch', {
    seed: 6,
    users: 1,
    usersElsewhere: 1,
    feed: 'off',
    wallClock: fixedWall,
    webhookTransport: refusedDelivery,
  });
  const ids = await routeIds(c);
  const requests: Requests = new Map();
  let serial = 0;
  for (const route of GETS) requests.set(route, await validRequest(c, route, ids, serial++, queryFor(route)));
  await c.sandbox.settle();
  return { c, requests };
}

/** Sends a route's GET and lets what it started finish; answers its status. */
async function read(c: TestClient, requests: Requests, route: Route): Promise<number> {
  const request = requests.get(route) as { path: string; options: CallOptions };
  const res = await c.call('GET', request.path, { ...request.options, surface: surfaceOf(route), redirect: 'manual' });
  await c.sandbox.settle();
  return res.status;
}

/** The parts a read changed, or none (`DEBUG_GETS=1` prints where each first differs). */
function changed(before: string, after: string): string[] {
  if (after === before) return [];
  const [a, b] = [partsOf(before), partsOf(after)];
  const parts = changedParts(a, b);
  if (process.env.DEBUG_GETS)
    for (const k of parts) {
      const [x = '', y = ''] = [a.get(k), b.get(k)];
      let i = 0;
      while (i < x.length && x[i] === y[i]) i++;
      console.log(k, JSON.stringify(x.slice(Math.max(0, i - 150), i + 150)), '=>', JSON.stringify(y.slice(Math.max(0, i - 150), i + 150)));
    }
  return parts;
}

describe('no state change on a GET', () => {
  it('every GET route of the table leaves the world export unchanged', async () => {
    const { c, requests } = await prepared();
    const writes: Record<string, string[]> = {};
    let answered = 0;
    // Every read that should change nothing, then one export; then each known writer on its own.
    const readers = GETS.filter((r) => !(r.id in WRITES));
    const start = exportOf(c.sandbox.world);
    for (const route of readers) if ((await read(c, requests, route)) < 400) answered++;
    let before = exportOf(c.sandbox.world);
    const readersChanged = changed(start, before).length > 0;
    for (const route of GETS.filter((r) => r.id in WRITES)) {
      if ((await read(c, requests, route)) < 400) answered++;
      const after = exportOf(c.sandbox.world);
      const parts = changed(before, after);
      if (parts.length > 0) writes[route.id] = parts;
      before = after;
    }
    // The readers changed the world: the same world again, each reader checked on its own.
    if (readersChanged) {
      const again = await prepared();
      let was = exportOf(again.c.sandbox.world);
      for (const route of readers) {
        await read(again.c, again.requests, route);
        const now = exportOf(again.c.sandbox.world);
        const parts = changed(was, now);
        if (parts.length > 0) writes[route.id] = parts;
        was = now;
      }
    }
    // The requests reached the handlers (not a table of 4xx answers that change nothing by refusing).
    expect(answered).toBeGreaterThan(GETS.length * 0.9);
    expect(
      Object.keys(writes).filter((id) => !(id in WRITES)),
      JSON.stringify(writes, null, 1),
    ).toEqual([]);
    expect(Object.keys(WRITES).filter((id) => !(id in writes))).toEqual([]);
  }, 300_000);
});
