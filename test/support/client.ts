/**
 * One test client over either adapter, so every scenario runs on both: node:http requests as
 * supertest sends them (test/support/express-request.ts) against the express app, or real `fetch` through msw `setupServer`. Each client has its own sandbox.
 */
import { appendFileSync } from 'node:fs';
import { Agent, createServer, type Server } from 'node:http';
import { setupServer } from 'msw/node';
import { describe } from 'vitest';
import type { AddressInfo } from 'node:net';
import { LIMITS, createSandbox, type Sandbox, type SandboxOptions } from '../../src/index.js';
import { answerHeadErrorsWithJson, createExpressApp } from '../../src/express.js';
import { createFetchHandler, createMswHandlers } from '../../src/msw.js';
import { createNodeServer } from '../../src/node.js';
import type { Credentials } from '../../src/engine/credentials.js';
import { expressRequest } from './express-request.js';
import { loopbackOnly } from './loopback.js';
import { router } from '../../src/routes.js';
import { routeResponses } from '../../src/wire/engine.js';

/** The headers and body a test client sends: the key for the surface (none on the control plane or when anonymous), JSON bodies typed, `''` headers removed. */
export function requestParts(
  path: string,
  options: CallOptions,
  keys: { apiKey: string; managementKey: string },
): { headers: Record<string, string>; body: string | Uint8Array | undefined } {
  const surface = options.surface ?? 'data';
  const headers: Record<string, string> = {};
  if (!options.anonymous && !path.startsWith('/_sandbox')) {
    if (surface === 'management') headers['x-management-key'] = keys.managementKey;
    else headers['x-service-api-key'] = keys.apiKey;
  }
  let body: string | Uint8Array | undefined;
  if (options.body instanceof Uint8Array) body = options.body;
  else if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  Object.assign(headers, options.headers ?? {});
  for (const [k, v] of Object.entries(headers)) if (v === '') delete headers[k];
  return { headers, body };
}

export type AdapterName = 'express' | 'msw';
/**
 * The adapters `forEachAdapter` runs each block on: express and msw, or the one named by
 * `HEALTH_SANDBOX_ADAPTER` (`npm run test:quick` sets `msw`).
 */
const ONLY = process.env['HEALTH_SANDBOX_ADAPTER'];
if (ONLY !== undefined && ONLY !== 'express' && ONLY !== 'msw') throw new Error(`HEALTH_SANDBOX_ADAPTER: express or msw, not ${ONLY}`);
const ADAPTERS: readonly AdapterName[] = ONLY ? [ONLY] : ['express', 'msw'];
/** Every adapter, the CLI's node:http server included (parity and hardening tests). */
/** `fetch`: the msw adapter's request handling called in process (no msw interception): the cheap transport for tests that send thousands of requests. */
export type AnyAdapter = AdapterName | 'node' | 'fetch';
export const ALL_ADAPTERS: readonly AnyAdapter[] = ['express', 'msw', 'node', 'fetch'];

export interface TestResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** Parsed JSON body (undefined when empty or not JSON). */
  body: any;
  /** Raw bytes. */
  bytes: Buffer;
}

export interface CallOptions {
  query?: Record<string, string | number | boolean | Array<string | number>>;
  headers?: Record<string, string>;
  /** JSON body (objects are serialised); a string or bytes are sent as is (bytes without a Content-Type: give one in `headers`). */
  body?: unknown;
  /** `management` targets the management URL. */
  surface?: 'data' | 'management';
  /** Send no API key header. */
  anonymous?: boolean;
  /** `manual` answers a redirect itself instead of following it (fetch follows by default; supertest never does). */
  redirect?: 'manual';
}

export interface TestClient {
  adapter: AnyAdapter;
  sandbox: Sandbox;
  creds: Credentials;
  /** First team's sandbox API key. */
  apiKey: string;
  managementKey: string;
  orgId: string;
  call(method: string, path: string, options?: CallOptions): Promise<TestResponse>;
  get(path: string, options?: CallOptions): Promise<TestResponse>;
  post(path: string, body?: unknown, options?: CallOptions): Promise<TestResponse>;
  patch(path: string, body?: unknown, options?: CallOptions): Promise<TestResponse>;
  put(path: string, body?: unknown, options?: CallOptions): Promise<TestResponse>;
  delete(path: string, options?: CallOptions): Promise<TestResponse>;
  /** A management-surface call with the org management key. */
  mgmt(method: string, path: string, options?: CallOptions): Promise<TestResponse>;
  /** Advances the clock through the control plane. */
  advance(seconds: number): Promise<TestResponse>;
}

