/** Shared pieces of the lab testing scenario tests (issue 4). */
import { expect } from 'vitest';
import type { TestClient } from './client.js';

export type Method = 'testkit' | 'walk_in_test' | 'at_home_phlebotomy' | 'on_site_collection';

export const PATIENT = {
  first_name: 'Grace',
  last_name: 'Hopper',
  dob: '1985-12-09',
  gender: 'female',
  phone_number: '+14155551234',
  email: 'grace@example.com',
};

export const ADDRESS = {
  receiver_name: 'Grace Hopper',
  first_line: '1 Main Street',
  city: 'Austin',
  state: 'TX',
  zip: '78701',
  country: 'US',
};

/** A served at-home phlebotomy address (the real sandbox serves zip 85004 and 54650 only): phlebotomy orders default to it. */
export const PHOENIX_ADDRESS = { ...ADDRESS, first_line: '1 West Lincoln Street', city: 'Phoenix', state: 'AZ', zip: '85004' };

/** Options for a small, fast world (few wearable users to step through on the clock). */
export const SMALL = { users: 3, usersElsewhere: 0 } as const;

export async function firstUserId(c: TestClient, index = 0): Promise<string> {
  const res = await c.get('/v2/user', { query: { limit: 10 } });
  expect(res.status).toBe(200);
  return res.body.users[index].user_id as string;
}

/** The team's standard lab test per method. */
export async function standardTests(c: TestClient): Promise<Record<Method, string>> {
  const res = await c.get('/v3/lab_tests');
  expect(res.status).toBe(200);
  const out: Partial<Record<Method, string>> = {};
  for (const t of res.body as Array<{ id: string; method: Method; auto_generated: boolean }>) if (!t.auto_generated) out[t.method] ??= t.id;
  return out as Record<Method, string>;
}

interface PlaceOptions {
  patient?: Partial<typeof PATIENT> & Record<string, unknown>;
  address?: Partial<typeof ADDRESS> & Record<string, unknown>;
  extra?: Record<string, unknown>;
  headers?: Record<string, string>;
  userIndex?: number;
  /** The standard tests and the user, read once by a test that places many orders (`orderTargets`), instead of two requests per order. */
  targets?: OrderTargets;
}

interface OrderTargets {
  tests: Record<Method, string>;
  userId: string;
}

/** What `placeOrder` reads before each order, read once: for tests placing many orders on a world they do not change. */
export async function orderTargets(c: TestClient, userIndex = 0): Promise<OrderTargets> {
  return { tests: await standardTests(c), userId: await firstUserId(c, userIndex) };
}

export async function placeOrder(c: TestClient, method: Method, options: PlaceOptions = {}) {
  const { tests, userId } = options.targets ?? (await orderTargets(c, options.userIndex ?? 0));
  return c.post(
    '/v3/order',
    {
      user_id: userId,
      lab_test_id: tests[method],
      patient_details: { ...PATIENT, ...options.patient },
      patient_address: { ...(method === 'at_home_phlebotomy' ? PHOENIX_ADDRESS : ADDRESS), ...options.address },
      ...options.extra,
    },
    { headers: options.headers },
  );
}

/** Places an order and returns it (asserting success). */
export async function newOrder(c: TestClient, method: Method, options: PlaceOptions = {}): Promise<any> {
  const res = await placeOrder(c, method, options);
  expect(res.status, res.text).toBe(200);
  return res.body.order;
}

/** Books the first open phlebotomy slot at the served address for an order (asserting success); answers the appointment. */
export async function bookPhlebotomy(c: TestClient, orderId: string, zip = '85004'): Promise<any> {
  const where = { first_line: PHOENIX_ADDRESS.first_line, city: PHOENIX_ADDRESS.city, state: PHOENIX_ADDRESS.state, zip_code: zip };
  const found = await c.post('/v3/order/phlebotomy/appointment/availability', where);
  expect(found.status, found.text).toBe(200);
  const key = (found.body.slots as Array<{ slots: Array<{ booking_key: string }> }>).flatMap((d) => d.slots)[0]?.booking_key;
  const res = await c.post(`/v3/order/${orderId}/phlebotomy/appointment/book`, { booking_key: key });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

export interface LabEvent {
  type: string;
  status: string | undefined;
  data: any;
}

/** The lab events of the journal, oldest first, optionally for one order. */
export async function labEvents(c: TestClient, orderId?: string): Promise<LabEvent[]> {
  const res = await c.get('/_sandbox/events', { query: { event_type_prefix: 'labtest.', limit: 10000 } });
  expect(res.status).toBe(200);
  return (res.body.events as Array<{ envelope: { event_type: string; data: any } }>)
    .filter((e) => orderId === undefined || e.envelope.data.id === orderId || e.envelope.data.order_id === orderId)
    .map((e) => ({
      type: e.envelope.event_type,
      status: e.envelope.data.last_event?.status ?? e.envelope.data.status,
      data: e.envelope.data,
    }));
}

export async function getOrder(c: TestClient, id: string): Promise<any> {
  const res = await c.get(`/v3/order/${id}`);
  expect(res.status, res.text).toBe(200);
  return res.body;
}

/** Asserts that an order's status, last event, transaction and events agree. */
export function expectConsistent(order: any): void {
  const last = order.events[order.events.length - 1];
  expect(order.last_event).toEqual(last);
  const [high, method, low] = String(last.status).split('.');
  expect(order.status).toBe(high);
  expect(method).toBe(order.lab_test.method);
  expect(order.details.type).toBe(order.lab_test.method);
  const mine = order.order_transaction.orders.find((o: any) => o.id === order.id);
  expect(mine.low_level_status).toBe(low);
  expect(mine.low_level_status_created_at).toBe(last.created_at);
  expect(order.updated_at >= last.created_at).toBe(true);
  const ids = order.events.map((e: any) => e.id);
  expect([...ids].sort((a: number, b: number) => a - b)).toEqual(ids);
}

export const lows = (order: any): string[] => order.events.map((e: any) => String(e.status).split('.')[2]);
