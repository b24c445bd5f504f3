/** Route order: a static segment always beats a parameter, whatever the method. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineRoute } from '../../src/engine/route.js';
import { json } from '../../src/engine/http-types.js';
import { Router } from '../../src/engine/router.js';
import { createClient, forEachAdapter } from '../support/client.js';

const route = (id: string, method: 'GET' | 'POST' | 'DELETE', path: string) =>
  defineRoute({
    id,
    method,
    path,
    auth: 'team',
    summary: id,
    request: { params: z.object({}).passthrough() },
    responses: { 200: 'ok' },
    handle: () => json({ id }),
  });

describe('router', () => {
  const router = new Router([
    route('get-param', 'GET', '/v2/user/:user_id'),
    route('delete-param', 'DELETE', '/v2/user/:user_id'),
    route('post-static', 'POST', '/v2/user/undo_delete'),
    route('get-deep-param', 'GET', '/v2/user/:user_id/info'),
    route('get-deep-static', 'GET', '/v2/user/metrics/info'),
    route('get-mixed', 'GET', '/v2/a/:x/c'),
    route('get-mixed2', 'GET', '/v2/a/b/:y'),
  ]);
  const id = (method: string, path: string) => {
    const m = router.match('data', method, path);
    return m.kind === 'ok' ? m.match.route.id : m.kind === 'method' ? `405 ${m.allow.join(',')}` : '404';
  };

  it('sends a static path to its own route and answers 405 for another method, never the parameter route', () => {
    expect(id('POST', '/v2/user/undo_delete')).toBe('post-static');
    expect(id('GET', '/v2/user/undo_delete')).toBe('405 POST');
    expect(id('DELETE', '/v2/user/undo_delete')).toBe('405 POST');
    expect(id('GET', '/v2/user/abc')).toBe('get-param');
    expect(id('POST', '/v2/user/abc')).toBe('405 GET,DELETE');
  });

  it('prefers the leftmost static segment and keeps parameters elsewhere', () => {
    expect(id('GET', '/v2/user/metrics/info')).toBe('get-deep-static');
    expect(id('GET', '/v2/user/u1/info')).toBe('get-deep-param');
    expect(id('GET', '/v2/a/b/c')).toBe('get-mixed2');
    expect(id('GET', '/v2/a/z/c')).toBe('get-mixed');
  });
});

forEachAdapter('route order on the served table', (adapter) => {
  it('GET /v2/user/undo_delete is a 405 (a static path), not a malformed user id', async () => {
    const c = createClient(adapter, { seed: 2, users: 2 });
    const res = await c.get('/v2/user/undo_delete');
    expect(res.status).toBe(405);
    expect(res.headers['allow']).toBe('POST');
  });
});
