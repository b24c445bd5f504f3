/**
 * HTTP faults (issue 28) through the control plane, on every adapter: express, the CLI's node:http
 * server, msw `setupServer` and the fetch handler. A status answer (the real error body unless one
 * is given), a dropped connection, a malformed body and a late answer; `times`, `after`, team and
 * environment matching, control routes never faulted, a faulted request changing nothing.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FAULT_BODIES, MALFORMED_BODY } from '../../src/engine/faults.js';
import { ALL_ADAPTERS, createClient, type TestClient } from '../support/client.js';

const small = { seed: 3, users: 2, usersElsewhere: 1, feed: 'off' as const };

afterEach(() => {
  vi.restoreAllMocks();
});

async function addFault(c: TestClient, rule: unknown): Promise<any> {
  const res = await c.post('/_sandbox/faults', rule);
  expect(res.status, res.text).toBe(200);
  return res.body;
}

for (const adapter of ALL_ADAPTERS) {
  describe(`HTTP faults [${adapter}]`, () => {
    it('answers a status with the real error body and the given headers, `times` times, then the real answer', async () => {
      const c = createClient(adapter, small);
      const rule = await addFault(c, {
        match: { method: 'GET', path: '/v2/user/*' },
        action: { status: 429, headers: { 'retry-after': '0' } },
        times: 2,
      });
      expect(rule).toMatchObject({ match: { method: 'GET', path: '/v2/user/*' }, times: 2, remaining: 2, fired: 0 });
      const users = (await c.get('/v2/user')).body.users;
      const path = `/v2/user/${users[0].user_id}`;
      for (let i = 0; i < 2; i++) {
        const res = await c.get(path);
        expect(res.status).toBe(429);
        expect(res.headers['retry-after']).toBe('0');
        expect(res.headers['content-type']).toContain('application/json');
        expect(res.body).toEqual({ detail: FAULT_BODIES[429] });
      }
      expect((await c.get('/_sandbox/faults')).body.faults).toEqual([]);
      expect((await c.get(path)).status).toBe(200);
    });

    it('answers the given body instead, and lists remaining times and counts', async () => {
      const c = createClient(adapter, small);
      const rule = await addFault(c, {
        match: { route: 'users.list' },
        action: { status: 503, body: { detail: 'down for maintenance' } },
        times: 3,
      });
      expect((await c.get('/v2/user')).body).toEqual({ detail: 'down for maintenance' });
      const listed = (await c.get('/_sandbox/faults')).body.faults;
      expect(listed).toEqual([{ ...rule, remaining: 2, matched: 1, fired: 1 }]);
      expect((await c.delete(`/_sandbox/faults/${rule.id}`)).body.id).toBe(rule.id);
      expect((await c.delete(`/_sandbox/faults/${rule.id}`)).status).toBe(404);
      expect((await c.get('/v2/user')).status).toBe(200);
    });

    it('drops the connection: the client sees a network error, never an answer', async () => {
      const c = createClient(adapter, small);
      await addFault(c, { match: { path: '/v2/user' }, action: { drop: true }, times: 1 });
      await expect(c.get('/v2/user')).rejects.toThrow();
      expect((await c.get('/v2/user')).status).toBe(200);
    });

    it('answers a malformed 200: JSON cut short', async () => {
      const c = createClient(adapter, small);
      await addFault(c, { match: { path: '/v2/user' }, action: { malformed: true } });
      const res = await c.get('/v2/user');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toContain('application/json');
      expect(res.text).toBe(MALFORMED_BODY);
      expect(() => JSON.parse(res.text)).toThrow();
    });

    it('answers late: the real answer after a wall-time wait that never moves the sandbox clock', async () => {
      const c = createClient(adapter, small);
      await addFault(c, { match: { path: '/v2/user' }, action: { latency_ms: 7 }, times: 1 });
      const before = (await c.get('/_sandbox/clock')).body.now;
      const real = (await c.get('/v2/user')).text;
      await c.post('/_sandbox/faults', { match: { path: '/v2/user' }, action: { latency_ms: 7 }, times: 1 });
      const timers = vi.spyOn(globalThis, 'setTimeout');
      const late = await c.get('/v2/user');
      expect(timers.mock.calls.some((call) => call[1] === 7)).toBe(true);
      expect(late.status).toBe(200);
      expect(late.text).toBe(real);
      expect((await c.get('/_sandbox/clock')).body.now).toBe(before);
    });

    it('never faults the control plane, another team, or another environment', async () => {
      const c = createClient(adapter, small);
      const team = c.creds.teams[0]?.team_id as string;
      await addFault(c, { match: { team_id: team, environment: 'sandbox' }, action: { status: 500 } });
      expect((await c.get('/_sandbox/health')).status).toBe(200);
      expect((await c.get('/v2/user')).status).toBe(500);
      const other = c.creds.teams[1]?.api_keys.sandbox as string;
      expect((await c.get('/v2/user', { headers: { 'x-service-api-key': other } })).status).toBe(200);
      const production = c.creds.teams[0]?.api_keys.production as string;
      expect((await c.get('/v2/user', { headers: { 'x-service-api-key': production } })).status).toBe(200);
      // The management API has no team key: a team rule never applies to it.
      expect((await c.mgmt('GET', `/v1/org/${c.orgId}/team`)).status).toBe(200);
      expect((await c.delete('/_sandbox/faults')).body).toEqual({ removed: 1 });
      expect((await c.get('/v2/user')).status).toBe(200);
    });
  });
}

describe('HTTP faults: matching and effects', () => {
  it('a faulted write changes nothing and emits no event', async () => {
    const c = createClient('fetch', small);
    await addFault(c, { match: { method: 'POST', path: '/v2/user' }, action: { status: 502 }, times: 1 });
    const clientIds = async () => ((await c.get('/v2/user')).body.users as Array<{ client_user_id: string }>).map((u) => u.client_user_id);
    const before = (await c.get('/_sandbox/events')).body.total;
    const res = await c.post('/v2/user', { client_user_id: 'faulted-user' });
    expect(res.status).toBe(502);
    expect(res.body).toEqual({ detail: FAULT_BODIES[502] });
    expect(await clientIds()).not.toContain('faulted-user');
    expect((await c.get('/_sandbox/events')).body.total).toBe(before);
    expect((await c.post('/v2/user', { client_user_id: 'faulted-user' })).status).toBe(200);
    expect(await clientIds()).toContain('faulted-user');
  });

  it('`after` lets the first matches through; path patterns match one segment or the rest', async () => {
    const c = createClient('fetch', small);
    const users = (await c.get('/v2/user')).body.users;
    const id = users[0].user_id as string;
    await addFault(c, { match: { path: '/v2/user/{user_id}' }, action: { status: 500 }, after: 2 });
    expect((await c.get(`/v2/user/${id}`)).status).toBe(200);
    expect((await c.get(`/v2/user/${id}`)).status).toBe(200);
    expect((await c.get(`/v2/user/${id}`)).status).toBe(500);
    expect((await c.get('/v2/user')).status).toBe(200);
    expect((await c.get(`/v2/user/providers/${id}`)).status).toBe(200);
    await c.delete('/_sandbox/faults');
    await addFault(c, { match: { path: '/v2/user/*' }, action: { status: 500 } });
    expect((await c.get(`/v2/user/providers/${id}`)).status).toBe(500);
    expect((await c.get('/v2/user')).status).toBe(200);
    const listed = (await c.get('/_sandbox/faults')).body.faults[0];
    expect(listed).toMatchObject({ matched: 1, fired: 1, remaining: null });
  });

  it('a reset removes the rules', async () => {
    const c = createClient('fetch', small);
    await addFault(c, { action: { status: 500 } });
    expect((await c.get('/v2/user')).status).toBe(500);
    await c.post('/_sandbox/reset', {});
    expect((await c.get('/_sandbox/faults')).body.faults).toEqual([]);
    expect((await c.get('/v2/user')).status).toBe(200);
  });

  it('bad rules answer 422 naming the field', async () => {
    const c = createClient('fetch', small);
    const locOf = async (rule: unknown) => {
      const res = await c.post('/_sandbox/faults', rule);
      expect(res.status, res.text).toBe(422);
      return res.body.detail[0].loc;
    };
    expect(await locOf({ match: {} })).toEqual(['body', 'action']);
    expect(await locOf({ action: { status: 500, drop: true } })).toEqual(['body', 'action']);
    expect(await locOf({ action: { drop: true, headers: { a: 'b' } } })).toEqual(['body', 'action', 'headers']);
    expect(await locOf({ action: { latency_ms: [50, 10] } })).toEqual(['body', 'action', 'latency_ms']);
    expect(await locOf({ action: { status: 700 } })).toEqual(['body', 'action', 'status']);
    expect(await locOf({ action: { drop: false } })).toEqual(['body', 'action', 'drop']);
    expect(await locOf({ match: { path: 'v2/user' }, action: { drop: true } })).toEqual(['body', 'match', 'path']);
    expect(await locOf({ match: { path: '/_sandbox/health' }, action: { drop: true } })).toEqual(['body', 'match', 'path']);
    expect(await locOf({ match: { route: 'no.such.route' }, action: { drop: true } })).toEqual(['body', 'match', 'route']);
    expect(await locOf({ match: { route: 'sandbox.health' }, action: { drop: true } })).toEqual(['body', 'match', 'route']);
    expect(await locOf({ match: { team_id: 'nope' }, action: { drop: true } })).toEqual(['body', 'match', 'team_id']);
    expect(await locOf({ match: { method: 'FETCH' }, action: { drop: true } })).toEqual(['body', 'match', 'method']);
    expect(await locOf({ action: { drop: true }, probability: 1.5 })).toEqual(['body', 'probability']);
    expect(await locOf({ action: { drop: true }, times: 0 })).toEqual(['body', 'times']);
    expect(await locOf({ action: { drop: true }, bogus: 1 })).toEqual(['body']);
    expect((await c.get('/_sandbox/faults')).body.faults).toEqual([]);
  });
});
