/**
 * The sandbox's own OpenAPI 3.1 documents (generated from the route table, with request and
 * response schemas): served from a fresh start at `/openapi.json`, `/management/openapi.json` and
 * `/_sandbox/openapi.json`, valid for a real OpenAPI parser, covering every route once, and usable
 * by an OpenAPI-driven client: `openapi-typescript` generates types from the served document into
 * a temporary directory, a small client typed with them must compile, and `openapi-fetch` calls the
 * sandbox with it (locally from the document's paths the client calls: see TYPED_PATHS).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { validate } from '@readme/openapi-parser';
import createFetchClient from 'openapi-fetch';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../src/routes.js';
import { SLOW_TESTS } from '../support/run-size.js';
import { startServer, type RunningServer } from '../support/server.js';

/**
 * The paths the client's types are generated from: every path of the served document in CI
 * (HEALTH_SANDBOX_SLOW_TESTS=1); locally the two the client calls, with every component (the
 * generation and the type check take seconds for the whole document: openapi-fetch's types map
 * over every path on each call; the first test validates the whole document).
 */
const TYPED_PATHS = ['/v2/user', '/v2/user/{user_id}'];

let server: RunningServer;
const docs: Record<string, any> = {};

beforeAll(async () => {
  server = await startServer({ seed: 5, users: 2, feed: 'off' });
  for (const [kind, url] of Object.entries({
    data: `${server.baseUrl}/openapi.json`,
    management: `${server.managementUrl}/openapi.json`,
    control: `${server.baseUrl}/_sandbox/openapi.json`,
  })) {
    const res = await fetch(url);
    expect(res.status, url).toBe(200);
    docs[kind] = await res.json();
  }
});
afterAll(() => server.close());

describe('OpenAPI documents', () => {
  it('are valid OpenAPI 3.1 for a real parser, each served at its own URL', async () => {
    for (const [kind, doc] of Object.entries(docs)) {
      expect(doc.openapi).toBe('3.1.0');
      const result = await validate(structuredClone(doc));
      expect(result.valid, `${kind}: ${'errors' in result ? JSON.stringify(result.errors).slice(0, 500) : ''}`).toBe(true);
    }
    expect(docs.data.servers[0].url).toBe(server.baseUrl);
    expect(docs.management.servers[0].url).toBe(server.managementUrl);
  });

  it('cover every route once, with request and response schemas', () => {
    const ops = Object.values(docs).flatMap((d) =>
      Object.values(d.paths as Record<string, Record<string, any>>).flatMap((p) => Object.values(p)),
    );
    expect(ops.map((o) => o.operationId).sort()).toEqual(ROUTES.map((r) => r.id).sort());
    const create = docs.data.paths['/v2/user'].post;
    expect(create.requestBody.content['application/json'].schema.properties.client_user_id).toBeDefined();
    expect(create.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/User' });
    expect(create.responses['422'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ValidationErrorBody' });
    expect(docs.data.components.schemas.User.required).toContain('client_user_id');
    expect(docs.management.paths['/v1/org/{org_id}/team/{team_id}'].get.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/ManagementTeam',
    });
    expect(docs.control.paths['/_sandbox/clock/advance'].post.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/AdvanceDone',
    });
  });

  it('declare form bodies as multipart/form-data and binary answers by their content type', () => {
    const parser = docs.data.paths['/lab_report/v1/parser/job'].post;
    expect(Object.keys(parser.requestBody.content)).toEqual(['multipart/form-data']);
    expect(parser.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ParsingJob' });
    const requisition = docs.data.paths['/v3/order/{order_id}/requisition/pdf'].get;
    expect(Object.keys(requisition.responses['200'].content)).toEqual(['application/pdf']);
    const aggregate = docs.data.paths['/aggregate/v1/user/{user_id}/query'].post.responses['200'].content;
    expect(Object.keys(aggregate)).toEqual(['application/json', 'application/vnd.vital.tar+gzip+parquet']);
  });
});

describe('an OpenAPI-driven client (openapi-typescript + openapi-fetch)', () => {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
  // Inside the project, so the generated client resolves openapi-fetch from node_modules.
  const cache = join(root, 'node_modules', '.cache');
  let dir = '';
  beforeAll(() => {
    mkdirSync(cache, { recursive: true });
    dir = mkdtempSync(join(cache, 'openapi-client-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('generates types from the served document; a client typed with them compiles, and wrong calls do not', async () => {
    const paths = SLOW_TESTS ? docs.data.paths : Object.fromEntries(TYPED_PATHS.map((p) => [p, docs.data.paths[p]]));
    writeFileSync(join(dir, 'data-api.d.ts'), astToString(await openapiTS(structuredClone({ ...docs.data, paths }))));
    writeFileSync(
      join(dir, 'client.ts'),
      [
        "import createClient from 'openapi-fetch';",
        "import type { paths } from './data-api.js';",
        "const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:1' });",
        'export async function use(): Promise<string> {',
        "  const { data } = await client.GET('/v2/user/{user_id}', { params: { path: { user_id: 'x' } } });",
        "  const created = await client.POST('/v2/user', { body: { client_user_id: 'a' } });",
        "  return (data?.client_user_id ?? '') + (created.data?.user_id ?? '');",
        '}',
        'export async function wrong(): Promise<void> {',
        '  // @ts-expect-error client_user_id is required',
        "  await client.POST('/v2/user', { body: {} });",
        '  // @ts-expect-error no such path',
        "  await client.GET('/v2/no_such_path');",
        '}',
      ].join('\n'),
    );
    const program = ts.createProgram([join(dir, 'client.ts')], {
      strict: true,
      noEmit: true,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      skipLibCheck: true,
      types: [],
      // Without the DOM library (a second less): the calls below are typed by the generated paths.
      lib: ['lib.es2022.d.ts'],
    });
    const errors = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(errors).toEqual([]);
  }, 120_000);

  it('calls the sandbox: create, get and list users; management teams', async () => {
    const key = server.sandbox.credentials().teams[0]!.api_keys.sandbox;
    const client = createFetchClient<any>({ baseUrl: server.baseUrl, headers: { 'x-vital-api-key': key } });
    const created = await client.POST('/v2/user', { body: { client_user_id: 'openapi-fetch-1' } });
    expect(created.response.status).toBe(200);
    const got = await client.GET('/v2/user/{user_id}', { params: { path: { user_id: created.data.user_id } } });
    expect(got.data.client_user_id).toBe('openapi-fetch-1');
    const listed = await client.GET('/v2/user', { params: { query: { limit: 1 } } });
    expect(listed.data.users).toHaveLength(1);
    const bad = await client.GET('/v2/user', { params: { query: { limit: 0 } } });
    expect(bad.response.status).toBe(422);
    expect(bad.error.detail[0].loc).toEqual(['query', 'limit']);
    const creds = server.sandbox.credentials();
    const mgmt = createFetchClient<any>({ baseUrl: server.managementUrl, headers: { 'X-Management-Key': creds.management_key } });
    const teams = await mgmt.GET('/v1/org/{org_id}/team', { params: { path: { org_id: creds.org_id } } });
    expect(teams.data.teams.map((t: { id: string }) => t.id)).toContain(creds.teams[0]!.team_id);
  });
});
