/**
 * Near misses: a request no route matched keeps the engine's 404 (or 405) body, and the journal
 * records the closest routes: another method, the other URL, a missing version prefix, one
 * segment off. A request a route matched (even a 404 of the handler) has none.
 */
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../../src/engine/errors.js';
import { ROUTES } from '../../src/routes.js';
import { nearMisses } from '../../src/engine/journal-near.js';
import { pathOfPattern, pathSimilarity } from '../../src/testing/path-similarity.js';
import { forEachAdapter } from '../support/client.js';
import { journalClient } from './support.js';

describe('nearMisses (route table only)', () => {
  it('ranks method, surface, version and segment misses', () => {
    expect(nearMisses(ROUTES, 'data', 'DELETE', '/v2/user')[0]).toMatchObject({ kind: 'method', path: '/v2/user' });
    expect(nearMisses(ROUTES, 'data', 'GET', '/user')[0]).toMatchObject({ kind: 'version', route_id: 'users.list' });
    expect(nearMisses(ROUTES, 'data', 'GET', '/v1/user')[0]).toMatchObject({ kind: 'version', route_id: 'users.list' });
    expect(nearMisses(ROUTES, 'data', 'GET', '/v2/usr')[0]).toMatchObject({
      kind: 'segment',
      route_id: 'users.list',
      hint: '"user", not "usr"',
    });
    const org = nearMisses(ROUTES, 'data', 'GET', '/v1/org/abc/team');
    expect(org[0]).toMatchObject({ kind: 'surface', surface: 'management', route_id: 'management.team.list' });
    expect(nearMisses(ROUTES, 'data', 'GET', '/completely/unrelated/thing/here/x')).toEqual([]);
    expect(nearMisses(ROUTES, 'data', 'GET', '/v2/usr').length).toBeLessThanOrEqual(5);
  });
});

forEachAdapter('near misses in the journal', (adapter) => {
  it('keeps the real 404 and 405 bodies and records the closest routes', async () => {
    const { c, control } = journalClient(adapter);
    const missing = await c.get('/v2/usr');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ detail: MESSAGES.notFound });
    const method = await c.call('PUT', '/v2/user');
    expect(method.status).toBe(405);
    const [put, usr] = await control.requests.list({ route: 'none' });
    expect(usr!.near_misses![0]).toMatchObject({ route_id: 'users.list', kind: 'segment' });
    expect(usr!.response.body).toBe(JSON.stringify({ detail: MESSAGES.notFound }));
    expect(put!.near_misses!.map((n) => n.method)).toEqual(expect.arrayContaining(['GET', 'POST']));
    expect(put!.near_misses!.every((n) => n.kind === 'method')).toBe(true);
  });

  it('has none for a matched route, even a 404 of the handler', async () => {
    const { c, control } = journalClient(adapter);
    const res = await c.get('/v2/user/00000000-0000-4000-8000-000000000000');
    expect(res.status).toBe(404);
    const [entry] = await control.requests.list();
    expect(entry).toMatchObject({ route_id: 'users.get', near_misses: null, status: 404 });
  });
});

describe('path similarity (requests.expect ranks the closest requests by it first)', () => {
  it('alike paths score high, unrelated ones low', () => {
    const want = '/v2/users';
    const user = pathSimilarity(want, '/v2/user/00000000-0000-4000-8000-000000000000');
    const usr = pathSimilarity(want, '/v2/usr');
    const hooks = pathSimilarity(want, '/_sandbox/receiver/hooks');
    expect(user).toBeGreaterThan(hooks);
    expect(usr).toBeGreaterThan(hooks);
    expect(pathSimilarity('/v2/user/{user_id}', '/v2/user/00000000-0000-4000-8000-000000000000')).toBeGreaterThan(0.9);
    expect(pathSimilarity('/v2/user', '/v2/user')).toBe(1);
    expect(pathSimilarity('/', '/')).toBe(1);
    expect(pathOfPattern(/^\/v2\/user\/[^/]+$/)).toBe('/v2/user/{x}');
  });
});

forEachAdapter('requests.expect near misses', (adapter) => {
  it('lists the requests whose path is closest first, not the newest of the method', async () => {
    const { c, control } = journalClient(adapter);
    const users = await c.get('/v2/user');
    const id = users.body.users[0].user_id as string;
    await c.get(`/v2/user/${id}`);
    await c.get('/v2/usr');
    // Newer, same method, unrelated path: what the old ranking (fields met, then recency) listed first.
    for (let i = 0; i < 6; i++) await c.get('/_sandbox/health');
    const miss = control.requests.expect({ method: 'GET', path: '/v2/users' });
    const error = await miss.then(
      () => new Error('matched'),
      (e: Error) => e,
    );
    const lines = error.message.split('\n').slice(2);
    expect(lines[0]).toMatch(/GET \/v2\/(user|usr)/);
    expect(lines.slice(0, 3).join('\n')).toContain('/v2/usr');
    expect(lines.slice(0, 3).join('\n')).toContain(`/v2/user/${id}`);
    expect(lines.slice(0, 3).join('\n')).not.toContain('/_sandbox/health');
  });
});
