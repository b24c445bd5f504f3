/**
 * What the integration report (`report.ts`, issue 46) counts while the world runs, kept in the
 * world (a reset starts again): per route, answers by status; fault kinds used; per webhook
 * endpoint and event type, deliveries and acknowledgements. Each request costs a few Map
 * increments (the `observe` seam of dispatch), never a scan.
 */
import { worldSlot, type World } from '../../engine/world.js';
import { dataClass } from '../../engine/world-codec.js';

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

class ReportCounters {
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

  /** Not world state (like the request journal, an observation of it): left out of snapshots and exports. */
  toJSON(): undefined {
    return undefined;
  }
}
dataClass('ReportCounters', ReportCounters);

export const reportCountersOf = worldSlot('sandbox.report', (world) => new ReportCounters(world.clock.now()));

const bump = (map: Map<string, number>, key: string): void => {
  map.set(key, (map.get(key) ?? 0) + 1);
};

/** What the report needs of a route (structural: the state never sees the route table's types). */
export interface RouteLike {
  id: string;
  method: string;
  path: string;
  auth: string;
}

/** Whether a route is the real service's (not the control plane, the test receiver, the docs or the OpenAPI documents). */
export function isApiRoute(route: RouteLike): boolean {
  return (
    route.auth !== 'control' && !route.id.startsWith('sandbox.') && !route.id.startsWith('meta.') && !route.path.startsWith('/_sandbox')
  );
}

/** One answered API request (`src/sandbox-report.ts` reads it off dispatch): its route (null: none matched), status, fault kind. */
export function countAnswer(world: World, routeId: string | null, status: number | 'dropped', faultKind: string | null): void {
  const c = reportCountersOf(world);
  c.requests++;
  const key = String(status);
  if (status === 'dropped' || status >= 400) bump(c.errors, key);
  if (faultKind !== null) c.faultKinds.add(`http:${faultKind}`);
  if (routeId === null) {
    c.unmatched++;
    return;
  }
  let r = c.routes.get(routeId);
  if (r === undefined) c.routes.set(routeId, (r = { count: 0, statuses: new Map(), faulted: 0 }));
  r.count++;
  bump(r.statuses, key);
  if (faultKind !== null) r.faulted++;
}

/** A domain fault was used (`lab:sample_rejected`, `provider_outage`, `webhook:duplicate`). */
export function noteFaultKind(world: World, kind: string): void {
  reportCountersOf(world).faultKinds.add(kind);
}

/**
 * One webhook attempt finished (delivery.ts): its number (1: the message's first attempt to the
 * endpoint), whether it succeeded, and `failed` when the message failed for good with it.
 */
export function countAttempt(
  world: World,
  endpoint: { id: string; url: string },
  eventType: string,
  attempt: { attempt_number: number; status: 'success' | 'failed'; trigger: string },
  failed: boolean,
): void {
  const c = reportCountersOf(world);
  let ep = c.endpoints.get(endpoint.id);
  if (ep === undefined) c.endpoints.set(endpoint.id, (ep = { url: endpoint.url, types: new Map(), retriesSurvived: 0, failedMessages: 0 }));
  let t = ep.types.get(eventType);
  if (t === undefined) ep.types.set(eventType, (t = { delivered: 0, acknowledged: 0 }));
  const ok = attempt.status === 'success';
  if (attempt.attempt_number === 1) t.delivered++;
  if (ok) t.acknowledged++;
  if (ok && attempt.attempt_number > 1 && attempt.trigger === 'scheduled') ep.retriesSurvived++;
  if (!ok && failed) ep.failedMessages++;
}
