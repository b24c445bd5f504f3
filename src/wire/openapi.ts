/**
 * OpenAPI 3.1 documents of what the sandbox serves, generated from the route table (the same
 * table the adapters use), with request schemas (zod, read as input) and response schemas (the
 * wire schemas each route declares, read as output; `routeResponses`). Three documents, one per
 * interface: `data` (`GET /openapi.json`), `management` (`GET /management/openapi.json`, paths
 * relative to the management URL) and `control` (`GET /_sandbox/openapi.json`). Built on first
 * use and cached per route table and interface (routes are immutable); only `servers` differs per
 * server URL, so every sandbox (each on its own URL) shares one build. `npm run openapi` writes them.
 * Each document also comes by area (`?area=<tag>`: the operations of one tag, the first part of
 * their route ids, and the components they refer to), so that `/docs` parses a small document first.
 */
import { z } from 'zod';
import type { Route } from '../engine/route.js';
import { surfaceOf } from '../engine/router.js';
import { routeResponses } from './engine.js';
import * as WIRE from './schemas.js';

type Json = Record<string, unknown>;
/** A built document, typed by the wire schema the control plane declares for it. */
type OpenApiDoc = z.input<typeof WIRE.OpenApiDocument>;
type DocumentKind = 'data' | 'management' | 'control';

export const DOCUMENT_KINDS: readonly DocumentKind[] = ['data', 'management', 'control'];

/** The area (the operation's tag) of a route: the first part of its id. */
const areaOf = (route: Route): string => route.id.split('.')[0] as string;

/** Each route table's areas per document, worked out once (routes are immutable; `/docs` lists them on every read). */
const areasCache = new WeakMap<readonly Route[], Map<DocumentKind, readonly string[]>>();

/** The areas of one document, in route-table order. */
export function documentAreas(routes: readonly Route[], kind: DocumentKind): readonly string[] {
  let byKind = areasCache.get(routes);
  if (!byKind) areasCache.set(routes, (byKind = new Map()));
  let areas = byKind.get(kind);
  if (!areas) {
    const seen = new Set<string>();
    for (const route of routes) if (documentOf(route) === kind) seen.add(areaOf(route));
    areas = Object.freeze([...seen]);
    byKind.set(kind, areas);
  }
  return areas;
}

/** Which document a route belongs to. */
function documentOf(route: Route): DocumentKind {
  if (route.auth === 'control') return 'control';
  return surfaceOf(route) === 'management' ? 'management' : 'data';
}

function schemaOf(schema: z.ZodType, io: 'input' | 'output'): Json {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Json;
  delete json['$schema'];
  return json;
}

function parameters(route: Route): Json[] {
  const out: Json[] = [];
  for (const [where, schema] of [
    ['path', route.request.params],
    ['query', route.request.query],
  ] as const) {
    if (!schema) continue;
    const json = schemaOf(schema, 'input');
    const props = (json['properties'] ?? {}) as Record<string, Json>;
    const required = new Set((json['required'] ?? []) as string[]);
    for (const [name, prop] of Object.entries(props)) {
      out.push({ name, in: where, required: where === 'path' || required.has(name), schema: prop });
    }
  }
  return out;
}

/**
 * Response schemas as components: every named wire piece (`src/wire/*`: `User`, `Order`, ...) and
 * each route's own composition (`<route id>.<status>`), converted together so they refer to each
 * other by `$ref`. Read as zod input: objects stay open (answers may carry more than is declared).
 */
class Components {
  private readonly registry = z.registry<{ id: string }>();
  private readonly ids = new Map<z.ZodType, string>();

  constructor() {
    for (const [name, value] of Object.entries(WIRE)) {
      if (value instanceof z.ZodType && /^[A-Z]/.test(name) && !this.ids.has(value)) this.name(value, name);
    }
  }

  private name(schema: z.ZodType, id: string): string {
    this.registry.add(schema, { id });
    this.ids.set(schema, id);
    return id;
  }

  ref(schema: z.ZodType, id: string): Json {
    return { $ref: `#/components/schemas/${this.ids.get(schema) ?? this.name(schema, id)}` };
  }

  /** The schemas the document refers to (transitively), and no others. */
  schemas(paths: Json): Record<string, Json> {
    const all = (
      z.toJSONSchema(this.registry, { io: 'input', unrepresentable: 'any', uri: (id) => `#/components/schemas/${id}` }) as {
        schemas: Record<string, Json>;
      }
    ).schemas;
    const out: Record<string, Json> = {};
    const visit = (value: unknown): void => {
      if (Array.isArray(value)) for (const v of value) visit(v);
      else if (value && typeof value === 'object') {
        for (const [k, v] of Object.entries(value)) {
          if (k === '$ref' && typeof v === 'string' && v.startsWith('#/components/schemas/')) {
            const id = v.slice('#/components/schemas/'.length);
            const schema = all[id];
            if (schema && !out[id]) {
              const { $schema: _s, $id: _i, ...rest } = schema;
              out[id] = rest;
              visit(rest);
            }
          } else visit(v);
        }
      }
    };
    visit(paths);
    return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }
}

