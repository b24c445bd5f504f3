/**
 * HTTP faults on demand (issue 28): rules that replace the answer of the API requests they match
 * with a status, a late answer, a dropped connection or a malformed body. Held by the world, so a
 * reset drops them (a scenario's `faults:` are declared again when it is applied). `interceptFault`
 * is the dispatch seam's `intercept` (engine/dispatch.ts): it runs after the route matched and the
 * caller authenticated, before input is parsed, so a faulted request changes nothing in the world
 * and emits no event. Control routes (`/_sandbox/*`) are never faulted; the sandbox's other own
 * routes (the test receivers `/_sandbox/receiver/:name`, `/docs`, `/openapi.json`, `/`) only by a
 * rule that names them (its `route`, or a `path` whose first segment is theirs): a catch-all rule
 * leaves them alone. A request carrying `x-sandbox-inspector` (the inspector's own reads) is never
 * faulted and never counts against a rule. A world holds at most MAX_FAULT_RULES rules.
 *
 * Rules are tried in the order they were added; the first that fires answers. A rule counts its
 * matches: the first `after` pass through; then each match fires with its `probability` (a draw
 * from the world's seeded fault source, so a seed gives the same faults in the same order), and
 * a rule that fired `times` times retires. A `latency_ms` range draws its wait from the same source.
 */
import type { Exchange } from './dispatch.js';
import type { SimRequest, SimResponse } from './http-types.js';
import { EMPTY, JSON_TYPE, jsonResponse } from './render.js';
import { Rng } from './rng.js';
import type { Route } from './route.js';
import { type World, worldSlot } from './world.js';
import { type Json, registerStoreState } from './store-state.js';
import { sandboxError } from '../state/sandbox/errors.js';
import { FAULT_MESSAGES, MAX_FAULT_RULES, type FaultRuleInput } from '../state/sandbox/faults-schema.js';
import { type FaultAction as Action, faultKind, type FaultMatch as Match } from './fault-applied.js';
import { QUIET_HEADER } from './journal.js';

interface FaultRule {
  id: string;
  match: Match;
  action: Action;
  times: number | null;
  probability: number | null;
  after: number;
  /** Requests that matched (including those let through by `after` or the draw). */
  matched: number;
  /** Faulted answers. */
  fired: number;
  /** The path pattern, compiled. */
  segments: string[] | null;
  /** Whether the rule names a route of the sandbox's own (by id, or by a path's literal first segment). */
  named: boolean;
}

/** What `GET /_sandbox/faults` shows of a rule. */
interface FaultView {
  id: string;
  match: Match;
  action: Action;
  times: number | null;
  probability: number | null;
  after: number;
  remaining: number | null;
  matched: number;
  fired: number;
}

interface FaultStore {
  rules: FaultRule[];
  rng: Rng;
}

const faults = worldSlot('sandbox.faults', (world): FaultStore => ({ rules: [], rng: Rng.of(world.seed, 'sandbox-faults') }));

/** The world's rules, if a rule was ever added (reads never create the store: a world nobody faulted stays as it was). */
const peek = (world: World): FaultStore | undefined => faults.peek(world);

/**
 * The body the real service answers with a status and no body of the rule's own: `{"detail": ...}`
 * (the FastAPI shape of every error; docs/simulated/faults.md lists each).
 */
export const FAULT_BODIES: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Invalid x-service-api-key: no team API key matches.',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Request Entity Too Large',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** The bytes of a `malformed` answer: JSON cut short. */
export const MALFORMED_BODY = '{"data":[{"id":"';

const encoder = new TextEncoder();

const view = (r: FaultRule): FaultView => ({
  id: r.id,
  match: r.match,
  action: r.action,
  times: r.times,
  probability: r.probability,
  after: r.after,
  remaining: r.times === null ? null : r.times - r.fired,
  matched: r.matched,
  fired: r.fired,
});

/**
 * Whether a route is the sandbox's own, not the simulated API's: the test receivers, the docs and
 * OpenAPI pages, the index (control routes are never faulted at all).
 */
function ownRoute(route: Route): boolean {
  return route.path.startsWith('/_sandbox') || route.id.startsWith('meta.') || route.id.startsWith('sandbox.');
}

