/**
 * Conformance against the real service's OpenAPI documents (`../shared/reference/openapi/`):
 * for every operation of the data and management documents, whether the sandbox serves it,
 * whether its parameters agree (names, required, enums, bounds), and whether live answers from
 * a seeded world validate against the real response schema, read leniently and strictly (no
 * undeclared fields). Node-only (reads files); used by `npm run conformance` and the tests.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import type { Route } from '../../src/engine/route.js';
import { surfaceOf } from '../../src/engine/router.js';
import { ROUTES } from '../../src/routes.js';
import { createSandbox } from '../../src/sandbox.js';
import { dispatchClient } from './dispatch-client.js';
import { ARRANGE } from './arrange.js';
import { extraParams, OVERRIDES, type Override } from './overrides.js';
import { lastOf, phaseOf } from './writes.js';
import { routeParams } from '../../test/support/route-params.js';
import { idsFor, mergeOverride, requestOf } from '../../test/support/valid-requests.js';
import type { TestResponse } from '../../test/support/client.js';
import { refusedDelivery } from '../../test/support/route-requests.js';
import { documentSchemas, type DocumentSchemas } from '../../test/support/ajv-formats.js';

export type DocName = 'data' | 'management';
const FILES: Record<DocName, string> = { data: 'data-api.openapi.json', management: 'management-api.openapi.json' };
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

export interface LiveCheck {
  status: number;
  /** Whether a response schema is declared for that status. */
  declared: boolean;
  valid: boolean;
  strictValid: boolean;
  errors: string[];
  /** For a non-2xx answer: why the operation could not be checked on a success (the error's detail). */
  reason?: string;
}

export interface OperationReport {
  doc: DocName;
  method: string;
  path: string;
  operationId: string;
  tag: string;
  routeId: string | null;
  parameterMismatches: string[];
  live: LiveCheck | null;
  /**
   * For an operation whose success needs a precondition (`arrange.ts`): the same request checked
   * before it was arranged, on its error answer (status and error shape).
   */
  errorLive: LiveCheck | null;
}

export interface ConformanceReport {
  operations: OperationReport[];
  /** Routes the sandbox serves on the real surfaces that neither document has. */
  extraRoutes: string[];
  totals: {
    operations: number;
    served: number;
    checkedLive: number;
    succeeded: number;
    schemaValid: number;
    strictValid: number;
    parameterMismatches: number;
    errorChecked: number;
  };
}

type Json = Record<string, any>;

const keyOf = (method: string, surface: string, path: string) =>
  `${method.toUpperCase()} ${surface} ${path.replace(/\{[^}]+\}|:[a-z_]+/g, '{}').replace(/\/+$/, '')}`;

type Loaded = DocumentSchemas;

/** The document's validators: compiled once per process, shared with the tests' (test/support/ajv-formats.ts). */
function load(dir: string, name: DocName): Loaded {
  return documentSchemas(resolve(dir, FILES[name]));
}

const escape = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

/** Compares the document's query and path parameters with the route's zod schemas. */
function compareParameters(op: Json, route: Route): string[] {
  const out: string[] = [];
  const docQuery = ((op['parameters'] ?? []) as Json[]).filter((p) => p['in'] === 'query');
  const ours = route.request.query
    ? (z.toJSONSchema(route.request.query, { io: 'input', unrepresentable: 'any' }) as Json)
    : { properties: {}, required: [] };
  const props = (ours['properties'] ?? {}) as Json;
  const required = new Set<string>((ours['required'] ?? []) as string[]);
  for (const p of docQuery) {
    const name = p['name'] as string;
    const mine = props[name] as Json | undefined;
    if (!mine) {
      out.push(`query ${name}: not accepted`);
      continue;
    }
    if (Boolean(p['required']) !== required.has(name))
      out.push(`query ${name}: required ${Boolean(p['required'])} in the document, ${required.has(name)} here`);
    const theirs = flatten(p['schema'] as Json);
    const here = flatten(mine);
    if (theirs.enum && here.enum && [...theirs.enum].sort().join() !== [...here.enum].sort().join())
      out.push(`query ${name}: enum differs`);
    for (const bound of ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'] as const) {
      if (theirs[bound] !== undefined && here[bound] !== undefined && theirs[bound] !== here[bound])
        out.push(`query ${name}: ${bound} ${theirs[bound]} in the document, ${here[bound]} here`);
    }
  }
  const docNames = new Set(docQuery.map((p) => p['name'] as string));
  for (const name of Object.keys(props)) if (!docNames.has(name)) out.push(`query ${name}: accepted here, not in the document`);
  return out;
}

/** The enum and numeric bounds of a schema, looking through anyOf with null and arrays. */
function flatten(schema: Json | undefined): {
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
} {
  if (!schema) return {};
  const alt = ((schema['anyOf'] ?? schema['oneOf'] ?? []) as Json[]).find((s) => s['type'] !== 'null');
  if (alt) return flatten(alt);
  if (schema['type'] === 'array') return flatten(schema['items'] as Json);
  return {
    enum: schema['enum'] as unknown[] | undefined,
    minimum: schema['minimum'],
    maximum: schema['maximum'],
    exclusiveMinimum: schema['exclusiveMinimum'],
    exclusiveMaximum: schema['exclusiveMaximum'],
  };
}

