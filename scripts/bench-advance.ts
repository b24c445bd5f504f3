/**
 * Deliveries at the default settings (issue 33), measured as they are: the default world with one
 * endpoint listening to everything, delivered through the CLI's transport (node transport, the
 * default delivery window: `'auto'`, adaptive and pipelined, docs/simulated/webhooks.md), while
 * the clock advances 30 days (`--quick`: 3 days); in the same run, the same advance with
 * `deliveryWindow: 1` (one at a time, the default before) and the baseline: a bare `node:http` client posting the same
 * number of 1 KB bodies to the same receiver, one at a time over one keep-alive connection. The
 * receiver (127.0.0.1, answers 204) runs in this process for all three, so CPU time (user +
 * system of the process over the span) counts it too: on a machine shared with other work CPU
 * per delivery is steadier than wall time. `npm run bench -- --advance` runs only this. The
 * sandbox is measured as it ships (the sources bundled by esbuild as dist/ is, scripts/bench-feed-e2e.ts
 * `loadLib`), and the same advance through the TypeScript sources (tsx) is shown beside it.
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
}

function measureFrom(cpu: NodeJS.CpuUsage, start: bigint, delivered: number): Run {
  const used = process.cpuUsage(cpu);
  return { delivered, seconds: Number(process.hrtime.bigint() - start) / 1e9, cpuUs: used.user + used.system };
}

/** Posts `n` 1 KB bodies one after the other over one keep-alive connection. */
async function barePosts(url: string, n: number): Promise<Run> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const body = Buffer.from(JSON.stringify({ filler: 'x'.repeat(1000) }));
  const target = new URL(url);
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) {
    await new Promise<void>((done, fail) => {
      const req = request(
        {
          agent,
          host: target.hostname,
          port: target.port,
          path: target.pathname,
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-length': body.length },
        },
        (res) => {
          res.resume();
          res.on('end', () => done());
        },
      );
      req.on('error', fail);
      req.end(body);
    });
  }
  const run = measureFrom(cpu, start, n);
  agent.destroy();
  return run;
}

/** The advance of `days` with one catch-all endpoint at `url`; `window`: a fixed delivery window, or the default. */
async function sandboxAdvance(lib: Lib, url: string, count: () => number, days: number, window?: number | 'auto'): Promise<Run> {
  const node = lib.node.createNodeTransport();
  const sandbox = lib.index.createSandbox({
    seed: 1,
    logger: () => undefined,
    webhookTransport: node.transport,
    ...(window === undefined ? {} : { deliveryWindow: window }),
  });
  await createEndpoint(sandbox, url);
  const before = count();
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  await sandbox.advance(`${days}d`);
  await sandbox.settle();
  const run = measureFrom(cpu, start, count() - before);
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
  try {
    // Warm-up (not measured): the first sandbox of each copy pays for compiling the delivery path.
    await sandboxAdvance(shipped, rx.url, rx.count, 1);
    await sandboxAdvance(sources, rx.url, rx.count, 1);
    const warm = rx.count();
    const now = await sandboxAdvance(shipped, rx.url, rx.count, days);
    const bare = await barePosts(rx.url, now.delivered);
    const tsx = await sandboxAdvance(sources, rx.url, rx.count, days);
    const one = await sandboxAdvance(shipped, rx.url, rx.count, days, 1);
    if (rx.count() - warm !== now.delivered * 2 + tsx.delivered + one.delivered) throw new Error('not every post arrived');
    console.log(`\nDeliveries at the default settings: advance ${days} days, default world, one endpoint listening to everything`);
    console.log(
      '  (receiver included in CPU; ratios against the bare client: higher is better; goals: issue 33 0.6x and 30 days under 15 s, issue 45 0.9x wall)',
    );
    console.log(line('bare node:http client, 1 KB bodies one at a time', bare, null));
    console.log(line("sandbox as shipped (bundle), default settings (window 'auto')", now, bare));
    console.log(line('the same, sources through tsx', tsx, bare));
    console.log(line('sandbox as shipped, deliveryWindow 1 (the old default)', one, bare));
  } finally {
    await rx.close();
  }
}

if (process.argv[1]?.endsWith('bench-advance.ts')) await benchAdvance(process.argv.includes('--quick'));
