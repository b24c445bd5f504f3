/**
 * Requests derived from the route table, shared by the robustness, fuzz and parity tests: keys and
 * types read from each route's zod schemas, plausible bodies, and a baseline world whose ids fill
 * path parameters (`route-params.ts`, the one parameter builder).
 */
import type { z } from 'zod';
import type { Route } from '../../src/engine/route.js';
import type { World } from '../../src/engine/world.js';
import type { WebhookTransport } from '../../src/state/webhooks/transport.js';
import type { TestClient } from './client.js';
import { jsonSchemaOf } from '../../scripts/conformance/writes.js';
import { routeParams, UNKNOWN_ID } from './route-params.js';

function nested(depth: number): unknown {
  let v: unknown = { a: [1, 'x', null] };
  for (let i = 0; i < depth; i++) v = i % 2 === 0 ? [v, { k: v === null ? 0 : 'x' }] : { deep: v, n: i };
  return v;
}
export const DEEP = nested(60);

// ---- deriving keys and types from the zod schemas ----

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
}

export const toJson = (schema: z.ZodType): JsonSchema => jsonSchemaOf(schema) as JsonSchema;

/** The properties of an (optionally nullable / union-wrapped) object schema. */
export function propertiesOf(js: JsonSchema): Record<string, JsonSchema> {
  if (js.properties) return js.properties;
  for (const alt of [...(js.anyOf ?? []), ...(js.oneOf ?? []), ...(js.allOf ?? [])]) {
    const p = propertiesOf(alt);
    if (Object.keys(p).length > 0) return p;
  }
  return {};
}

function typesOf(js: JsonSchema): Set<string> {
  const out = new Set<string>();
  if (typeof js.type === 'string') out.add(js.type);
  else if (Array.isArray(js.type)) for (const t of js.type) out.add(t);
  if (js.enum) for (const v of js.enum) out.add(v === null ? 'null' : typeof v);
  if (js.const !== undefined) out.add(js.const === null ? 'null' : typeof js.const);
  for (const alt of [...(js.anyOf ?? []), ...(js.oneOf ?? [])]) for (const t of typesOf(alt)) out.add(t);
  return out;
}

/** A value of a type the field does not take (scalar fields get a different scalar). */
export function wrongScalar(js: JsonSchema): unknown {
  const t = typesOf(js);
  if (t.has('object')) return ['not', 'an', 'object'];
  if (t.has('array')) return { not: 'a list' };
  if (t.has('string')) return t.has('number') || t.has('integer') ? true : 12345;
  if (t.has('number') || t.has('integer')) return 'abc';
  if (t.has('boolean')) return 'maybe';
  return { unexpected: [1, 2, 3] };
}

/** A structured value where the field wants something else (objects/arrays get their inner junk). */
export function wrongStructured(js: JsonSchema): unknown {
  const t = typesOf(js);
  if (t.has('array')) return [{ x: 1 }, null, 'x', -1, [[]]];
  if (t.has('object')) return { unknown_key: [1], nested: { a: null } };
  return { unexpected: [1, 2, 3] };
}

type Flavor = 'edge' | 'minimal';

/**
 * A body that passes (or nearly passes) the schema, with edge-case contents, so handlers run
 * past validation: `edge` fills every property with awkward but well-typed values (strings
 * like `constructor`, bounds, unknown ids); `minimal` sends required properties only, empty.
 */
