/**
 * A route is data: one entry per endpoint, declared once in `src/handlers/<area>.ts`.
 * The table in `routes.ts` is the only list; adapters never register a route by hand.
 */
import type { z } from 'zod';
import type { Reply, SimRequest } from './http-types.js';
import type { ManagementPrincipal, Partition } from './tenancy.js';
import type { World } from './world.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * - `team`: team API key (`x-service-api-key`, alias `x-vital-api-key`), data surface.
 * - `management`: management key (`X-Management-Key`, aliases `X-Service-Org-Key`,
 *   `X-Vital-Org-Key`), management surface.
 * - `control`: the `/_sandbox/*` control plane, data surface.
 * - `none`: no credentials, data surface.
 */
export type AuthKind = 'team' | 'management' | 'control' | 'none';

export interface RequestSchemas {
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /**
   * `form`: the body is a form (multipart or urlencoded), handed to `body` as lists of values per
   * field (`engine/multipart.ts`). Default `json`.
   */
  bodyKind?: 'json' | 'form';
}

type Out<S extends RequestSchemas, K extends keyof RequestSchemas> = S[K] extends z.ZodType ? z.output<S[K]> : undefined;

interface RouteInput<S extends RequestSchemas, A> {
  params: Out<S, 'params'>;
  query: Out<S, 'query'>;
  body: Out<S, 'body'>;
  /** What the route's `access` hook returned (undefined without a hook). */
  access: A;
}

export type { ManagementPrincipal } from './tenancy.js';

export interface Ctx {
  readonly world: World;
  readonly request: SimRequest;
  /** Sandbox time, epoch ms. */
  now(): number;
  /** Sandbox time, ISO string. */
  iso(): string;
  /** The caller's data partition (team routes only). */
  readonly partition: Partition;
  /** The caller's management principal (management routes only). */
  readonly management: ManagementPrincipal;
  /** Replaces the world (control plane reset). */
  reset(seed?: number): void;
  /** Replaces the world with a scenario (control plane); rejects with a ScenarioError. */
  loadScenario(scenario: unknown): Promise<unknown>;
  /** Every route the sandbox serves (the route table). */
  readonly routes: readonly Route[];
}

interface RouteSpec<S extends RequestSchemas, A> {
  /** Stable operation id, e.g. `users.create`. */
  id: string;
  method: Method;
  /** Literal segments and `:param` only. */
  path: string;
  auth: AuthKind;
  /** The surface of an `auth: 'none'` route served on the management URL (default: by `auth`). */
  surface?: 'data' | 'management';
  summary: string;
  /** Closed-beta feature name: teams not enabled for it get the closed-beta error. */
  beta?: string;
  request?: S;
  /**
   * The route's access check on its path params (org, plan, key scope, the team named in the
   * path): dispatch runs it after the path params parse and BEFORE the query and the body parse,
   * so a caller without access gets the area's catalogued 403/404 whatever its query or body, and
   * rules on the query or body (`withRules`) answer only to callers with access. It throws the
   * area's errors; what it returns (the org, the team) reaches the handler as `input.access`.
   */
  access?: (ctx: Ctx, params: Out<S, 'params'>) => A;
  /**
   * Every status this route answers with: its meaning and, for a JSON body, the zod schema of the
   * body (`src/wire/`). A 2xx JSON answer needs a schema; an error status given as text alone
   * answers the house error body (`ErrorBody`, `{detail}`). Schemas are never used on the request
   * path: the wire test checks live answers against them and the OpenAPI documents are built from
   * them. Errors the engine answers for every route (401, 415, 422 of the request schemas) are
   * declared by `engineResponses` in `src/wire/engine.ts`.
   */
  responses?: Record<number, string | ResponseSpec>;
  handle(ctx: Ctx, input: RouteInput<S, A>): Reply | Promise<Reply>;
}

/** One declared answer of a route. */
export interface ResponseSpec {
  description: string;
  /** zod schema of the JSON body; absent for a body-less answer (204, redirects) or a non-JSON one. */
  schema?: z.ZodType;
  /** Content type of a non-JSON body (`text/html`, `application/pdf`, ...). */
  contentType?: string;
  /**
   * Other content types the same status can answer with, chosen by the `accept` header (the
   * aggregate queries' Parquet variants): binary bodies, no schema.
   */
  alternatives?: readonly string[];
}

/** A route with its schema types erased, as the table holds it. */
export interface Route {
  id: string;
  method: Method;
  path: string;
  auth: AuthKind;
  surface?: 'data' | 'management';
  summary: string;
  beta?: string;
  request: RequestSchemas;
  access?: (ctx: Ctx, params: unknown) => unknown;
  responses: Record<number, ResponseSpec>;
  handle(ctx: Ctx, input: { params: unknown; query: unknown; body: unknown; access: unknown }): Reply | Promise<Reply>;
}

export function defineRoute<S extends RequestSchemas = Record<never, never>, A = undefined>(spec: RouteSpec<S, A>): Route {
  return {
    id: spec.id,
    method: spec.method,
    path: spec.path,
    auth: spec.auth,
    ...(spec.surface ? { surface: spec.surface } : {}),
    summary: spec.summary,
    beta: spec.beta,
    request: spec.request ?? {},
    ...(spec.access ? { access: spec.access as Route['access'] } : {}),
    responses: Object.fromEntries(
      Object.entries(spec.responses ?? {}).map(([status, r]) => [status, typeof r === 'string' ? { description: r } : r]),
    ),
    handle: spec.handle as Route['handle'],
  };
}
