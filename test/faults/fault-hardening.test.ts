/**
 * Faults hardened (issue 40, items 6 to 8), on every adapter: the inspector's own requests never
 * match a rule nor use it up; a catch-all rule leaves the sandbox's own test receivers and control
 * plane alone (a rule that names a receiver still faults it); the journal says what a fault did
 * (the status sent, a drop with no status, the latency the client saw as the adapter measured it,
 * a malformed body), readable after the rule retired; rules that would break every answer are
 * refused with 422 naming the field, and a world holds at most MAX_FAULT_RULES rules.
 */
import { describe, expect, it } from 'vitest';
import { MAX_FAULT_RULES } from '../../src/state/sandbox/faults-schema.js';
import { ALL_ADAPTERS, createClient, type TestClient } from '../support/client.js';

const small = { seed: 3, users: 2, usersElsewhere: 1, feed: 'off' as const };
const INSPECTOR = { 'x-sandbox-inspector': '1' };

async function addFault(c: TestClient, rule: unknown): Promise<{ id: string }> {
  const res = await c.post('/_sandbox/faults', rule);
  expect(res.status, res.text).toBe(200);
  return res.body;
}

/** The journal's newest entry for a path. */
async function entryFor(c: TestClient, path: string): Promise<any> {
  const page = (await c.get('/_sandbox/requests', { query: { path, limit: 1 } })).body;
  return page.requests[0];
}

for (const adapter of ALL_ADAPTERS) {
  describe(`fault hardening [${adapter}]`, () => {
    it("the inspector's own requests never match a rule, never use it up, and are not journaled", async () => {
      const c = createClient(adapter, small);
      const users = (await c.get('/v2/user')).body.users;
      const path = `/v2/user/${users[0].user_id}`;
      const rule = await addFault(c, { match: { path: '/v2/user/*' }, action: { status: 429 }, times: 2 });
      for (let i = 0; i < 3; i++) expect((await c.get(path, { headers: INSPECTOR })).status).toBe(200);
      expect((await c.get('/_sandbox/faults')).body.faults).toEqual([expect.objectContaining({ id: rule.id, remaining: 2, matched: 0 })]);
      const recorded = (await c.get('/_sandbox/requests')).body.recorded;
      await c.get(path, { headers: INSPECTOR });
      expect((await c.get('/_sandbox/requests')).body.recorded).toBe(recorded);
      expect((await c.get(path)).status).toBe(429);
    });

    it('a catch-all rule leaves the test receivers and the control plane alone; a rule naming a receiver faults it', async () => {
      const c = createClient(adapter, small);
      await addFault(c, { action: { status: 503 } });
      await addFault(c, { match: { method: 'POST' }, action: { drop: true } });
      expect((await c.get('/v2/user')).status).toBe(503);
      expect((await c.post('/_sandbox/receiver/app', { type: 'x' })).status).toBe(200);
      expect((await c.get('/_sandbox/receiver/app')).status).toBe(200);
      expect((await c.get('/_sandbox/health')).status).toBe(200);
      expect((await c.get('/openapi.json')).status).toBe(200);
      expect((await c.get('/_sandbox/faults')).body.faults.map((f: { matched: number }) => f.matched)).toEqual([1, 0]);
      await c.delete('/_sandbox/faults');
      await addFault(c, { match: { path: '/_sandbox/receiver/*' }, action: { status: 500 }, times: 1 });
      expect((await c.post('/_sandbox/receiver/app', { type: 'x' })).status).toBe(500);
      await addFault(c, { match: { route: 'sandbox.receiver.receive' }, action: { status: 502 }, times: 1 });
      expect((await c.post('/_sandbox/receiver/app', { type: 'x' })).status).toBe(502);
      expect((await c.post('/_sandbox/receiver/app', { type: 'x' })).status).toBe(200);
    });

    it('the journal says what a fault did, readable after the rule retired', async () => {
      const c = createClient(adapter, small);
      const status = await addFault(c, { match: { method: 'GET', path: '/v2/user' }, action: { status: 429 }, times: 1 });
      expect((await c.get('/v2/user')).status).toBe(429);
      expect((await c.get('/_sandbox/faults')).body.faults).toEqual([]);
      expect(await entryFor(c, '/v2/user')).toMatchObject({
        status: 429,
        dropped: false,
        fault_id: status.id,
        fault: { id: status.id, rule: 'GET /v2/user -> status 429', action: 'status', status: 429, latency_ms: null },
      });

      const drop = await addFault(c, { match: { path: '/v2/user' }, action: { drop: true }, times: 1 });
      await expect(c.get('/v2/user')).rejects.toThrow();
      const dropped = await entryFor(c, '/v2/user');
      expect(dropped).toMatchObject({ status: null, dropped: true, fault: { id: drop.id, action: 'drop', status: null } });
      expect(dropped.response).toMatchObject({ body: null, body_bytes: 0, content_type: null });

      await addFault(c, { match: { path: '/v2/user' }, action: { malformed: true }, times: 1 });
      expect((await c.get('/v2/user')).status).toBe(200);
      expect(await entryFor(c, '/v2/user')).toMatchObject({ status: 200, fault: { action: 'malformed', status: 200 } });

      // A latency: the wait the client saw, measured by the adapter that waited (a timer never fires early).
      await addFault(c, { match: { path: '/v2/user' }, action: { latency_ms: 60 }, times: 1 });
      expect((await c.get('/v2/user')).status).toBe(200);
      const late = await entryFor(c, '/v2/user');
      expect(late.fault).toMatchObject({ action: 'latency', status: null, planned_latency_ms: 60 });
      expect(late.fault.latency_ms).toBeGreaterThanOrEqual(59);
      expect(late.duration_ms).toBeGreaterThanOrEqual(59);
    });
  });
}

