/**
 * Self-description of the sandbox, generated from the route table: the route listing and an
 * OpenAPI document of everything it serves.
 *
 * LIMITATIONS
 * - Response bodies are described by status and text, not by schema.
 */
import { json } from '../../engine/http-types.js';
import { buildOpenApiDocument } from '../../engine/openapi.js';
import { defineRoute } from '../../engine/route.js';
import { surfaceOf } from '../../engine/router.js';
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
      json({
        routes: ctx.routes.map((r) => ({ id: r.id, method: r.method, surface: surfaceOf(r), path: r.path, auth: r.auth, beta: r.beta ?? null, summary: r.summary })),
      }),
  }),
  defineRoute({
    id: 'sandbox.openapi',
    method: 'GET',
    path: '/_sandbox/openapi.json',
    auth: 'control',
    summary: 'An OpenAPI 3.1 document of what the sandbox serves, generated from the route table.',
    responses: { 200: res(OpenApiDocument, 'OK') },
    handle: (ctx) => json(buildOpenApiDocument(ctx.routes, ctx.world.urls.base)),
  }),
];
