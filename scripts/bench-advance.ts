/**
 * Deliveries at the default settings (issue 33), measured as they are: the default world with one
 * endpoint listening to everything, delivered through the CLI's transport (node transport, the
 * default delivery window), while the clock advances 30 days (`--quick`: 3 days); against a bare
 * `node:http` client posting the same number of 1 KB bodies to the same receiver, one at a time
 * (the same concurrency as the default window of 1). The receiver (127.0.0.1, answers 204) runs
 * in this process for both. `npm run bench -- --advance` runs only this.
 */
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createNodeTransport } from '../src/adapters/node-transport.js';
import '../src/adapters/node-crypto.js';
import { createSandbox } from '../src/index.js';
import { createEndpoint } from './bench-endpoint.js';

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

/** Posts `n` 1 KB bodies one after the other over one keep-alive connection; seconds taken. */
async function barePosts(url: string, n: number): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const body = Buffer.from(JSON.stringify({ filler: 'x'.repeat(1000) }));
  const target = new URL(url);
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
  agent.destroy();
  return Number(process.hrtime.bigint() - start) / 1e9;
}

export async function benchAdvance(quick: boolean): Promise<void> {
  const days = quick ? 3 : 30;
  const rx = await receiver();
  try {
    const node = createNodeTransport();
    const sandbox = createSandbox({ seed: 1, logger: () => undefined, webhookTransport: node.transport });
    await createEndpoint(sandbox, rx.url);
    const cpu = process.cpuUsage();
    const start = process.hrtime.bigint();
    await sandbox.advance(`${days}d`);
    await sandbox.settle();
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    const used = process.cpuUsage(cpu);
    const delivered = rx.count();
    sandbox.close();
    node.close();
    const before = rx.count();
    const bareSeconds = await barePosts(rx.url, delivered);
    if (rx.count() - before !== delivered) throw new Error('bare client: not every post arrived');
    const rate = delivered / seconds;
    const bareRate = delivered / bareSeconds;
    console.log(`\nDeliveries at the default settings: advance ${days} days, default world, one endpoint listening to everything`);
    console.log(
      `  sandbox (node transport, default window): ${delivered.toLocaleString('en')} deliveries in ${seconds.toFixed(1)} s wall, ${Math.round(rate).toLocaleString('en')}/s, ${(((used.user + used.system) / delivered) | 0).toString()} us CPU/delivery (receiver included)`,
    );
    console.log(
      `  bare node:http client, 1 KB bodies one at a time: ${bareSeconds.toFixed(1)} s, ${Math.round(bareRate).toLocaleString('en')}/s; ratio ${(rate / bareRate).toFixed(2)}x (goal 0.6x; wall goal: 30 days under 15 s)`,
    );
  } finally {
    await rx.close();
  }
}

if (process.argv[1]?.endsWith('bench-advance.ts')) await benchAdvance(process.argv.includes('--quick'));
