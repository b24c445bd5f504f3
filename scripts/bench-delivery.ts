/**
 * Delivery cost without generation (issue 17): synthetic 1 KB events emitted straight through
 * the engine's event path (`world.events.emit`) to a team environment with one endpoint listening
 * to everything, in batches of `batch` per macrotask, as fast as the sandbox takes them; the
 * receiver (its own process) verifies every signature. Reports events delivered per second, the
 * sandbox process's CPU per event (everything from the journal to the receiver's 2xx: matching,
 * message, signature, queue, attempt log, transport) and the receiver's CPU per event.
 *
 * Standalone, for profiling: `node --cpu-prof --import tsx scripts/bench-delivery.ts [--n 20000]
 * [--window 32] [--batch 500] [--null]`; `--null` swaps the network for a transport answering 204
 * at once (no receiver): the engine's own cost per event (matching, message, signature, queue,
 * attempt log), without sockets.
 */
import { createNodeTransport } from '../src/adapters/node-transport.js';
import '../src/adapters/node-crypto.js';
import { createSandbox, type Sandbox } from '../src/index.js';
import { createEndpoint } from './bench-endpoint.js';
import { listen, Receiver, type Report } from './bench-receiver-client.js';

export interface DeliveryCost {
  events: number;
  rate: number;
  sandboxUsPerEvent: number;
  receiverUsPerEvent: number;
  r: Report;
}

const FILLER = 'x'.repeat(900);

/** Emits synthetic 1 KB `daily.data.heartrate.created` events into the first team's sandbox environment. */
export function emitter(sandbox: Sandbox, stamp = true): (seq: number) => void {
  const world = sandbox.world;
  const team = [...world.tenancy.teams.values()][0];
  if (!team) throw new Error('no team');
  const partition = world.tenancy.partition(team, 'sandbox');
  return (seq) => {
    world.events.emit(partition, {
      event_type: 'daily.data.heartrate.created',
      data: stamp ? { seq, emitted_at_ms: Date.now(), filler: FILLER } : { seq, filler: FILLER },
      team_id: team.id,
      user_id: '00000000-0000-4000-8000-000000000000',
      client_user_id: 'bench',
    });
  };
}

export async function deliveryCost(window: number, n: number, batch: number, url: string, receiver: Receiver): Promise<DeliveryCost> {
  const node = createNodeTransport();
  const sandbox = createSandbox({
    seed: 1,
    logger: () => undefined,
    deliveryWindow: window,
    webhookTransport: node.transport,
    world: 'empty',
    feed: 'off',
    clock: 'realtime',
  });
  await listen(sandbox, url, receiver);
  const emit = emitter(sandbox);
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  let seq = 0;
  while (seq < n) {
    const until = Math.min(n, seq + batch);
    for (; seq < until; seq++) emit(seq);
    await new Promise<void>((r) => setImmediate(r));
  }
  await sandbox.settle();
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const used = process.cpuUsage(cpu);
  const r = await receiver.report();
  sandbox.close();
  node.close();
  if (process.env.SPLIT) console.log(`user ${(used.user / n).toFixed(1)} sys ${(used.system / n).toFixed(1)}`);
  return {
    events: n,
    rate: r.verified / seconds,
    sandboxUsPerEvent: (used.user + used.system) / n,
    receiverUsPerEvent: r.cpuUs / Math.max(1, r.received),
    r,
  };
}

/** The engine alone: a transport answering 204 at once, no network. */
async function engineCost(window: number, n: number, batch: number): Promise<number> {
  const transport = async () => ({ status: 204, headers: {}, body: '' });
  const sandbox = createSandbox({
    seed: 1,
    logger: () => undefined,
    deliveryWindow: window,
    webhookTransport: transport,
    world: 'empty',
    feed: 'off',
    clock: 'realtime',
  });
  await createEndpoint(sandbox, 'http://127.0.0.1:9/hook');
  const emit = emitter(sandbox, false);
  const cpu = process.cpuUsage();
  for (let seq = 0; seq < n; ) {
    const until = Math.min(n, seq + batch);
    for (; seq < until; seq++) emit(seq);
    await new Promise<void>((r) => setImmediate(r));
  }
  await sandbox.settle();
  const used = process.cpuUsage(cpu);
  sandbox.close();
  return (used.user + used.system) / n;
}

if (process.argv[1]?.endsWith('bench-delivery.ts')) {
  const arg = (name: string, fallback: number): number => {
    const at = process.argv.indexOf(`--${name}`);
    return at > 0 ? Number(process.argv[at + 1]) : fallback;
  };
  if (process.argv.includes('--null')) {
    for (let i = 0; i < arg('rounds', 5); i++)
      console.log(
        `engine only (null transport): ${(await engineCost(arg('window', 32), arg('n', 20_000), arg('batch', 500))).toFixed(1)} us CPU/event`,
      );
    process.exit(0);
  }
  const { receiver, url } = await Receiver.start();
  try {
    const rounds = arg('rounds', 3);
    for (let i = 0; i < rounds; i++) {
      const c = await deliveryCost(arg('window', 32), arg('n', 20_000), arg('batch', 500), url, receiver);
      console.log(
        `${c.events} events: ${Math.round(c.rate)}/s, sandbox ${c.sandboxUsPerEvent.toFixed(1)} us CPU/event, receiver ${c.receiverUsPerEvent.toFixed(1)} us CPU/event, verified ${c.r.verified}/${c.r.received}, out of order ${c.r.outOfOrder}`,
      );
    }
  } finally {
    receiver.stop();
  }
}
