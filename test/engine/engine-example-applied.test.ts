/**
 * docs/ENGINE.md's worked example ("Adding an endpoint"), applied and checked in process, fast
 * enough for `npm test`: its pieces (docs/engine-example/) are laid into a scratch copy of the
 * files the page names (the domain function as a new file, the import and the route entry into a
 * copy of src/handlers/labs/order-actions.ts, the way scripts/check-engine-example.sh does), each
 * relative import pointed where it resolves from its place in src/; the copy is imported and its
 * new route added to the route table of a sandbox. Then the route-table checks run on that route
 * alone: the generated valid request (the one parameter builder, test/support/route-params.ts)
 * answers 2xx, byte-identical on express and msw and matching its declared schema; invalid
 * requests answer declared 4xx; the GET changes no state; the OpenAPI document lists it. The type
 * check of the pieces is `tsc -b tsconfig.json` (they compile in place through `rootDirs`);
 * scripts/check-engine-example.sh (CI, `HEALTH_SANDBOX_SLOW_TESTS=1`) runs the full suites on a copy.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatch } from '../../src/engine/dispatch.js';
import type { Route } from '../../src/engine/route.js';
import { Router } from '../../src/engine/router.js';
import { orderActionRoutes } from '../../src/handlers/labs/order-actions.js';
import { ROUTES } from '../../src/routes.js';
import { routeResponses } from '../../src/wire/engine.js';
import { buildOpenApiDocument } from '../../src/wire/openapi.js';
import { type AnyAdapter, createClient, type TestClient, type TestResponse } from '../support/client.js';
import { PARAM_VALUES, routeParams, UNKNOWN_ID } from '../support/route-params.js';
import { validRequest } from '../support/valid-requests.js';
import { changedParts, exportOf, partsOf } from '../support/world-state.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const EX = 'docs/engine-example';
const TARGET = 'src/handlers/labs/order-actions.ts';
const read = (path: string) => readFileSync(join(root, path), 'utf8');

/** The lines between `// #region <name>` and the next `// #endregion`. */
function region(path: string, name: string): string {
  const lines = read(path).split('\n');
  const from = lines.findIndex((l) => l.trim() === `// #region ${name}`);
  const to = lines.findIndex((l, i) => i > from && l.trim() === '// #endregion');
  if (from < 0 || to < 0) throw new Error(`${path}: no region ${name}`);
  return lines.slice(from + 1, to).join('\n');
}

/** The import and the route entry laid into the target file: the import after its last import, the entry first in the list. */
function applied(target: string, importLine: string, entry: string): string {
  const lines = target.split('\n');
  const lastImport = lines.reduce((last, l, i) => (l.startsWith('import ') ? i : last), -1);
  const list = lines.findIndex((l) => /^export const orderActionRoutes = \[/.test(l));
  expect(list, `${TARGET} has no orderActionRoutes list`).toBeGreaterThan(lastImport);
  return [...lines.slice(0, lastImport + 1), importLine, ...lines.slice(lastImport + 1, list + 1), entry, ...lines.slice(list + 1)].join(
    '\n',
  );
}

/** `source` as if at `at` (a repository path) but written in the scratch folder: relative imports point into the repository, or the scratch copies. */
function relocated(source: string, at: string, scratch: string, copies: Set<string>): string {
  return source.replace(/(from\s+')(\.{1,2}\/[^']+)\.js'/g, (_m, lead: string, spec: string) => {
    const path = join(dirname(at), `${spec}.ts`);
    return `${lead}${pathToFileURL(copies.has(path) ? join(scratch, path) : join(root, path)).href}'`;
  });
}

