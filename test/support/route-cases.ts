/**
 * The requests the route-table tests send: for every route in ROUTES, a valid request (one that
 * should succeed: `valid-requests.ts`, the conformance report's request building, with the
 * route's precondition arranged) and an invalid one (one the engine or the route must refuse),
 * run in one order on one client (destructive routes last). Shared by adapter parity (answers
 * byte-identical on every adapter, and the statuses each kind must answer) and the wire test
 * (answers match the route's declared response schemas).
 */
import { ROUTES } from '../../src/routes.js';
import type { Route } from '../../src/engine/route.js';
import { surfaceOf } from '../../src/engine/router.js';
import { dispatchClient } from '../../scripts/conformance/dispatch-client.js';
import type { CallOptions, TestClient, TestResponse } from './client.js';
import { destructive, propertiesOf, toJson, type JsonSchema } from './route-requests.js';
import { routeIds, validRequest } from './valid-requests.js';
import { queryFor } from './route-params.js';

/**
 * What an invalid request breaks, and so what it must answer: `body` (truncated JSON) and `query`
 * (a required key left out, or a typed key given a word) are validation failures (422); `header`
 * (the headers the valid request needed, such as a link token, left out) a 4xx; `param`
 * (an id that cannot exist) a 4xx; `auth` (a key that matches nothing) 401; `encoding` (a
 * compressed-body header, for a route with no input and no credentials to get wrong) 415.
 */
type InvalidKind = 'body' | 'query' | 'header' | 'param' | 'auth' | 'encoding';

interface Case {
  kind: 'valid' | 'invalid';
  breaks?: InvalidKind;
  path: string;
  options: CallOptions;
}

export interface Answer {
  route: Route;
  kind: Case['kind'];
  /** For an invalid request: what it breaks. */
  breaks?: InvalidKind;
  res: TestResponse;
}

/** The dated routes read a three-day window: cheap, and inside the seeded history. */
function narrowQuery(route: Route): Record<string, string> {
  const query = queryFor(route);
  if ('start_date' in query) query['start_date'] = '2026-01-02';
  if ('end_date' in query) query['end_date'] = '2026-01-04';
  return query;
}

/** Whether any text is a valid value (looking through `nullish`): a free-text name, a search word. */
function plainString(js: JsonSchema & Record<string, unknown>): boolean {
  const alts = (js.anyOf ?? []) as Array<JsonSchema & Record<string, unknown>>;
  if (alts.length > 0) return alts.every((a) => a.type === 'null' || plainString(a));
  return (
    js.type === 'string' && !js['format'] && !js['pattern'] && !js.enum && !(typeof js['minLength'] === 'number' && js['minLength'] > 1)
  );
}

/** A query the route's schema refuses: its required keys left out, else its typed keys given a word. */
function brokenQuery(
  route: Route,
  valid: Record<string, unknown>,
): Record<string, string | number | boolean | Array<string | number>> | undefined {
  if (!route.request.query) return undefined;
  const js = toJson(route.request.query) as JsonSchema & { required?: string[] };
  const required = js.required ?? [];
  if (required.length > 0)
    return Object.fromEntries(Object.entries(valid).filter(([k]) => !required.includes(k))) as Record<string, string>;
  const typed = Object.entries(propertiesOf(js))
    .filter(([, p]) => !plainString(p as JsonSchema & Record<string, unknown>))
    .map(([k]) => k);
  return typed.length > 0
    ? { ...(valid as Record<string, string>), ...Object.fromEntries(typed.map((k) => [k, 'not-a-value'])) }
    : undefined;
}

/** Path parameters any value of which names something (a stream exists, empty, until written). */
const FREE_PARAMS: Readonly<Record<string, string>> = { stream: 'any name is a stream, empty until written' };

/** The first path parameter an unknown value is refused for (by its schema, or by the lookup behind it). */
function breakableParam(route: Route): string | undefined {
  return [...route.path.matchAll(/:([a-z_]+)/g)].map((m) => m[1] as string).find((n) => !(n in FREE_PARAMS));
}

