/** Same seed, same world, byte for byte; same requests, same answers. Different seeds differ. */
import { describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/index.js';
import type { SimRequest } from '../../src/engine/http-types.js';
import { snapshotWorld } from '../../src/engine/snapshot.js';

const encoder = new TextEncoder();

function req(sandbox: Sandbox, method: string, path: string, body?: unknown, query: Record<string, string[]> = {}): SimRequest {
  return {
    method,
    surface: 'data',
    path,
    query,
    headers: { 'x-service-api-key': sandbox.credentials().teams[0]?.api_keys.sandbox ?? '', 'content-type': 'application/json' },
    rawBody: body === undefined ? new Uint8Array(0) : encoder.encode(JSON.stringify(body)),
  };
}

/** A fixed script of requests; returns every response as text. */
async function script(sandbox: Sandbox): Promise<string[]> {
  const out: string[] = [];
  const send = async (method: string, path: string, body?: unknown, query?: Record<string, string[]>) => {
    const res = await sandbox.dispatch(req(sandbox, method, path, body, query));
    const text = `${res.status} ${JSON.stringify(res.headers)} ${Buffer.from(res.body).toString('utf8')}`;
    out.push(`${method} ${path} -> ${text}`);
    if (res.status >= 500) throw new Error(text);
    return res.body.length ? (JSON.parse(Buffer.from(res.body).toString('utf8')) as Record<string, unknown>) : {};
  };
  const a = await send('POST', '/v2/user', { client_user_id: 'det-a', fallback_time_zone: 'Europe/Oslo' });
  const b = await send('POST', '/v2/user', { client_user_id: 'det-b' });
  await send('GET', '/v2/user', undefined, { limit: ['500'] });
  await send('PATCH', `/v2/user/${String(a['user_id'])}`, { fallback_birth_date: '1970-01-01' });
  await send('DELETE', `/v2/user/${String(b['user_id'])}`);
  await sandbox.advance(8 * 86400);
  await send('GET', `/v2/user/${String(b['user_id'])}`);
  await send('GET', '/v2/user', undefined, { offset: ['3'], limit: ['7'] });
  await send('POST', '/v2/user', { client_user_id: 'det-b' });
  // Wearables: a demo connection, its pull on the clock, generated data and the feed.
  const c = await send('POST', '/v2/user', { client_user_id: 'det-c', fallback_time_zone: 'America/Denver' });
  const cid = String(c['user_id']);
  await send('POST', '/v2/link/connect/demo', { user_id: cid, provider: 'apple_health_kit' });
  await sandbox.advance(6 * 3600);
  await send('GET', `/v2/user/providers/${cid}`);
  await send('GET', `/v2/timeseries/${cid}/heartrate`, undefined, { start_date: ['2026-01-01'], end_date: ['2026-01-02'] });
  await send('GET', `/v2/summary/sleep/${cid}`, undefined, { start_date: ['2025-12-20'] });
  await send('GET', `/v2/summary/electrocardiogram/${cid}`, undefined, { start_date: ['2025-12-01'] });
  await send('GET', '/v2/introspect/historical_pull', undefined, { user_id: [cid] });
  // Lab testing: an order placed, simulated to completion, listed and its results read.
  const tests = (await send('GET', '/v3/lab_tests')) as unknown as Array<{ id: string; method: string }>;
  const testkit = tests.find((t) => t.method === 'testkit');
  const order = await send('POST', '/v3/order', {
    user_id: cid,
    lab_test_id: testkit?.id,
    patient_details: {
      first_name: 'Ada',
      last_name: 'Lovelace',
      dob: '1985-12-10',
      gender: 'female',
      phone_number: '+14155551234',
      email: 'ada@example.com',
    },
    patient_address: {
      receiver_name: 'Ada Lovelace',
      first_line: '1 Main Street',
      city: 'Austin',
      state: 'TX',
      zip: '78701',
      country: 'US',
    },
  });
  const orderId = String((order['order'] as Record<string, unknown> | undefined)?.['id']);
  await send('POST', `/v3/order/${orderId}/test`, {}, { final_status: ['completed.testkit.completed'] });
  await sandbox.advance(3 * 86400);
  await send('GET', `/v3/order/${orderId}`);
  await send('GET', `/v3/order/${orderId}/result`);
  await send('GET', '/v3/orders', undefined, { order_key: ['patient_name'], size: ['20'] });
  await send('GET', '/v3/insurance/search/payor', undefined, { insurance_name: ['blue cross'] });
  return out;
}

describe('determinism', () => {
  it('builds deep-equal worlds from the same seed and different ones from different seeds', () => {
    const a = snapshotWorld(createSandbox({ seed: 11 }).world);
    const b = snapshotWorld(createSandbox({ seed: 11 }).world);
    expect(a).toBe(b);
    const c = snapshotWorld(createSandbox({ seed: 12 }).world);
    expect(c).not.toBe(a);
  });

  it('answers the same requests with byte-identical responses', async () => {
    const one = createSandbox({ seed: 3, users: 5, usersElsewhere: 1, logger: () => undefined });
    const two = createSandbox({ seed: 3, users: 5, usersElsewhere: 1, logger: () => undefined });
    const first = await script(one);
    const second = await script(two);
    expect(first.filter((line) => / -> 2\d\d /.test(line)).length).toBeGreaterThan(20);
    expect(second).toEqual(first);
    expect(snapshotWorld(two.world)).toBe(snapshotWorld(one.world));
    const other = await script(createSandbox({ seed: 4, users: 5, usersElsewhere: 1, logger: () => undefined }));
    expect(other).not.toEqual(first);
  });

  it('gives the same world after a reset to the same seed', () => {
    const sandbox = createSandbox({ seed: 21 });
    const before = snapshotWorld(sandbox.world);
    sandbox.reset(22);
    const other = snapshotWorld(sandbox.world);
    expect(other).not.toBe(before);
    // A reset without a seed keeps the last one given.
    sandbox.reset();
    expect(snapshotWorld(sandbox.world)).toBe(other);
    sandbox.reset(21);
    expect(snapshotWorld(sandbox.world)).toBe(before);
  });
});
