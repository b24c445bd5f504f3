/**
 * The request path (design.md section 2): match route -> authenticate -> parse path params ->
 * the route's access hook -> parse query and body with zod -> handler -> serialise. Errors are rendered here, once, in the real service's wire shapes.
 */
import { authenticateControl, authenticateManagement, authenticateTeam } from './auth.js';
import { ApiError, apiError, MESSAGES, validationError } from './errors.js';
import type { Reply, SimRequest, SimResponse } from './http-types.js';
import type { Ctx, ManagementPrincipal, Route } from './route.js';
import type { Router } from './router.js';
import type { Partition } from './tenancy.js';
import type { World } from './world.js';
import { closedBetaError } from './beta.js';
import { parsePathParams, parseWith, queryObject } from './validation.js';
import { checkLimits, jsonDepthExceeds, LIMITS, LIMIT_MESSAGES } from './limits.js';
import { detailResponse, EMPTY, JSON_TYPE, jsonBytes, jsonResponse } from './render.js';
import { renderedJson } from './render-cache.js';
import { requestPath } from './canonical-path.js';
import { readForm } from './multipart.js';
import type { WorldControl } from './persist.js';
import type { FaultApplied } from './fault-applied.js';

/**
 * What dispatch learned about one request, filled in as it goes (the seam for the request
 * journal, faults and the terminal log): the route matched, the caller's team and environment,
 * and why it was refused. Hooks read it; handlers never see it.
 */
export interface Exchange {
  /** The route matched (absent: no route, or a 405). */
  route?: Route;
  /** The caller's team and environment, once a team key authenticated. */
  teamId?: string;
  environment?: string;
  /** The `loc` of each failed field when the answer is a 422. */
  invalid?: Array<Array<string | number>>;
  /** Set by `admit` to the entry the request made in the world's log (it authenticated and passed validation). */
  logged?: object;
  /** Set by a hook that replaced the answer (a fault rule's id). */
  faultId?: string;
  /** Set with `faultId`: what the rule did (kept by the request journal). */
  fault?: FaultApplied;
  /** Set by `intercept` to have the handler's own answer sent late (wall ms; a fault's latency). */
  delayMs?: number;
  /**
   * Set by an `observe` hook for a late answer: called with the wall ms the client waited, once
   * the adapter carried out the wait (handed to the adapter as `SimResponse.waited`).
   */
  waited?: (waitedMs: number) => void;
  /**
   * Set by the caller before dispatch, read by its hooks (no per-request map): the monotonic time
   * the request arrived (the journal's duration), and the world it arrived in with its sandbox
   * time and whether an advance was running (the world's log).
   */
  startedMs?: number;
  startedIn?: World;
  startedAt?: number;
  startedDuring?: boolean;
}

/**
 * Engine seams around the handler. `intercept` runs after the route matched and the caller
 * authenticated, before input is parsed: an answer it returns replaces the handler's (faults).
 * `observe` sees every answer dispatch made, with what dispatch learned (journal, log). Both are
 * synchronous and must not throw.
 */
export interface DispatchHooks {
  intercept?(req: SimRequest, exchange: Exchange): SimResponse | undefined;
  /**
   * Runs once the input parsed, right before the handler: the world's log keeps the request (an
   * answer it returns refuses it, nothing applied: the state file cannot take it). Refused
   * requests (401, 404, 422 ...) never reach it, so they never enter the log.
   */
  admit?(req: SimRequest, exchange: Exchange): SimResponse | undefined;
  observe?(req: SimRequest, res: SimResponse, exchange: Exchange): void;
}