/** An operation of a reference document, the route serving it, and the client calling it. */
interface Operation {
  client: ReturnType<typeof dispatchClient>;
  loaded: Loaded;
  docPath: string;
  method: string;
  route: Route;
}

/** The first call (and, for an arranged operation, the success call after its precondition). */
async function liveCheck(
  op: Operation,
  params: Record<string, string>,
  serial: number,
): Promise<{ live: LiveCheck; errorLive: LiveCheck | null }> {
  const { client, docPath, method, route } = op;
  const key = `${method.toUpperCase()} ${docPath}`;
  const ids = await idsFor(client, route, params);
  const extra = (await OVERRIDES[key]?.(ids, serial, client)) ?? {};
  const first = await callAndJudge(op, { base: ids, extra, serial, idempotencyKey: `conformance-${serial}` });
  const arrange = ARRANGE[key];
  if (!arrange) return { live: first, errorLive: null };
  // The plain request stays checked on its error answer; the precondition then makes it succeed.
  const merged = mergeOverride(extra, await arrange({ ...ids, ...extra.params }, serial, client));
  return {
    live: await callAndJudge(op, { base: ids, extra: merged, serial, idempotencyKey: `conformance-${serial}-arranged` }),
    errorLive: first,
  };
}

/** What one call of an operation sends: the ids, the override's pieces, its serial and idempotency key. */
interface CallParts {
  base: Record<string, string>;
  extra: Override;
  serial: number;
  idempotencyKey: string;
}

async function callAndJudge(
  { client, loaded, docPath, method, route }: Operation,
  { base, extra, serial, idempotencyKey }: CallParts,
): Promise<LiveCheck> {
  const request = requestOf(route, base, extra, serial, idempotencyKey);
  const res = await client.call(route.method, request.path, request.options);
  const reason =
    res.status >= 300
      ? `${res.status}: ${typeof res.body === 'object' ? JSON.stringify((res.body as Json)?.['detail'] ?? res.body).slice(0, 160) : res.text.slice(0, 160)}`
      : undefined;
  const check = await judge(loaded, docPath, method, res);
  if (!reason) return check;
  // An error answer carries the house error body: `{detail}` (a text, or FastAPI's items on a 422).
  const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
  const detail = isObj(res.body) ? res.body['detail'] : undefined;
  const shaped = typeof detail === 'string' || (Array.isArray(detail) && detail.length > 0);
  return shaped
    ? { ...check, reason }
    : { ...check, valid: false, strictValid: false, errors: [...check.errors, 'error answer without a `detail`'], reason };
}

async function judge(loaded: Loaded, docPath: string, method: string, res: TestResponse): Promise<LiveCheck> {
  const op = loaded.doc['paths'][docPath][method] as Json;
  const status = String(res.status);
  const declaredContent = (op['responses']?.[status]?.['content'] ?? {}) as Json;
  const contentType = (res.headers['content-type'] ?? '').split(';')[0]?.trim() ?? '';
  if (
    res.status < 400 &&
    contentType &&
    !contentType.includes('json') &&
    Object.keys(declaredContent).length > 0 &&
    !(contentType in declaredContent)
  ) {
    return {
      status: res.status,
      declared: true,
      valid: false,
      strictValid: false,
      errors: [`content type ${contentType} is not declared (${Object.keys(declaredContent).join(', ')})`],
    };
  }
  const content = declaredContent['application/json'];
  if (!content?.['schema'] || !contentType.includes('json')) {
    // FastAPI documents list 200 and 422 only: an undeclared error status (404 for an order
    // without results yet) is not drift; an undeclared success status is.
    const declared = Boolean(op['responses']?.[status]);
    const ok = declared || res.status >= 400;
    return { status: res.status, declared, valid: ok, strictValid: ok, errors: ok ? [] : [`status ${status} is not declared`] };
  }
  const pointer = `/paths/${escape(docPath)}/${method}/responses/${status}/content/${escape('application/json')}/schema`;
  const strict = loaded.strict(pointer);
  const strictValid = strict(res.body) as boolean;
  // Strictly valid implies leniently valid when nothing in the schema passes on a failing part:
  // then the lenient reading is compiled only for the answers the strict one refuses.
  const lenient = strictValid && implied(loaded.doc, pointer) ? null : loaded.lenient(pointer);
  const valid = lenient ? (lenient(res.body) as boolean) : true;
  const errors = [...(lenient?.errors ?? []), ...(valid ? (strict.errors ?? []) : [])]
    .slice(0, 5)
    .map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
  return { status: res.status, declared: true, valid, strictValid, errors };
}

/**
 * Keywords under which a part that fails can make the whole pass (`not`, `oneOf` when one of two
 * matches fails, `if`, a `contains` bounded by `maxContains`): elsewhere a stricter part only
 * refuses more, so an answer valid read strictly is valid read leniently.
 */