/** Adds a rule (checked: a `match.route` must name a route that is not a control route; at most MAX_FAULT_RULES). */
export function addFault(world: World, routes: readonly Route[], input: FaultRuleInput): FaultView {
  if ((peek(world)?.rules.length ?? 0) >= MAX_FAULT_RULES) throw sandboxError.faultConflict(FAULT_MESSAGES.tooMany);
  const routeId = input.match.route;
  if (routeId !== undefined) {
    const route = routes.find((r) => r.id === routeId);
    if (!route) throw sandboxError.faultBadRoute(FAULT_MESSAGES.unknownRoute(routeId), routeId);
    if (route.auth === 'control') throw sandboxError.faultBadRoute(FAULT_MESSAGES.controlRoute(routeId), routeId);
  }
  const rule: FaultRule = {
    id: world.ids.uuid('sandbox_fault'),
    match: input.match,
    action: input.action,
    times: input.times ?? null,
    probability: input.probability ?? null,
    after: input.after ?? 0,
    matched: 0,
    fired: 0,
    ...compileMatch(input.match),
  };
  faults(world).rules.push(rule);
  return view(rule);
}

export function listFaults(world: World): FaultView[] {
  return (peek(world)?.rules ?? []).map(view);
}

/** Removes one rule (404 when unknown). */
export function removeFault(world: World, id: string): FaultView {
  const store = peek(world);
  const i = store ? store.rules.findIndex((r) => r.id === id) : -1;
  const rule = store?.rules[i];
  if (!store || !rule) throw sandboxError.faultNotFound(FAULT_MESSAGES.notFound);
  store.rules.splice(i, 1);
  return view(rule);
}

/** Removes every rule; answers how many there were. */
export function clearFaults(world: World): number {
  const store = peek(world);
  const n = store?.rules.length ?? 0;
  if (store) store.rules = [];
  return n;
}

/**
 * What a rule keeps compiled from its match (derived, so a rule restored from a saved world
 * compiles it again): the path pattern's segments, and whether it names a route of the sandbox's
 * own (by `route`, or by a path whose first segment is a literal).
 */
function compileMatch(match: Match): { segments: string[] | null; named: boolean } {
  const segments = match.path === undefined ? null : match.path.replace(/\/+$/, '').split('/').slice(1);
  const first = segments?.[0];
  const named = match.route !== undefined || (first !== undefined && first !== '' && first !== '*' && !first.startsWith('{'));
  return { segments, named };
}

/** Whether a path matches a compiled pattern: `*` or `{x}` is one segment, a last `*` any rest. */
function pathMatches(segments: string[], path: string): boolean {
  const parts = path.replace(/\/+$/, '').split('/').slice(1);
  for (let i = 0; i < segments.length; i++) {
    const want = segments[i] as string;
    const part = parts[i];
    if (want === '*' && i === segments.length - 1) return part !== undefined && part !== '';
    if (part === undefined) return false;
    if (want === '*' || (want.startsWith('{') && want.endsWith('}'))) {
      if (part === '') return false;
      continue;
    }
    if (want !== part) return false;
  }
  return parts.length === segments.length;
}

function matches(rule: FaultRule, req: SimRequest, exchange: Exchange, own: boolean): boolean {
  const { match } = rule;
  if (own && !rule.named) return false;
  if (match.method !== undefined && match.method !== req.method.toUpperCase()) return false;
  if (match.route !== undefined && exchange.route?.id !== match.route) return false;
  if (match.team_id !== undefined && exchange.teamId !== match.team_id) return false;
  if (match.environment !== undefined && exchange.environment !== match.environment) return false;
  return rule.segments === null || pathMatches(rule.segments, req.path);
}

