/**
 * The headline case of issue 17 alone, for profiling and repeated measures: the default world
 * (seed 1) with one endpoint listening to everything, advanced one simulated day (the wearable
 * feed generates the events), every event signed and delivered by the node transport to the bench
 * receiver (its own process, verifying every signature). Reports per run: events, events per
 * second (wall), the sandbox process's CPU (user + system) per event, the receiver's CPU per event.
 * The first run is cold (JIT), the later ones warm.
 *
 * `node [--cpu-prof] --import tsx scripts/bench-feed-e2e.ts [--rounds 4] [--window 32] [--days 1] [--null]`;
 * `--null` swaps the network for a transport answering 204 at once (no receiver); `--dist` runs
 * the code as the package ships it instead of the TypeScript sources through tsx (whose
 * `keepNames` transform names every closure at creation): the sources bundled by esbuild for Node
 * 20 the way `scripts/build.mjs` bundles dist/ (dist/ itself is one bundle whose entries do not
 * export the transport or the webhooks store, so the bench bundles its own entry, in a temporary
 * directory; no build needed first).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

type Lib = {
  index: typeof import('../src/index.js');
  node: typeof import('../src/adapters/node-transport.js');
  webhooks: typeof import('../src/state/webhooks/webhooks.js');
};

/** The sandbox code under test: the sources (tsx) or the same bundled as dist/ is. */
export async function loadLib(dist: boolean): Promise<Lib> {
  if (dist) {
    const mod = await import(pathToFileURL(await bundle()).href);
    return { index: mod, node: mod, webhooks: mod } as Lib;
  }
  const [index, node, webhooks] = await Promise.all([
    import('../src/index.js'),
    import('../src/adapters/node-transport.js'),
    import('../src/state/webhooks/webhooks.js'),
    import('../src/adapters/node-crypto.js'),
  ]);
  return { index, node, webhooks };
}

/** Bundles what the bench needs with esbuild (as scripts/build.mjs does dist/); returns the file. */
async function bundle(): Promise<string> {
  const { build } = await import('esbuild');
  const root = fileURLToPath(new URL('..', import.meta.url));
  const outfile = join(mkdtempSync(join(tmpdir(), 'bench-feed-e2e-')), 'bench.mjs');
  await build({
    stdin: {
      contents: [
        "export * from './src/index.ts';",
        "export { createNodeTransport } from './src/adapters/node-transport.ts';",
        "export { webhooksOf } from './src/state/webhooks/webhooks.ts';",
        "import './src/adapters/node-crypto.ts';",
      ].join('\n'),
      resolveDir: root,
      loader: 'ts',
    },
    absWorkingDir: root,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outfile,
    // CommonJS dependencies (dist/ bundles ES-module builds of them instead) require Node built-ins.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    external: ['msw', 'express', 'pdf-lib', 'swagger-ui-dist'].flatMap((name) => [name, `${name}/*`]),
    logLevel: 'warning',
  });
  return outfile;
}
let lib: Lib | null = null;

import { createEndpoint } from './bench-endpoint.js';
import { Receiver, type Report } from './bench-receiver-client.js';

export interface FeedRun {
  events: number;
  rate: number;
  sandboxUsPerEvent: number;
  /** Of which system time (the kernel: socket writes). */
  sandboxSysUsPerEvent: number;
  receiverUsPerEvent: number;
  r: Report | null;
}

export async function feedRun(
  window: number,
  days: number,
  target: { url: string; receiver: Receiver } | null,
  dist = false,
): Promise<FeedRun> {
  lib ??= await loadLib(dist);
  const { createSandbox } = lib.index;
  const node = target ? lib.node.createNodeTransport() : null;
  // The null transport shares abort signals like the node transport, so the engine's path is the CLI's.
  const transport = node ? node.transport : Object.assign(async () => ({ status: 204, headers: {}, body: '' }), { sharesSignals: true });
  const sandbox = createSandbox({ seed: 1, logger: () => undefined, deliveryWindow: window, webhookTransport: transport, clock: 'manual' });
  await createEndpoint(sandbox, target ? target.url : 'http://127.0.0.1:9/hook');
  if (target) {
    // The endpoint's signing keys go to the receiver (through the store of the code under test).
    const store = lib.webhooks.webhooksOf(sandbox.world);
    await target.receiver.reset([...store.all()].flatMap((ep) => store.signingKeys(ep)));
  }
  const before = sandbox.world.events.emitted;
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  await sandbox.advance(`${days}d`);
  await sandbox.settle();
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const used = process.cpuUsage(cpu);
  const events = sandbox.world.events.emitted - before;
  const r = target ? await target.receiver.report() : null;
  sandbox.close();
  node?.close();
  return {
    events,
    rate: events / seconds,
    sandboxUsPerEvent: (used.user + used.system) / events,
    sandboxSysUsPerEvent: used.system / events,
    receiverUsPerEvent: r ? r.cpuUs / Math.max(1, r.received) : 0,
    r,
  };
}

if (process.argv[1]?.endsWith('bench-feed-e2e.ts')) {
  const arg = (name: string, fallback: number): number => {
    const at = process.argv.indexOf(`--${name}`);
    return at > 0 ? Number(process.argv[at + 1]) : fallback;
  };
  const target = process.argv.includes('--null') ? null : await Receiver.start();
  // `--profile <file>`: a CPU profile of the warm runs only (every run after the first).
  const profileAt = process.argv.indexOf('--profile');
  const session = profileAt > 0 ? new (await import('node:inspector')).Session() : null;
  const post = (method: string, params?: object): Promise<unknown> =>
    new Promise((ok, fail) => session!.post(method, params ?? {}, (err, res) => (err ? fail(err) : ok(res))));
  if (session) session.connect();
  try {
    for (let i = 0; i < arg('rounds', 4); i++) {
      if (session && i === 1) {
        await post('Profiler.enable');
        await post('Profiler.start');
      }
      const c = await feedRun(arg('window', 32), arg('days', 1), target, process.argv.includes('--dist'));
      const v = c.r ? `, receiver ${c.receiverUsPerEvent.toFixed(1)} us CPU/event, verified ${c.r.verified}/${c.r.received}` : '';
      console.log(
        `run ${i + 1}: ${c.events} events, ${Math.round(c.rate)}/s, sandbox ${c.sandboxUsPerEvent.toFixed(1)} us CPU/event (system ${c.sandboxSysUsPerEvent.toFixed(1)})${v}`,
      );
    }
    if (session) {
      const { profile } = (await post('Profiler.stop')) as { profile: unknown };
      (await import('node:fs')).writeFileSync(process.argv[profileAt + 1]!, JSON.stringify(profile));
    }
  } finally {
    target?.receiver.stop();
  }
}
