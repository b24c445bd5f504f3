/**
 * Self-description of the sandbox, generated from the route table: the route listing and the
 * OpenAPI 3.1 documents of its three interfaces (request and response schemas; `src/wire/`).
 */
import { defineRoute, reply } from '../../engine/route.js';
import { surfaceOf } from '../../engine/router.js';
import { buildOpenApiDocument } from '../../wire/openapi.js';
import { OpenApiDocument, RouteListing, res } from '../../wire/schemas.js';

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
  defineRoute({
    id: 'sandbox.openapi',
    method: 'GET',
    path: '/_sandbox/openapi.json',
    auth: 'control',
    summary: 'The OpenAPI 3.1 document of the control plane (/_sandbox), generated from the route table.',
    responses: { 200: res(OpenApiDocument, 'OpenAPI 3.1 document') },
    handle: (ctx) => reply(200, buildOpenApiDocument(ctx.routes, 'control', ctx.world.urls.base)),
  }),
  defineRoute({
    id: 'meta.openapi.data',
    method: 'GET',
    path: '/openapi.json',
    auth: 'none',
    summary: 'The OpenAPI 3.1 document of the data interface, generated from the route table.',
    responses: { 200: res(OpenApiDocument, 'OpenAPI 3.1 document') },
    handle: (ctx) => reply(200, buildOpenApiDocument(ctx.routes, 'data', ctx.world.urls.base)),
  }),
  defineRoute({
    id: 'meta.openapi.management',
    method: 'GET',
    path: '/openapi.json',
    auth: 'none',
    surface: 'management',
    summary: 'The OpenAPI 3.1 document of the management interface (served at /management/openapi.json).',
    responses: { 200: res(OpenApiDocument, 'OpenAPI 3.1 document') },
    handle: (ctx) => reply(200, buildOpenApiDocument(ctx.routes, 'management', ctx.world.urls.management)),
  }),
];
