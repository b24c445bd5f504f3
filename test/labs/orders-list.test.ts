/** GET /v3/orders over the seeded world: every filter, sort key and bound of spec 4.6. */
import { beforeAll, describe, expect, it } from 'vitest';
import { createClient, forEachAdapter, type TestClient } from '../support/client.js';
import { oasValidator } from '../support/openapi.js';
import { newOrder } from '../support/lab-helpers.js';
import { createSandbox } from '../../src/index.js';
import { stableUuid } from '../../src/engine/ids.js';
import { buildOrder } from '../../src/state/labs/lab-order-factory.js';
import { labTestsOf, standardTest } from '../../src/state/labs/lab-tests.js';
import { listOrders } from '../../src/state/labs/order-listing.js';
import { buildPath, type LowStatus } from '../../src/state/labs/order-lifecycle.js';
import { currentStatus, type Order } from '../../src/state/labs/order-model.js';
import { refreshSummary } from '../../src/state/labs/order-results.js';
import { usersOf } from '../../src/state/users/users.js';
import { LABS_ERRORS } from '../../src/state/labs/errors.js';
import { ordersOf } from '../../src/state/labs/order-store.js';

const oas = oasValidator('data');

async function all(c: TestClient, query: Record<string, string | number | Array<string | number>> = {}): Promise<any[]> {
  const res = await c.get('/v3/orders', { query: { size: 100, ...query } });
  expect(res.status, res.text).toBe(200);
  return res.body.orders;
}

const low = (o: any): string => String(o.last_event.status).split('.')[2] ?? '';

