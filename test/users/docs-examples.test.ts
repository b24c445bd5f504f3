/**
 * The `/docs` page's "try it out" examples are accepted (issue 31): every `example` the OpenAPI
 * documents the sandbox generates carry for a request parameter or body field is put, all at
 * once as the page does, into a request that otherwise succeeds (test/support/valid-requests.ts),
 * and sent: no answer may be a 422, nor a 400 that names the example's value. Also, the summary
 * of `POST /v2/user` says what it does (a duplicate answers 400, so it is not idempotent).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Route } from '../../src/engine/route.js';
import { ROUTES } from '../../src/routes.js';
import { buildOpenApiDocument, DOCUMENT_KINDS } from '../../src/wire/openapi.js';
import { createClient, type CallOptions, type TestClient } from '../support/client.js';
import { destructive } from '../support/route-requests.js';
import { operationKey, routeIds, validRequest } from '../support/valid-requests.js';

type Json = Record<string, any>;

/** The example of a schema (looking through anyOf / oneOf, as `nullish` wraps it). */
function exampleOf(schema: Json | undefined): { value: unknown } | undefined {
  if (!schema || typeof schema !== 'object') return undefined;
  if ('example' in schema) return { value: schema.example };
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return { value: schema.examples[0] };
  for (const alt of [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]) {
    const found = exampleOf(alt);
    if (found) return found;
  }
  return undefined;
}

/** Body fields with examples, by their path of keys (objects only, as the page fills them). */
function bodyExamples(schema: Json | undefined, at: string[] = []): Array<{ at: string[]; value: unknown }> {
  if (!schema || typeof schema !== 'object') return [];
  const own = at.length > 0 ? exampleOf(schema) : undefined;
  if (own) return [{ at, value: own.value }];
  const out: Array<{ at: string[]; value: unknown }> = [];
  for (const [key, prop] of Object.entries((schema.properties ?? {}) as Record<string, Json>))
    out.push(...bodyExamples(prop, [...at, key]));
  for (const alt of [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]) if (out.length === 0) out.push(...bodyExamples(alt, at));
  return out;
}

interface Documented {
  route: Route;
  query: Record<string, unknown>;
  body: Array<{ at: string[]; value: unknown }>;
}

function documentedExamples(): Documented[] {
  const byKey = new Map(ROUTES.map((r) => [operationKey(r), r]));
  const out: Documented[] = [];
  for (const kind of DOCUMENT_KINDS) {
    const doc = buildOpenApiDocument(ROUTES, kind, 'http://127.0.0.1:4250') as Json;
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Json>)) {
      for (const [method, op] of Object.entries(ops)) {
        const route = byKey.get(`${method.toUpperCase()} ${path}`);
        if (!route) continue;
        const query: Record<string, unknown> = {};
        for (const p of (op.parameters ?? []) as Json[]) {
          const ex = 'example' in p ? { value: p.example } : exampleOf(p.schema);
          if (ex && p.in === 'query') query[p.name] = ex.value;
        }
        const body = bodyExamples(op.requestBody?.content?.['application/json']?.schema);
        if (Object.keys(query).length > 0 || body.length > 0) out.push({ route, query, body });
      }
    }
  }
  return out;
}

function withExamples(options: CallOptions, d: Documented): CallOptions {
  const query = { ...options.query } as Record<string, string | number | boolean | Array<string | number>>;
  for (const [k, v] of Object.entries(d.query)) query[k] = v as string;
  let body = options.body;
  if (d.body.length > 0) {
    body = structuredClone(typeof body === 'object' && body !== null ? body : {});
    for (const { at, value } of d.body) {
      let target = body as Json;
      for (const key of at.slice(0, -1)) target = target[key] && typeof target[key] === 'object' ? target[key] : (target[key] = {});
      target[at.at(-1) as string] = value;
    }
  }
  return { ...options, query, body };
}

describe('the /docs examples are accepted by the sandbox', () => {
  const documented = documentedExamples();
  let c: TestClient;
  let ids: Record<string, string>;
  beforeAll(async () => {
    c = createClient('express', { seed: 340, users: 2, usersElsewhere: 1, feed: 'off' });
    ids = await routeIds(c);
  });

  it('carries examples for dates and time zones (the fields the page used to fill with "string" and the year 8804)', () => {
    const values = documented.flatMap((d) => [...Object.values(d.query), ...d.body.map((b) => b.value)]);
    expect(values.length).toBeGreaterThan(50);
    expect(values).not.toContain('string');
    for (const v of values) if (typeof v === 'string' && /^\d{4}-/.test(v)) expect(v.slice(0, 4)).toBe('2026');
    const create = documented.find((d) => d.route.id === 'users.create');
    expect(create?.body.map((b) => b.at.join('.'))).toEqual(
      expect.arrayContaining(['fallback_time_zone', 'fallback_birth_date', 'ingestion_start', 'ingestion_end']),
    );
  });

  it('sends every documented example: no 422, no 400 about the example', async () => {
    const refused: string[] = [];
    let serial = 0;
    for (const d of documented) {
      if (destructive(d.route)) continue;
      const valid = await validRequest(c, d.route, ids, ++serial);
      const sent = withExamples(valid.options, d);
      // a new user needs a client_user_id of its own
      if (d.route.id === 'users.create') (sent.body as Json).client_user_id = `docs-example-${serial}`;
      const res = await c.call(d.route.method, valid.path, sent);
      const examples = [...Object.values(d.query), ...d.body.map((b) => b.value)].map(String);
      if (res.status === 422 || (res.status === 400 && examples.some((v) => res.text.includes(v))))
        refused.push(`${d.route.id} ${res.status} ${res.text.slice(0, 200)}`);
    }
    expect(refused).toEqual([]);
  });

  it('says in the summary of POST /v2/user that it is not idempotent', () => {
    const route = ROUTES.find((r) => r.id === 'users.create');
    expect(route?.summary).toMatch(/not idempotent/i);
    expect(route?.summary).toMatch(/400/);
  });
});