interface DispatchEnv {
  world: World;
  router: Router;
  adminToken: string | undefined;
  hooks?: DispatchHooks;
  reset(seed?: number): void;
  /** Replaces the world with a checked scenario (control plane `PUT /_sandbox/scenario`). */
  loadScenario?(scenario: unknown): Promise<unknown>;
  /** The sandbox's saved worlds (control plane `/_sandbox/snapshots`, `/_sandbox/world`). */
  worlds?: WorldControl;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

export const CONTENT_MESSAGES = {
  controlNeedsJson: 'The sandbox control plane accepts only JSON bodies: send Content-Type: application/json',
} as const;

/**
 * Answers one request. Its path is made canonical here when a caller passed a raw one (the front
 * door and `Sandbox.dispatch` record their verdict: then nothing is computed again); a path with no canonical form
 * answers 400. Hooks see the request with its canonical path.
 */
export function dispatch(env: DispatchEnv, req: SimRequest, exchange: Exchange = {}): Promise<SimResponse> {
  const answered = dispatchNow(env, req, exchange);
  return answered instanceof Promise ? answered : Promise.resolve(answered);
}

/**
 * `dispatch` without a promise around an answer made synchronously (a handler that waits on
 * nothing): the node:http adapter writes it at once, in the turn the request arrived.
 */
export function dispatchNow(env: DispatchEnv, req: SimRequest, exchange: Exchange = {}): SimResponse | Promise<SimResponse> {
  const canonical = requestPath(req);
  if (!canonical.ok) return finish(env, req, checkLimits(req) ?? detailResponse(400, canonical.detail), exchange);
  const request = canonical.path !== req.path ? { ...req, path: canonical.path } : req;
  const answered = answer(env, request, exchange);
  return answered instanceof Promise
    ? answered.then((res) => finish(env, request, res, exchange))
    : finish(env, request, answered, exchange);
}

function finish(env: DispatchEnv, req: SimRequest, answered: SimResponse, exchange: Exchange): SimResponse {
  if (!exchange.delayMs) {
    env.hooks?.observe?.(req, answered, exchange);
    return answered;
  }
  const res: SimResponse = { ...answered, delayMs: exchange.delayMs };
  env.hooks?.observe?.(req, res, exchange);
  if (exchange.waited) res.waited = exchange.waited;
  return res;
}

/** Answers a request; synchronously when nothing on its way waits (the route's handler, a due job). */
function answer(env: DispatchEnv, req: SimRequest, exchange: Exchange): SimResponse | Promise<SimResponse> {
  const refused = checkLimits(req);
  if (refused) return refused;
  try {
    const method = req.method.toUpperCase();
    // Like Starlette, a GET route also answers HEAD: same status and headers, no body.
    if (method === 'HEAD') return headOf(answer(env, { ...req, method: 'GET' }, exchange));
    const found = env.router.match(req.surface, method, req.path);
    if (found.kind === 'none') return jsonResponse(404, { detail: MESSAGES.notFound });
    if (found.kind === 'method') return jsonResponse(405, { detail: MESSAGES.methodNotAllowed }, { allow: found.allow.join(', ') });
    const { route, params } = found.match;
    exchange.route = route;
    const { world } = env;
    if (world.clock.mode === 'realtime' && world.scheduler.hasDue() && !world.scheduler.running) {
      return world.scheduler.runDue().then(
        () => handled(env, req, route, params, exchange),
        (error: unknown) => failed(env, req, exchange, error),
      );
    }
    return handled(env, req, route, params, exchange);
  } catch (error) {
    return failed(env, req, exchange, error);
  }
}

function headOf(res: SimResponse | Promise<SimResponse>): SimResponse | Promise<SimResponse> {
  if (res instanceof Promise) return res.then(headOf) as Promise<SimResponse>;
  return res.drop ? res : { ...res, body: EMPTY };
}

/** The route's answer: authentication, the intercept seam, input, the handler, serialisation. */
function handled(
  env: DispatchEnv,
  req: SimRequest,
  route: Route,
  params: Record<string, string>,
  exchange: Exchange,
): SimResponse | Promise<SimResponse> {
  try {
    const ctx = buildCtx(env, req, route, exchange);
    const intercepted = env.hooks?.intercept?.(req, exchange);
    if (intercepted) return intercepted;
    const input = parseInput(ctx, route, params, req);
    const notKept = env.hooks?.admit?.(req, exchange);
    if (notKept) return notKept;
    const reply = route.handle(ctx, input);
    if (reply instanceof Promise) {
      return reply.then((r) => serialise(r, route, req)).catch((error: unknown) => failed(env, req, exchange, error));
    }
    return serialise(reply, route, req);
  } catch (error) {
    return failed(env, req, exchange, error);
  }
}

/** The answer to an error thrown on the way: its own for an ApiError, else a 500 (logged). */
function failed(env: DispatchEnv, req: SimRequest, exchange: Exchange, error: unknown): SimResponse {
  if (error instanceof ApiError) {
    if (error.status === 422) exchange.invalid = invalidLocs(error.body);
    return jsonResponse(error.status, error.body, error.headers);
  }
  env.world.log(`Unhandled error on ${req.method} ${req.path}`, error);
  return jsonResponse(500, { detail: MESSAGES.internal });
}

/** The `loc` of each item of a 422 body (`{"detail": [{"loc": [...]}, ...]}`). */
function invalidLocs(body: unknown): Array<Array<string | number>> | undefined {
  const detail = (body as { detail?: unknown } | null)?.detail;
  if (!Array.isArray(detail)) return undefined;
  return detail.flatMap((item: unknown) => {
    const loc = (item as { loc?: unknown } | null)?.loc;
    return Array.isArray(loc) ? [loc as Array<string | number>] : [];
  });
}

function buildCtx(env: DispatchEnv, req: SimRequest, route: Route, exchange: Exchange): Ctx {
  const { world } = env;
  let partition: Partition | undefined;
  let management: ManagementPrincipal | undefined;
  switch (route.auth) {
    case 'team':
      partition = authenticateTeam(world, req);
      exchange.teamId = partition.team.id;
      exchange.environment = partition.environment;
      if (route.beta && !partition.team.beta_features.has(route.beta)) throw closedBetaError(route.beta);
      break;
    case 'management':
      management = authenticateManagement(world, req);
      break;
    case 'control':
      authenticateControl(env.adminToken, req);
      break;
    case 'none':
      break;
  }
  return new RequestCtx(env, world, req, route, partition, management);
}

/**
 * One request's `Ctx`: its methods live on the prototype, so a request allocates one object and
 * no closures (the request path's cost, BENCHMARKS.md).
 */
class RequestCtx implements Ctx {
  constructor(
    private readonly env: DispatchEnv,
    readonly world: World,
    readonly request: SimRequest,
    private readonly route: Route,
    private readonly team: Partition | undefined,
    private readonly principal: ManagementPrincipal | undefined,
  ) {}

