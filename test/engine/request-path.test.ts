/**
 * The request path's shortcuts (issue 33, the HTTP row) answer exactly what the long way did: the
 * segment-tree router (literals before parameters, position by position, with backtracking; the
 * 405's `allow` in table order), remembered path parameters (a refusal is zod's every time), the
 * journal's shared head (one object for a repeated head, never for another order), the last
 * partition at hand (forgotten with its team), and dispatch answering without a promise of its own
 * for synchronous handlers and with one for asynchronous ones.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { dispatch } from '../../src/engine/dispatch.js';
import { MESSAGES } from '../../src/engine/errors.js';
import { jsonBytes } from '../../src/engine/render.js';
import type { Reply, SimRequest } from '../../src/engine/http-types.js';
import { defineRoute, type Route } from '../../src/engine/route.js';
import { Router } from '../../src/engine/router.js';
import { parsePathParams, parseWith } from '../../src/engine/validation.js';
import { createSandbox } from '../../src/index.js';

function route(
  id: string,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  handle: () => Reply | Promise<Reply> = () => ({ status: 200 }),
): Route {
  return defineRoute({ id, method, path, auth: 'none', summary: id, responses: {}, handle });
}

const table = [
  route('a', 'GET', '/v1/:x/c'),
  route('b', 'GET', '/v1/a/:y'),
  route('c', 'POST', '/v1/:z/d'),
  route('d', 'DELETE', '/v1/:x/c'),
  route('e', 'POST', '/v1/:x/c'),
  route('f', 'GET', '/'),
  route('g', 'GET', '/v1/b/only'),
];

describe('the segment tree router', () => {
  const router = new Router(table);

  it('prefers a literal at the first position where shapes differ, and backtracks when it leads nowhere', () => {
    const hit = (method: string, path: string) => {
      const m = router.match('data', method, path);
      return m.kind === 'ok' ? [m.match.route.id, m.match.params] : m;
    };
    expect(hit('GET', '/v1/a/c')).toEqual(['b', { y: 'c' }]);
    // `/v1/b/c`: the literal `b` leads only to `/v1/b/only`; back to the parameter.
    expect(hit('GET', '/v1/b/c')).toEqual(['a', { x: 'b' }]);
    expect(hit('GET', '/v1/b/only')).toEqual(['g', {}]);
    // `/v1/a/d`: the literal `a` leads to `b`'s shape, which has no POST; the shape found first wins.
    expect(hit('POST', '/v1/a/d')).toEqual({ kind: 'method', allow: ['GET'] });
    expect(hit('POST', '/v1/q/d')).toEqual(['c', { z: 'q' }]);
    expect(hit('GET', '/')).toEqual(['f', {}]);
    expect(hit('GET', '/v1')).toEqual({ kind: 'none' });
    expect(router.match('management', 'GET', '/')).toEqual({ kind: 'none' });
  });

  it("answers a 405's allowed methods in table order", () => {
    expect(router.match('data', 'PATCH', '/v1/b/c')).toEqual({ kind: 'method', allow: ['GET', 'DELETE', 'POST'] });
  });

  it('turns only the kept %2F and %25 back inside a segment', () => {
    const m = router.match('data', 'GET', '/v1/a%2Fb%25/c');
    expect(m.kind === 'ok' && m.match.params).toEqual({ x: 'a/b%' });
  });
});

describe('remembered path parameters', () => {
  const schema = z.object({ id: z.guid() });
  const good = '0b6b4c1e-8f1e-4d1a-9d7e-3c2b1a0f9e8d';

  it('answers what zod answers, a fresh object each time, and refuses every time', () => {
    const first = parsePathParams(schema, { id: good });
    const second = parsePathParams(schema, { id: good });
    expect(second).toEqual(parseWith(schema, { id: good }, 'path'));
    expect(second).not.toBe(first);
    for (let i = 0; i < 2; i++) expect(() => parsePathParams(schema, { id: 'nope' })).toThrow();
  });

  it('leaves schemas of several parameters to zod', () => {
    const two = z.object({ a: z.string(), b: z.coerce.number() });
    expect(parsePathParams(two, { a: 'x', b: '2' })).toEqual({ a: 'x', b: 2 });
  });
});

describe('the journal', () => {
  const sandbox = createSandbox({ seed: 3, users: 1, usersElsewhere: 0, feed: 'off', logger: () => undefined });
  const key = sandbox.credentials().teams[0]?.api_keys.sandbox as string;
  const get = (headers: Record<string, string>): SimRequest => ({
    method: 'GET',
    surface: 'data',
    path: '/v2/user',
    query: {},
    headers,
    rawBody: new Uint8Array(0),
  });

  it('keeps one object for a repeated head, and each head in its own order', async () => {
    await sandbox.dispatch(get({ 'x-service-api-key': key, accept: 'application/json' }));
    await sandbox.dispatch(get({ 'x-service-api-key': key, accept: 'application/json' }));
    await sandbox.dispatch(get({ accept: 'application/json', 'x-service-api-key': key }));
    await sandbox.dispatch(get({ accept: 'application/json' }));
    const [fourth, third, second, first] = [...sandbox.requests.newestFirst()];
    expect(second?.headers).toBe(first?.headers);
    expect(Object.keys(third?.headers ?? {})).toEqual(['accept', 'x-service-api-key']);
    expect(third?.headers).not.toBe(second?.headers);
    expect(fourth?.headers).toEqual({ accept: 'application/json' });
    expect(fourth?.status).toBe(401);
  });
});

describe('the last partition at hand', () => {
  it('is forgotten with its team', () => {
    const sandbox = createSandbox({ seed: 4, users: 1, feed: 'off', logger: () => undefined });
    const { tenancy } = sandbox.world;
    const team = [...tenancy.teams.values()][0];
    if (!team) throw new Error('no team');
    const p = tenancy.partition(team, 'sandbox');
    expect(tenancy.partition(team, 'sandbox')).toBe(p);
    expect(tenancy.partition(team, 'production')).not.toBe(p);
    tenancy.deleteTeam(team.id);
    expect(tenancy.partition(team, 'sandbox')).not.toBe(p);
  });
});

describe('dispatch', () => {
  const sandbox = createSandbox({ seed: 5, users: 0, feed: 'off', logger: () => undefined });
  const env = (routes: Route[]) => ({ world: sandbox.world, router: new Router(routes), adminToken: undefined, reset: () => undefined });
  const req = (path: string): SimRequest => ({ method: 'GET', surface: 'data', path, query: {}, headers: {}, rawBody: new Uint8Array(0) });
  const text = (body: Uint8Array) => new TextDecoder().decode(body);

  it('answers the same for a synchronous and an asynchronous handler, errors included', async () => {
    const routes = [
      route('sync', 'GET', '/s', () => ({ status: 200, body: { a: 1 } })),
      route('async', 'GET', '/a', async () => ({ status: 200, body: { a: 1 } })),
      route('throws', 'GET', '/t', () => {
        throw new Error('boom');
      }),
      route('rejects', 'GET', '/r', () => Promise.reject(new Error('boom'))),
      route('circular', 'GET', '/c', async () => {
        const body: Record<string, unknown> = {};
        body.self = body;
        return { status: 200, body };
      }),
    ];
    const e = { ...env(routes), world: { ...sandbox.world, log: () => undefined } as typeof sandbox.world };
    const [s, a] = [await dispatch(e, req('/s')), await dispatch(e, req('/a'))];
    expect([s.status, text(s.body), s.headers]).toEqual([a.status, text(a.body), a.headers]);
    for (const path of ['/t', '/r', '/c']) {
      const res = await dispatch(e, req(path));
      expect([res.status, text(res.body)]).toEqual([500, JSON.stringify({ detail: MESSAGES.internal })]);
    }
    const head = await dispatch(e, { ...req('/a'), method: 'HEAD' });
    expect([head.status, head.body.byteLength, head.headers]).toEqual([200, 0, a.headers]);
  });
});

describe('pooled JSON bytes', () => {
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

  it('encode small answers one after the other into a shared buffer, each its own bytes', () => {
    const values = Array.from({ length: 200 }, (_, i) => ({ i, name: `naïve ☃ ${'x'.repeat(i * 2)}` }));
    const bytes = values.map(jsonBytes);
    bytes.forEach((b, i) => expect(text(b)).toBe(JSON.stringify(values[i])));
    expect(bytes[1]?.buffer).toBe(bytes[0]?.buffer);
    expect(new Set(bytes.map((b) => b.buffer)).size).toBeGreaterThan(1);
    const big = jsonBytes({ s: 'y'.repeat(5000) });
    expect(big.byteLength).toBe(big.buffer.byteLength);
    expect(text(jsonBytes(undefined))).toBe('');
  });

  it('are copied when the journal keeps them (no pool kept alive by a record)', async () => {
    const sandbox = createSandbox({ seed: 6, users: 1, feed: 'off', requests: { bodies: true }, logger: () => undefined });
    const key = sandbox.credentials().teams[0]?.api_keys.sandbox as string;
    const get = {
      method: 'GET',
      surface: 'data' as const,
      path: '/v2/user',
      query: {},
      headers: { 'x-service-api-key': key },
      rawBody: new Uint8Array(0),
    };
    const res = await sandbox.dispatch(get);
    expect(res.body.byteLength).toBeLessThan(res.body.buffer.byteLength);
    const [record] = [...sandbox.requests.newestFirst()];
    const kept = record?.responseBody as Uint8Array;
    expect(text(kept)).toBe(text(res.body));
    expect(kept.byteLength).toBe(kept.buffer.byteLength);
  });
});
