/**
 * An OpenAPI 3.1 document of what the sandbox serves, generated from the route table (the
 * same table the adapters use). Served at `GET /_sandbox/openapi.json`; `npm run openapi`.
 */
import { z } from 'zod';
import type { Route } from './route.js';
import { surfaceOf } from './router.js';

type Json = Record<string, unknown>;

function schemaOf(schema: z.ZodType): Json {
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Json;
}

function parameters(route: Route): Json[] {
  const out: Json[] = [];
  for (const [where, schema] of [['path', route.request.params], ['query', route.request.query]] as const) {
    if (!schema) continue;
    const json = schemaOf(schema);
    const props = (json['properties'] ?? {}) as Record<string, Json>;
    const required = new Set((json['required'] ?? []) as string[]);
    for (const [name, prop] of Object.entries(props)) {
      out.push({ name, in: where, required: where === 'path' || required.has(name), schema: prop });
    }
  }
  return out;
}

const SECURITY: Record<Route['auth'], Json[]> = {
  team: [{ ApiKey: [] }],
  management: [{ ManagementKey: [] }],
  control: [{}, { AdminToken: [] }],
  none: [],
};

export function buildOpenApiDocument(routes: readonly Route[], serverUrl = 'http://127.0.0.1:4250'): Json {
  const paths: Record<string, Json> = {};
  for (const route of routes) {
    const prefix = surfaceOf(route) === 'management' ? '/management' : '';
    const path = prefix + route.path.replace(/:([A-Za-z_]+)/g, '{$1}');
    const responses = Object.entries(route.responses);
    const op: Json = {
      operationId: route.id,
      summary: route.summary,
      security: SECURITY[route.auth],
      parameters: parameters(route),
      responses: Object.fromEntries(
        responses.length > 0 ? responses.map(([status, spec]) => [status, { description: spec.description }]) : [['200', { description: 'OK' }]],
      ),
    };
    if (route.beta) op['x-closed-beta'] = route.beta;
    if (route.request.body) op['requestBody'] = { content: { 'application/json': { schema: schemaOf(route.request.body) } } };
    paths[path] = { ...(paths[path] ?? {}), [route.method.toLowerCase()]: op };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'health-sandbox', version: '0.1.0', description: 'What the health-sandbox simulator serves, generated from its route table.' },
    servers: [{ url: serverUrl }],
    components: {
      securitySchemes: {
        ApiKey: { type: 'apiKey', in: 'header', name: 'x-service-api-key' },
        ManagementKey: { type: 'apiKey', in: 'header', name: 'X-Management-Key' },
        AdminToken: { type: 'http', scheme: 'bearer' },
      },
    },
    paths,
  };
}