let scratch = '';
let route: Route;
let appliedRoutes = 0;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'engine-example-'));
  const domainAt = 'src/state/labs/order-by-sample.ts';
  const copies = new Set([domainAt, TARGET]);
  const files: Record<string, string> = {
    [domainAt]: region(`${EX}/${domainAt}`, 'domain'),
    [TARGET]: applied(
      read(TARGET),
      region(`${EX}/src/handlers/labs/order-by-sample-route.ts`, 'import'),
      region(`${EX}/src/handlers/labs/order-by-sample-route.ts`, 'route'),
    ),
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(scratch, path)), { recursive: true });
    writeFileSync(join(scratch, path), relocated(text, path, scratch, copies));
  }
  const mod = (await import(pathToFileURL(resolve(scratch, TARGET)).href)) as { orderActionRoutes: Route[] };
  appliedRoutes = mod.orderActionRoutes.length;
  route = mod.orderActionRoutes.find((r) => r.id === 'orders.by_sample') as Route;
});

afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** A client whose sandbox serves the route table with the example's route added (the rest of dispatch as it is). */
function clientWithExample(adapter: AnyAdapter): TestClient {
  const c = createClient(adapter, { seed: 4, users: 1, usersElsewhere: 0, feed: 'off' });
  const router = new Router([...ROUTES, route]);
  const own = c.sandbox.dispatch.bind(c.sandbox);
  const env = {
    get world() {
      return c.sandbox.world;
    },
    router,
    adminToken: undefined,
    reset: () => undefined,
  };
  c.sandbox.dispatch = (req) => (route && req.path.startsWith('/v3/order/sample/') ? dispatch(env, req) : own(req));
  return c;
}

/** The answer matches what the route declares for its status. */
function declared(res: TestResponse): string[] {
  const spec = routeResponses(route)[String(res.status)];
  if (!spec) return [`status ${res.status} not declared`];
  const parsed = spec.schema?.safeParse(JSON.parse(res.text));
  return parsed && !parsed.success ? parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.')}: ${i.message}`) : [];
}

describe('the worked example of docs/ENGINE.md, applied', () => {
  it('lays into order-actions.ts with its one import: the file has every other name the entry uses', () => {
    expect(route, 'the applied order-actions.ts has no route orders.by_sample').toBeDefined();
    expect(appliedRoutes).toBe(orderActionRoutes.length + 1);
    // Its path parameter is one the route-table tests know (else: one line in PARAM_VALUES).
    for (const name of route.path.matchAll(/:([a-z_]+)/g)) expect(PARAM_VALUES, `${name[1]}`).toHaveProperty(name[1] as string);
  });

  it('its generated valid request answers 200, byte-identical on express and msw, as declared; a GET that changes nothing', async () => {
    const answers: string[] = [];
    for (const adapter of ['express', 'msw'] as const) {
      const c = clientWithExample(adapter);
      const request = await validRequest(c, route, await routeParams(c), 0);
      expect(request.path).not.toContain(UNKNOWN_ID);
      const before = exportOf(c.sandbox.world);
      const res = await c.get(request.path, request.options);
      expect(res.status, res.text.slice(0, 200)).toBe(200);
      expect(declared(res)).toEqual([]);
      const after = exportOf(c.sandbox.world);
      expect(after === before ? [] : changedParts(partsOf(before), partsOf(after))).toEqual([]);
      answers.push(`${res.status} ${res.headers['content-type']} ${res.text.split(c.sandbox.world.urls.base).join('<base>')}`);
    }
    expect(new Set(answers).size).toBe(1);
  });

  it('invalid requests answer declared 4xx: an unknown sample id 404, a too-long one 422', async () => {
    const c = clientWithExample('fetch');
    const unknown = await c.get(`/v3/order/sample/${UNKNOWN_ID}`);
    expect(unknown.status).toBe(404);
    expect(declared(unknown)).toEqual([]);
    const long = await c.get(`/v3/order/sample/${'x'.repeat(65)}`);
    expect(long.status).toBe(422);
    expect(declared(long)).toEqual([]);
  });

  it('the data OpenAPI document lists it with its answers', () => {
    const doc = buildOpenApiDocument([...ROUTES, route], 'data', 'http://example.test') as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    expect(Object.keys(doc.paths['/v3/order/sample/{sample_id}']?.get?.responses ?? {})).toEqual(
      expect.arrayContaining(['200', '404', '422']),
    );
  });
});
