/**
 * Determinism over the whole route table: three sandboxes with one seed, set up by the same
 * requests, answer every GET route with the same bytes, whatever order the GETs come in
 * (reads change nothing another read can see). Each GET is the route-table tests' valid request
 * (test/support/valid-requests.ts), its precondition arranged for every route first, in table
 * order, so the reads see the same world in every run and answer with data. A new GET route is
 * covered without edits.
 * Requests go through the msw adapter's request handling called in process (`fetch`): what is
 * checked is the engine's answers, and the parity test proves every adapter answers alike.
 */
import { describe, expect, it } from 'vitest';
import type { Route } from '../../src/engine/route.js';
import { surfaceOf } from '../../src/engine/router.js';
import { ROUTES } from '../../src/routes.js';
import { Rng } from '../../src/engine/rng.js';
import { createClient, type TestClient } from '../support/client.js';
import type { CallOptions } from '../support/client.js';
import { routeIds, validRequest } from '../support/valid-requests.js';
import { queryFor } from '../support/route-params.js';
import { fixedWall, refusedDelivery } from '../support/route-requests.js';

const GETS = ROUTES.filter((r) => r.method === 'GET');
/** GET routes that answer no data here, with the reason (adapters-parity.test.ts names the same). */
const NO_DATA: Record<string, string> = {
  'meta.docs.asset': 'The Swagger UI files are served by the Node adapters only; this test reads through `fetch` (404 by design).',
};
/** GET routes whose answer records the reads themselves, with the reason. */
const ORDER_IS_CONTENT: Record<string, string> = {
  'sandbox.world.get': 'The world document logs every read that answered (some hand out ids later requests use), in the order they came.',
};
/**
 * The dated routes read a three-day window (the route-table tests' window): whether an
 * answer depends on the order of reads does not depend on how many days it spans, and each of
 * the three passes reads every route.
 */
function narrowQuery(route: Route): Record<string, string> {
  const query = queryFor(route);
  if ('start_date' in query) query.start_date = '2026-01-02';
  if ('end_date' in query) query.end_date = '2026-01-04';
  return query;
}
/** GET routes whose answer depends on the order of requests by design. */
const ORDER_DEPENDENT: Record<string, string> = {
  'sandbox.requests.list': 'The request journal records the requests themselves (the reads too), in the order they came.',
  'sandbox.report': 'The integration report counts the API requests answered before it (the reads too): which came first is its content.',
};
// Webhook signatures carry wall-clock time (receivers check it): pin it, as a test would. One
// URL for every sandbox, so answers naming it (webhook endpoints, documents) compare equal. The
// live feed is off: the set-up advances two days (results, continuous-query runs), and two days of
// feed would cost most of the run (the feed's determinism is determinism.test.ts's).
const OPTIONS = {
  seed: 5,
  users: 3,
  usersElsewhere: 1,
  feed: 'off',
  wallClock: fixedWall,
  baseUrl: 'http://determinism.fetch.test',
  webhookTransport: refusedDelivery,
} as const;

async function answers(order: readonly Route[]): Promise<{ byRoute: Map<string, string>; client: TestClient }> {
  const c = createClient('fetch', OPTIONS);
  const ids = await routeIds(c);
  // Every precondition first, in table order: then the reads, in the order given.
  const requests = new Map<Route, { path: string; options: CallOptions }>();
  let serial = 0;
  for (const route of GETS) requests.set(route, await validRequest(c, route, ids, serial++, narrowQuery(route)));
  await c.sandbox.settle();
  const byRoute = new Map<string, string>();
  for (const route of order) {
    const request = requests.get(route) as { path: string; options: CallOptions };
    const res = await c.call('GET', request.path, { ...request.options, surface: surfaceOf(route), redirect: 'manual' });
    byRoute.set(route.id, `${res.status} ${res.headers['content-type'] ?? ''} ${res.bytes.toString('base64')}`);
  }
  return { byRoute, client: c };
}

function shuffled<T>(items: readonly T[], seed: number): T[] {
  const rng = Rng.of(seed, 'test-shuffle');
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rng.next() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

describe('determinism: every GET route of the table', () => {
  it('same seed, same bytes, in table order, reversed and shuffled', async () => {
    const forward = await answers(GETS);
    const reversed = await answers([...GETS].reverse());
    const mixed = await answers(shuffled(GETS, 11));
    expect(forward.byRoute.size).toBe(GETS.length);
    const differ: string[] = [];
    for (const route of GETS) {
      const a = forward.byRoute.get(route.id);
      if (route.id in ORDER_DEPENDENT) continue;

      if (route.id in ORDER_IS_CONTENT) continue;
      if (reversed.byRoute.get(route.id) !== a || mixed.byRoute.get(route.id) !== a) differ.push(route.id);
    }
    expect(differ, `routes whose answers depend on order or on the run: ${differ.join(', ')}`).toEqual([]);
    const errors = [...forward.byRoute].filter(([, text]) => Number(text.slice(0, 3)) >= 500).map(([id]) => id);
    expect(errors).toEqual([]);
    // Every read answers with data, but for the named exceptions.
    const failed = GETS.filter((r) => !(forward.byRoute.get(r.id) ?? '').startsWith('2') && !(r.id in NO_DATA)).map(
      (r) => `${r.id}: ${forward.byRoute.get(r.id)?.slice(0, 3)}`,
    );
    expect(
      failed,
      'GET routes whose valid request did not succeed: add an entry in ROUTE_OVERRIDES (test/support/route-overrides.ts)',
    ).toEqual([]);
  }, 180_000);
});
