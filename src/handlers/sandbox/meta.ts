/**
 * Self-description of the sandbox, generated from the route table: the route listing and the
 * OpenAPI 3.1 documents of its three interfaces (request and response schemas; `src/wire/`).
 */
import { SANDBOX_ERRORS, sandboxError } from '../../state/sandbox/errors.js';
import { z } from 'zod';
import { lazySchema } from '../../engine/lazy-schema.js';
import { type AuthKind, defineRoute, reply } from '../../engine/route.js';
import { surfaceOf } from '../../engine/router.js';
import { buildOpenApiDocument, type DOCUMENT_KINDS, documentAreas } from '../../wire/openapi.js';
import { OpenApiDocument, RouteListing, res } from '../../wire/schemas.js';

/**
 * `GET <path>`: the OpenAPI 3.1 document of one interface, generated from the route table; the
 * management one is served on the management URL and names it as its server. `?area=<tag>`: only
 * that area's operations (what `/docs` loads first: a small document parses quickly); an area the
 * document does not have is a 422 naming the ones it has.
 */
function openApiRoute(o: { id: string; path: string; auth: AuthKind; kind: (typeof DOCUMENT_KINDS)[number]; summary: string }) {
  const management = o.kind === 'management';
  return defineRoute({
    id: o.id,
    method: 'GET',
    path: o.path,
    auth: o.auth,
    ...(management ? { surface: 'management' as const } : {}),
    summary: o.summary,
    request: {
      query: lazySchema(() =>
        z.object({
          area: z
            .string()
            .optional()
            .describe(
              "Only this area's operations (their tag, the first part of their ids: users, labs, ...); the whole document when left out.",
            ),
        }),
      ),
    },
    responses: { 200: res(OpenApiDocument, 'OpenAPI 3.1 document') },
    handle: (ctx, { query }) => {
      const areas = documentAreas(ctx.routes, o.kind);
      if (query.area !== undefined && !areas.includes(query.area))
        throw sandboxError.unknownArea(SANDBOX_ERRORS.unknownDocumentArea(areas), query.area);
      return reply(200, buildOpenApiDocument(ctx.routes, o.kind, management ? ctx.world.urls.management : ctx.world.urls.base, query.area));
    },
  });
}

export const metaRoutes = [
  defineRoute({
    id: 'sandbox.routes',
    method: 'GET',
    path: '/_sandbox/routes',
    auth: 'control',
    summary: 'Every route the sandbox serves, from the route table.',
    responses: { 200: res(RouteListing, 'OK') },
    handle: (ctx) =>
      reply(200, {
        routes: ctx.routes.map((r) => ({
          id: r.id,
          method: r.method,
          surface: surfaceOf(r),
          path: r.path,
          auth: r.auth,
          beta: r.beta ?? null,
          summary: r.summary,
        })),
      }),
  }),
  openApiRoute({
    id: 'sandbox.openapi',
    path: '/_sandbox/openapi.json',
    auth: 'control',
    kind: 'control',
    summary: 'The OpenAPI 3.1 document of the control plane (/_sandbox), generated from the route table.',
  }),
  openApiRoute({
    id: 'meta.openapi.data',
    path: '/openapi.json',
    auth: 'none',
    kind: 'data',
    summary: 'The OpenAPI 3.1 document of the data interface, generated from the route table.',
  }),
  openApiRoute({
    id: 'meta.openapi.management',
    path: '/openapi.json',
    auth: 'none',
    kind: 'management',
    summary: 'The OpenAPI 3.1 document of the management interface (served at /management/openapi.json).',
  }),
];
