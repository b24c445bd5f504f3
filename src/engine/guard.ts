/**
 * What a server reachable over the network adds to the engine (express and node:http adapters;
 * msw runs inside the page and needs none of it): the control plane's defences against web pages
 * (DNS rebinding through `Host`, cross-origin requests through `Origin`) and CORS, off by default.
 * Refusals are rendered by the engine's renderer, so both network adapters answer the same bytes.
 * Adapters never call these checks themselves: the front door (front-door.ts) does, once per request.
 */
import type { SimRequest, SimResponse } from './http-types.js';
import { detailResponse } from './render.js';

const CONTROL_PREFIX = '/_sandbox';
const CONTROL_UNDER = '/_sandbox/';

export interface NetworkOptions {
  /**
   * Origins allowed to call the sandbox from a browser: `true` for any, a list for those
   * (`https://app.example.com`), absent for none (no CORS headers, no preflight, and the
   * control plane refuses every cross-origin request). `true` opens the API routes only: the
   * control plane (`/_sandbox/*`: credentials, reset, faults, ...) answers a cross-origin page
   * only when its origin is listed by name, so "any origin" never hands every web page the keys.
   */
  cors?: true | readonly string[];
  /** Extra `Host` names (without port) the control plane accepts, beside loopback and the served URLs. */
  allowedHosts?: readonly string[];
}

export const GUARD_MESSAGES = {
  badHost: 'Host not served by this sandbox: the control plane answers only requests addressed to it (DNS rebinding protection)',
  crossOrigin: 'Cross-origin requests to the sandbox control plane are refused: start the sandbox with --cors <origin> to allow one',
  missingHost: 'An HTTP/1.1 request must carry a Host header',
  duplicateHost: 'A request must carry exactly one Host header',
} as const;

const CORS_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS';

/** Host name of a `Host` header or URL authority, lower-cased, without port or IPv6 brackets. */
function hostName(authority: string): string {
  const a = authority.trim().toLowerCase();
  if (a.startsWith('[')) {
    const end = a.indexOf(']');
    return end > 0 ? a.slice(1, end) : a;
  }
  const colon = a.indexOf(':');
  return colon >= 0 ? a.slice(0, colon) : a;
}

function urlHost(url: string): string | undefined {
  const m = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(url);
  if (!m) return undefined;
  const authority = (m[1] ?? '').replace(/^[^@]*@/, '');
  return hostName(authority);
}

function isLoopbackName(name: string): boolean {
  return name === 'localhost' || name.endsWith('.localhost') || name === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name);
}

export interface GuardContext {
  /** The URLs the sandbox is served at (their hosts are accepted). */
  urls: { base: string; management: string };
  /** When an admin token protects the control plane, the token is the defence and any `Host` is accepted. */
  adminToken: string | undefined;
}

/** Whether a path is the control plane's (`/_sandbox`, `/_sandbox/...`; canonical path). */
function isControlPath(req: SimRequest): boolean {
  return req.surface === 'data' && (req.path === CONTROL_PREFIX || req.path.startsWith(CONTROL_UNDER));
}

/** Whether `origin` may call this request's path: any origin the API routes only, a listed one everything. */
function originAllowed(origin: string, cors: NetworkOptions['cors'], control: boolean): boolean {
  if (cors === true) return !control;
  if (!cors) return false;
  const o = origin.toLowerCase().replace(/\/+$/, '');
  return cors.some((c) => c.toLowerCase().replace(/\/+$/, '') === o);
}

/** Whether `origin` is the server itself (same host and port as the request's `Host`). */
function sameOrigin(origin: string, host: string | undefined): boolean {
  if (host === undefined) return false;
  const m = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)$/i.exec(origin.trim());
  if (!m) return false;
  return (m[1] ?? '').toLowerCase() === host.trim().toLowerCase();
}

/**
 * Checks a request that arrived over the network. `req.path` is the canonical path (see
 * canonical-path.ts), the one the router reads, so no spelling of `/_sandbox` gets past. Answers a refusal (403 JSON) or a CORS
 * preflight (204), or undefined to go on to dispatch.
 */
export function guardRequest(req: SimRequest, options: NetworkOptions, context: GuardContext): SimResponse | undefined {
  const origin = req.headers['origin'];
  const control = isControlPath(req);
  const allowed = origin !== undefined && originAllowed(origin, options.cors, control);
  if (
    req.method === 'OPTIONS' &&
    options.cors !== undefined &&
    origin !== undefined &&
    req.headers['access-control-request-method'] !== undefined
  ) {
    if (!allowed) return detailResponse(403, GUARD_MESSAGES.crossOrigin);
    const headers: Record<string, string> = {
      ...corsHeaders(origin),
      'access-control-allow-methods': CORS_METHODS,
      'access-control-max-age': '600',
    };
    const requested = req.headers['access-control-request-headers'];
    if (requested) headers['access-control-allow-headers'] = requested;
    return { status: 204, headers, body: new Uint8Array(0) };
  }
  if (control) {
    if (context.adminToken === undefined) {
      const host = req.headers['host'];
      if (host !== undefined) {
        const name = hostName(host);
        const ok =
          isLoopbackName(name) ||
          name === urlHost(context.urls.base) ||
          name === urlHost(context.urls.management) ||
          (options.allowedHosts ?? []).some((h) => h.toLowerCase() === name);
        if (!ok) return detailResponse(403, GUARD_MESSAGES.badHost);
      }
    }
    if (origin !== undefined && !allowed && !sameOrigin(origin, req.headers['host']))
      return detailResponse(403, GUARD_MESSAGES.crossOrigin);
  }
  return undefined;
}

/** CORS headers for an allowed origin (the origin echoed, never `*`, so credentials work). */
function corsHeaders(origin: string): Record<string, string> {
  return { 'access-control-allow-origin': origin, vary: 'Origin', 'access-control-expose-headers': '*' };
}

/** Adds CORS headers to an answer when the request's origin is allowed. */
export function withCors(res: SimResponse, req: SimRequest, options: NetworkOptions): SimResponse {
  const origin = req.headers['origin'];
  if (origin === undefined || options.cors === undefined || !originAllowed(origin, options.cors, isControlPath(req))) return res;
  return { ...res, headers: { ...res.headers, ...corsHeaders(origin) } };
}
