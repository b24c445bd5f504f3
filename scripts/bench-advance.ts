/**
 * Deliveries at the default settings (issue 33), measured as they are: the default world with one
 * endpoint listening to everything, delivered through the CLI's transport (node transport, the
 * default delivery window: `'auto'`, adaptive and pipelined, docs/simulated/webhooks.md), while
 * the clock advances 30 days (`--quick`: 3 days); in the same run, the same advance with
 * `deliveryWindow: 1` (one at a time, the default before) and the baseline: a bare `node:http`
 * client posting the same requests the sandbox sent (issue 45: "the same bodies"), one at a time
 * over one keep-alive connection. The receiver (127.0.0.1, answers 204) runs in this process for
 * all of them, so CPU time (user + system of the process over the span) counts it too: on a
 * machine shared with other work CPU per delivery is steadier than wall time. `npm run bench --
 * --advance` runs only this. The sandbox is measured as it ships (the sources bundled by esbuild
 * as dist/ is, scripts/bench-feed-e2e.ts `loadLib`), and the same advance through the TypeScript
 * sources (tsx) is shown beside it.
 *
 * The bare client's requests are recorded in a run of their own, not measured (same seed, same
 * days: the sandbox is deterministic), after the measured one: each request's headers (content
 * type, user agent, the webhook id, timestamp and signature) and body. The measured run only
 * counts its requests and hashes their message ids and body lengths (tens of nanoseconds each, no
 * copy kept); the recording must give the same count and hash, or the bench stops. The signature
 * timestamps are wall-clock seconds, so the recorded signatures are the recording run's, of the
 * same length.
 */
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEndpoint } from './bench-endpoint.js';
import { loadLib } from './bench-feed-e2e.js';

type Lib = Awaited<ReturnType<typeof loadLib>>;

async function receiver(): Promise<{ url: string; count: () => number; close: () => Promise<void> }> {
  let n = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      n++;
      res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    count: () => n,
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

interface Run {
  delivered: number;
  seconds: number;
  /** CPU microseconds of this process over the run. */
  cpuUs: number;
  /** Events the sandbox emitted (a sandbox's run). */
  emitted?: number;
}

function measureFrom(cpu: NodeJS.CpuUsage, start: bigint, delivered: number): Run {
  const used = process.cpuUsage(cpu);
  return { delivered, seconds: Number(process.hrtime.bigint() - start) / 1e9, cpuUs: used.user + used.system };
}

/** One request the sandbox sent, as the bare client posts it again. */
interface Sent {
  headers: Record<string, string | number>;
  body: Buffer;
}

/** What a run's requests are checked by: their count and a hash of their message ids and body lengths. */
interface Tally {
  n: number;
  hash: number;
  chars: number;
  /** UTF-8 bytes of the bodies (counted only when they are kept). */
  bytes: number;
}

type Transport = ReturnType<Lib['node']['createNodeTransport']>['transport'];

/** FNV-1a over a message id and its body's length (a few dozen characters: cheap enough to run in the measured advance). */
function mix(hash: number, id: string, length: number): number {
  let h = hash;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 16777619);
  return Math.imul(h ^ length, 16777619) >>> 0;
}

/** A transport that tallies what passes through it and, given `keep`, keeps every request (headers and body). */
function watched(real: Transport, tally: Tally, keep: Sent[] | null): Transport {
  const wrapped = ((request) => {
    const id = request.headers['svix-id'] ?? request.headers['webhook-id'] ?? '';
    tally.n++;
    tally.chars += request.body.length;
    tally.hash = mix(tally.hash, id, request.body.length);
    if (keep !== null) {
      const body = Buffer.from(request.body, 'utf8');
      tally.bytes += body.length;
      keep.push({ headers: { ...request.headers, 'content-length': body.length }, body });
    }
    return real(request);
  }) as Transport;
  if (real.sharesSignals) wrapped.sharesSignals = true;
  if (real.pipelines) wrapped.pipelines = true;
  return wrapped;
}

const newTally = (): Tally => ({ n: 0, hash: 2166136261, chars: 0, bytes: 0 });

/** Posts `requests` one after the other over one keep-alive connection. */
async function barePosts(url: string, requests: readonly Sent[]): Promise<Run> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const target = new URL(url);
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  for (const sent of requests) {
    await new Promise<void>((done, fail) => {
      const req = request(
        { agent, host: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers: sent.headers },
        (res) => {
          res.resume();
          res.on('end', () => done());
        },
      );
      req.on('error', fail);
      req.end(sent.body);
    });
  }
  const run = measureFrom(cpu, start, requests.length);
  agent.destroy();
  return run;
}

interface Advance {
  url: string;
  count: () => number;
  days: number;
  /** A fixed delivery window, or the default. */
  window?: number | 'auto';
  /** Wraps the node transport (the bench's tally or recording). */
  wrap?: (real: Transport) => Transport;
  /** No endpoint: the same advance generating the same events, delivering none (default: the catch-all endpoint). */
  bare?: true;
}