  now(): number {
    return this.world.clock.now();
  }

  isAdminToken(token: string): boolean {
    return this.env.adminToken !== undefined && token === this.env.adminToken;
  }

  iso(): string {
    return new Date(this.world.clock.now()).toISOString();
  }

  get partition(): Partition {
    if (!this.team) throw new Error(`Route ${this.route.id} used ctx.partition without team auth`);
    return this.team;
  }

  get management(): ManagementPrincipal {
    if (!this.principal) throw new Error(`Route ${this.route.id} used ctx.management without management auth`);
    return this.principal;
  }

  reset(seed?: number): void {
    this.env.reset(seed);
  }

  loadScenario(scenario: unknown): Promise<unknown> {
    return this.env.loadScenario ? this.env.loadScenario(scenario) : Promise.reject(new Error('This sandbox cannot load scenarios'));
  }

  get routes(): readonly Route[] {
    return this.env.router.routes;
  }

  get worlds(): WorldControl {
    if (!this.env.worlds) throw new Error('This sandbox cannot save or restore worlds');
    return this.env.worlds;
  }
}

/** Path params, then the route's access hook, then query, then body: each stops at its own error. */
function parseInput(
  ctx: Ctx,
  route: Route,
  params: Record<string, string>,
  req: SimRequest,
): { params: unknown; query: unknown; body: unknown; access: unknown } {
  const { request } = route;
  const parsedParams = request.params ? parsePathParams(request.params, params) : params;
  const access = route.access ? route.access(ctx, parsedParams) : undefined;
  const parsedQuery = request.query ? parseWith(request.query, queryObject(request.query, req.query), 'query') : undefined;
  let body: unknown;
  if (request.body) {
    const raw = request.bodyKind === 'form' ? readForm(req.rawBody, req.headers['content-type']) : readBody(route, req);
    body = parseWith(request.body, raw, 'body');
  }
  return { params: parsedParams, query: parsedQuery, body, access };
}

/** Whether a Content-Type names JSON (`application/json`, `application/*+json`), as FastAPI decides. */
function isJsonType(contentType: string): boolean {
  const main = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  return main === 'application/json' || (main.startsWith('application/') && main.endsWith('+json'));
}

/**
 * The body as the route's schema sees it. Like FastAPI: no Content-Type or a JSON one parses the
 * bytes as JSON; any other type hands the raw text to validation (so a model answers 422
 * `model_attributes_type`). The control plane instead refuses a body that is not declared JSON
 * with 415 (no Content-Type included: a cross-site `fetch` or `sendBeacon` can send one without),
 * so a cross-site page cannot drive it.
 */
function readBody(route: Route, req: SimRequest): unknown {
  if (req.rawBody.byteLength === 0) return undefined;
  const type = req.headers['content-type'];
  if (type !== undefined && type !== '' && isJsonType(type)) return readJsonBody(req);
  if (route.auth === 'control') throw apiError(415, CONTENT_MESSAGES.controlNeedsJson);
  return type === undefined || type === '' ? readJsonBody(req) : decodeText(req);
}

function decodeText(req: SimRequest): string {
  try {
    return decoder.decode(req.rawBody);
  } catch {
    throw validationError([{ type: 'json_invalid', loc: ['body', 0], msg: 'JSON decode error', ctx: { error: 'Invalid UTF-8' } }]);
  }
}

/** Parses the JSON body; an empty body reads as undefined (FastAPI then says "Field required"). */
function readJsonBody(req: SimRequest): unknown {
  if (req.rawBody.length === 0) return undefined;
  const text = decodeText(req);
  if (text.trim() === '') return undefined;
  if (jsonDepthExceeds(text)) {
    const input = text.length > LIMITS.echoString ? `${text.slice(0, LIMITS.echoString)}...` : text;
    throw validationError([
      { type: 'json_invalid', loc: ['body', 0], msg: 'JSON decode error', input, ctx: { error: LIMIT_MESSAGES.tooDeep } },
    ]);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const message = error instanceof Error ? error.message : 'Invalid JSON';
    const pos = /position (\d+)/.exec(message);
    throw validationError([
      { type: 'json_invalid', loc: ['body', pos ? Number(pos[1]) : 0], msg: 'JSON decode error', input: {}, ctx: { error: message } },
    ]);
  }
}

function serialise(reply: Reply, route: Route, req: SimRequest): SimResponse {
  const { status, body } = reply;
  // Most answers: a JSON body and no header of their own (one headers object, made here); a
  // read's bytes are rendered again only when its view changed (render-cache.ts).
  if (reply.headers === undefined && reply.raw === undefined && body !== undefined && status !== 204) {
    return {
      status,
      headers: { 'content-type': JSON_TYPE },
      body: req.method === 'GET' ? renderedJson(route, req.path, body) : jsonBytes(body),
    };
  }
  const headers: Record<string, string> = reply.headers ? { ...reply.headers } : {};
  if (reply.raw) return { status, headers, body: reply.raw };
  if (body === undefined || status === 204) return { status, headers, body: EMPTY };
  headers['content-type'] ??= JSON_TYPE;
  return { status, headers, body: encoder.encode(JSON.stringify(body)) };
}