forEachAdapter('list lab orders', (adapter) => {
  let c: TestClient;
  let seeded: any[];
  beforeAll(async () => {
    c = createClient(adapter, { seed: 31 });
    seeded = await all(c);
  });

  it('the seeded world has orders of every method at many lifecycle points', () => {
    expect(seeded.length).toBeGreaterThanOrEqual(25);
    expect(new Set(seeded.map((o) => o.lab_test.method))).toEqual(
      new Set(['testkit', 'walk_in_test', 'at_home_phlebotomy', 'on_site_collection']),
    );
    const statuses = new Set(seeded.map(low));
    for (const s of [
      'ordered',
      'requisition_created',
      'transit_customer',
      'with_customer',
      'delivered_to_lab',
      'completed',
      'corrected',
      'cancelled',
      'sample_error',
      'lost',
      'failure_to_deliver_to_customer',
      'awaiting_registration',
      'appointment_scheduled',
      'appointment_cancelled',
      'draw_completed',
      'partial_results',
      'redraw_available',
    ]) {
      expect(statuses, s).toContain(s);
    }
    expect(new Set(seeded.map((o) => o.status))).toEqual(
      new Set(['received', 'collecting_sample', 'sample_with_lab', 'completed', 'cancelled', 'failed']),
    );
    expect(new Set(seeded.map((o) => o.interpretation))).toEqual(new Set([null, 'normal', 'abnormal', 'critical']));
    for (const o of seeded) oas?.expectValid('ClientFacingOrder', o);
  });

  it('is deterministic per seed and differs across seeds', async () => {
    const again = createClient(adapter, { seed: 31 });
    expect((await again.get('/v3/orders', { query: { size: 100 } })).text).toBe((await c.get('/v3/orders', { query: { size: 100 } })).text);
    const other = createClient(adapter, { seed: 32 });
    expect((await all(other)).map((o) => o.id)).not.toEqual(seeded.map((o) => o.id));
  });

  it('filters by status (repeated keys), order_type, interpretation and criticality', async () => {
    const done = await all(c, { status: ['completed', 'corrected'] });
    expect(done.length).toBeGreaterThan(0);
    expect(done.length).toBe(seeded.filter((o) => ['completed', 'corrected'].includes(low(o))).length);
    const kits = await all(c, { order_type: 'testkit' });
    expect(kits.length).toBe(seeded.filter((o) => o.lab_test.method === 'testkit').length);
    const two = await all(c, { order_type: ['walk_in_test', 'on_site_collection'] });
    expect(new Set(two.map((o) => o.lab_test.method))).toEqual(new Set(['walk_in_test', 'on_site_collection']));
    const critical = await all(c, { is_critical: 'true' });
    expect(critical.length).toBeGreaterThan(0);
    expect(critical.every((o) => o.interpretation === 'critical')).toBe(true);
    const notCritical = await all(c, { is_critical: 'false' });
    expect(notCritical.length + critical.length).toBe(seeded.length);
    const abnormal = await all(c, { interpretation: 'abnormal' });
    expect(abnormal.length).toBeGreaterThan(0);
    expect(abnormal.every((o) => o.interpretation === 'abnormal')).toBe(true);
    const scheduled = await all(c, { order_activation_types: 'scheduled' });
    expect(scheduled.length).toBe(1);
    expect(scheduled[0].activate_by > '2026-01-05').toBe(true);
    expect((await all(c, { order_activation_types: ['current', 'scheduled'] })).length).toBe(seeded.length);
  });

  it('filters by user, names, search, ids and transaction', async () => {
    const someone = seeded[0];
    const mine = await all(c, { user_id: someone.user_id });
    expect(mine.length).toBe(seeded.filter((o) => o.user_id === someone.user_id).length);
    const missingUser = await c.get('/v3/orders', { query: { user_id: '00000000-0000-4000-8000-000000000000' } });
    expect(missingUser.status).toBe(404);
    expect(missingUser.body).toEqual({ detail: LABS_ERRORS.userNotOnTeam });
    const withPatient = seeded.find((o) => o.patient_details);
    const name = `${withPatient.patient_details.first_name} ${withPatient.patient_details.last_name}`;
    const byName = await all(c, { patient_name: name.toUpperCase() });
    expect(byName.map((o) => o.id)).toContain(withPatient.id);
    expect(byName.every((o) => `${o.patient_details?.first_name} ${o.patient_details?.last_name}` === name)).toBe(true);
    const unregistered = seeded.find((o) => !o.patient_details);
    expect((await all(c, { shipping_recipient_name: unregistered.shipping_details.receiver_name })).map((o) => o.id)).toContain(
      unregistered.id,
    );
    expect((await all(c, { search_input: withPatient.id.slice(0, 13) })).map((o) => o.id)).toEqual([withPatient.id]);
    expect((await all(c, { search_input: withPatient.patient_details.dob.slice(0, 10) })).map((o) => o.id)).toContain(withPatient.id);
    const ids = [seeded[1].id, seeded[2].id];
    expect((await all(c, { order_ids: ids })).map((o) => o.id).sort()).toEqual([...ids].sort());
    expect((await all(c, { order_transaction_id: seeded[3].order_transaction.id })).map((o) => o.id)).toEqual([seeded[3].id]);
  });

  it('applies created and updated ranges (a date alone: start 00:00:00, end_date 23:59:59, updated_end_date 00:00:00)', async () => {
    const created = seeded.map((o) => o.created_at as string).sort();
    const day = created[Math.floor(created.length / 2)]?.slice(0, 10) as string;
    const onDay = await all(c, { start_date: day, end_date: day });
    expect(onDay.length).toBe(seeded.filter((o) => o.created_at.slice(0, 10) === day).length);
    expect(onDay.length).toBeGreaterThan(0);
    const fromIso = await all(c, { start_date: `${day}T12:00:00Z` });
    expect(fromIso.length).toBe(seeded.filter((o) => o.created_at >= `${day}T12:00:00.000Z`).length);
    const updatedDay = (seeded[0].updated_at as string).slice(0, 10);
    const nextDay = new Date(Date.parse(`${updatedDay}T00:00:00Z`) + 86400000).toISOString().slice(0, 10);
    const upTo = await all(c, { updated_start_date: updatedDay, updated_end_date: nextDay });
    const expected = seeded.filter((o) => o.updated_at >= `${updatedDay}T00:00:00.000Z` && o.updated_at <= `${nextDay}T00:00:00.000Z`);
    expect(upTo.length).toBeGreaterThan(0);
    expect(upTo.map((o) => o.id).sort()).toEqual(expected.map((o) => o.id).sort());
    const sameDay = await all(c, { updated_start_date: updatedDay, updated_end_date: updatedDay });
    expect(sameDay.map((o) => o.id)).not.toContain(seeded[0].id);
    const bad = await c.get('/v3/orders', { query: { start_date: '2026-13-45' } });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['query', 'start_date']);
  });

  it('sorts by created_at, patient_name and last_status in both directions', async () => {
    const desc = seeded.map((o) => o.created_at);
    expect(desc).toEqual([...desc].sort().reverse());
    const asc = (await all(c, { order_direction: 'asc' })).map((o) => o.created_at);
    expect(asc).toEqual([...asc].sort());
    const byName = (await all(c, { order_key: 'patient_name', order_direction: 'asc' })).map((o) =>
      (o.patient_details
        ? `${o.patient_details.first_name} ${o.patient_details.last_name}`
        : o.shipping_details.receiver_name
      ).toLowerCase(),
    );
    expect(byName).toEqual([...byName].sort((a, b) => a.localeCompare(b, 'en')));
    const byLast = (await all(c, { order_key: 'last_status', order_direction: 'desc' })).map((o) => o.last_event.created_at);
    expect(byLast).toEqual([...byLast].sort().reverse());
  });

  it('pages with page >= 1 and size 1..100, 422 outside', async () => {
    const p1 = await c.get('/v3/orders', { query: { size: 10 } });
    const p2 = await c.get('/v3/orders', { query: { size: 10, page: 2 } });
    expect(p1.body).toMatchObject({ total: seeded.length, page: 1, size: 10 });
    expect(p2.body.orders.map((o: any) => o.id)).toEqual(seeded.slice(10, 20).map((o) => o.id));
    expect((await c.get('/v3/orders', { query: { page: 99 } })).body.orders).toEqual([]);
    for (const [key, value, type] of [
      ['page', 0, 'greater_than_equal'],
      ['size', 0, 'greater_than_equal'],
      ['size', 101, 'less_than_equal'],
      ['size', 'x', 'int_parsing'],
    ] as const) {
      const res = await c.get('/v3/orders', { query: { [key]: value } });
      expect(res.status).toBe(422);
      expect(res.body.detail[0]).toMatchObject({ loc: ['query', key], type });
    }
    expect((await c.get('/v3/orders', { query: { status: 'bogus' } })).status).toBe(422);
    expect((await c.get('/v3/orders', { query: { order_key: 'price' } })).status).toBe(422);
    expect((await c.get('/v3/orders', { query: { order_type: 'drone' } })).status).toBe(422);
  });

  describe('a new order', () => {
    it('shows up first and in its filters', async () => {
      const fresh = createClient(adapter, { seed: 31 });
      const order = await newOrder(fresh, 'walk_in_test', { patient: { last_name: 'Zed' } });
      const list = await fresh.get('/v3/orders', { query: { size: 1 } });
      expect(list.body.orders[0].id).toBe(order.id);
      expect(list.body.total).toBe(seeded.length + 1);
      expect((await all(fresh, { patient_name: 'grace zed' })).map((o) => o.id)).toEqual([order.id]);
      expect((await all(fresh, { status: 'ordered', order_type: 'walk_in_test' })).map((o) => o.id)).toContain(order.id);
    });
  });
});

