/**
 * The request journal on both adapters: what a request recorded (route, team, status, times,
 * duration, masked keys, bodies of errors only), the 422's fields, filters, the ring's bound, that
 * it survives a reset, that its own reads are not recorded, and `control.requests.expect`.
 */
import { expect, it } from 'vitest';
import { forEachAdapter } from '../support/client.js';
import { journalClient, WALL } from './support.js';

forEachAdapter('request journal', (adapter) => {
  it('records a request with its route, team, times and duration, keys masked, bodies only for errors', async () => {
    const { c, control } = journalClient(adapter);
    expect((await c.get('/v2/user')).status).toBe(200);
    const created = await c.post('/v2/user', { client_user_id: 'journal-1' });
    expect(created.status).toBe(200);
    const dup = await c.post('/v2/user', { client_user_id: 'journal-1' });
    expect(dup.status).toBe(400);
    const [last, second, first] = await control.requests.list();
    expect(first).toMatchObject({
      method: 'GET',
      path: '/v2/user',
      route_id: 'users.list',
      team_id: c.creds.teams[0]!.team_id,
      environment: 'sandbox',
      status: 200,
      duration_ms: 2,
      sandbox_time: '2026-01-05T09:00:00.000Z',
      wall_time: new Date(WALL).toISOString(),
      request: { body: null },
      response: { body: null },
    });
    expect(first!.response.body_bytes).toBeGreaterThan(10);
    // Keys are cut to a short prefix.
    const key = first!.request.headers['x-vital-api-key'] ?? first!.request.headers['x-service-api-key'];
    expect(key).toMatch(/\*\*\*$/);
    expect(key!.length).toBeLessThan(12);
    expect(JSON.stringify(first)).not.toContain(c.apiKey);
    expect(second).toMatchObject({ route_id: 'users.create', status: 200, request: { body: null } });
    // An error keeps both bodies.
    expect(last).toMatchObject({ route_id: 'users.create', status: 400 });
    expect(JSON.parse(last!.request.body!)).toEqual({ client_user_id: 'journal-1' });
    expect(JSON.parse(last!.response.body!).detail).toBeDefined();
    expect(last!.seq).toBeGreaterThan(first!.seq);
  });

  it('records the fields a 422 refused and masks secrets inside bodies', async () => {
    const { c, control } = journalClient(adapter);
    const bad = await c.get('/v2/user', { query: { limit: 'many' } });
    expect(bad.status).toBe(422);
    const secret = await c.post('/v2/user', { client_user_id: 5, secret: 'whsec_abcdefghijklmnopqrstuvwxyz' });
    expect(secret.status).toBe(422);
    const [withSecret, invalid] = await control.requests.list({ status: 422 });
    expect(invalid!.invalid).toEqual([['query', 'limit']]);
    expect(withSecret!.invalid).toContainEqual(['body', 'client_user_id']);
    expect(withSecret!.request.body).not.toContain('abcdefghijklmnop');
    expect(JSON.parse(withSecret!.request.body!).secret).toMatch(/^.{1,8}\*\*\*$/);
  });

  it('keeps every body with bodies on, filters, and stays bounded', async () => {
    const { c, control } = journalClient(adapter, { requests: { size: 3, bodies: true } });
    await c.post('/v2/user', { client_user_id: 'kept-1' });
    for (let i = 0; i < 4; i++) await c.get('/v2/user');
    await c.get('/v2/nothing-here');
    const page = await control.requests.page();
    expect(page.size).toBe(3);
    expect(page.recorded).toBe(6);
    expect(page.bodies).toBe(true);
    expect(page.requests.map((r) => r.seq)).toEqual([6, 5, 4]);
    expect(page.requests[1]!.response.body).toContain('"users"');
    expect((await control.requests.list({ status: '4xx' })).map((r) => r.path)).toEqual(['/v2/nothing-here']);
    expect((await control.requests.list({ route: 'users.*', limit: 1 })).map((r) => r.seq)).toEqual([5]);
    expect((await control.requests.list({ route: 'none' })).map((r) => r.seq)).toEqual([6]);
    expect((await control.requests.list({ since: 'req_4' })).map((r) => r.seq)).toEqual([6, 5]);
    expect((await control.requests.list({ path: 'nothing' })).map((r) => r.seq)).toEqual([6]);
    expect(await control.requests.list({ team_id: 'no-such-team' })).toEqual([]);
    expect((await c.get('/_sandbox/requests', { query: { status: 'teapot' } })).status).toBe(422);
  });

  it('survives a reset; its own reads and the inspector are not recorded', async () => {
    const { c, control } = journalClient(adapter);
    await c.get('/v2/user');
    await c.get('/v2/user', { headers: { 'x-sandbox-inspector': '1' } });
    await control.requests.list();
    await control.reset();
    await c.get('/v2/user');
    const list = await control.requests.list();
    expect(list.map((r) => r.route_id)).toEqual(['users.list', 'sandbox.reset', 'users.list']);
  });

  it('expect() answers the newest match, or fails listing the closest requests', async () => {
    const { c, control } = journalClient(adapter);
    await c.post('/v2/user', { client_user_id: 'expect-1' });
    await c.get('/v2/usr');
    const hit = await control.requests.expect({ method: 'POST', path: '/v2/user', status: 200 });
    expect(hit.route_id).toBe('users.create');
    expect(await control.requests.expect({ route: 'none', status: 404 })).toMatchObject({ path: '/v2/usr' });
    const miss = control.requests.expect({ method: 'GET', path: '/v2/users', status: 200 });
    await expect(miss).rejects.toThrow(
      /No request matched .*\n.*Closest requests:\n.*GET \/v2\/usr -> 404 \(no route; nearly GET \/v2\/user/s,
    );
  });
});
