/**
 * The inspector's sign-in with an admin token (a browser navigation sends no `Authorization`):
 * `GET /_sandbox/ui?token=<token>` sets an HttpOnly, SameSite=Strict cookie (scoped to
 * `/_sandbox`) and redirects to `/_sandbox/ui`. The cookie holds a hash of the token, not the
 * token, and the control plane accepts it only on a same-origin request: when the browser says
 * where the request comes from (`Sec-Fetch-Site`, `Origin`), it must be the sandbox itself. The
 * Host and Origin guards (guard.ts) run before, unchanged.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import type { SimRequest } from './http-types.js';

export const CONTROL_COOKIE = 'health_sandbox_admin';
const SIGN_IN_PATH = '/_sandbox/ui';

const encoder = new TextEncoder();

/** The cookie's value for a token: hex SHA-256 of a label and the token. */
export function controlCookieValue(adminToken: string): string {
  let hex = '';
  for (const b of sha256(encoder.encode(`health-sandbox inspector\0${adminToken}`))) hex += b.toString(16).padStart(2, '0');
  return hex;
}

/** The `Set-Cookie` of a sign-in. */
export function controlCookieHeader(adminToken: string): string {
  return `${CONTROL_COOKIE}=${controlCookieValue(adminToken)}; Path=/_sandbox; HttpOnly; SameSite=Strict`;
}

/** Every value of a cookie in a `Cookie` header (a browser may send several, from different paths). */
function cookiesOf(header: string | undefined, name: string): string[] {
  const values: string[] = [];
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) values.push(part.slice(eq + 1).trim());
  }
  return values;
}

/** Whether the browser said the request comes from the sandbox's own origin (or said nothing). */
function sameOrigin(req: SimRequest): boolean {
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return false;
  const origin = req.headers['origin'];
  if (origin === undefined) return true;
  const m = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)$/i.exec(origin.trim());
  const host = req.headers['host'];
  return !!m && host !== undefined && (m[1] ?? '').toLowerCase() === host.trim().toLowerCase();
}

/** Whether the request carries the sign-in cookie of this token on a same-origin request. */
export function controlCookieAccepted(adminToken: string, req: SimRequest): boolean {
  const values = cookiesOf(req.headers['cookie'], CONTROL_COOKIE);
  return values.length > 0 && values.includes(controlCookieValue(adminToken)) && sameOrigin(req);
}

/** Whether the request is the sign-in itself: `GET /_sandbox/ui?token=<the token>`. */
export function isSignIn(adminToken: string, req: SimRequest): boolean {
  return req.method === 'GET' && req.surface === 'data' && req.path === SIGN_IN_PATH && req.query['token']?.[0] === adminToken;
}