function answerOf(action: Action, rng: Rng): { response?: SimResponse; delayMs?: number } {
  if (action.status !== undefined) {
    const body = action.body !== undefined ? action.body : { detail: FAULT_BODIES[action.status] ?? 'Error' };
    // A status without a body (204, 304) carries none.
    if (action.status === 204 || action.status === 304)
      return { response: { status: action.status, headers: { ...action.headers }, body: EMPTY } };
    return { response: jsonResponse(action.status, body, action.headers) };
  }
  // No status is sent: the journal records `dropped` (the 502 is only the engine's placeholder).
  if (action.drop) return { response: { status: 502, headers: {}, body: EMPTY, drop: true } };
  if (action.malformed) return { response: { status: 200, headers: { 'content-type': JSON_TYPE }, body: encoder.encode(MALFORMED_BODY) } };
  const latency = action.latency_ms ?? 0;
  return { delayMs: Array.isArray(latency) ? rng.int(latency[0], latency[1]) : latency };
}

/**
 * The dispatch seam: the first rule that fires for this request answers it (`exchange.faultId`
 * names the rule); a latency rule lets the real answer through, late (`exchange.delayMs`).
 */
export function interceptFault(world: World, req: SimRequest, exchange: Exchange): SimResponse | undefined {
  const { route } = exchange;
  if (route === undefined || route.auth === 'control') return undefined;
  const store = peek(world);
  if (!store || store.rules.length === 0 || req.headers[QUIET_HEADER] !== undefined) return undefined;
  const own = ownRoute(route);
  for (const rule of store.rules) {
    if (!matches(rule, req, exchange, own)) continue;
    rule.matched++;
    if (rule.matched <= rule.after) continue;
    if (rule.probability !== null && !(store.rng.next() < rule.probability)) continue;
    rule.fired++;
    if (rule.times !== null && rule.fired >= rule.times) store.rules = store.rules.filter((r) => r !== rule);
    exchange.faultId = rule.id;
    const { response, delayMs } = answerOf(rule.action, store.rng);
    exchange.fault = { id: rule.id, match: rule.match, action: rule.action, kind: faultKind(rule.action) };
    if (response) return response;
    exchange.fault.plannedMs = delayMs ?? 0;
    if (delayMs !== undefined && delayMs > 0) exchange.delayMs = delayMs;
    return undefined;
  }
  return undefined;
}

// --- Saved worlds (issue 40 item 5; engine/store-state.ts) ------------------------------------
// The rules change on requests the world's log does not keep (a GET a rule fires on), so the
// store saves itself: every rule as it is (its match, action, remaining `times` through `fired`,
// `matched`) and the seeded source's position, so a restored world fires the same faults next.

interface SavedFaults {
  rules: Array<Omit<FaultRule, 'segments'>>;
  rng: [number, number, number, number];
}

function isSaved(data: unknown): data is SavedFaults {
  const d = data as SavedFaults | null;
  return (
    typeof d === 'object' &&
    d !== null &&
    Array.isArray(d.rules) &&
    Array.isArray(d.rng) &&
    d.rng.length === 4 &&
    d.rng.every((n) => Number.isInteger(n) && n >= 0 && n <= 0xffffffff) &&
    d.rules.every(
      (r) =>
        typeof r === 'object' &&
        r !== null &&
        typeof r.id === 'string' &&
        typeof r.match === 'object' &&
        r.match !== null &&
        typeof r.action === 'object' &&
        r.action !== null &&
        Number.isInteger(r.matched) &&
        Number.isInteger(r.fired) &&
        Number.isInteger(r.after) &&
        (r.times === null || Number.isInteger(r.times)) &&
        (r.probability === null || typeof r.probability === 'number') &&
        (r.match.path === undefined || typeof r.match.path === 'string'),
    )
  );
}

registerStoreState({
  key: 'faults',
  save(world) {
    const store = peek(world);
    if (!store) return undefined;
    const rules = store.rules.map(({ segments: _segments, ...rule }) => rule);
    return JSON.parse(JSON.stringify({ rules, rng: store.rng.save() })) as Json;
  },
  load(world, data) {
    if (!isSaved(data)) throw new TypeError('the saved fault rules are not in the shape this build writes');
    // The compiled match after the counters, as a rule added live has it (the same object, the same canonical dump).
    const rules = data.rules.map(({ named: _named, ...r }) => ({ ...r, ...compileMatch(r.match) }));
    faults.put(world, { rules, rng: Rng.at(data.rng) } satisfies FaultStore);
  },
});