export function plausible(
  js: JsonSchema & Record<string, unknown>,
  key: string,
  flavor: Flavor,
  ids: Record<string, string>,
  depth = 0,
): unknown {
  if (depth > 6) return null;
  const alts = (js.anyOf ?? js.oneOf ?? []) as Array<JsonSchema & Record<string, unknown>>;
  if (alts.length > 0) {
    const pick = alts.find((a) => a.type !== 'null') ?? alts[0];
    return pick ? plausible(pick, key, flavor, ids, depth + 1) : null;
  }
  if (js.enum && js.enum.length > 0) return flavor === 'edge' ? js.enum[js.enum.length - 1] : js.enum[0];
  if (js.const !== undefined) return js.const;
  const type = Array.isArray(js.type) ? js.type.find((t) => t !== 'null') : js.type;
  switch (type) {
    case 'string': {
      if (js.format === 'uuid') return ids[key] ?? (key.endsWith('user_id') ? ids.user_id : undefined) ?? UNKNOWN_ID;
      if (js.format === 'date') return flavor === 'edge' ? '2024-02-29' : '2026-01-05';
      if (js.format === 'date-time') return flavor === 'edge' ? '1970-01-01T00:00:00Z' : '2026-01-05T09:00:00Z';
      if (js.format === 'email') return 'fuzz@example.com';
      if (js.format === 'uri' || /url/.test(key)) return flavor === 'edge' ? 'https://[::1]:0/a?b#c' : 'https://example.com/';
      const min = typeof js.minLength === 'number' ? js.minLength : 0;
      return flavor === 'edge' ? 'constructor'.padEnd(min, 'x') : 'x'.repeat(min);
    }
    case 'integer':
    case 'number': {
      const max = typeof js.maximum === 'number' && js.maximum < Number.MAX_SAFE_INTEGER ? js.maximum : undefined;
      const min = typeof js.minimum === 'number' && js.minimum > Number.MIN_SAFE_INTEGER ? js.minimum : undefined;
      return flavor === 'edge' ? (max ?? 2_147_483_647) : (min ?? 0);
    }
    case 'boolean':
      return flavor === 'edge';
    case 'array': {
      if (flavor === 'minimal') return [];
      const items = (js.items ?? {}) as JsonSchema & Record<string, unknown>;
      return [plausible(items, key, flavor, ids, depth + 1), plausible(items, key, flavor, ids, depth + 1)];
    }
    case 'object': {
      const props = (js.properties ?? {}) as Record<string, JsonSchema & Record<string, unknown>>;
      const required = new Set((js.required ?? []) as string[]);
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(props))
        if (flavor === 'edge' || required.has(k)) out[k] = plausible(v, k, flavor, ids, depth + 1);
      if (Object.keys(props).length === 0 && flavor === 'edge') Object.assign(out, { constructor: 'x', toString: 'y', 'x-fuzz': 'z' });
      return out;
    }
    default:
      return flavor === 'edge' ? { constructor: [1] } : null;
  }
}

// ---- the world a variant runs against ----

/** One refused connection for every delivery (the attempt log records its message and cause): no stack captured per attempt. */
const REFUSED = new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });

/** Every delivery fails at once, as a refused connection: the same attempt log on every adapter and in every run. */
export const refusedDelivery: WebhookTransport = () => Promise.reject(REFUSED);

/** A fixed wall clock (signature timestamps are wall time), parsed once: the sandbox reads it on every request. */
const WALL = Date.parse('2026-01-05T09:00:00Z');
export const fixedWall = (): number => WALL;

/** The ids a robustness variant starts from (`routeParams` with the background jobs). */
export interface Baseline {
  params: Record<string, string>;
}

/** `hookUrl`: where the baseline's webhook endpoint points (parity uses a refused loopback port). */
export async function baselineOf(c: TestClient, hookUrl = 'https://example.com/fuzz-hook'): Promise<Baseline> {
  return { params: await routeParams(c, { hookUrl, jobs: true }) };
}

/** Routes whose good-parameter variants would wreck the shared world: each runs on its own sandbox. */
export function destructive(route: Route): boolean {
  if (route.method === 'DELETE' || route.id === 'sandbox.reset') return true;
  // Updates of keys, teams, orgs, plans and beta flags could lock the shared world out.
  return (route.method === 'PATCH' || route.method === 'PUT') && route.auth !== 'team';
}

/** A cheap fingerprint of what a request can create: minted ids, events, pending jobs, the world itself. */
export function fingerprint(world: World): string {
  const counters = (world.ids as unknown as { counters: Map<string, number> }).counters;
  // Counters only count up, one per id minted: their count and sum change with any id minted.
  let minted = 0;
  for (const n of counters.values()) minted += n;
  return `${counters.size} ${minted} ${world.events.size} ${world.events.dropped} ${world.scheduler.pending()}`;
}
