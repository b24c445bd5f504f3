/**
 * The one canonical path of a request (design.md house rule 12), computed once by the adapter and
 * read by every check after it: the network guard, the router, the scenario gate, logs. A check
 * that read the raw path and a router that read a decoded one would disagree, and an attacker
 * lives in the gap (`/%5Fsandbox/credentials` once skipped the guard and reached the control plane).
 *
 * The rules (docs/simulated/engine.md):
 * - the path is split on `/`; empty segments (duplicate slashes, a trailing slash) are dropped;
 * - each segment is percent-decoded once (UTF-8); a malformed escape or invalid UTF-8 makes the
 *   path invalid (the request answers 400 JSON);
 * - a segment that decodes to `.` is dropped, to `..` removes the segment before it (never above
 *   the root), so `%2e` and `%2E%2e` are dot segments too;
 * - a decoded `/` or `%` inside a segment is kept as `%2F` / `%25`, so it stays part of that
 *   segment (a path parameter holding them) and the result is canonical again: canonical(canonical(p))
 *   is canonical(p). The router turns those two escapes back and decodes nothing else.
 */
import type { SimRequest } from './http-types.js';

export const PATH_MESSAGES = {
  invalid: 'The request path could not be decoded: a malformed percent escape or invalid UTF-8',
} as const;

export type CanonicalPath = { ok: true; path: string } | { ok: false; detail: string };

const SLASH = 47;
const DOT = 46;
const PERCENT = 37;

/**
 * Whether a path is canonical as it stands: starts with `/`, no `%`, no empty segment, no dot
 * segment, no trailing slash. Most requests are; they cost one scan and no allocation.
 */
function plainCanonical(path: string): boolean {
  if (path.charCodeAt(0) !== SLASH) return false;
  if (path.length === 1) return true;
  let start = 1;
  for (let i = 1; i <= path.length; i++) {
    const c = i === path.length ? SLASH : path.charCodeAt(i);
    if (c === PERCENT) return false;
    if (c !== SLASH) continue;
    const length = i - start;
    if (length === 0) return false;
    if (path.charCodeAt(start) === DOT && (length === 1 || (length === 2 && path.charCodeAt(start + 1) === DOT))) return false;
    start = i + 1;
  }
  return true;
}

/** A decoded segment as it appears in a canonical path: `%` and `/` escaped, nothing else. */
function escapeSegment(segment: string): string {
  if (!segment.includes('%') && !segment.includes('/')) return segment;
  return segment.replace(/[%/]/g, (c) => (c === '%' ? '%25' : '%2F'));
}

/**
 * The last path found canonical as it stands, and its verdict: the adapter, the sandbox and
 * dispatch ask about the same string in turn, so the second and third asks cost one comparison.
 * A pure function's memo: the verdict of a string never changes.
 */
let lastPlain = '/';
let lastVerdict: CanonicalPath = { ok: true, path: '/' };

/** How many times a canonical path was asked for in this process (design.md rule 12: once per request; a test counts). */
let asked = 0;

/** How many times `canonicalPath` ran in this process: what a test reads before and after a request. */
export function canonicalPathsAsked(): number {
  return asked;
}

/** The canonical form of a request path (without query), or why it has none. */
export function canonicalPath(raw: string): CanonicalPath {
  asked++;
  if (raw === lastPlain) return lastVerdict;
  if (plainCanonical(raw)) {
    lastPlain = raw;
    lastVerdict = { ok: true, path: raw };
    return lastVerdict;
  }
  const out: string[] = [];
  for (const part of raw.split('/')) {
    if (part === '') continue;
    let segment = part;
    if (part.includes('%')) {
      try {
        segment = decodeURIComponent(part);
      } catch {
        return { ok: false, detail: PATH_MESSAGES.invalid };
      }
    }
    if (segment === '.') continue;
    if (segment === '..') {
      out.pop();
      continue;
    }
    out.push(escapeSegment(segment));
  }
  const path = `/${out.join('/')}`;
  return { ok: true, path: path === raw ? raw : path };
}