let mswServer: ReturnType<typeof setupServer> | undefined;
const openServers = new Set<Server>();
const openAgents = new Set<Agent>();
let counter = 0;

/**
 * Closes every server the clients of the current test file opened, and the shared msw server.
 * `test/support/per-file.ts` (a vitest setup file) runs it after each file, so the suite can run
 * with module isolation off: this module is then loaded once per worker, not once per file.
 */
export async function closeClients(): Promise<void> {
  for (const agent of openAgents) agent.destroy();
  openAgents.clear();
  const servers = [...openServers];
  openServers.clear();
  await Promise.all(servers.map((s) => new Promise<void>((done) => s.close(() => done()))));
  mswServer?.close();
  mswServer = undefined;
}

function server(): ReturnType<typeof setupServer> {
  if (!mswServer) {
    mswServer = setupServer();
    mswServer.listen({ onUnhandledRequest: 'bypass' });
  }
  return mswServer;
}

function queryString(query: CallOptions['query']): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (Array.isArray(value)) for (const v of value) params.append(key, String(v));
    else params.append(key, String(value));
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}

function parse(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * An answer as the tests read it. `text` and `body` are decoded on first read: most answers are
 * only compared as bytes or checked by status, and some are megabytes (ECG voltage, OpenAPI).
 */
function answerOf(status: number, headers: Record<string, string>, bytes: Buffer): TestResponse {
  let text: string | undefined;
  let body: unknown;
  let parsed = false;
  return {
    status,
    headers,
    bytes,
    get text() {
      return (text ??= bytes.toString('utf8'));
    },
    set text(value: string) {
      text = value;
    },
    get body() {
      if (!parsed) {
        body = parse(this.text);
        parsed = true;
      }
      return body;
    },
    set body(value: unknown) {
      body = value;
      parsed = true;
    },
  };
}

/**
 * `HEALTH_SANDBOX_WIRE_CHECK=<file>`: every answer any test receives through this client is checked
 * against the schema its route declares (`routeResponses`), and each mismatch or undeclared status
 * is appended to <file> as one JSON line (a report: tests are not failed by it). For checking the
 * declared schemas against the answers of the whole suite, beyond `wire-answers.test.ts`.
 */
const WIRE_REPORT = process.env['HEALTH_SANDBOX_WIRE_CHECK'];

function reportWire(surface: 'data' | 'management', method: string, path: string, res: TestResponse): void {
  if (!WIRE_REPORT) return;
  const found = router().match(surface, method === 'HEAD' ? 'GET' : method, path.split('?')[0] ?? path);
  if (found.kind !== 'ok' || method === 'HEAD') return;
  const route = found.match.route;
  const spec = routeResponses(route)[String(res.status)];
  let problem: string | undefined;
  if (!spec) problem = 'status not declared';
  else if (spec.schema && (res.headers['content-type'] ?? '').startsWith('application/json')) {
    const parsed = spec.schema.safeParse(res.body);
    if (!parsed.success)
      problem = parsed.error.issues
        .slice(0, 3)
        .map((i) => `${i.path.join('.')}: ${i.message}`)
        .join('; ');
  }
  if (problem) appendFileSync(WIRE_REPORT, `${JSON.stringify({ route: route.id, status: res.status, problem })}\n`);
}

/** A standard `Response` as the tests read it. */
async function fromResponse(res: Response): Promise<TestResponse> {
  const bytes = Buffer.from(await res.arrayBuffer());
  const headers: Record<string, string> = {};
  res.headers.forEach((v, k) => {
    headers[k] = v;
  });
  return answerOf(res.status, headers, bytes);
}

export function createClient(adapter: AnyAdapter, options: SandboxOptions = {}): TestClient {
  const sandbox = createSandbox({ logger: () => undefined, webhookTransport: loopbackOnly, ...options });
  let send: (
    method: string,
    url: string,
    surface: 'data' | 'management',
    headers: Record<string, string>,
    body: string | Uint8Array | undefined,
    redirect?: 'manual',
  ) => Promise<TestResponse>;

  if (adapter === 'express') {
    const app = createExpressApp(sandbox);
    // One listening server per client, and one keep-alive agent: node:http requests as supertest
    // sent them (its URL, Accept-Encoding and body rules: `expressRequest`), at a fifth of its CPU.
    let listening: Promise<number> | undefined;
    const agent = new Agent({ keepAlive: true });
    openAgents.add(agent);
    const target = (): Promise<number> => {
      if (!listening) {
        const srv = answerHeadErrorsWithJson(createServer({ maxHeaderSize: LIMITS.transportHeaderBytes }, app)).listen(0, '127.0.0.1');
        openServers.add(srv);
        listening = new Promise((resolve) => {
          const done = () => resolve((srv.address() as AddressInfo).port);
          if (srv.listening) done();
          else srv.once('listening', done);
        });
      }
      return listening;
    };
    send = async (method, url, surface, headers, body) =>
      expressRequest(agent, await target(), method, surface === 'management' ? `/management${url}` : url, headers, body, answerOf);
  } else if (adapter === 'node') {
    const listening = createNodeServer(sandbox).listen(0, '127.0.0.1');
    openServers.add(listening);
    const ready = new Promise<string>((resolve) => {
      const done = () => resolve(`http://127.0.0.1:${(listening.address() as AddressInfo).port}`);
      if (listening.listening) done();
      else listening.once('listening', done);
    });
    send = async (method, url, surface, headers, body, redirect) => {
      const base = await ready;
      const res = await fetch(`${base}${surface === 'management' ? '/management' : ''}${url}`, {
        method,
        headers,
        body: body as BodyInit | undefined,
        ...(redirect ? { redirect } : {}),
      });
      return fromResponse(res);
    };
  } else if (adapter === 'fetch') {
    // Nothing is intercepted, so sandboxes may share a URL (`baseUrl`: answers that name it compare equal).
    const base = options.baseUrl ?? `http://sandbox-${++counter}.fetch.test`;
    const handler = createFetchHandler(sandbox, { baseUrl: base, managementUrl: options.managementUrl ?? `${base}/management` });
    send = async (method, url, surface, headers, body) => {
      const full = `${base}${surface === 'management' ? '/management' : ''}${url}`;
      // A GET or HEAD with a body (hostile tests send them; servers receive them) cannot be a
      // standard Request: hand the handler the parts of one it reads.
      const bodyless = method === 'GET' || method === 'HEAD';
      const request =
        bodyless && body !== undefined
          ? ({
              url: full,
              method,
              headers: new Headers(headers),
              arrayBuffer: async () => (typeof body === 'string' ? new TextEncoder().encode(body) : body).slice().buffer,
            } as unknown as Request)
          : new Request(full, { method, headers, body: body as BodyInit | undefined });
      const res = await handler(request);
      return fromResponse(res);
    };
  } else {
    const base = `http://sandbox-${++counter}.msw.test`;
    server().use(...createMswHandlers(sandbox, { baseUrl: base, managementUrl: `${base}/management` }));
    send = async (method, url, surface, headers, body, redirect) => {
      const full = `${base}${surface === 'management' ? '/management' : ''}${url}`;
      const res = await fetch(full, { method, headers, body: body as BodyInit | undefined, ...(redirect ? { redirect } : {}) });
      return fromResponse(res);
    };
  }

  const creds = sandbox.credentials();
  const apiKey = creds.teams[0]?.api_keys.sandbox ?? '';
  const client: TestClient = {
    adapter,
    sandbox,
    creds,
    apiKey,
    managementKey: creds.management_key,
    orgId: creds.org_id,
    call(method, path, options = {}) {
      const surface = options.surface ?? 'data';
      const { headers, body } = requestParts(path, options, { apiKey, managementKey: creds.management_key });
      const answer = send(method.toUpperCase(), `${path}${queryString(options.query)}`, surface, headers, body, options.redirect);
      return WIRE_REPORT ? answer.then((res) => (reportWire(surface, method.toUpperCase(), path, res), res)) : answer;
    },
    get: (path, options) => client.call('GET', path, options),
    post: (path, body, options) => client.call('POST', path, { ...options, body }),
    patch: (path, body, options) => client.call('PATCH', path, { ...options, body }),
    put: (path, body, options) => client.call('PUT', path, { ...options, body }),
    delete: (path, options) => client.call('DELETE', path, options),
    mgmt: (method, path, options) => client.call(method, path, { ...options, surface: 'management' }),
    advance: (seconds) => client.post('/_sandbox/clock/advance', { seconds }),
  };
  return client;
}

/** Runs a describe block once per adapter. */
export function forEachAdapter(title: string, body: (adapter: AdapterName) => void): void {
  for (const adapter of ADAPTERS) describe(`${title} [${adapter}]`, () => body(adapter));
}

/**
 * Runs a describe block once per named adapter. Heavy behaviour files take the in-process `fetch`
 * adapter, plus one over real HTTP (`express`) where the transport matters: the route-table parity
 * test proves every adapter answers every route's requests byte-identically.
 */
export function forAdapters(adapters: readonly AnyAdapter[], title: string, body: (adapter: AnyAdapter) => void): void {
  for (const adapter of adapters) describe(`${title} [${adapter}]`, () => body(adapter));
}
