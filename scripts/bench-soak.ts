/**
 * Soak (`npm run bench -- --soak [--seconds N]`, default 60): steady writes through the engine
 * (create a user, connect a demo provider, delete the user, advance the clock a minute every 200
 * requests), in-process, no network. Reports RSS and heap after a warm-up (a fifth of the run)
 * (a fifth of the run, and the journal ring full) and at the end, with the retained counts that
 * could grow (journal, jobs, users in their grace period, wearable records), so a growth can be
 * attributed. Target (issue 11): RSS at the end within 20% of its warm-up value. SOAK_TRACE=1
 * prints a sample every 5 s.
 */
import { createSandbox } from '../src/index.js';
import type { World } from '../src/engine/world.js';
import { pendingDeletions } from '../src/state/users/deletion-grace.js';
import { usersOf } from '../src/state/users/users.js';
import { wearablesOf } from '../src/state/wearables/connections.js';

/** The structures that could grow under writes, counted (every bound is in docs/simulated/engine.md). */
export function retainedCounts(world: World): string {
  let users = 0;
  let grace = 0;
  for (const p of world.tenancy.allPartitions()) {
    users += usersOf(p, world).byId.size;
    grace += pendingDeletions(world, p);
  }
  const wearables = wearablesOf(world);
  return [
    `journal ${world.events.size}/${world.events.capacity}`,
    `jobs ${world.scheduler.pending()} (heap ${world.scheduler.held()})`,
    `users ${users} (${grace} in grace)`,
    `wearable records ${wearables.users.size} (feed ring ${wearables.ring.length}, active ${wearables.active.size})`,
  ].join(', ');
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export async function benchSoak(seconds: number): Promise<void> {
  const sandbox = createSandbox({ seed: 1, users: 60, limits: false, logger: () => undefined });
  const key = sandbox.credentials().teams[0]?.api_keys.sandbox ?? '';
  const req = (method: string, path: string, body?: unknown) => ({
    method,
    surface: 'data' as const,
    path,
    query: {},
    headers: { 'x-service-api-key': key, 'content-type': 'application/json' },
    rawBody: body === undefined ? new Uint8Array(0) : encoder.encode(JSON.stringify(body)),
  });
  const counts = () => retainedCounts(sandbox.world);
  const mem = () => {
    global.gc?.();
    const m = process.memoryUsage();
    return { rss: m.rss / 1e6, heap: m.heapUsed / 1e6, total: m.heapTotal / 1e6, ext: m.external / 1e6 };
  };
  const start = Date.now();
  const warmAt = start + (seconds * 1000) / 5;
  let warm: ReturnType<typeof mem> | undefined;
  let nextSample = start + 5000;
  let n = 0;
  while (Date.now() - start < seconds * 1000) {
    const created = await sandbox.dispatch(req('POST', '/v2/user', { client_user_id: `soak-${n}` }));
    const id = (JSON.parse(decoder.decode(created.body)) as { user_id?: string }).user_id;
    if (id) {
      await sandbox.dispatch(req('POST', '/v2/link/connect/demo', { user_id: id, provider: 'oura' }));
      await sandbox.dispatch(req('DELETE', `/v2/user/${id}`));
    }
    if (++n % 200 === 0) await sandbox.advance(60);
    if (process.env.SOAK_TRACE && Date.now() >= nextSample) {
      nextSample += 5000;
      const m = mem();
      console.log(`  ${n}: RSS ${m.rss.toFixed(0)} heap ${m.heap.toFixed(0)}/${m.total.toFixed(0)} ext ${m.ext.toFixed(0)}`);
    }
    // Warm-up ends at a fifth of the run, and not before the bounded structures (the journal
    // ring, the grace queue) have filled: steady load is what the bound promises.
    if (!warm && Date.now() >= warmAt && sandbox.world.events.size >= sandbox.world.events.capacity) {
      warm = mem();
      console.log(`after warm-up (${n} iterations): RSS ${warm.rss.toFixed(0)} MB, heap ${warm.heap.toFixed(0)} MB; ${counts()}`);
    }
  }
  const end = mem();
  console.log(`at the end (${n} iterations, ${seconds} s): RSS ${end.rss.toFixed(0)} MB, heap ${end.heap.toFixed(0)} MB; ${counts()}`);
  if (warm) {
    console.log(`RSS end / warm-up: ${(end.rss / warm.rss).toFixed(2)} (target <= 1.20)`);
    // RSS follows V8's reserved heap (heapTotal), which its GC sizes from the allocation rate and
    // does not hand back at once; the live heap after a full GC is what the world retains.
    console.log(`live heap end / warm-up: ${(end.heap / warm.heap).toFixed(2)}; reserved heap ${warm.total.toFixed(0)} -> ${end.total.toFixed(0)} MB`);
  }
  sandbox.close();
}
