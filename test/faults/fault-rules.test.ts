/**
 * Fault rules beyond one request (issue 28): `probability` draws from the seeded fault source (the
 * same seed and rules give the same faults in the same order), scenario `faults:` (kept across a
 * reset, a team by name), the control client's `faults` group, and the dispatch seam's
 * `exchange.faultId` naming the rule that fired (what the request journal records).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { dispatch, type Exchange } from '../../src/engine/dispatch.js';
import type { SimRequest } from '../../src/engine/http-types.js';
import { createSandbox } from '../../src/index.js';
import { router } from '../../src/routes.js';
import { interceptFault } from '../../src/engine/faults.js';
import { startSandbox, type StartedSandbox } from '../../src/testing.js';
import { ControlError } from '../../src/testing/control-client.js';
import { createClient } from '../support/client.js';
import { jsonRequest } from '../support/sim-request.js';

const small = { users: 2, usersElsewhere: 1, feed: 'off' as const };

/** The statuses of `n` GET /v2/user answers under a 30% 503 rule, on a fresh sandbox of that seed. */
async function statuses(seed: number, n: number): Promise<number[]> {
  const c = createClient('fetch', { ...small, seed });
  await c.post('/_sandbox/faults', { match: { path: '/v2/user' }, action: { status: 503 }, probability: 0.3 });
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await c.get('/v2/user')).status);
  return out;
}

describe('probability', () => {
  it('the same seed gives the same faults in the same order', async () => {
    const a = await statuses(4, 40);
    expect(await statuses(4, 40)).toEqual(a);
    expect(a.filter((s) => s === 503).length).toBeGreaterThan(3);
    expect(a.filter((s) => s === 200).length).toBeGreaterThan(3);
    expect(await statuses(5, 40)).not.toEqual(a);
  });

  it('a latency range draws its wait from the same source', async () => {
    const waits = async (seed: number) => {
      const sandbox = createSandbox({ ...small, seed, logger: () => undefined });
      const key = sandbox.credentials().teams[0]?.api_keys.sandbox as string;
      const req = (path: string, body?: unknown): SimRequest => ({
        method: body === undefined ? 'GET' : 'POST',
        surface: 'data',
        path,
        query: {},
        headers: { 'x-service-api-key': key, 'content-type': 'application/json' },
        rawBody: new TextEncoder().encode(body === undefined ? '' : JSON.stringify(body)),
      });
      await sandbox.dispatch(req('/_sandbox/faults', { match: { path: '/v2/user' }, action: { latency_ms: [10, 90] } }));
      const out: Array<number | undefined> = [];
      for (let i = 0; i < 8; i++) out.push((await sandbox.dispatch(req('/v2/user'))).delayMs);
      return out;
    };
    const a = await waits(6);
    expect(a.every((ms) => ms !== undefined && ms >= 10 && ms <= 90)).toBe(true);
    expect(await waits(6)).toEqual(a);
  });
});

describe('the dispatch seam', () => {
  it('sets exchange.faultId to the rule that fired, and only then', async () => {
    const sandbox = createSandbox({ ...small, seed: 2, logger: () => undefined });
    const key = sandbox.credentials().teams[0]?.api_keys.sandbox as string;
    const seen: Exchange[] = [];
    const env = {
      world: sandbox.world,
      router: router(),
      adminToken: undefined,
      reset: () => undefined,
      hooks: {
        intercept: (req: SimRequest, exchange: Exchange) => interceptFault(sandbox.world, req, exchange),
        observe: (_req: SimRequest, _res: unknown, exchange: Exchange) => seen.push(exchange),
      },
    };
    const req = (method: string, path: string, body?: unknown): SimRequest => jsonRequest(key, method, path, body);
    const added = await dispatch(env, req('POST', '/_sandbox/faults', { match: { path: '/v2/user' }, action: { status: 500 }, times: 1 }));
    const id = JSON.parse(new TextDecoder().decode(added.body)).id;
    expect((await dispatch(env, req('GET', '/v2/user'))).status).toBe(500);
    expect((await dispatch(env, req('GET', '/v2/user'))).status).toBe(200);
    expect(seen.map((e) => e.faultId)).toEqual([undefined, id, undefined]);
    expect(seen[1]?.route?.id).toBe('users.list');
  });
});