/** The advance of `days` with one catch-all endpoint at `url`. */
async function sandboxAdvance(lib: Lib, { url, count, days, window, wrap, bare }: Advance): Promise<Run> {
  const node = lib.node.createNodeTransport();
  const sandbox = lib.index.createSandbox({
    seed: 1,
    logger: () => undefined,
    webhookTransport: wrap === undefined ? node.transport : wrap(node.transport),
    ...(window === undefined ? {} : { deliveryWindow: window }),
    // With no endpoint the default feed ('auto') generates nothing (it generates what is listened to); on, it generates for every team.
    ...(bare === undefined ? {} : { feed: 'on' as const }),
  });
  if (bare === undefined) await createEndpoint(sandbox, url);
  const before = count();
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  await sandbox.advance(`${days}d`);
  await sandbox.settle();
  const run = measureFrom(cpu, start, count() - before);
  run.emitted = sandbox.world.events.emitted;
  sandbox.close();
  node.close();
  return run;
}

const fmt = (n: number): string => Math.round(n).toLocaleString('en');

function line(name: string, run: Run, base: Run | null): string {
  const rate = run.delivered / run.seconds;
  const cpu = run.cpuUs / run.delivered;
  const ratios =
    base === null
      ? ''
      : `: ${(rate / (base.delivered / base.seconds)).toFixed(2)}x wall, ${(base.cpuUs / base.delivered / cpu).toFixed(2)}x CPU`;
  return `  ${name.padEnd(62)} ${fmt(run.delivered).padStart(7)} in ${run.seconds.toFixed(1).padStart(5)} s, ${fmt(rate).padStart(6)}/s, ${fmt(cpu).padStart(4)} us CPU each${ratios}`;
}

/**
 * The sandbox runs as the package ships it (the bundle: what the CLI and `import('health-sandbox')`
 * run), and, in the same rounds, as the TypeScript sources through tsx (the figure of the runs
 * before 2026-11-27, 06:00 UTC; tsx's `keepNames` names every closure when it is created).
 */
export async function benchAdvance(quick: boolean): Promise<void> {
  const days = quick ? 3 : 30;
  const shipped = await loadLib(true);
  const sources = await loadLib(false);
  const rx = await receiver();
  const at = { url: rx.url, count: rx.count };
  try {
    // Warm-up (not measured): the first sandbox of each copy pays for compiling the delivery path.
    await sandboxAdvance(shipped, { ...at, days: 1 });
    await sandboxAdvance(sources, { ...at, days: 1 });
    const warm = rx.count();
    const measured = newTally();
    const now = await sandboxAdvance(shipped, { ...at, days, wrap: (real) => watched(real, measured, null) });
    // The same advance again, recorded (not measured): what the bare client posts.
    const recorded = newTally();
    const requests: Sent[] = [];
    await sandboxAdvance(shipped, { ...at, days, wrap: (real) => watched(real, recorded, requests) });
    if (measured.n !== now.delivered || recorded.n !== measured.n || recorded.hash !== measured.hash || recorded.chars !== measured.chars) {
      throw new Error(`the recorded run sent other requests than the measured one (${recorded.n} against ${measured.n})`);
    }
    const bare = await barePosts(rx.url, requests);
    // The same advance with no endpoint and the feed on for every team (events generated, none delivered): generation alone.
    const quiet = await sandboxAdvance(shipped, { ...at, days, bare: true });
    // Its cost per event, for the events the measured run emitted: an estimate of their generation.
    const share = (now.emitted as number) / (quiet.emitted as number);
    const delivering: Run = {
      delivered: now.delivered,
      seconds: now.seconds - quiet.seconds * share,
      cpuUs: now.cpuUs - quiet.cpuUs * share,
    };
    // What the bare client posted (its requests' bodies) and what the sandbox sent (the recording's bodies, encoded as sent).
    const bareBytes = requests.reduce((sum, r) => sum + r.body.length, 0);
    requests.length = 0;
    (globalThis as { gc?: () => void }).gc?.();
    const tsx = await sandboxAdvance(sources, { ...at, days });
    const one = await sandboxAdvance(shipped, { ...at, days, window: 1 });
    if (rx.count() - warm !== now.delivered * 3 + tsx.delivered + one.delivered) throw new Error('not every post arrived');
    console.log(`\nDeliveries at the default settings: advance ${days} days, default world, one endpoint listening to everything`);
    console.log(
      '  (receiver included in CPU; ratios against the bare client: higher is better; goals: issue 33 0.6x and 30 days under 15 s, issue 45 0.9x wall)',
    );
    console.log(
      `  mean body: sandbox ${fmt(recorded.bytes / recorded.n)} bytes (${fmt(measured.chars / measured.n)} characters in the measured run), bare client ${fmt(bareBytes / bare.delivered)} bytes (the sandbox's requests, recorded in a run of their own)`,
    );
    console.log(line("bare node:http client, the sandbox's requests one at a time", bare, null));
    console.log(line("sandbox as shipped (bundle), default settings (window 'auto')", now, bare));
    console.log(
      `  generation alone (no endpoint, feed on for every team): ${fmt(quiet.emitted as number)} events in ${quiet.seconds.toFixed(1)} s, ${(quiet.cpuUs / (quiet.emitted as number)).toFixed(1)} us CPU each (the measured run emitted ${fmt(now.emitted as number)})`,
    );
    console.log(line('delivering alone (the bundle, less its events at that cost each)', delivering, bare));
    console.log(line('the same, sources through tsx', tsx, bare));
    console.log(line('sandbox as shipped, deliveryWindow 1 (the old default)', one, bare));
  } finally {
    await rx.close();
  }
}

if (process.argv[1]?.endsWith('bench-advance.ts')) await benchAdvance(process.argv.includes('--quick'));
