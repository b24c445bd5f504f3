/**
 * The soak's server (its own process, started by scripts/bench-soak.ts with `--expose-gc` and an
 * IPC channel): the sandbox served as the CLI serves it (node:http adapter, the CLI's pipelined
 * webhook transport, limits off, 127.0.0.1, a free port). On `{ type: 'sample' }` it runs a full
 * GC and answers its memory, the retained counts and (when asked) the census of the world.
 */
import type { AddressInfo } from 'node:net';
import { getHeapSpaceStatistics } from 'node:v8';
import { boundHeapGrowth } from '../src/adapters/heap-growth.js';
import { createNodeServer } from '../src/adapters/node-http.js';
import { createNodeTransport } from '../src/adapters/node-transport.js';
import { createSandbox } from '../src/sandbox.js';
import { census, retainedCounts } from './soak-census.js';

// As the CLI serves it: the same heap growth (src/adapters/heap-growth.ts; SOAK_NODE_FLAGS may set another).
boundHeapGrowth();
const deliveries = createNodeTransport();
let logged = 0;
const sandbox = createSandbox({
  webhookTransport: deliveries.transport,
  seed: 1,
  users: 60,
  limits: false,
  webhookPrivateNetworks: true,
  // `--delivery-window` of the CLI (default auto): attempts to one endpoint pipelined up to N at a time.
  ...(process.env.SOAK_DELIVERY_WINDOW ? { deliveryWindow: Number(process.env.SOAK_DELIVERY_WINDOW) } : {}),
  logger: () => {
    logged++;
  },
});
const server = createNodeServer(sandbox);
server.listen(0, '127.0.0.1');
server.on('listening', () => {
  const { port } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;
  sandbox.setUrls({ base, management: `${base}/management` });
  process.send?.({ type: 'ready', base, credentials: sandbox.credentials() });
});

process.on('message', (msg: { type: string; census?: boolean }) => {
  if (msg.type === 'sample') {
    global.gc?.();
    const m = process.memoryUsage();
    process.send?.({
      type: 'sample',
      rss: m.rss,
      heapUsed: m.heapUsed,
      heapTotal: m.heapTotal,
      external: m.external,
      arrayBuffers: m.arrayBuffers,
      cpu: process.cpuUsage(),
      // Committed MB per V8 space (where RSS beyond the live heap sits).
      spaces: Object.fromEntries(
        getHeapSpaceStatistics().map((x) => [x.space_name.replace('_space', ''), Math.round(x.space_size / 2 ** 20)]),
      ),
      logged,
      sandboxTime: sandbox.world.clock.iso(),
      counts: retainedCounts(sandbox.world),
      census: msg.census ? [...census(sandbox.world)] : undefined,
    });
  } else if (msg.type === 'stop') {
    server.closeAllConnections();
    server.close();
    sandbox.close();
    deliveries.close();
    process.exit(0);
  }
});
process.on('disconnect', () => process.exit(0));
