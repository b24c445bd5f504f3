import { createSandbox } from '../src/index.js';
const s = createSandbox({ seed: 1, users: 3, usersElsewhere: 0, feed: 'off', logger: () => undefined });
const key = s.credentials().teams[0]!.api_keys.sandbox;
const enc = new TextEncoder();
async function call(method: string, path: string, query: Record<string, string[]> = {}, body?: unknown, show = 1500) {
  const r = await s.dispatch({ method, surface: 'data', path, query, headers: { 'x-vital-api-key': key, 'content-type': 'application/json' }, rawBody: body === undefined ? new Uint8Array() : enc.encode(JSON.stringify(body)) });
  const t = new TextDecoder().decode(r.body);
  console.log(method, path, r.status, t.slice(0, show), '\n');
  try { return JSON.parse(t); } catch { return null; }
}
const orders = await call('GET', '/v3/orders', { size: ['20'] }, undefined, 0);
for (const o of orders.orders) console.log(o.status, o.events?.length, Object.keys(o).join(','));
const o = orders.orders.find((x: any) => x.status !== 'cancelled' && x.status !== 'completed') ?? orders.orders[0];
console.log(JSON.stringify(o.events ?? o.details, null, 0).slice(0, 1500));
await call('POST', `/v3/order/${o.id}/test`, {}, {});
await call('POST', '/v2/webhooks/endpoints', {}, { url: 'http://127.0.0.1:1/x' }, 300);
