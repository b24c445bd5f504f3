/**
 * Issue 27 item 1, the unit: one canonical path (src/engine/canonical-path.ts). Idempotent,
 * decodes once, resolves dot segments in every spelling, keeps a decoded `/` or `%` inside its
 * segment; every route of the table still matches its own paths, however they are spelled.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  canonicalPath,
  canonicalPathsAsked,
  PATH_MESSAGES,
  pathSegments,
  requestPath,
  settledPath,
  underPrefix,
  withCanonicalPath,
} from '../../src/engine/canonical-path.js';
import { surfaceOf } from '../../src/engine/router.js';
import { ROUTES, router } from '../../src/routes.js';
import { dispatch } from '../../src/engine/dispatch.js';
import type { SimRequest, SimResponse } from '../../src/engine/http-types.js';
import { createSandbox } from '../../src/index.js';

const canon = (p: string): string => {
  const c = canonicalPath(p);
  if (!c.ok) throw new Error(`${p}: ${c.detail}`);
  return c.path;
};

describe('canonicalPath', () => {
  it('spells every control-plane disguise of the issue as /_sandbox', () => {
    for (const p of [
      '/%5Fsandbox/credentials',
      '/%5fsandbox/credentials',
      '/_%73andbox/credentials',
      '/_sandbo%78/credentials',
      '//_sandbox/credentials',
      '/./_sandbox/credentials',
      '/x/../_sandbox/credentials',
      '/x/%2e%2e/_sandbox/credentials',
      '/x/.%2E/_sandbox/credentials',
      '/%2e/_sandbox/credentials',
      '/management/../_sandbox/credentials',
      '/../../_sandbox/credentials',
      '/_sandbox/credentials/',
      '/_sandbox//credentials//',
    ]) {
      expect(canon(p), p).toBe('/_sandbox/credentials');
    }
  });

  it('keeps a decoded slash or percent inside its segment, and decodes only once', () => {
    expect(canon('/_sandbox%2Fcredentials')).toBe('/_sandbox%2Fcredentials');
    expect(canon('/_sandbox%2fcredentials')).toBe('/_sandbox%2Fcredentials');
    expect(pathSegments('/_sandbox%2Fcredentials')).toEqual(['_sandbox/credentials']);
    expect(canon('/%255Fsandbox/credentials')).toBe('/%255Fsandbox/credentials');
    expect(pathSegments(canon('/%255Fsandbox/credentials'))).toEqual(['%5Fsandbox', 'credentials']);
    expect(canon('/x/..%2F_sandbox')).toBe('/x/..%2F_sandbox');
    expect(canon('/v2/user/%C3%A9t%C3%A9')).toBe('/v2/user/été');
  });

  it('leaves a canonical path untouched (the same string, the same request object) and the root as /', () => {
    const p = '/v2/user/abc';
    expect(canonicalPath(p)).toEqual({ ok: true, path: p });
    const req = { method: 'GET', surface: 'data' as const, path: p, query: {}, headers: {}, rawBody: new Uint8Array(0) };
    expect(withCanonicalPath(req)).toBe(req);
    expect(withCanonicalPath({ ...req, path: '/v2//user/./abc/' }).path).toBe(p);
    expect(canon('')).toBe('/');
    expect(canon('/')).toBe('/');
    expect(canon('//')).toBe('/');
    expect(canon('/..')).toBe('/');
  });

  it('has no canonical form for a malformed escape or invalid UTF-8', () => {
    for (const p of ['/v2/user/%ZZ', '/v2/%', '/v2/user/%C3', '/%C0%AF', '/%ED%A0%80', '/_sandbox/%E2%82', '/a%2']) {
      expect(canonicalPath(p), p).toEqual({ ok: false, detail: PATH_MESSAGES.invalid });
    }
  });

  it('is idempotent: canonical(canonical(p)) === canonical(p)', () => {
    const piece = fc.oneof(
      fc.constantFrom('', '.', '..', '%2e', '%2E%2e', '%2F', '%2f', '%25', '%255F', '%5F', '_sandbox', 'management', '%C3%A9', 'a%20b'),
      fc.string({ unit: 'grapheme-ascii', maxLength: 6 }),
      // Characters that make escapes and dot segments, a non-ASCII letter and a lone surrogate.
      fc.string({ unit: fc.constantFrom('%', '/', '.', '2', 'e', 'E', 'f', 'F', '5', 'C', '3', 'é', '\uD800', ' '), maxLength: 8 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), fc.boolean(), (pieces, lead) => {
        const raw = `${lead ? '/' : ''}${pieces.join('/')}`;
        const once = canonicalPath(raw);
        if (!once.ok) return true;
        const twice = canonicalPath(once.path);
        return twice.ok && twice.path === once.path;
      }),
      { seed: 27, numRuns: 1000 },
    );
  });

  it('gives the router the segments it decoded before, for any segment not a dot segment', () => {
    const segment = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 8 }).filter((s) => s !== '.' && s !== '..');
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 5 }), (segments) => {
        const raw = `/${segments.map(encodeURIComponent).join('/')}`;
        return pathSegments(canon(raw)).join('\u0000') === segments.join('\u0000');
      }),
      { seed: 27, numRuns: 500 },
    );
  });

  it('splits a prefix off a canonical path on segment boundaries only', () => {
    expect(underPrefix('/management/v1/org', '/management')).toBe('/v1/org');
    expect(underPrefix('/management', '/management')).toBe('/');
    expect(underPrefix('/managementx', '/management')).toBeUndefined();
    expect(underPrefix('/v2/user', '')).toBe('/v2/user');
  });
});

describe('dispatch', () => {
  it('hands its hooks the canonical path, and the 400 of a path that has none', async () => {
    const sandbox = createSandbox({ seed: 27, users: 1, usersElsewhere: 0, logger: () => undefined });
    const seen: Array<[string, number]> = [];
    const observe = (req: SimRequest, res: SimResponse) => seen.push([req.path, res.status]);
    const env = { world: sandbox.world, router: router(), adminToken: undefined, hooks: { observe }, reset: () => undefined };
    const base = { method: 'GET', surface: 'data' as const, query: {}, headers: {}, rawBody: new Uint8Array(0) };
    await dispatch(env, { ...base, path: '//%5Fsandbox/./health/' });
    await dispatch(env, { ...base, path: '/_sandbox/%ZZ' });
    expect(seen).toEqual([
      ['/_sandbox/health', 200],
      ['/_sandbox/%ZZ', 400],
    ]);
    sandbox.close();
  });
});

describe('the route table on canonical paths', () => {
  const table = router();
  /** A path of the route with each parameter filled (a value no static segment uses). */
  const example = (path: string, value: (i: number) => string) => {
    let i = 0;
    return path.replace(/:[A-Za-z0-9_]+/g, () => value(i++));
  };
  /** The literal segments' first letter percent-encoded (what a client that over-encodes sends). */
  const overEncoded = (path: string) => path.replace(/\/([A-Za-z_])/g, (_, c: string) => `/%${c.charCodeAt(0).toString(16).toUpperCase()}`);

  it('matches every route from its own paths, in every spelling', () => {
    const misses: string[] = [];
    for (const route of ROUTES) {
      const plain = example(route.path, (i) => `p-${i}-x`);
      const spellings = [plain, `${plain}/`, `/${plain.replace(/\//g, '//')}`, `/zz/..${plain}`, overEncoded(plain)];
      for (const raw of spellings) {
        const m = table.match(surfaceOf(route), route.method, canon(raw));
        if (m.kind !== 'ok' || m.match.route.id !== route.id) misses.push(`${route.id} ${raw}`);
      }
    }
    expect(misses).toEqual([]);
  });

  it('hands a parameter holding an encoded slash or percent over decoded, as before', () => {
    const withParams = ROUTES.filter((r) => r.path.includes(':'));
    expect(withParams.length).toBeGreaterThan(50);
    for (const route of withParams) {
      const m = table.match(surfaceOf(route), route.method, canon(example(route.path, () => 'a%2Fb%25c%2f%C3%A9')));
      expect(m.kind, route.id).toBe('ok');
      if (m.kind === 'ok') for (const v of Object.values(m.match.params)) expect(v).toBe('a/b%c/é');
    }
  });
});