describe('scenario faults and the control client', () => {
  let server: StartedSandbox;
  afterAll(async () => {
    await server?.close();
  });

  it('a scenario declares rules (a team by name) that a reset declares again', async () => {
    server = await startSandbox({
      ...small,
      scenario: {
        world: 'default',
        teams: [{ name: 'Second', region: 'us' }],
        faults: [
          { match: { path: '/v2/user', method: 'GET' }, action: { status: 429, headers: { 'retry-after': '1' } } },
          { team: 'Second', action: { drop: true } },
        ],
      },
    });
    const listed = (await server.faults.list()).faults;
    expect(listed).toHaveLength(2);
    const second = (await server.credentials()).teams.find((t) => t.name === 'Second');
    expect(listed[1]?.match.team_id).toBe(second?.team_id);
    const res = await fetch(`${server.url}/v2/user`, {
      headers: { 'x-service-api-key': (await server.credentials()).teams[0]?.api_keys.sandbox as string },
    });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('1');
    await server.faults.clear();
    expect((await server.faults.list()).faults).toEqual([]);
    await server.reset();
    expect((await server.faults.list()).faults).toHaveLength(2);
  });

  it('the control client adds, lists and removes rules; a bad one rejects with the 422', async () => {
    const rule = await server.faults.add({ match: { route: 'users.get' }, action: { latency_ms: [1, 3] }, times: 2 });
    expect(rule).toMatchObject({ times: 2, remaining: 2, fired: 0, matched: 0 });
    expect((await server.faults.remove(rule.id)).id).toBe(rule.id);
    const error = await server.faults.add({ action: { status: 429, drop: true } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ControlError);
    expect((error as ControlError).status).toBe(422);
    expect(((error as ControlError).body as { detail: Array<{ loc: string[] }> }).detail[0]?.loc).toEqual(['body', 'action']);
  });

  it('the control client starts domain faults: a lab fault on an order, a provider outage', async () => {
    const key = (await server.credentials()).teams[0]?.api_keys.sandbox as string;
    const orders = (await (await fetch(`${server.url}/v3/orders`, { headers: { 'x-vital-api-key': key } })).json()) as {
      orders: Array<{ id: string; status: string }>;
    };
    const open = orders.orders.find((o) => !['completed', 'cancelled', 'failed'].includes(o.status));
    expect(open).toBeDefined();
    const applied = await server.faults.order(open?.id as string, 'cancelled_by_lab');
    expect(applied).toMatchObject({ order_id: open?.id, fault: 'cancelled_by_lab' });
    expect(applied.status.startsWith('cancelled.')).toBe(true);
    const error = await server.faults.order(open?.id as string, 'sample_rejected').catch((e: unknown) => e);
    expect((error as ControlError).status).toBe(409);
    const outage = await server.faults.outage('oura', { duration: '2h' });
    expect(outage).toMatchObject({ provider: 'oura', starts_at: '2026-01-05T09:00:00.000Z', ends_at: '2026-01-05T11:00:00.000Z' });
  });

  it('a scenario rule naming an unknown team or route fails the scenario, naming the entry', async () => {
    await expect(server.loadScenario({ faults: [{ team: 'Nobody', action: { drop: true } }] })).rejects.toThrow(/faults\[0\]\.team/);
    await expect(server.loadScenario({ faults: [{ match: { route: 'no.such' }, action: { drop: true } }] })).rejects.toThrow(/faults\[0\]/);
    await expect(server.loadScenario({ faults: [{ action: { latency_ms: [9, 1] } }] })).rejects.toThrow(/faults\[0\]\.action\.latency_ms/);
    // Nothing loaded: the previous scenario's rules are still in force.
    expect((await server.faults.list()).faults).toHaveLength(2);
  });
});
