import { describe, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '../../src/engine/auth.js';
import { createClient, forEachAdapter } from '../support/client.js';

/** The smallest world these tests need: the org, its teams and keys only (the default world builds 25 users per team). */
const SMALL = { world: 'empty' } as const;
/** For the tests that read users: one per team environment. */
const ONE_USER = { users: 1 } as const;

forEachAdapter('engine', (adapter) => {
  describe('authentication on data routes', () => {
    it('answers 401 naming the header when the key is missing or unknown', async () => {
      const c = createClient(adapter, SMALL);
      const missing = await c.get('/v2/user', { anonymous: true });
      expect(missing.status).toBe(401);
      expect(missing.headers['content-type']).toMatch(/application\/json/);
      expect(missing.body).toEqual({ detail: AUTH_MESSAGES.missingApiKey });
      expect(missing.body.detail).toContain('x-service-api-key');
      const unknown = await c.get('/v2/user', { headers: { 'x-service-api-key': 'sk_us_nope' } });
      expect(unknown.status).toBe(401);
      expect(unknown.body.detail).toContain('x-service-api-key');
    });

    it('refuses a management key on a data route, in either header', async () => {
      const c = createClient(adapter, SMALL);
      const asApiKey = await c.get('/v2/user', { headers: { 'x-service-api-key': c.managementKey } });
      expect(asApiKey.status).toBe(401);
      expect(asApiKey.body).toEqual({ detail: AUTH_MESSAGES.managementKeyOnData });
      const asMgmt = await c.get('/v2/user', { anonymous: true, headers: { 'X-Management-Key': c.managementKey } });
      expect(asMgmt.status).toBe(401);
      expect(asMgmt.body).toEqual({ detail: AUTH_MESSAGES.managementKeyOnData });
    });

    it('accepts the SDK alias x-vital-api-key and any header case', async () => {
      const c = createClient(adapter, SMALL);
      expect((await c.get('/v2/user', { anonymous: true, headers: { 'x-vital-api-key': c.apiKey } })).status).toBe(200);
      expect((await c.get('/v2/user', { anonymous: true, headers: { 'X-Service-API-Key': c.apiKey } })).status).toBe(200);
      expect((await c.get('/v2/user', { anonymous: true, headers: { 'X-VITAL-API-KEY': c.apiKey } })).status).toBe(200);
    });

    it('checks auth before validation, like the real service', async () => {
      const c = createClient(adapter, SMALL);
      const res = await c.get('/v2/user/not-a-uuid', { anonymous: true });
      expect(res.status).toBe(401);
    });
  });

  describe('keys', () => {
    it('look like the real ones and derive from the seed', async () => {
      const c = createClient(adapter, { ...SMALL, seed: 42 });
      const [us, eu] = c.creds.teams;
      expect(us?.region).toBe('us');
      expect(eu?.region).toBe('eu');
      expect(us?.api_keys.sandbox).toMatch(/^sk_us_[A-Za-z0-9]{32}$/);
      expect(us?.api_keys.production).toMatch(/^pk_us_[A-Za-z0-9]{32}$/);
      expect(eu?.api_keys.sandbox).toMatch(/^sk_eu_[A-Za-z0-9]{32}$/);
      expect(eu?.api_keys.production).toMatch(/^pk_eu_[A-Za-z0-9]{32}$/);
      expect(c.managementKey).toMatch(/^mg_[A-Za-z0-9]{40}$/);
      const { base_url: _b, management_url: _m, ...same } = c.creds;
      expect(createClient(adapter, { ...SMALL, seed: 42 }).creds).toMatchObject(same);
      expect(createClient(adapter, { ...SMALL, seed: 43 }).apiKey).not.toBe(c.apiKey);
    });
  });

  describe('unknown routes and errors', () => {
    it('answers JSON 404 for an unknown route and 405 for a known path with the wrong method', async () => {
      const c = createClient(adapter, SMALL);
      const unknown = await c.get('/v2/nothing/here');
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ detail: 'Not Found' });
      const method = await c.call('PUT', '/v2/user');
      expect(method.status).toBe(405);
      expect(method.body).toEqual({ detail: 'Method Not Allowed' });
      expect(method.headers['allow']).toContain('GET');
      const mgmt = await c.mgmt('GET', '/v2/user');
      expect(mgmt.status).toBe(404);
    });

    it('answers HEAD like GET without a body, as Starlette does', async () => {
      const c = createClient(adapter, SMALL);
      const head = await c.call('HEAD', '/v2/user');
      expect(head.status).toBe(200);
      expect(head.headers['content-type']).toMatch(/application\/json/);
      expect(head.text).toBe('');
      expect((await c.call('HEAD', '/v2/user', { anonymous: true })).status).toBe(401);
    });

    it('turns an uncaught error into a logged JSON 500 without a stack trace', async () => {
      const logged: string[] = [];
      const c = createClient(adapter, { ...ONE_USER, logger: (message) => logged.push(message) });
      c.sandbox.world.hooks.connectedSources = () => {
        throw new Error('boom at /secret/path.ts:12');
      };
      const res = await c.get('/v2/user');
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ detail: 'Internal error' });
      expect(res.text).not.toContain('boom');
      expect(logged.some((m) => m.includes('/v2/user'))).toBe(true);
    });
  });

  describe('control plane', () => {
    it('serves health, credentials and the clock', async () => {
      const c = createClient(adapter, { ...SMALL, startAt: '2026-03-01T00:00:00Z' });
      expect((await c.get('/_sandbox/health')).body).toEqual({ status: 'ok' });
      const creds = (await c.get('/_sandbox/credentials')).body;
      expect(Object.keys(creds)).toEqual(['base_url', 'management_url', 'org_id', 'management_key', 'teams']);
      expect(creds.org_id).toBe(c.orgId);
      expect(creds.teams[0]).toEqual({
        team_id: c.creds.teams[0]?.team_id,
        name: 'Sandbox Team US',
        region: 'us',
        api_keys: c.creds.teams[0]?.api_keys,
      });
      expect(creds.management_url).toBe(`${creds.base_url}/management`);
      expect((await c.get('/_sandbox/clock')).body).toEqual({ now: '2026-03-01T00:00:00.000Z', mode: 'manual', scale: 1 });
    });

    it('advances by seconds, ISO duration or until a time, and refuses bad input', async () => {
      const c = createClient(adapter, { ...SMALL, startAt: '2026-03-01T00:00:00Z' });
      expect((await c.post('/_sandbox/clock/advance', { seconds: 90 })).body.now).toBe('2026-03-01T00:01:30.000Z');
      expect((await c.post('/_sandbox/clock/advance', { duration: 'P1DT2H' })).body.now).toBe('2026-03-02T02:01:30.000Z');
      expect((await c.post('/_sandbox/clock/advance', { until: '2026-03-05T00:00:00Z' })).body.now).toBe('2026-03-05T00:00:00.000Z');
      for (const body of [
        {},
        { seconds: -1 },
        { seconds: 'soon' },
        { duration: 'P1Y' },
        { duration: 'tomorrow' },
        { until: '2020-01-01T00:00:00Z' },
        { seconds: 1, duration: 'PT1S' },
      ]) {
        const res = await c.post('/_sandbox/clock/advance', body);
        expect(res.status, JSON.stringify(body)).toBe(422);
        expect(res.body.detail).toBeDefined();
      }
      expect((await c.get('/_sandbox/clock')).body.now).toBe('2026-03-05T00:00:00.000Z');
    });

    it('resets to a fresh world, optionally with another seed', async () => {
      const c = createClient(adapter, ONE_USER);
      const user = (await c.post('/v2/user', { client_user_id: 'before-reset' })).body;
      await c.advance(3600);
      expect((await c.post('/_sandbox/reset', {})).status).toBe(200);
      expect((await c.get(`/v2/user/${user.user_id}`)).status).toBe(404);
      expect((await c.get('/_sandbox/clock')).body.now).toBe('2026-01-05T09:00:00.000Z');
      expect((await c.get('/v2/user')).body.total).toBe(ONE_USER.users);
      await c.post('/_sandbox/reset', { seed: 9 });
      expect((await c.get('/v2/user')).status).toBe(401);
      const fresh = (await c.get('/_sandbox/credentials')).body;
      expect(fresh.teams[0].api_keys.sandbox).not.toBe(c.apiKey);
      expect((await c.post('/_sandbox/reset', { seed: 'nine' })).status).toBe(422);
    });

    it('requires the admin token when one is configured', async () => {
      const c = createClient(adapter, { ...SMALL, adminToken: 's3cret' });
      expect((await c.get('/_sandbox/health')).status).toBe(401);
      expect((await c.get('/_sandbox/health', { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
      expect((await c.get('/_sandbox/health', { headers: { authorization: 'Bearer s3cret' } })).body).toEqual({ status: 'ok' });
    });

    it('lists the event journal and pending jobs', async () => {
      const c = createClient(adapter, SMALL);
      const user = (await c.post('/v2/user', { client_user_id: 'jobs-1' })).body;
      await c.delete(`/v2/user/${user.user_id}`);
      const jobs = (await c.get('/_sandbox/jobs')).body;
      expect(jobs.jobs.some((j: { label: string; at: string }) => j.label === 'users.purge' && j.at === '2026-01-12T09:00:00.000Z')).toBe(
        true,
      );
      const events = await c.get('/_sandbox/events', { query: { limit: 5 } });
      expect(events.status).toBe(200);
      expect(Array.isArray(events.body.events)).toBe(true);
      expect((await c.get('/_sandbox/events', { query: { limit: 0 } })).status).toBe(422);
    });
  });
});

forEachAdapter('self-description', (adapter) => {
  it('lists every route of the table and serves OpenAPI documents with one operation per route', async () => {
    const c = createClient(adapter, SMALL);
    const { ROUTES } = await import('../../src/routes.js');
    const listing = (await c.get('/_sandbox/routes')).body;
    expect(listing.routes.map((r: { id: string }) => r.id)).toEqual(ROUTES.map((r) => r.id));
    const docs = [
      (await c.get('/_sandbox/openapi.json')).body,
      (await c.get('/openapi.json')).body,
      (await c.get('/openapi.json', { surface: 'management' })).body,
    ];
    for (const doc of docs) expect(doc.openapi).toBe('3.1.0');
    const ops = docs.flatMap((doc) =>
      Object.values(doc.paths as Record<string, Record<string, { operationId: string }>>).flatMap((p) =>
        Object.values(p).map((o) => o.operationId),
      ),
    );
    expect(ops.sort()).toEqual(ROUTES.map((r) => r.id).sort());
    expect(docs[1].paths['/v2/user/{user_id}'].get.parameters[0]).toMatchObject({ name: 'user_id', in: 'path', required: true });
  });
});
