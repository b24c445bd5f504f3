/**
 * The requests the route-table tests send: for every route in ROUTES, a valid request and an
 * invalid one, run in one order on one client (destructive routes last). Shared by adapter parity
 * (answers byte-identical on every adapter) and the wire test (answers match the route's declared
 * response schemas).
 */
import { ROUTES } from '../../src/routes.js';
import type { Route } from '../../src/engine/route.js';
import { surfaceOf } from '../../src/engine/router.js';
import type { CallOptions, TestClient, TestResponse } from './client.js';
import { baselineOf, destructive, GOOD_QUERY, plausible, propertiesOf, toJson, UNKNOWN_UUID, type Baseline, type JsonSchema } from './route-requests.js';

interface Case {
  route: Route;
  kind: 'valid' | 'invalid';
  path: string;
  options: CallOptions;
}

interface Answer {
  route: Route;
  kind: Case['kind'];
  res: TestResponse;
}

function fill(route: Route, base: Baseline, override: Record<string, string> = {}): string {
  return route.path.replace(/:([a-z_]+)/g, (_m, name: string) => override[name] ?? encodeURIComponent(base.params[name] ?? UNKNOWN_UUID));
}

function goodQuery(route: Route): Record<string, string> | undefined {
  if (!route.request.query) return undefined;
  const keys = Object.keys(propertiesOf(toJson(route.request.query)));
  return Object.fromEntries(keys.filter((k) => k in GOOD_QUERY).map((k) => [k, GOOD_QUERY[k] as string]));
}

function casesOf(route: Route, base: Baseline): Case[] {
  const surface = surfaceOf(route);
  const query = goodQuery(route);
  const body = route.request.body ? plausible(toJson(route.request.body) as JsonSchema & Record<string, unknown>, '', 'minimal', base.params) : undefined;
  const valid: Case = { route, kind: 'valid', path: fill(route, base), options: { surface, query, body } };
  const firstParam = /:([a-z_]+)/.exec(route.path)?.[1];
  let invalid: Case;
  if (route.request.body) invalid = { route, kind: 'invalid', path: fill(route, base), options: { surface, query, body: '{"truncated":' } };
  else if (firstParam) invalid = { route, kind: 'invalid', path: fill(route, base, { [firstParam]: 'not-an-id%00' }), options: { surface, query } };
  else if (route.request.query) invalid = { route, kind: 'invalid', path: fill(route, base), options: { surface, query: Object.fromEntries(Object.keys(propertiesOf(toJson(route.request.query))).map((k) => [k, 'abc'])) } };
  else invalid = { route, kind: 'invalid', path: fill(route, base), options: { surface, anonymous: true, headers: { 'x-service-api-key': 'sk_us_not_a_key' } } };
  return [valid, invalid];
}

/**
 * Runs every case on one client, in one order: destructive routes (deletes, key and team updates)
 * and then the reset run last so they cannot hide the others. `hookUrl`: where the baseline's
 * webhook endpoint points.
 */
export async function runRouteCases(c: TestClient, hookUrl: string, onAnswer: (answer: Answer) => void): Promise<void> {
  const base = await baselineOf(c, hookUrl);
  await c.sandbox.settle();
  const ordered = [...ROUTES].sort((a, b) => Number(destructive(a)) - Number(destructive(b)) || Number(a.id === 'sandbox.reset') - Number(b.id === 'sandbox.reset'));
  for (const route of ordered) {
    for (const k of casesOf(route, base)) {
      const res = await c.call(route.method, k.path, k.options);
      await c.sandbox.settle();
      onAnswer({ route, kind: k.kind, res });
    }
  }
}
