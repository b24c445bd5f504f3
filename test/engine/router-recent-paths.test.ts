/**
 * The router's memo of recent paths (src/engine/router.ts): a path asked again answers exactly
 * what it answered the first time, with params of its own, on each surface apart, and past the
 * memo's size.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineRoute } from '../../src/engine/route.js';
import { json } from '../../src/engine/http-types.js';
import { Router } from '../../src/engine/router.js';

const route = (id: string, method: 'GET' | 'POST' | 'DELETE', path: string, surface?: 'management') =>
  defineRoute({
    id,
    method,
    path,
    auth: surface === 'management' ? 'management' : 'team',
    summary: id,
    request: { params: z.object({}).passthrough() },
    responses: { 200: 'ok' },
    handle: () => json({ id }),
  });

const router = new Router([
  route('get-user', 'GET', '/v2/user/:user_id'),
  route('delete-user', 'DELETE', '/v2/user/:user_id'),
  route('undo', 'POST', '/v2/user/undo_delete'),
  route('mgmt-team', 'GET', '/v2/team/:team_id', 'management'),
]);

const ok = (r: ReturnType<Router['match']>) => (r.kind === 'ok' ? r.match : undefined);

describe('the router, asked the same path again', () => {
  it('answers the same route and params, and each match has params of its own', () => {
    const first = ok(router.match('data', 'GET', '/v2/user/abc'));
    if (first) first.params.user_id = 'changed by a handler';
    const second = ok(router.match('data', 'GET', '/v2/user/abc'));
    expect(second?.route.id).toBe('get-user');
    expect(second?.params).toEqual({ user_id: 'abc' });
    expect(second?.params).not.toBe(first?.params);
  });

  it('matches by method on a remembered path: another method, a 405 with its allow list', () => {
    expect(ok(router.match('data', 'GET', '/v2/user/u1'))?.route.id).toBe('get-user');
    expect(ok(router.match('data', 'DELETE', '/v2/user/u1'))?.route.id).toBe('delete-user');
    expect(router.match('data', 'POST', '/v2/user/u1')).toEqual({ kind: 'method', allow: ['GET', 'DELETE'] });
    expect(router.match('data', 'POST', '/v2/user/u1')).toEqual({ kind: 'method', allow: ['GET', 'DELETE'] });
  });

  it('keeps the surfaces apart: a path remembered on one is not a match on the other', () => {
    expect(ok(router.match('management', 'GET', '/v2/team/t1'))?.route.id).toBe('mgmt-team');
    expect(router.match('data', 'GET', '/v2/team/t1')).toEqual({ kind: 'none' });
    expect(ok(router.match('data', 'GET', '/v2/user/t1'))?.route.id).toBe('get-user');
    expect(router.match('management', 'GET', '/v2/user/t1')).toEqual({ kind: 'none' });
  });

  it('answers the same past the memo size, and for paths too long to remember', () => {
    for (let i = 0; i < 3000; i++) expect(ok(router.match('data', 'GET', `/v2/user/u${i}`))?.params).toEqual({ user_id: `u${i}` });
    for (let i = 0; i < 3000; i += 7) expect(ok(router.match('data', 'GET', `/v2/user/u${i}`))?.params).toEqual({ user_id: `u${i}` });
    const long = `/v2/user/${'x'.repeat(400)}`;
    expect(ok(router.match('data', 'GET', long))?.params).toEqual({ user_id: 'x'.repeat(400) });
    expect(ok(router.match('data', 'GET', long))?.params).toEqual({ user_id: 'x'.repeat(400) });
  });

  it('a path decoded into its segment (%2F) is remembered as the same parameter', () => {
    expect(ok(router.match('data', 'GET', '/v2/user/a%2Fb'))?.params).toEqual({ user_id: 'a/b' });
    expect(ok(router.match('data', 'GET', '/v2/user/a%2Fb'))?.params).toEqual({ user_id: 'a/b' });
  });
});