describe('a recorded verdict (the front door settles, dispatch reads)', () => {
  const request = (path: string) => ({ method: 'GET', surface: 'data' as const, path, query: {}, headers: {}, rawBody: new Uint8Array(0) });

  it('is read without computing again, for the request in flight and for one settled before it (interleaved)', () => {
    const a = settledPath(request('/v2/user/a'), canonicalPath('/v2/user/a'));
    const b = settledPath(request('/v2/%E0%A4%A'), canonicalPath('/v2/%E0%A4%A'));
    const c = settledPath(request('/v2/user/c'), canonicalPath('/v2/user/c'));
    const before = canonicalPathsAsked();
    expect(requestPath(c)).toEqual({ ok: true, path: '/v2/user/c' });
    expect(requestPath(a)).toEqual({ ok: true, path: '/v2/user/a' });
    expect(requestPath(b)).toEqual({ ok: false, detail: PATH_MESSAGES.invalid });
    expect(withCanonicalPath(a)).toBe(a);
    expect(canonicalPathsAsked() - before).toBe(0);
  });

  it('of a request never settled is computed (the same answer)', () => {
    settledPath(request('/v2/user/x'), canonicalPath('/v2/user/x'));
    const before = canonicalPathsAsked();
    expect(requestPath(request('/v2//user/y/'))).toEqual({ ok: true, path: '/v2/user/y' });
    expect(canonicalPathsAsked() - before).toBe(1);
  });
});
