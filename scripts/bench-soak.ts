/**
 * Soak (`npm run bench -- --soak [--seconds N] [--rate R] [--warmup S] [--step S] [--advance-every N] [--census] [--receiver-delay MS]`): the sandbox
 * served as the CLI serves it (node:http adapter, real sockets on 127.0.0.1, the CLI's webhook
 * transport; its own process, scripts/bench-soak-server.ts) under a steady request rate (default
 * 150 requests/s, 32 clients sharing one pacer), for N seconds (default 60).
 *
 * The load, per client iteration (10 requests): create a user, read it, connect a demo provider,
 * read its providers, read a sleep summary, order a lab test with an `X-Idempotency-Key`, read the
 * order, list users, read the journal's latest page, delete the user. Besides: the clock advances
 * 2 hours every 2 s of wall time at most (an advance waits for the deliveries its jobs caused) through `POST /_sandbox/clock/advance` (so the 7-day deletion
 * grace, the lab orders' lifecycles, pulls and the wearable feed all run), and a webhook endpoint
 * for lab order and connection events delivers to the sandbox's own test receiver over a real
 * socket, 8 attempts pipelined (the CLI's `--delivery-window 8`; `--delivery-window N`).
 * `--advance-every N`: advance once every N requests instead (sandbox time per request fixed, so
 * the retained set does not depend on how fast a loaded machine runs the advances).
 *
 * Memory: the server's RSS, live heap (after a full GC) and retained counts are sampled every
 * 10 s. Warm-up: the first 15 minutes of runs of 30 minutes or more, a fifth of shorter runs
 * (`--warmup S` overrides): on a loaded 2-core machine the clock reaches the end of the first
 * users' 7-day grace (where the retained counts level off) after 10 to 12 minutes, and V8's heap
 * reservation follows a few minutes later; the report gives RSS at the end of warm-up, min/median/max after it and
 * at the end. Target (issue 11): RSS after warm-up stays within 20% of its warm-up value.
 * `--census`: every Map, Set and array reachable from the world summed per path at the end of
 * warm-up and at the end, and the paths that grew.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Credentials } from '../src/index.js';
import { growth } from './soak-census.js';

export interface Sample {
  t: number;
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
  cpu: { user: number; system: number };
  logged: number;
  sandboxTime: string;
  counts: Record<string, number>;
  spaces?: Record<string, number>;
  census?: Array<[string, number]>;
}

const MB = 1e6;
const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0
    ? NaN
    : s.length % 2
      ? (s[(s.length - 1) / 2] as number)
      : ((s[s.length / 2 - 1] as number) + (s[s.length / 2] as number)) / 2;
};

export function startServer(): Promise<{ child: ChildProcess; base: string; creds: Credentials }> {
  const window = arg('--delivery-window', 8);
  const child = fork(fileURLToPath(new URL('./bench-soak-server.ts', import.meta.url)), [], {
    env: { ...process.env, SOAK_DELIVERY_WINDOW: String(window) },
    // SOAK_NODE_FLAGS: extra V8/Node flags for the server (a diagnostic: how the heap's sizing moves RSS).
    execArgv: ['--expose-gc', ...(process.env.SOAK_NODE_FLAGS?.split(' ').filter(Boolean) ?? []), '--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`soak server exited (${code})`)));
    child.once('message', (m: { type: string; base: string; credentials: Credentials }) =>
      resolve({ child, base: m.base, creds: m.credentials }),
    );
  });
}

export function sampler(child: ChildProcess) {
  let waiting: ((s: Sample) => void) | undefined;
  child.on('message', (m: Sample & { type: string }) => {
    if (m.type === 'sample' && waiting) {
      const w = waiting;
      waiting = undefined;
      w(m);
    }
  });
  return (census = false) =>
    new Promise<Sample>((resolve) => {
      waiting = resolve;
      child.send({ type: 'sample', census });
    });
}

export async function benchSoak(seconds: number): Promise<void> {
  const rate = arg('--rate', 150);
  const step = arg('--step', 2 * 3600);
  const clients = arg('--clients', 32);
  const advanceEvery = arg('--advance-every', 0);
  const warmup = arg('--warmup', seconds >= 1800 ? 900 : seconds / 5);
  const wantCensus = process.argv.includes('--census');
  const { child, base, creds } = await startServer();
  const sample = sampler(child);
  const team = creds.teams[0];
  if (!team) throw new Error('no team');
  const key = team.api_keys.sandbox;
  const statuses = new Map<string, number>();
  let requests = 0;
  let failures = 0;
  // One pacer for every client: request slots 1000/rate ms apart; a client waits for its slot.
  let nextSlot = performance.now();
  const pace = async () => {
    const now = performance.now();
    const slot = Math.max(now, nextSlot);
    nextSlot = slot + 1000 / rate;
    if (slot > now) await sleep(slot - now);
  };
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}, paced = true): Promise<any> => {
    if (paced) await pace();
    requests++;
    try {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: {
          'x-service-api-key': key,
          'x-management-key': creds.management_key,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      const label = `${method} ${path.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, ':id').split('?')[0]} ${res.status}`;
      if (res.status >= 300) statuses.set(label, (statuses.get(label) ?? 0) + 1);
      return text.startsWith('{') || text.startsWith('[') ? JSON.parse(text) : text;
    } catch (error) {
      failures++;
      statuses.set(`${method} error ${String((error as Error).cause ?? error)}`, (statuses.get(`${method} error`) ?? 0) + 1);
      return undefined;
    }
  };

  // Setup: a webhook endpoint for every event, to the sandbox's own test receiver; a lab test to order.
  // `--receiver-delay MS` (a diagnostic of the clock under overload): the endpoint delivers to a
  // receiver in this process that answers each request MS ms late, so deliveries to it fall
  // behind the load (at most window x 1000/MS per second) and a backlog builds on one endpoint.
  const receiverDelay = arg('--receiver-delay', 0);
  let receiverUrl = `${base}/_sandbox/receiver/soak`;
  if (receiverDelay > 0) {
    const slow = createServer((req, res) => {
      req.resume();
      req.on('end', () => setTimeout(() => res.end('ok'), receiverDelay));
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    slow.unref();
    receiverUrl = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/slow`;
  }
  await call(
    'POST',
    `/management/v1/org/${creds.org_id}/team/${team.team_id}/sandbox/webhook`,
    { url: receiverUrl, filter_types: ['labtest.order.created', 'labtest.order.updated', 'provider.connection.created'] },
    {},
    false,
  );
  const tests = (await call('GET', '/v3/lab_tests', undefined, {}, false)) as Array<{
    id: string;
    method: string;
    auto_generated: boolean;
  }>;
  const labTest = tests.find((t) => t.method === 'walk_in_test' && !t.auto_generated) ?? tests[0];
  if (!labTest) throw new Error('no lab test');
  const patient = {
    first_name: 'Ada',
    last_name: 'Lovelace',
    dob: '1985-12-10',
    gender: 'female',
    phone_number: '+14155551234',
    email: 'ada@example.com',
  };
  const address = { receiver_name: 'Ada Lovelace', first_line: '1 Main Street', city: 'Austin', state: 'TX', zip: '78701', country: 'US' };

  const start = performance.now();
  const end = start + seconds * 1000;
  let n = 0;
  let advances = 0;
  let advanceMs = 0;
  let advanceMaxMs = 0;
  let lastAnswered = 0;
  const client = async () => {
    while (performance.now() < end) {
      const i = n++;
      const user = await call('POST', '/v2/user', { client_user_id: `soak-${i}` });
      const id = user?.user_id as string | undefined;
      if (!id) continue;
      await call('GET', `/v2/user/${id}`);
      await call('POST', '/v2/link/connect/demo', { user_id: id, provider: 'oura' });
      await call('GET', `/v2/user/providers/${id}`);
      await call('GET', `/v2/summary/sleep/${id}?start_date=2026-01-01&end_date=2026-01-03`);
      const order = await call(
        'POST',
        '/v3/order',
        { user_id: id, lab_test_id: labTest.id, patient_details: patient, patient_address: address },
        { 'x-idempotency-key': `soak-${i}` },
      );
      if (order?.order?.id) await call('GET', `/v3/order/${order.order.id}`);
      await call('GET', '/v2/user?limit=10');
      await call('GET', `/_sandbox/events?limit=20&team_id=${team.team_id}&environment=sandbox`);
      await call('DELETE', `/v2/user/${id}`);
    }
  };
  let requestsAtAdvance = 0;
  const clock = async () => {
    while (performance.now() < end) {
      const t0 = performance.now();
      await call('POST', '/_sandbox/clock/advance', { seconds: step }, {}, false);
      advances++;
      lastAnswered = performance.now();
      advanceMs += lastAnswered - t0;
      advanceMaxMs = Math.max(advanceMaxMs, lastAnswered - t0);
      if (advanceEvery > 0) {
        // Sandbox time tied to the load: the retained set (users in grace, their orders) no
        // longer depends on how fast the machine runs the advances.
        const due = requestsAtAdvance + advanceEvery;
        while (requests < due && performance.now() < end) await sleep(50);
        requestsAtAdvance = due;
      } else {
        await sleep(Math.max(0, 2000 - (performance.now() - t0)));
      }
    }
  };
  const samples: Sample[] = [];
  let warmSample: Sample | undefined;
  let warmRequests = 0;
  const watch = async () => {
    let next = start + 10_000;
    while (performance.now() < end) {
      await sleep(Math.max(0, next - performance.now()));
      next += 10_000;
      const t = (performance.now() - start) / 1000;
      const atWarm = !warmSample && t >= warmup;
      const s = { ...(await sample(atWarm && wantCensus)), t };
      samples.push(s);
      if (atWarm) {
        warmSample = s;
        warmRequests = requests;
      }
      if (atWarm || samples.length % 3 === 0) {
        console.log(
          `  ${t.toFixed(0).padStart(5)} s  ${requests} requests  ${s.sandboxTime.slice(0, 16)}  RSS ${(s.rss / MB).toFixed(0)} MB  heap ${(s.heapUsed / MB).toFixed(0)}/${(s.heapTotal / MB).toFixed(0)} MB  ext ${(s.external / MB).toFixed(0)} MB  ${JSON.stringify(s.counts)}${atWarm ? '  <- end of warm-up' : ''}`,
        );
      }
    }
  };
  console.log(
    `soak: ${seconds} s at ${rate} requests/s (${clients} clients), clock +${step / 3600} h ${advanceEvery > 0 ? `every ${advanceEvery} requests` : 'every 2 s at most'}, warm-up ${warmup} s; server ${base} (pid ${child.pid})`,
  );
  await Promise.all([...Array.from({ length: clients }, client), clock(), watch()]);
  const elapsed = (performance.now() - start) / 1000;
  const last = { ...(await sample(wantCensus)), t: elapsed };
  samples.push(last);
  child.send({ type: 'stop' });

  console.log(
    `\n${requests} requests in ${elapsed.toFixed(0)} s (${(requests / elapsed).toFixed(0)}/s; ${failures} transport failures), ${n} iterations, ${advances} clock advances of ${step / 3600} h (mean ${(advanceMs / Math.max(1, advances)).toFixed(0)} ms wall, max ${advanceMaxMs.toFixed(0)} ms; the last answered ${((lastAnswered - end) / 1000).toFixed(1)} s after the load's end)`,
  );
  console.log(
    `non-2xx answers: ${statuses.size === 0 ? 'none' : [...statuses].map(([k, v]) => `${k} x${v}`).join('; ')}; engine log lines: ${last.logged}`,
  );
  console.log(
    `server CPU: ${((last.cpu.user + last.cpu.system) / 1e6).toFixed(0)} s (user ${(last.cpu.user / 1e6).toFixed(0)}, sys ${(last.cpu.system / 1e6).toFixed(0)})`,
  );
  const warm = warmSample as Sample | undefined;
  if (!warm) {
    console.log('the run ended before the warm-up did: no verdict');
    return;
  }
  const after = samples.filter((s) => s.t >= warm.t);
  const rss = after.map((s) => s.rss / MB);
  const heap = after.map((s) => s.heapUsed / MB);
  const fmt = (xs: number[]) => `min ${Math.min(...xs).toFixed(0)}, median ${median(xs).toFixed(0)}, max ${Math.max(...xs).toFixed(0)} MB`;
  console.log(
    `after warm-up (${warm.t.toFixed(0)} s, ${warmRequests} requests): RSS ${(warm.rss / MB).toFixed(0)} MB, live heap ${(warm.heapUsed / MB).toFixed(0)} MB (reserved ${(warm.heapTotal / MB).toFixed(0)}), external ${(warm.external / MB).toFixed(0)} MB; ${JSON.stringify(warm.counts)}`,
  );
  console.log(
    `at the end (${elapsed.toFixed(0)} s): RSS ${(last.rss / MB).toFixed(0)} MB, live heap ${(last.heapUsed / MB).toFixed(0)} MB (reserved ${(last.heapTotal / MB).toFixed(0)}), external ${(last.external / MB).toFixed(0)} MB; ${JSON.stringify(last.counts)}`,
  );
  console.log(`after warm-up, ${after.length} samples: RSS ${fmt(rss)}; live heap ${fmt(heap)}`);
  const endRatio = last.rss / warm.rss;
  const maxRatio = Math.max(...rss) / (warm.rss / MB);
  console.log(
    `RSS end / warm-up ${endRatio.toFixed(2)}, max / warm-up ${maxRatio.toFixed(2)}; live heap end / warm-up ${(last.heapUsed / warm.heapUsed).toFixed(2)} (target: RSS within 1.20)`,
  );
  console.log(
    `verdict: ${maxRatio <= 1.2 && endRatio >= 0.8 ? 'MET' : 'NOT MET'} (every RSS sample after warm-up within 20% of the warm-up value: ${after.every((s) => Math.abs(s.rss / warm.rss - 1) <= 0.2)})`,
  );
  if (wantCensus && warm.census && last.census) {
    console.log('census, the paths that grew most after warm-up:');
    for (const line of growth(new Map(warm.census), new Map(last.census), 25)) console.log(`  ${line}`);
    const wanted = /pending|lanes|waiting|steps|inflight|connections/i;
    console.log(
      `census, backlog paths at the end: ${last.census
        .filter(([p]) => wanted.test(p))
        .map(([p, v]) => `${p}=${v}`)
        .join(', ')}`,
    );
  }
}