const NOT_MONOTONE = new Set(['not', 'oneOf', 'if', 'contains', '$dynamicRef']);
const impliedAt = new Map<Json, Map<string, boolean>>();

/** Whether the schema at `pointer` (through its `$ref`s) has none of NOT_MONOTONE. */
function implied(doc: Json, pointer: string): boolean {
  let known = impliedAt.get(doc);
  if (!known) impliedAt.set(doc, (known = new Map()));
  const cached = known.get(pointer);
  if (cached !== undefined) return cached;
  const seen = new Set<string>();
  const at = (p: string): unknown =>
    p
      .split('/')
      .slice(1)
      .reduce<unknown>((node, key) => (node as Json | undefined)?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
  const clean = (node: unknown): boolean => {
    if (Array.isArray(node)) return node.every(clean);
    if (node === null || typeof node !== 'object') return true;
    for (const [k, v] of Object.entries(node as Json)) {
      if (NOT_MONOTONE.has(k)) return false;
      if (k === '$ref' && typeof v === 'string') {
        if (!v.startsWith('#/')) return false;
        if (seen.has(v)) continue;
        seen.add(v);
        if (!clean(at(v.slice(1)))) return false;
      } else if (!clean(v)) return false;
    }
    return true;
  };
  const result = clean(at(pointer));
  known.set(pointer, result);
  return result;
}

/** The full report, or null when the reference documents are absent. */
export async function conformanceReport(openapiDir: string): Promise<ConformanceReport | null> {
  if (!existsSync(resolve(openapiDir, FILES.data))) return null;
  const byKey = new Map<string, Route>();
  for (const r of ROUTES) if (!r.path.startsWith('/_sandbox')) byKey.set(keyOf(r.method, surfaceOf(r), r.path), r);
  const sandbox = createSandbox({
    seed: 5,
    users: 1,
    usersElsewhere: 0,
    logger: () => undefined,
    wallClock: () => Date.parse('2026-01-05T09:00:00Z'),
    // No server: its webhook endpoint points at its own unserved base URL. Every delivery fails
    // at once as a refused connection, without a network round trip (or a stranger's answer).
    webhookTransport: refusedDelivery,
  });
  const client = dispatchClient(sandbox);
  const base = await routeParams(client);
  const params = { ...base, ...(await extraParams(client, base)) };
  const operations: OperationReport[] = [];
  const pending: Array<{ report: OperationReport; loaded: Loaded; docPath: string; method: string; route: Route }> = [];
  const matched = new Set<Route>();
  for (const name of ['data', 'management'] as const) {
    const loaded = load(openapiDir, name);
    for (const [docPath, item] of Object.entries(loaded.doc['paths'] as Json)) {
      for (const method of METHODS) {
        const op = (item as Json)[method] as Json | undefined;
        if (!op) continue;
        const route = byKey.get(keyOf(method, name, docPath)) ?? null;
        if (route) matched.add(route);
        const report: OperationReport = {
          doc: name,
          method: method.toUpperCase(),
          path: docPath,
          operationId: String(op['operationId'] ?? ''),
          tag: String((op['tags'] as string[] | undefined)?.[0] ?? ''),
          routeId: route?.id ?? null,
          parameterMismatches: route ? compareParameters(op, route) : [],
          live: null,
          errorLive: null,
        };
        operations.push(report);
        if (route) pending.push({ report, loaded, docPath, method, route });
      }
    }
  }
  // Reads first, against the untouched world; then creations, updates, deletions. Within a
  // phase, operations that arrange a precondition run after the others (but before the
  // deletions that lock the run out).
  const arranged = (p: { method: string; docPath: string }) => (`${p.method.toUpperCase()} ${p.docPath}` in ARRANGE ? 1 : 0);
  pending.sort((a, b) => phaseOf(a.method) - phaseOf(b.method) || lastOf(a.docPath) - lastOf(b.docPath) || arranged(a) - arranged(b));
  let serial = 0;
  for (const p of pending) {
    const checked = await liveCheck({ client, loaded: p.loaded, docPath: p.docPath, method: p.method, route: p.route }, params, serial++);
    p.report.live = checked.live;
    p.report.errorLive = checked.errorLive;
  }
  const extraRoutes = ROUTES.filter((r) => !r.path.startsWith('/_sandbox') && !matched.has(r)).map(
    (r) => `${r.method} ${r.path} (${r.id})`,
  );
  const served = operations.filter((o) => o.routeId);
  const live = served.filter((o) => o.live);
  return {
    operations,
    extraRoutes,
    totals: {
      operations: operations.length,
      served: served.length,
      checkedLive: live.length,
      succeeded: live.filter((o) => (o.live?.status ?? 0) < 300).length,
      schemaValid: live.filter((o) => o.live?.valid).length,
      strictValid: live.filter((o) => o.live?.strictValid).length,
      parameterMismatches: served.reduce((n, o) => n + o.parameterMismatches.length, 0),
      errorChecked: served.filter((o) => o.errorLive).length,
    },
  };
}
