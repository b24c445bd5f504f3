/**
 * A route is data: one entry per endpoint, declared once in `src/handlers/<area>.ts`.
 * The table in `routes.ts` is the only list; adapters never register a route by hand.
 */
import type { z } from 'zod';
import type { WorldControl } from './persist.js';
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
  /** The sandbox's saved worlds: snapshots, export and import (control plane). */
  readonly worlds: WorldControl;
  /** Whether an admin token protects the control plane and `token` is it (the inspector's sign-in). */
  isAdminToken(token: string): boolean;
}

interface RouteSpec<S extends RequestSchemas, A, R extends Responses> {
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
  /**
   * A GET that changes the world, and why (the OAuth start records its session, as the real flow
   * does). Every other GET changes nothing (test/route-table/get-read-only.test.ts), so only these
   * reads enter a saved world's input log (engine/persist.ts).
   */
  changesOnRead?: string;
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
  responses?: R;
  /**
   * Answers with a `reply(status, body)` (checked against the schema `responses` declares for
   * that status: a wrong or missing field does not compile) or, in areas not converted yet, with
   * an unchecked `json(...)` (the escape hatch the architecture test counts).
   */
  handle(ctx: Ctx, input: RouteInput<S, A>): RouteReply<R> | Promise<RouteReply<R>>;
}

/** Every status a route declares: a text alone, or an answer with its schema. */
export type Responses = Record<number, string | ResponseSpec>;

declare const CHECKED: unique symbol;

/** A reply whose body the compiler checked against the route's declared answer for its status. */
export type CheckedReply<St extends number = number, B = unknown> = Reply & { status: St; body: B; readonly [CHECKED]: true };

/** A reply nobody checked (`json(...)`): accepted from routes of areas not converted yet. */
type UncheckedReply = Reply & { readonly [CHECKED]?: never };

/** The JSON body the wire schema declared for status `St` accepts (what `schema.parse` takes). */
export type BodyOf<R, St> = St extends keyof R ? (R[St] extends { schema: infer Z extends z.ZodType } ? z.input<Z> : never) : never;

/** What a route's `handle` may return: a checked reply of a declared status, or an unchecked one. */
export type RouteReply<R> = UncheckedReply | { [St in keyof R & number]: CheckedReply<St, BodyOf<R, St>> }[keyof R & number];

/**
 * A JSON answer typed by its status and body: `handle` accepts it only when `body` matches the
 * schema the route declares for `status` (`responses`). At run time the same object as `json`.
 */
export function reply<const St extends number, B>(status: St, body: B, headers?: Record<string, string>): CheckedReply<St, B> {
  return { status, body, headers } as CheckedReply<St, B>;
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
  changesOnRead?: string;
  request: RequestSchemas;
  access?: (ctx: Ctx, params: unknown) => unknown;
  responses: Record<number, ResponseSpec>;
  handle(ctx: Ctx, input: { params: unknown; query: unknown; body: unknown; access: unknown }): Reply | Promise<Reply>;
}

export function defineRoute<S extends RequestSchemas = Record<never, never>, A = undefined, R extends Responses = Responses>(
  spec: RouteSpec<S, A, R>,
): Route {
  // Built field by field (the keys in the order they always had): ~280 of these run once at
  // import, in code not yet optimised, where spreads and `Object.fromEntries` cost the most.
  const route = { id: spec.id, method: spec.method, path: spec.path, auth: spec.auth } as Route;
  if (spec.surface) route.surface = spec.surface;
  route.summary = spec.summary;
  route.beta = spec.beta;
  if (spec.changesOnRead) route.changesOnRead = spec.changesOnRead;
  route.request = spec.request ?? {};
  if (spec.access) route.access = spec.access as Route['access'];
  const responses: Record<number, ResponseSpec> = {};
  const declared: Responses = spec.responses ?? {};
  for (const status in declared) {
    const r = declared[status] as string | ResponseSpec;
    responses[status as unknown as number] = typeof r === 'string' ? { description: r } : r;
  }
  route.responses = responses;
  route.handle = spec.handle as Route['handle'];
  return route;
}
