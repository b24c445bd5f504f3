/**
 * The mixed soak (`npm run bench -- --soak --mix [--seconds N] [--warmup S] [--census]`, issue 27):
 * the sandbox served as the CLI serves it (its own process: scripts/bench-soak-server.ts, the
 * CLI's webhook transport) under 4 readers and 2 writers (unpaced: each waits for its answer),
 * a clock loop advancing 1 h after 1 h (each advance awaited, then the next), and two webhook
 * endpoints on real receivers in this process: one answers 200, one 500 (every delivery to it
 * walks the retry ladder). RSS, live heap and the retained counts are sampled every 10 s;
 * `--census` sums every Map, Set and array reachable from the world at the end of warm-up and at
 * the end, and prints the paths that grew. Warm-up: a fifth of the run (`--warmup S`).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Sample, sampler, startServer } from '../bench-soak.js';
import { growth } from '../soak-census.js';

const MB = 1e6;
const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function receiver(status: number): Promise<{ server: Server; url: string; count: () => number }> {
  let n = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      n++;
      res.writeHead(status).end(status === 200 ? 'ok' : 'no');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.unref();
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, count: () => n };
}

export async function benchSoakMix(seconds: number): Promise<void> {
  const warmup = arg('--warmup', seconds / 5);
  const wantCensus = process.argv.includes('--census');
  const { child, base, creds } = await startServer();
  const sample = sampler(child);
  const team = creds.teams[0];
  if (!team) throw new Error('no team');
  const statuses = new Map<string, number>();
  let requests = 0;
  const call = async (method: string, path: string, body?: unknown): Promise<any> => {
    requests++;
    try {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: {
          'x-service-api-key': team.api_keys.sandbox,
          'x-management-key': creds.management_key,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      if (res.status >= 300) {
        const label = `${method} ${path.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, ':id').split('?')[0]} ${res.status}`;
        statuses.set(label, (statuses.get(label) ?? 0) + 1);
      }
      return text.startsWith('{') || text.startsWith('[') ? JSON.parse(text) : text;
    } catch {
      statuses.set(`${method} error`, (statuses.get(`${method} error`) ?? 0) + 1);
      return undefined;
    }
  };
  const ok = await receiver(200);
  const failing = await receiver(500);
  for (const url of [ok.url, failing.url])
    await call('POST', `/management/v1/org/${creds.org_id}/team/${team.team_id}/sandbox/webhook`, { url });
  const start = performance.now();
  const end = start + seconds * 1000;
  const ids: string[] = [];
  let n = 0;
  const writer = async () => {
    while (performance.now() < end) {
      const i = n++;
      const user = await call('POST', '/v2/user', { client_user_id: `mix-${i}` });
      const id = user?.user_id as string | undefined;
      if (!id) continue;
      await call('POST', '/v2/link/connect/demo', { user_id: id, provider: 'oura' });
      ids.push(id);
      if (ids.length > 20) await call('DELETE', `/v2/user/${ids.shift()}`);
    }
  };
  const reader = async (k: number) => {
    let i = k;
    while (performance.now() < end) {
      const id = ids[i++ % Math.max(1, ids.length)];
      await call('GET', '/v2/user?limit=10');
      if (id) await call('GET', `/v2/summary/sleep/${id}?start_date=2026-01-01&end_date=2026-01-03`);
      await call('GET', `/_sandbox/events?limit=20&team_id=${team.team_id}&environment=sandbox`);
      await call('GET', '/_sandbox/webhooks/attempts?limit=20');
    }
  };
  let advances = 0;
  let advanceMaxMs = 0;
  const clock = async () => {
    while (performance.now() < end) {
      const t0 = performance.now();
      await call('POST', '/_sandbox/clock/advance', { duration: '1h' });
      advances++;
      advanceMaxMs = Math.max(advanceMaxMs, performance.now() - t0);
    }
  };
  const samples: Sample[] = [];
  let warm: Sample | undefined;
  const watch = async () => {
    let next = start + 10_000;
    while (performance.now() < end) {
      await sleep(Math.max(0, next - performance.now()));
      next += 10_000;
      const t = (performance.now() - start) / 1000;
      const atWarm = warm === undefined && t >= warmup;
      const s = { ...(await sample(atWarm && wantCensus)), t };
      samples.push(s);
      if (atWarm) warm = s;
      console.log(
        `  ${t.toFixed(0).padStart(5)} s  ${requests} requests  ${s.sandboxTime.slice(0, 16)}  RSS ${(s.rss / MB).toFixed(0)} MB  heap ${(s.heapUsed / MB).toFixed(0)} MB (of ${(s.heapTotal / MB).toFixed(0)}, external ${(s.external / MB).toFixed(0)}) ${JSON.stringify(s.spaces)}  ${JSON.stringify(s.counts)}${atWarm ? '  <- end of warm-up' : ''}`,
      );
    }
  };
  console.log(`soak --mix: ${seconds} s, 4 readers, 2 writers, +1 h advances, a 200 and a 500 receiver; server ${base} (pid ${child.pid})`);
  await Promise.all([writer(), writer(), ...[0, 1, 2, 3].map(reader), clock(), watch()]);
  const elapsed = (performance.now() - start) / 1000;
  const last = { ...(await sample(wantCensus)), t: elapsed };
  child.send({ type: 'stop' });
  ok.server.close();
  failing.server.close();
  console.log(
    `\n${requests} requests in ${elapsed.toFixed(0)} s; ${advances} advances of 1 h (slowest ${advanceMaxMs.toFixed(0)} ms); deliveries: 200 receiver ${ok.count()}, 500 receiver ${failing.count()}`,
  );
  console.log(`non-2xx answers: ${statuses.size === 0 ? 'none' : [...statuses].map(([k, v]) => `${k} x${v}`).join('; ')}`);
  if (!warm) return console.log('the run ended before the warm-up did: no verdict');
  const rss = samples.filter((s) => s.t >= (warm as Sample).t).map((s) => s.rss / MB);
  const ratio = Math.max(...rss) / (warm.rss / MB);
  console.log(
    `RSS at warm-up ${(warm.rss / MB).toFixed(0)} MB, at the end ${(last.rss / MB).toFixed(0)} MB, max after warm-up ${Math.max(...rss).toFixed(0)} MB (max / warm-up ${ratio.toFixed(2)}; target 1.20); live heap ${(warm.heapUsed / MB).toFixed(0)} -> ${(last.heapUsed / MB).toFixed(0)} MB`,
  );
  console.log(`counts at warm-up ${JSON.stringify(warm.counts)}\ncounts at the end ${JSON.stringify(last.counts)}`);
  if (wantCensus && warm.census && last.census) {
    console.log('census, the paths that grew most after warm-up:');
    for (const line of growth(new Map(warm.census), new Map(last.census), 25)) console.log(`  ${line}`);
  }
}