/** The media type object of a non-JSON body. */
function rawBody(type: string): Json {
  return { schema: type.startsWith('text/') ? { type: 'string' } : { type: 'string', contentMediaType: type } };
}

function responses(route: Route, components: Components): Json {
  const out: Json = {};
  for (const [status, spec] of Object.entries(routeResponses(route))) {
    const answer: Json = { description: spec.description };
    if (spec.schema) answer['content'] = { 'application/json': { schema: components.ref(spec.schema, `${route.id}.${status}`) } };
    else if (spec.contentType) answer['content'] = { [spec.contentType]: rawBody(spec.contentType) };
    for (const type of spec.alternatives ?? []) answer['content'] = { ...(answer['content'] as Json | undefined), [type]: rawBody(type) };
    out[status] = answer;
  }
  return out;
}

const SECURITY: Record<Route['auth'], Json[]> = {
  team: [{ ApiKey: [] }],
  management: [{ ManagementKey: [] }],
  control: [{}, { AdminToken: [] }],
  none: [],
};

const SCHEMES: Record<DocumentKind, Json> = {
  data: {
    ApiKey: { type: 'apiKey', in: 'header', name: 'x-vital-api-key', description: 'A team API key (alias header x-service-api-key)' },
  },
  management: { ManagementKey: { type: 'apiKey', in: 'header', name: 'X-Management-Key', description: 'An org management key' } },
  control: { AdminToken: { type: 'http', scheme: 'bearer', description: 'Only when the sandbox was started with an admin token' } },
};

const TITLES: Record<DocumentKind, string> = {
  data: 'health-sandbox: data interface',
  management: 'health-sandbox: management interface',
  control: 'health-sandbox: control plane (/_sandbox)',
};

/** Per route table: the document of each interface (by kind), and each served copy (by kind and URL). */
const cache = new WeakMap<readonly Route[], Map<string, OpenApiDoc>>();

/**
 * The OpenAPI document of one interface; `serverUrl` is where that interface is served. With
 * `area`, only that area's operations (one of `documentAreas`; the caller checks it).
 */
export function buildOpenApiDocument(routes: readonly Route[], kind: DocumentKind, serverUrl: string, area?: string): OpenApiDoc {
  let byKey = cache.get(routes);
  if (!byKey) cache.set(routes, (byKey = new Map()));
  const which = area === undefined ? kind : `${kind}?area=${area}`;
  const key = `${which} ${serverUrl}`;
  const hit = byKey.get(key);
  if (hit) return hit;
  let shared = byKey.get(which);
  if (!shared) byKey.set(which, (shared = buildDocument(routes, kind, area)));
  // The same document on another server URL: a new top level (same key order), shared parts.
  const doc: OpenApiDoc = { ...shared, servers: [{ url: serverUrl }] };
  byKey.set(key, doc);
  return doc;
}

/** The document of one interface (or one of its areas), without its server URL (`servers` is filled per URL). */
function buildDocument(routes: readonly Route[], kind: DocumentKind, area: string | undefined): OpenApiDoc {
  const paths: Record<string, Json> = {};
  const components = new Components();
  for (const route of routes) {
    if (documentOf(route) !== kind || (area !== undefined && areaOf(route) !== area)) continue;
    const path = route.path.replace(/:([A-Za-z_]+)/g, '{$1}');
    const op: Json = {
      operationId: route.id,
      summary: route.summary,
      tags: [areaOf(route)],
      security: SECURITY[route.auth],
      parameters: parameters(route),
      responses: responses(route, components),
    };
    if (route.beta) op['x-closed-beta'] = route.beta;
    if (route.request.body)
      op['requestBody'] = {
        required: true,
        content: {
          [route.request.bodyKind === 'form' ? 'multipart/form-data' : 'application/json']: {
            schema: schemaOf(route.request.body, 'input'),
          },
        },
      };
    paths[path] = { ...(paths[path] ?? {}), [route.method.toLowerCase()]: op };
  }
  const doc: OpenApiDoc = {
    openapi: '3.1.0',
    info: {
      title: area === undefined ? TITLES[kind] : `${TITLES[kind]}, area ${area}`,
      version: '0.1.0',
      description: 'What the health-sandbox simulator serves, generated from its route table.',
    },
    servers: [],
    components: { securitySchemes: SCHEMES[kind], schemas: components.schemas(paths) },
    paths,
  };
  return doc;
}
