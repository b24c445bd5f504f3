/**
 * A request that succeeds, for any route of the table: the conformance report's request building
 * (`scripts/conformance/`: a body from the route's zod schema filled with the seeded world's ids,
 * the per-operation OVERRIDES, the ARRANGE preconditions, a fresh order for writes on an order)
 * extended to the routes the real service's documents do not have (the control plane, the Link
 * widget, the user portal: ROUTE_OVERRIDES). Shared by the conformance report and the
 * route-table tests (adapter parity, wire answers), so a request is written once.
 */
import type { Route } from '../../src/engine/route.js';
import { surfaceOf } from '../../src/engine/router.js';
import { ARRANGE } from '../../scripts/conformance/arrange.js';
import { extraParams, freshOrder, methodFor, OVERRIDES, type Override } from '../../scripts/conformance/overrides.js';
import { requestBody } from '../../scripts/conformance/writes.js';
import type { CallOptions, TestClient } from './client.js';
import { ROUTE_OVERRIDES } from './route-overrides.js';
import { pathFor, queryFor, routeParams } from './route-params.js';

type Ids = Record<string, string>;
type Json = Record<string, unknown>;
type Step = (ids: Ids, serial: number, c: TestClient) => Override | Promise<Override>;

/** `METHOD /path/{param}`: the key of OVERRIDES and ARRANGE (the documents' spelling). */
export function operationKey(route: Route): string {
  return `${route.method} ${route.path.replace(/:([a-z_]+)/g, '{$1}')}`;
}

/** Keys with parameter names blanked: a document may name a parameter differently from the route. */
const shapeOf = (key: string) => key.replace(/\{[^}]+\}/g, '{}');
const byShape = (table: Record<string, Step>) => new Map(Object.entries(table).map(([k, v]) => [shapeOf(k), v]));
const OVERRIDE_BY_SHAPE = byShape(OVERRIDES);
const ARRANGE_BY_SHAPE = byShape(ARRANGE);

/** The override (pieces of the request) and the precondition a route's success needs, if any. */
function stepsOf(route: Route): { override?: Step; arrange?: Step } {
  const shape = shapeOf(operationKey(route));
  const override = ROUTE_OVERRIDES[route.id] ?? OVERRIDE_BY_SHAPE.get(shape);
  const arrange = ARRANGE_BY_SHAPE.get(shape);
  return { ...(override ? { override } : {}), ...(arrange ? { arrange } : {}) };
}

/** The ids of every parameter name: `routeParams`, plus the conformance report's extra world state. */
export async function routeIds(c: TestClient): Promise<Ids> {
  const base = await routeParams(c);
  return { ...base, ...(await extraParams(c, base)) };
}

/** `b` over `a`: params, headers and query merge; a body or a query given in `b` wins. */
export function mergeOverride(a: Override, b: Override): Override {
  return { ...a, ...b, params: { ...a.params, ...b.params }, headers: { ...a.headers, ...b.headers }, query: { ...a.query, ...b.query } };
}

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The path and call options of a route's request: the built body with the override's pieces on top. */
export function requestOf(
  route: Route,
  base: Ids,
  extra: Override,
  serial: number,
  idempotencyKey: string,
  query: Record<string, string> = queryFor(route),
): { path: string; options: CallOptions } {
  const ids = extra.params ? { ...base, ...extra.params } : base;
  const built = requestBody(route, ids, serial);
  // An override's body adds to (and wins over) the generated one.
  const body = 'body' in extra ? (isObj(extra.body) && isObj(built.body) ? { ...built.body, ...extra.body } : extra.body) : built.body;
  const headers = { ...built.headers, 'x-idempotency-key': idempotencyKey, ...extra.headers };
  return { path: pathFor(route, ids), options: { surface: surfaceOf(route), query: { ...query, ...extra.query }, body, headers } };
}

/**
 * The ids a route's request runs with: a write on an order (or a read of an order of one
 * collection method) gets a fresh order of its own, so a cancellation does not spoil the rest.
 */
export async function idsFor(c: TestClient, route: Route, ids: Ids): Promise<Ids> {
  const kind = methodFor(route.path);
  if (!route.path.includes(':order_id') || (route.method === 'GET' && !kind)) return ids;
  return { ...ids, order_id: (await freshOrder(c, ids, kind)) ?? ids['order_id'] ?? '' };
}

/**
 * The request that should succeed, with its precondition arranged first (the conformance report
 * checks the plain request on its error answer before arranging; the route-table tests want the
 * success only). `query`: the route's base query (the tests narrow the dated windows).
 */
export async function validRequest(
  c: TestClient,
  route: Route,
  all: Ids,
  serial: number,
  query?: Record<string, string>,
): Promise<{ path: string; options: CallOptions }> {
  const ids = await idsFor(c, route, all);
  const steps = stepsOf(route);
  let extra: Override = (await steps.override?.(ids, serial, c)) ?? {};
  if (steps.arrange) extra = mergeOverride(extra, await steps.arrange({ ...ids, ...extra.params }, serial, c));
  return requestOf(route, ids, extra, serial, `route-case-${serial}`, query ?? queryFor(route));
}
