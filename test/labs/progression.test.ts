/**
 * `labs.progression: clock | manual` (issue 31 item 7) over the HTTP API on both adapters: the
 * per-team control route, the scenario field, the real sandbox's stepping in `manual` mode, and
 * the result types cycling numeric / comment / range when `result_types` is not given.
 */
import { describe, expect, it } from 'vitest';
import { createClient, forEachAdapter } from '../support/client.js';
import { SMALL, getOrder, lows, newOrder } from '../support/lab-helpers.js';

const DAY = 86_400;

forEachAdapter('labs progression', (adapter) => {
  it('a team switches between clock and manual through PUT /_sandbox/teams/{team_id}/labs', async () => {
    const c = createClient(adapter, { seed: 311, ...SMALL });
    const teamId = c.creds.teams[0]?.team_id ?? '';
    expect((await c.get(`/_sandbox/teams/${teamId}/labs`)).body).toEqual({ team_id: teamId, progression: 'clock', set_by: 'world' });
    const set = await c.put(`/_sandbox/teams/${teamId}/labs`, { progression: 'manual' });
    expect(set.status, set.text).toBe(200);
    expect(set.body).toEqual({ team_id: teamId, progression: 'manual', set_by: 'team' });

    const order = await newOrder(c, 'walk_in_test');
    await c.advance(10 * DAY);
    expect(lows(await getOrder(c, order.id))).toEqual(['ordered']);
    // the real sandbox: the first simulation stops at the requisition whatever final_status says
    expect(
      (await c.post(`/v3/order/${order.id}/test`, undefined, { query: { final_status: 'completed.walk_in_test.completed' } })).body,
    ).toBe('Success');
    expect(lows(await getOrder(c, order.id))).toEqual(['ordered', 'requisition_created']);
    await c.advance(10 * DAY);
    expect(lows(await getOrder(c, order.id))).toEqual(['ordered', 'requisition_created']);
    await c.post(`/v3/order/${order.id}/test`, undefined, { query: { final_status: 'sample_with_lab.walk_in_test.partial_results' } });
    expect(lows(await getOrder(c, order.id))).toEqual(['ordered', 'requisition_created', 'partial_results']);
    await c.advance(10 * DAY);
    expect(lows(await getOrder(c, order.id)).at(-1)).toBe('partial_results');

    // back on the clock, the waiting order goes on from now
    expect((await c.put(`/_sandbox/teams/${teamId}/labs`, { progression: 'clock' })).body.progression).toBe('clock');
    await c.advance(2 * DAY);
    expect(lows(await getOrder(c, order.id)).at(-1)).toBe('completed');

    expect((await c.put(`/_sandbox/teams/${teamId}/labs`, { progression: 'sometimes' })).status).toBe(422);
    expect((await c.get('/_sandbox/teams/00000000-0000-4000-8000-000000000000/labs')).status).toBe(404);
  });

  it('a scenario sets the progression for every team (labs.progression) or for one (teams[].labs)', async () => {
    const c = createClient(adapter, { seed: 312, ...SMALL, scenario: { world: 'default', labs: { progression: 'manual' } } });
    await c.sandbox.ready;
    const teamId = c.creds.teams[0]?.team_id ?? '';
    expect((await c.get(`/_sandbox/teams/${teamId}/labs`)).body).toMatchObject({ progression: 'manual', set_by: 'world' });
    const order = await newOrder(c, 'testkit');
    await c.advance(30 * DAY);
    expect(lows(await getOrder(c, order.id))).toEqual(['ordered']);

    const named = c.creds.teams[0]?.name ?? '';
    const d = createClient(adapter, {
      seed: 313,
      ...SMALL,
      scenario: { world: 'default', teams: [{ name: named, labs: { progression: 'manual' } }] },
    });
    await d.sandbox.ready;
    expect((await d.get(`/_sandbox/teams/${d.creds.teams[0]?.team_id}/labs`)).body).toMatchObject({
      progression: 'manual',
      set_by: 'team',
    });
    expect((await d.get(`/_sandbox/teams/${d.creds.teams[1]?.team_id}/labs`)).body).toMatchObject({
      progression: 'clock',
      set_by: 'world',
    });
  });

  it('a createSandbox option sets the world default, and scenario lab orders still reach their status in manual mode', async () => {
    const c = createClient(adapter, {
      seed: 314,
      ...SMALL,
      labsProgression: 'manual',
      scenario: {
        world: 'default',
        users: [
          {
            client_user_id: 'manual-orders',
            lab_orders: [
              { method: 'walk_in_test', status: 'partial_results' },
              { method: 'at_home_phlebotomy', status: 'draw_completed' },
              { method: 'testkit', status: 'requisition_created' },
            ],
          },
        ],
      },
    });
    await c.sandbox.ready;
    const user = (await c.get('/v2/user/resolve/manual-orders')).body;
    const orders = (await c.get('/v3/orders', { query: { user_id: user.user_id } })).body.orders as Array<{
      events: Array<{ status: string }>;
    }>;
    expect(orders.map((o) => o.events.at(-1)?.status).sort()).toEqual([
      'collecting_sample.at_home_phlebotomy.draw_completed',
      'received.testkit.requisition_created',
      'sample_with_lab.walk_in_test.partial_results',
    ]);
  });

  describe('results', () => {
    it('cycle numeric, comment and range without result_types; follow result_types when given', async () => {
      const c = createClient(adapter, { seed: 315, ...SMALL });
      const cycled = await newOrder(c, 'walk_in_test');
      await c.post(`/v3/order/${cycled.id}/test`);
      const types = ((await c.get(`/v3/order/${cycled.id}/result`)).body.results as Array<{ type: string; result: string }>).map(
        (r) => r.type,
      );
      expect(new Set(types)).toEqual(new Set(['numeric', 'comment', 'range']));
      const ranges = ((await c.get(`/v3/order/${cycled.id}/result`)).body.results as Array<{ type: string; result: string }>).filter(
        (r) => r.type === 'range',
      );
      for (const r of ranges) expect(r.result).toMatch(/^[<>]\d/);
      const numeric = await newOrder(c, 'walk_in_test');
      await c.post(`/v3/order/${numeric.id}/test`, { result_types: ['numeric'] });
      const only = ((await c.get(`/v3/order/${numeric.id}/result`)).body.results as Array<{ type: string }>).map((r) => r.type);
      expect(new Set(only)).toEqual(new Set(['numeric']));
    });
  });
});