describe('fault rules validated', () => {
  const locOf = async (c: TestClient, rule: unknown) => {
    const res = await c.post('/_sandbox/faults', rule);
    expect(res.status, res.text).toBe(422);
    return res.body.detail[0].loc;
  };

  it('a status is 200 to 599; header names are tokens, values carry no CR, LF or NUL; framing headers are the adapter’s', async () => {
    const c = createClient('fetch', small);
    expect(await locOf(c, { action: { status: 100 } })).toEqual(['body', 'action', 'status']);
    expect(await locOf(c, { action: { status: 199 } })).toEqual(['body', 'action', 'status']);
    expect(await locOf(c, { action: { status: 503, headers: { 'bad name': 'x' } } })).toEqual(['body', 'action', 'headers', 'bad name']);
    expect(await locOf(c, { action: { status: 503, headers: { 'x-a:': 'x' } } })).toEqual(['body', 'action', 'headers', 'x-a:']);
    expect(await locOf(c, { action: { status: 503, headers: { 'x-a': 'one\r\nset-cookie: a=b' } } })).toEqual([
      'body',
      'action',
      'headers',
      'x-a',
    ]);
    expect(await locOf(c, { action: { status: 503, headers: { 'x-a': 'nul\u0000' } } })).toEqual(['body', 'action', 'headers', 'x-a']);
    expect(await locOf(c, { action: { status: 503, headers: { 'x-a': 'snow\u2603' } } })).toEqual(['body', 'action', 'headers', 'x-a']);
    expect(await locOf(c, { action: { status: 503, headers: { 'Content-Length': '5' } } })).toEqual([
      'body',
      'action',
      'headers',
      'Content-Length',
    ]);
    expect(await locOf(c, { action: { status: 503, headers: { 'transfer-encoding': 'chunked' } } })).toEqual([
      'body',
      'action',
      'headers',
      'transfer-encoding',
    ]);
    expect(await locOf(c, { match: { path: '/_sandbox/faults' }, action: { status: 503 } })).toEqual(['body', 'match', 'path']);
    expect((await c.get('/_sandbox/faults')).body.faults).toEqual([]);
    // What HTTP allows goes through, and is sent as given.
    await addFault(c, { match: { path: '/v2/user' }, action: { status: 200, headers: { "x-ok!#$%&'*+.^_`|~": 'a\tb é' } } });
    expect((await c.get('/v2/user')).status).toBe(200);
  });

  it(`a world holds at most ${MAX_FAULT_RULES} rules: the next answers 409 naming the cap, and nothing is added`, async () => {
    const c = createClient('fetch', small);
    for (let i = 0; i < MAX_FAULT_RULES; i++) await addFault(c, { match: { path: `/v2/x${i}` }, action: { status: 500 } });
    const res = await c.post('/_sandbox/faults', { action: { status: 500 } });
    expect(res.status).toBe(409);
    expect(res.body.detail).toContain(String(MAX_FAULT_RULES));
    expect((await c.get('/_sandbox/faults')).body.faults).toHaveLength(MAX_FAULT_RULES);
    expect((await c.get('/v2/user')).status).toBe(200);
    await c.delete('/_sandbox/faults');
    await addFault(c, { action: { status: 500 } });
  });
});
