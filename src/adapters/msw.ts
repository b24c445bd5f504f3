/**
 * MSW 2 adapter: request handlers for `setupServer` / `setupWorker` that answer every request
 * under the base URL (and the management URL) from the same engine as the express server.
 */
import { http, HttpResponse, type HttpHandler } from 'msw';
import type { Sandbox } from '../sandbox.js';
import { canonicalPrefix } from '../engine/canonical-path.js';
import { type Door, frontDoor, type Mount } from '../engine/front-door.js';

export interface MswAdapterOptions {
  /** Where the data API is served (default `http://127.0.0.1:4250`). */
  baseUrl?: string;
  /** Where the management API is served (default `<baseUrl>/management`). */
  managementUrl?: string;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function prefixPattern(url: string): RegExp {
  return new RegExp(`^${escape(url)}(?:[/?#]|$)`);
}

/** Where a fetch handler serves: the base and management URLs, trailing slashes removed. */
function urlsOf(sandbox: Sandbox, options: MswAdapterOptions): { base: string; management: string } {
  const base = (options.baseUrl ?? 'http://127.0.0.1:4250').replace(/\/+$/, '');
  const management = (options.managementUrl ?? `${base}/management`).replace(/\/+$/, '');
  sandbox.setUrls({ base, management });
  return { base, management };
}

/** The door of a fetch handler: the management URL's mount first (it usually lies under the base URL). */
function doorOf(urls: { base: string; management: string }): Door {
  const mounts: Mount[] = (
    [
      ['management', urls.management],
      ['data', urls.base],
    ] as const
  ).map(([surface, url]) => {
    const u = new URL(url);
    return { surface, origin: u.origin, prefix: canonicalPrefix(u.pathname) };
  });
  return { mounts };
}

/**
 * Answers one standard `Request` from the engine, through the front door: its path is made
 * canonical first, then the surface is the mount (same origin) whose prefix holds it, as the node
 * adapters decide; a path under neither is served whole on the data surface, one with no
 * canonical form is passed on raw (the engine answers 400).
 */
async function answer(sandbox: Sandbox, door: Door, request: Request): Promise<Response> {
  const url = new URL(request.url);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name.toLowerCase()] = value;
  });
  const rawBody = new Uint8Array(await request.arrayBuffer());
  const { request: simRequest } = frontDoor(door, {
    method: request.method,
    origin: url.origin,
    path: url.pathname,
    query: url.search.slice(1),
    headers,
    rawBody,
  });
  const response = await sandbox.dispatch(simRequest);
  // A fault's latency (wall time, never the sandbox clock), then a dropped connection: a network error.
  if (response.delayMs) {
    const from = performance.now();
    await new Promise((resolve) => setTimeout(resolve, response.delayMs));
    // The wait the client saw, measured here where it was carried out (the request journal's record).
    response.waited?.(performance.now() - from);
  }
  if (response.drop) return HttpResponse.error();
  const body = response.status === 204 || response.body.length === 0 ? null : response.body;
  // Content-Length as node:http and express send it: the body's length, 0 for an empty body, none
  // on a 204 or 304 (which never have one).
  const answerHeaders: Record<string, string> = { ...response.headers };
  if (response.status !== 204 && response.status !== 304) answerHeaders['content-length'] = String(body?.byteLength ?? 0);
  return new HttpResponse(body, { status: response.status, headers: answerHeaders });
}

export function createMswHandlers(sandbox: Sandbox, options: MswAdapterOptions = {}): HttpHandler[] {
  const { base, management } = urlsOf(sandbox, options);
  const door = doorOf({ base, management });
  return [
    http.all(prefixPattern(management), ({ request }) => answer(sandbox, door, request)),
    http.all(prefixPattern(base), ({ request }) => answer(sandbox, door, request)),
  ];
}

/**
 * The same answers as a plain fetch handler, `(request) => Promise<Response>`, for runtimes and
 * test runners that take one (a service worker's `fetch` event, Deno/Bun servers, an injected
 * `fetch`): no msw interception involved. A request outside both URLs answers the engine's 404.
 */
export function createFetchHandler(sandbox: Sandbox, options: MswAdapterOptions = {}): (request: Request) => Promise<Response> {
  const door = doorOf(urlsOf(sandbox, options));
  // A dropped connection rejects, as fetch does on a network error.
  return (request) =>
    answer(sandbox, door, request).then((res) => (res.type === 'error' ? Promise.reject(new TypeError('Failed to fetch')) : res));
}
