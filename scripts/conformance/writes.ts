/**
 * Requests for the live check of every operation, writes included: a body built from the route's
 * own zod body schema (required fields, filled with the seeded world's real ids and well-formed
 * values named by key), and the order operations run in so that reads see the world before any
 * write and destructive writes (PUT/PATCH, then DELETE) run last. Node-only, no vitest.
 */
import { z } from 'zod';
import type { Route } from '../../src/engine/route.js';
import { PATIENT, ADDRESS } from '../../test/support/route-params.js';

type Js = Record<string, any>;

/** Values by field name, tried before the type-driven default. */
function named(key: string, ids: Record<string, string>, serial: number): unknown {
  switch (key) {
    case 'patient_details':
      return PATIENT;
    case 'patient_address':
      return ADDRESS;
    case 'client_user_id':
      return `conformance-user-${serial}`;
    case 'url':
      return 'https://example.com/conformance-hook';
    case 'email':
      return `conformance-${serial}@example.com`;
    case 'provider':
      return ids['provider'];
    case 'phone_number':
      return '+14155551234';
    case 'zip_code':
    case 'zip':
      return '78701';
    case 'state':
      return 'TX';
    case 'country':
      return 'US';
    case 'domain':
      return `conformance${serial}.example.com`;
    case 'team_ids':
      return [ids['team_id']];
    case 'provider_ids':
      return [ids['provider_id']];
    case 'slug':
      return `conformance-${serial}`;
    case 'name':
    case 'title':
      return `Conformance ${serial}`;
    default:
      return ids[key];
  }
}

/** A body that satisfies the schema, filled with the world's ids where the key names one. */
export function bodyFrom(js: Js, key: string, ids: Record<string, string>, serial: number, depth = 0): unknown {
  if (depth > 8) return null;
  const byName = key ? named(key, ids, serial) : undefined;
  if (byName !== undefined && !js['enum'] && js['const'] === undefined) return byName;
  const alts = (js['anyOf'] ?? js['oneOf'] ?? []) as Js[];
  if (alts.length > 0) {
    const pick = alts.find((a) => a['type'] !== 'null') ?? alts[0];
    return pick ? bodyFrom(pick, key, ids, serial, depth + 1) : null;
  }
  if (Array.isArray(js['enum']) && js['enum'].length > 0) return js['enum'][0];
  if (js['const'] !== undefined) return js['const'];
  const type = Array.isArray(js['type']) ? js['type'].find((t: string) => t !== 'null') : js['type'];
  switch (type) {
    case 'string': {
      if (js['format'] === 'uuid')
        return ids[key] ?? (key.endsWith('user_id') ? ids['user_id'] : undefined) ?? '6f1c1c1e-0000-4000-8000-000000000000';
      if (js['format'] === 'date') return '2026-01-05';
      if (js['format'] === 'date-time') return '2026-01-05T09:00:00Z';
      if (js['format'] === 'email') return `conformance-${serial}@example.com`;
      if (js['format'] === 'uri' || /url/.test(key)) return 'https://example.com/';
      const min = typeof js['minLength'] === 'number' ? js['minLength'] : 1;
      const max = typeof js['maxLength'] === 'number' ? js['maxLength'] : 64;
      return 'conformance'.padEnd(min, 'x').slice(0, Math.max(min, Math.min(max, 11)));
    }
    case 'integer':
    case 'number':
      return typeof js['minimum'] === 'number' && js['minimum'] > Number.MIN_SAFE_INTEGER ? Math.max(js['minimum'], 1) : 1;
    case 'boolean':
      return false;
    case 'array': {
      const min = typeof js['minItems'] === 'number' ? js['minItems'] : 0;
      return Array.from({ length: min }, () => bodyFrom((js['items'] ?? {}) as Js, key, ids, serial, depth + 1));
    }
    case 'object': {
      const props = (js['properties'] ?? {}) as Record<string, Js>;
      const required = new Set((js['required'] ?? []) as string[]);
      const out: Record<string, unknown> = {};
      // Required fields, and optional ones that name a world id (user, lab test, team, ...).
      for (const [k, v] of Object.entries(props))
        if (required.has(k) || (ids[k] !== undefined && k !== 'provider' && k !== 'name')) out[k] = bodyFrom(v, k, ids, serial, depth + 1);
      return out;
    }
    default:
      return null;
  }
}

const encoder = new TextEncoder();

/** The body and extra headers of a write, or nothing for a route without a body. */
export function requestBody(
  route: Route,
  ids: Record<string, string>,
  serial: number,
): { body?: unknown; headers: Record<string, string> } {
  const headers: Record<string, string> = { 'x-idempotency-key': `conformance-${serial}` };
  const schema = route.request.body;
  if (!schema) return { headers };
  if (route.request.bodyKind === 'form') {
    const boundary = `conformance-${serial}`;
    const raw = encoder.encode(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="r.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.7 conformance\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="user_id"\r\n\r\n${ids['user_id'] ?? ''}\r\n--${boundary}--\r\n`,
    );
    return { body: new TextDecoder().decode(raw), headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` } };
  }
  return { body: bodyFrom(jsonSchemaOf(schema), '', ids, serial), headers };
}

/**
 * The JSON Schema (input side) of a route's zod schema, made once per schema (the route-table
 * tests build each route's requests on four transports); `{}` for one zod cannot convert.
 */
const jsonSchemas = new WeakMap<z.ZodType, Js>();

export function jsonSchemaOf(schema: z.ZodType): Js {
  let js = jsonSchemas.get(schema);
  if (!js) {
    try {
      js = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Js;
    } catch {
      js = {};
    }
    jsonSchemas.set(schema, js);
  }
  return js;
}

/** Run order: reads, then creations, then updates, then deletions (each group in document order). */
export function phaseOf(method: string): number {
  return { GET: 0, POST: 1, PUT: 2, PATCH: 2, DELETE: 3 }[method.toUpperCase()] ?? 4;
}

/** Deletions that would lock the rest of the run out (the management key, the team) run last. */
export function lastOf(path: string): number {
  if (/management_key/.test(path)) return 2;
  if (/^\/v1\/org\/\{org_id\}\/team\/\{team_id\}$/.test(path)) return 1;
  return 0;
}
