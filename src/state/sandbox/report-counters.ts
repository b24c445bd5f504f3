/**
 * What the integration report (`report.ts`, issue 46) counts while the world runs, kept in the
 * world (a reset starts again): per route, answers by status; fault kinds used; per webhook
 * endpoint and event type, deliveries and acknowledgements. Each request costs a few Map
 * increments (the `observe` seam of dispatch), never a scan.
 */
import type { Exchange } from '../../engine/dispatch.js';
import { MALFORMED_BODY } from '../../engine/faults.js';
import type { SimRequest, SimResponse } from '../../engine/http-types.js';
import type { Route } from '../../engine/route.js';
import { worldSlot, type World } from '../../engine/world.js';

export interface RouteCount {
  count: number;
  /** Status ("dropped" for a closed connection) -> answers. */
  statuses: Map<string, number>;
  faulted: number;
}

export interface EndpointCount {
  url: string;
  /** Event type -> messages delivered (first attempts made) and acknowledged (2xx). */
  types: Map<string, { delivered: number; acknowledged: number }>;
  retriesSurvived: number;
  failedMessages: number;
}

export class ReportCounters {
  constructor(
    /** Sandbox time the world began (its last reset). */
    readonly since: number,
  ) {}
  requests = 0;
  unmatched = 0;
  readonly routes = new Map<string, RouteCount>();
  readonly errors = new Map<string, number>();
  readonly faultKinds = new Set<string>();
  readonly endpoints = new Map<string, EndpointCount>();
}

export const reportCountersOf = worldSlot('sandbox.report', (world) => new ReportCounters(world.clock.now()));

const bump = (map: Map<string, number>, key: string): void => {
  map.set(key, (map.get(key) ?? 0) + 1);
};

const MALFORMED = new TextEncoder().encode(MALFORMED_BODY);

function faultKind(res: SimResponse, exchange: Exchange): string {
  if (res.drop === true) return 'drop';
  if (exchange.delayMs !== undefined) return 'latency';
  if (res.body.byteLength === MALFORMED.byteLength && res.status === 200) return 'malformed';
  return 'status';
}

/** Whether a route is the real service's (not the control plane, the test receiver, the docs or the OpenAPI documents). */
export function isApiRoute(route: Route): boolean {
  return route.auth !== 'control' && !route.id.startsWith('sandbox.') && !route.id.startsWith('meta.') && !route.path.startsWith('/_sandbox');
}

/** The `observe` hook: one answered request of the API (control-plane requests are not counted). */
export function countRequest(world: World, req: SimRequest, res: SimResponse, exchange: Exchange): void {
  const route = exchange.route;
  if (route === undefined ? req.path.startsWith('/_sandbox/') : !isApiRoute(route)) return;
  const c = reportCountersOf(world);
  c.requests++;
  const status = res.drop === true ? 'dropped' : String(res.status);
  if (res.drop === true || res.status >= 400) bump(c.errors, status);
  if (exchange.faultId !== undefined) c.faultKinds.add(`http:${faultKind(res, exchange)}`);
  if (route === undefined) {
    c.unmatched++;
    return;
  }
  let r = c.routes.get(route.id);
  if (r === undefined) c.routes.set(route.id, (r = { count: 0, statuses: new Map(), faulted: 0 }));
  r.count++;
  bump(r.statuses, status);
  if (exchange.faultId !== undefined) r.faulted++;
}

/** A domain fault was used (`lab:sample_rejected`, `provider_outage`, `webhook:duplicate`). */
export function noteFaultKind(world: World, kind: string): void {
  reportCountersOf(world).faultKinds.add(kind);
}

/**
 * One webhook attempt finished (delivery.ts): `first` for a message's first attempt to the
 * endpoint, `ok` for a 2xx, `afterFailures` when it came after failed attempts, `exhausted` when
 * the message failed for good.
 */
export function countAttempt(
  world: World,
  endpoint: { id: string; url: string },
  eventType: string,
  a: { first: boolean; ok: boolean; afterFailures: boolean; finalFailure: boolean },
): void {
  const c = reportCountersOf(world);
  let ep = c.endpoints.get(endpoint.id);
  if (ep === undefined) c.endpoints.set(endpoint.id, (ep = { url: endpoint.url, types: new Map(), retriesSurvived: 0, failedMessages: 0 }));
  let t = ep.types.get(eventType);
  if (t === undefined) ep.types.set(eventType, (t = { delivered: 0, acknowledged: 0 }));
  if (a.first) t.delivered++;
  if (a.ok) t.acknowledged++;
  if (a.ok && a.afterFailures) ep.retriesSurvived++;
  if (a.finalFailure) ep.failedMessages++;
}