/** A canonical path's segments as the router compares them: the kept `%2F` and `%25` turned back. */
export function pathSegments(canonical: string): string[] {
  const out: string[] = [];
  // One pass over the path; a segment is cut out only when it is not empty.
  let start = 0;
  const n = canonical.length;
  for (let i = 0; i <= n; i++) {
    if (i < n && canonical.charCodeAt(i) !== SLASH) continue;
    if (i > start) {
      const s = canonical.slice(start, i);
      out.push(s.includes('%') ? s.replace(/%2F|%25/g, (e) => (e === '%2F' ? '/' : '%')) : s);
    }
    start = i + 1;
  }
  return out;
}

/**
 * The part of a canonical path under a canonical prefix (`/` when it is the prefix itself), or
 * undefined when it is not under it. An empty prefix (or `/`) holds every path.
 */
export function underPrefix(path: string, prefix: string): string | undefined {
  if (prefix === '' || prefix === '/') return path;
  if (path === prefix) return '/';
  return path.startsWith(`${prefix}/`) ? path.slice(prefix.length) : undefined;
}

/** The canonical form of a configured prefix (`/management/`, `/api`): empty for the root. */
export function canonicalPrefix(prefix: string): string {
  const c = canonicalPath(prefix);
  if (!c.ok) throw new Error(`Path prefix ${prefix} is not a valid path`);
  return c.path === '/' ? '' : c.path;
}

/**
 * Each request's verdict, given by the one place that computed it (the front door, or
 * `withCanonicalPath` for a request that did not come through one): everything after it reads
 * the verdict and computes nothing again. Keyed by request objects, so nothing outlives a request.
 *
 * The request settled last is held apart (`pending`) until dispatch reads its verdict: a request
 * served in one go (the door, the sandbox and dispatch in one synchronous run, as every request
 * once the world is ready) never enters the WeakMap, whose insertion (and ephemeron work for the
 * collector) was the largest cost of the front door (BENCHMARKS.md, issue 45). A request still
 * pending when the next one settles (answered at the door, or waiting for the world) moves into
 * the WeakMap then, so its verdict is never lost. At most that one request is held strongly past
 * its answer, until the next one settles.
 */
const verdicts = new WeakMap<SimRequest, CanonicalPath>();
let pending: SimRequest | undefined;
/** What `pendingVerdict` holds while nothing is pending (never read then). */
const NONE: CanonicalPath = { ok: true, path: '/' };
let pendingVerdict: CanonicalPath = NONE;

/** Records that `req.path` is the canonical path (`ok`) or the raw path with none (`ok: false`). */
export function settledPath(req: SimRequest, verdict: CanonicalPath): SimRequest {
  if (pending !== undefined && pending !== req) verdicts.set(pending, pendingVerdict);
  pending = req;
  pendingVerdict = verdict.ok ? { ok: true, path: req.path } : verdict;
  return req;
}

/** A request's recorded verdict, or undefined. */
function recorded(req: SimRequest): CanonicalPath | undefined {
  return req === pending ? pendingVerdict : verdicts.get(req);
}

/**
 * A request's canonical path: the recorded verdict, computed only for a request that has none.
 * Dispatch is the last reader: the pending verdict it reads is let go (the same object handed to
 * `Sandbox.dispatch` again has its path made canonical again: the same verdict).
 */
export function requestPath(req: SimRequest): CanonicalPath {
  if (req === pending) {
    pending = undefined;
    const verdict = pendingVerdict;
    pendingVerdict = NONE;
    return verdict;
  }
  return verdicts.get(req) ?? canonicalPath(req.path);
}

/**
 * The request with its path made canonical, for callers that may pass a raw one
 * (`Sandbox.dispatch`): the same object when it is canonical already or has no canonical form
 * (dispatch then answers 400). The verdict is recorded, so dispatch does not compute it again.
 */
export function withCanonicalPath(req: SimRequest): SimRequest {
  if (recorded(req) !== undefined) return req;
  const c = canonicalPath(req.path);
  return settledPath(c.ok && c.path !== req.path ? { ...req, path: c.path } : req, c);
}