/** What the listing must answer by created_at, computed by scanning and sorting every order. */
function scanned(all: readonly Order[], q: Parameters<typeof listOrders>[1]): { orders: Order[]; total: number } {
  const statuses = q.status ? new Set(q.status) : null;
  const list = all.filter(
    (o) =>
      (!statuses || statuses.has(currentStatus(o))) &&
      (q.is_critical === undefined || (o.summary?.hasCritical ?? false) === q.is_critical) &&
      (q.user_id === undefined || o.user_id === q.user_id) &&
      (q.start_date === undefined || o.created_at >= q.start_date) &&
      (q.end_date === undefined || o.created_at <= q.end_date),
  );
  list.sort((a, b) => a.created_at - b.created_at || a.seq - b.seq);
  if (q.order_direction !== 'asc') list.reverse();
  const start = (q.page - 1) * q.size;
  return { orders: list.slice(start, start + q.size), total: list.length };
}

describe('GET /v3/orders from the creation-ordered indexes (status, date, critical, user)', () => {
  it('answers what a scan of every order answers, after out-of-order inserts, status changes, reassignment and a purge', async () => {
    const sandbox = createSandbox({ seed: 31, users: 12, logger: () => undefined });
    const { world } = sandbox;
    const team = [...world.tenancy.teams.values()][0];
    if (!team) throw new Error('no team');
    const partition = world.tenancy.partition(team, 'sandbox');
    const env = { world, partition };
    const users = usersOf(partition, world).all();
    const test = standardTest(labTestsOf(partition, world), 'walk_in_test');
    const now = world.clock.now();
    // 150 orders created out of order (more than one batch of pending inserts), a third with results.
    for (let k = 0; k < 150; k++) {
      const user = users[k % users.length];
      if (!user) throw new Error('no user');
      const at = now - ((k * 7919) % (60 * 86_400)) * 1000;
      const order = buildOrder(ordersOf(env), {
        seed: 31,
        id: stableUuid(31, 'list_order', k),
        team_id: team.id,
        user_id: user.user_id,
        client_user_id: user.client_user_id,
        lab_test: test,
        at,
        details_id: stableUuid(31, 'list_details', k),
        shipment_id: null,
        transaction_id: stableUuid(31, 'list_tx', k),
        patient_details: null,
        patient_address: null,
        fate: 'happy',
        flags: { interpretation: k % 6 === 0 ? 'critical' : 'normal', result_types: null, has_missing_results: false },
      });
      if (k % 3 === 0) {
        const path = buildPath('walk_in_test', 'happy', false);
        for (let i = 1; i < path.length; i++)
          order.events.push({ id: ordersOf(env).nextEventId(), at: at + i * 60_000, status: path[i]?.status ?? 'ordered' });
        order.pathIndex = path.length - 1;
      }
      refreshSummary(world, ordersOf(env), order);
      ordersOf(env).add(order);
    }
    await sandbox.advance('2d');
    const orders = [...ordersOf(env).all()];
    for (const [i, status] of (['cancelled', 'sample_error', 'cancelled'] as LowStatus[]).entries()) {
      const old = orders[40 + i * 7] as Order;
      ordersOf(env).pushEvent(old, { id: ordersOf(env).nextEventId(), at: world.clock.now(), status });
    }
    ordersOf(env).setSummary(orders.find((o) => o.summary?.hasCritical) as Order, null);
    const [a, b, c] = users as [(typeof users)[0], (typeof users)[0], (typeof users)[0]];
    ordersOf(env).reassignUser(orders.find((o) => o.user_id === a.user_id) as Order, b.user_id, b.client_user_id);
    ordersOf(env).removeUser(c.user_id);

    const day = (d: number) => now - d * 86_400_000;
    const statuses: Array<LowStatus[] | undefined> = [
      undefined,
      ['completed'],
      ['ordered'],
      ['completed', 'ordered', 'cancelled'],
      ['cancelled', 'sample_error'],
      ['lost'],
    ];
    const ranges = [{}, { start_date: day(20) }, { end_date: day(10) }, { start_date: day(45), end_date: day(5) }];
    let answered = 0;
    for (const status of statuses)
      for (const range of ranges)
        for (const is_critical of [undefined, true, false])
          for (const user_id of [undefined, a.user_id, b.user_id, c.user_id]) {
            for (const [page, size, order_direction] of [
              [1, 5, 'desc'],
              [3, 4, 'desc'],
              [2, 7, 'asc'],
              [1, 100, 'asc'],
            ] as const) {
              const q = { status, ...range, is_critical, user_id, page, size, order_direction };
              const expected = scanned(ordersOf(env).all(), q);
              expect(listOrders(env, q), JSON.stringify(q)).toEqual(expected);
              if (expected.orders.length > 0) answered++;
            }
          }
    expect(answered).toBeGreaterThan(300);
    expect(scanned(ordersOf(env).all(), { is_critical: true, page: 1, size: 100 }).total).toBeGreaterThan(10);
    sandbox.close();
  });
});
