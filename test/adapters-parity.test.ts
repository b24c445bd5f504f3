/**
 * Adapter parity driven by the route table: for every route in ROUTES, a valid request and an
 * invalid one go through express, msw and the CLI's node:http adapter, each over its own sandbox
 * with the same seed, and the answers must be byte-identical (status, content type, body). A new
 * route is covered without editing this file. Destructive routes (deletes, key and team updates,
 * reset) run last so they cannot hide the others.
 */
import { expect, it } from 'vitest';
import { ROUTES } from '../src/routes.js';
import type { Route } from '../src/engine/route.js';
import { surfaceOf } from '../src/engine/router.js';
import { ALL_ADAPTERS, createClient, type CallOptions, type TestClient } from './support/client.js';
import { baselineOf, destructive, GOOD_QUERY, plausible, propertiesOf, toJson, UNKNOWN_UUID, type Baseline, type JsonSchema } from './support/route-requests.js';

interface Case {
  route: Route;
  kind: 'valid' | 'invalid';
  path: string;
  options: CallOptions;
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

/** Runs every case on one client; answers with the served URL replaced, so adapters on different URLs compare. */
async function run(c: TestClient): Promise<string[]> {
  // Deliveries go to a refused loopback port: they fail the same way, at once, on every adapter.
  const base = await baselineOf(c, 'http://127.0.0.1:9/parity-hook');
  await c.sandbox.settle();
  const ordered = [...ROUTES].sort((a, b) => Number(destructive(a)) - Number(destructive(b)) || Number(a.id === 'sandbox.reset') - Number(b.id === 'sandbox.reset'));
  const out: string[] = [];
  for (const route of ordered) {
    for (const k of casesOf(route, base)) {
      const res = await c.call(route.method, k.path, k.options);
      await c.sandbox.settle();
      // Served URLs differ by adapter, and measured delivery latencies are wall time.
      let text = res.bytes.toString('latin1').split(c.sandbox.world.urls.base).join('<base>').replace(/"(latency_ms|duration_ms)":\d+/g, '"$1":0');
      // The test receivers echo the request headers each client library sent: transport, not engine.
      if (route.id.startsWith('sandbox.receiver')) text = text.replace(/"headers":\{[^{}]*\}/g, '"headers":{}');
      out.push(`${route.id} ${k.kind} ${res.status} ${res.headers['content-type'] ?? ''} ${text}`);
    }
  }
  return out;
}

it('express, msw and node:http answer a valid and an invalid request to every route byte-identically', async () => {
  // A fixed wall clock: signature timestamps and measured latencies are wall time.
  const options = { seed: 8, users: 3, usersElsewhere: 1, feed: 'off' as const, wallClock: () => Date.parse('2026-01-05T09:00:00Z') };
  const answers = [];
  for (const adapter of ALL_ADAPTERS) answers.push(await run(createClient(adapter, options)));
  const [reference, ...others] = answers as [string[], ...string[][]];
  expect(reference.length).toBe(ROUTES.length * 2);
  for (const other of others) {
    for (let i = 0; i < reference.length; i++) expect(other[i], reference[i]?.slice(0, 120)).toBe(reference[i]);
  }
}, 60_000);