function invalidCase(route: Route, valid: Case): Case {
  const surface = surfaceOf(route);
  const base = { surface, redirect: 'manual' as const };
  if (route.request.body && route.request.bodyKind !== 'form')
    return { kind: 'invalid', breaks: 'body', path: valid.path, options: { ...base, query: valid.options.query, body: '{"truncated":' } };
  const query = brokenQuery(route, valid.options.query ?? {});
  if (query) return { kind: 'invalid', breaks: 'query', path: valid.path, options: { ...base, query } };
  const needed = Object.keys(valid.options.headers ?? {}).filter((h) => h !== 'x-idempotency-key');
  if (needed.length > 0) return { kind: 'invalid', breaks: 'header', path: valid.path, options: { ...base, query: valid.options.query } };
  const param = breakableParam(route);
  if (param) {
    const names = [...route.path.matchAll(/:([a-z_]+)/g)].map((m) => m[1] as string);
    const at = names.indexOf(param);
    const segments = valid.path.split('/');
    const indexes = route.path
      .split('/')
      .map((s, i) => (s.startsWith(':') ? i : -1))
      .filter((i) => i >= 0);
    segments[indexes[at] as number] = 'not-an-id%00';
    return { kind: 'invalid', breaks: 'param', path: segments.join('/'), options: { ...base, query: valid.options.query } };
  }
  if (route.auth === 'team' || route.auth === 'management')
    return {
      kind: 'invalid',
      breaks: 'auth',
      path: valid.path,
      options: {
        ...base,
        query: valid.options.query,
        anonymous: true,
        headers: { 'x-service-api-key': 'sk_us_not_a_key', 'x-management-key': 'not-a-key' },
      },
    };
  // No body: a GET with one is no standard request (fetch refuses to send it); the header alone is refused.
  return {
    kind: 'invalid',
    breaks: 'encoding',
    path: valid.path,
    options: { ...base, query: valid.options.query, headers: { 'content-encoding': 'br' } },
  };
}

/** Routes that replace the world with the same world (route-overrides.ts): the routes after them see no change. */
const REPLAYS = new Set(['sandbox.world.put', 'sandbox.snapshots.restore']);

/** Run order: reads, then writes, then the destructive routes, the ones that lock the rest out last. */
function rank(route: Route): number {
  // Putting a world back (a world document, a snapshot) replays its input log: first of all, while
  // that log is the setup's alone, not the whole run's (replaying that took ~0.45 s per client).
  if (REPLAYS.has(route.id)) return -1;
  // Replacing the world (a scenario, a reset) comes last of all.
  if (route.id === 'sandbox.reset' || route.id.startsWith('sandbox.scenario.')) return 9;
  if (route.method === 'DELETE' && /management_key|^\/v1\/org\/:org_id\/team\/:team_id$/.test(route.path)) return 8;
  if (destructive(route)) return route.method === 'DELETE' ? 7 : 6;
  return route.method === 'GET' ? 0 : 1;
}

/**
 * Runs every case on one client, in one order (see `rank`): only the cases go through the client's
 * adapter. The client's sandbox should refuse
 * webhook deliveries (an injected transport), so every adapter logs the same attempts.
 */
export async function runRouteCases(c: TestClient, onAnswer: (answer: Answer) => void): Promise<void> {
  // The world is set up and each precondition arranged in process (`sandbox.dispatch`): the same
  // world on every adapter, without paying each adapter's transport for requests not compared.
  const direct = dispatchClient(c.sandbox);
  const ids = await routeIds(direct);
  await c.sandbox.settle();
  const ordered = [...ROUTES].sort((a, b) => rank(a) - rank(b));
  let serial = 0;
  for (const route of ordered) {
    const request = await validRequest(direct, route, ids, serial++, narrowQuery(route));
    const valid: Case = { kind: 'valid', path: request.path, options: { ...request.options, redirect: 'manual' } };
    for (const k of [valid, invalidCase(route, valid)]) {
      const res = await c.call(route.method, k.path, k.options);
      await c.sandbox.settle();
      onAnswer({ route, kind: k.kind, ...(k.breaks ? { breaks: k.breaks } : {}), res });
    }
  }
}
