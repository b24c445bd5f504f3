/**
 * msw bench (issue 33's "msw handlers within 1.1x of a trivial handler"): `GET /v2/user/:id` by
 * `fetch` through msw's `setupServer`, answered by the sandbox's handlers (`createMswHandlers`)
 * against one trivial msw handler answering the same JSON from a Map. Both run in this process,
 * one server at a time (msw patches the globals), rounds interleaved, the best round kept; wall
 * time and CPU time per request are both given (CPU time is steadier on a shared machine).
 * `npm run bench -- --msw` runs only this.
 */
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { createSandbox } from '../src/index.js';
import { createMswHandlers } from '../src/msw.js';
import { usersOf } from '../src/state/users/users.js';

const BASE = 'http://127.0.0.1:4250';

export async function benchMsw(quick: boolean): Promise<void> {
  const sandbox = createSandbox({ seed: 1, users: 1000, logger: () => undefined });
  const team = [...sandbox.world.tenancy.teams.values()][0];
  if (!team) throw new Error('no team');
  const users = usersOf(sandbox.world.tenancy.partition(team, 'sandbox'), sandbox.world).all().slice(0, 50);
  const apiKey = sandbox.credentials().teams[0]?.api_keys.sandbox ?? '';
  const bodies = new Map<string, unknown>();
  for (const u of users) {
    const res = await sandbox.dispatch({
      method: 'GET',
      surface: 'data',
      path: `/v2/user/${u.user_id}`,
      query: {},
      headers: { 'x-service-api-key': apiKey },
      rawBody: new Uint8Array(0),
    });
    bodies.set(u.user_id, JSON.parse(new TextDecoder().decode(res.body)));
  }
  const trivial = http.get(`${BASE}/v2/user/:id`, ({ params, request }) => {
    const body = bodies.get(String(params.id));
    if (!body || request.headers.get('x-service-api-key') !== apiKey) return HttpResponse.json({ detail: 'Not Found' }, { status: 404 });
    return HttpResponse.json(body);
  });
  const servers = {
    'trivial msw handler (Map)': () => setupServer(trivial),
    'health-sandbox msw handlers': () => setupServer(...createMswHandlers(sandbox, { baseUrl: BASE })),
  };
  const n = quick ? 500 : 2_000;
  const rounds = quick ? 2 : 5;
  const urls = users.map((u) => `${BASE}/v2/user/${u.user_id}`);
  const headers = { 'x-service-api-key': apiKey };
  const wall: Record<string, number> = {};
  const cpu: Record<string, number> = {};
  for (let round = 0; round < rounds; round++) {
    for (const [name, make] of Object.entries(servers)) {
      const server = make();
      server.listen({ onUnhandledRequest: 'error' });
      for (let i = 0; i < 100; i++) await (await fetch(urls[i % urls.length] as string, { headers })).arrayBuffer();
      const c = process.cpuUsage();
      const t = process.hrtime.bigint();
      for (let i = 0; i < n; i++) {
        const res = await fetch(urls[i % urls.length] as string, { headers });
        if (res.status !== 200) throw new Error(`${name}: ${res.status}`);
        await res.arrayBuffer();
      }
      const us = Number(process.hrtime.bigint() - t) / 1000 / n;
      const used = process.cpuUsage(c);
      server.close();
      wall[name] = Math.min(wall[name] ?? Infinity, us);
      cpu[name] = Math.min(cpu[name] ?? Infinity, (used.user + used.system) / n);
    }
  }
  const base = 'trivial msw handler (Map)';
  console.log(`\nGET /v2/user/:id through msw setupServer (fetch, one at a time, best of ${rounds} x ${n})`);
  console.log(
    `${'handlers'.padEnd(30)} ${'us/req'.padStart(8)} ${'x trivial'.padStart(10)} ${'CPU us/req'.padStart(11)} ${'x trivial'.padStart(10)}`,
  );
  for (const name of Object.keys(servers)) {
    console.log(
      `${name.padEnd(30)} ${(wall[name] ?? NaN).toFixed(0).padStart(8)} ${((wall[name] ?? NaN) / (wall[base] ?? NaN)).toFixed(2).padStart(10)} ${(cpu[name] ?? NaN).toFixed(0).padStart(11)} ${((cpu[name] ?? NaN) / (cpu[base] ?? NaN)).toFixed(2).padStart(10)}`,
    );
  }
  console.log('  (goal: the sandbox handlers within 1.1x of the trivial handler)');
  sandbox.close();
}

if (process.argv[1]?.endsWith('bench-msw.ts')) await benchMsw(process.argv.includes('--quick'));
