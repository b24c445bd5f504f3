/** Both adapters answer identically: the same requests through express and msw give the same status, content type and bytes. */
import { expect, it } from 'vitest';
import { createClient, type TestClient, type CallOptions } from './support/client.js';

type Step = [method: string, path: string, options?: CallOptions];

async function run(c: TestClient): Promise<string[]> {
  const out: string[] = [];
  const send = async (method: string, path: string, options?: CallOptions) => {
    const res = await c.call(method, path, options);
    out.push(`${method} ${path} ${res.status} ${res.headers['content-type'] ?? ''} ${res.bytes.toString('base64')}`);
    return res;
  };
  const steps: Step[] = [
    ['GET', '/v2/user', { query: { limit: 3 } }],
    ['GET', '/v2/user', { anonymous: true }],
    ['GET', '/v2/user', { headers: { 'x-service-api-key': c.managementKey } }],
    ['PUT', '/v2/user'],
    ['GET', '/v2/no/such/route'],
    ['POST', '/v2/user', { body: '{"client_user_id":' }],
    ['POST', '/v2/user', { body: { client_user_id: 'someone@example.com' } }],
    ['GET', '/v2/user/not-a-uuid'],
    ['GET', '/v2/providers'],
    ['GET', '/v3/lab_tests'],
    ['GET', '/v3/lab_tests/markers', { query: { size: 5 } }],
    ['GET', '/v3/orders', { query: { size: 5, order_type: ['testkit', 'walk_in_test'] } }],
    ['GET', '/v3/orders', { query: { size: 101 } }],
    ['GET', '/v3/insurance/search/payor', { query: { insurance_name: 'aetna' } }],
    ['GET', `/v1/org/${c.orgId}/team`, { surface: 'management' }],
    ['GET', `/v1/org/${c.orgId}/team`, { surface: 'management', headers: { 'x-management-key': '', 'x-service-api-key': c.apiKey } }],
    ['GET', '/_sandbox/clock'],
  ];
  for (const [method, path, options] of steps) await send(method, path, options);
  const user = await send('POST', '/v2/user', { body: { client_user_id: 'parity-1' } });
  const id = user.body.user_id as string;
  await send('POST', '/v2/link/connect/demo', { body: { user_id: id, provider: 'fitbit' } });
  await send('POST', '/_sandbox/clock/advance', { body: { duration: 'PT6H' } });
  await send('GET', `/v2/user/providers/${id}`);
  await send('GET', `/v2/timeseries/${id}/steps`, { query: { start_date: '2026-01-04', end_date: '2026-01-05' } });
  await send('GET', `/v2/summary/activity/${id}`, { query: { start_date: '2025-12-30' } });
  await send('PATCH', `/v2/user/${id}`, { body: { fallback_time_zone: 'Europe/Rome' } });
  await send('DELETE', `/v2/user/${id}`);
  await send('GET', `/v2/user/${id}`);
  const team = c.creds.teams[0]?.team_id ?? '';
  await send('GET', `/v1/org/${c.orgId}/team/${team}`, { surface: 'management' });
  await send('GET', `/v2/team/${team}`);
  return out;
}

it('express and msw give byte-identical answers to the same requests', async () => {
  const express = await run(createClient('express', { seed: 8, users: 4, usersElsewhere: 1 }));
  const msw = await run(createClient('msw', { seed: 8, users: 4, usersElsewhere: 1 }));
  expect(express.length).toBeGreaterThan(25);
  for (let i = 0; i < express.length; i++) expect(msw[i], express[i]?.slice(0, 80)).toBe(express[i]);
});
