/**
 * Soak (`npm run bench -- --soak [--seconds N]`, default 60): steady writes through the engine
 * (create a user, connect a demo provider, delete the user, advance the clock a minute every 200
 * requests), in-process, no network. Reports RSS and heap after a warm-up (a fifth of the run)
 * and at the end, with the retained counts that could grow (journal, pending jobs, users), so a
 * growth can be attributed. Target (issue 11): RSS at the end within 20% of its warm-up value.
 */
import { createSandbox } from '../src/index.js';

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
  const counts = () => {
    const w = sandbox.world;
    return `journal ${w.events.size}, pending jobs ${w.scheduler.pending()}`;
  };
  const mem = () => {
    global.gc?.();
    const m = process.memoryUsage();
    return { rss: m.rss / 1e6, heap: m.heapUsed / 1e6 };
  };
  const start = Date.now();
  const warmAt = start + (seconds * 1000) / 5;
  let warm: { rss: number; heap: number } | undefined;
  let n = 0;
  while (Date.now() - start < seconds * 1000) {
    const created = await sandbox.dispatch(req('POST', '/v2/user', { client_user_id: `soak-${n}` }));
    const id = (JSON.parse(decoder.decode(created.body)) as { user_id?: string }).user_id;
    if (id) {
      await sandbox.dispatch(req('POST', '/v2/link/connect/demo', { user_id: id, provider: 'oura' }));
      await sandbox.dispatch(req('DELETE', `/v2/user/${id}`));
    }
    if (++n % 200 === 0) await sandbox.advance(60);
    if (!warm && Date.now() >= warmAt) {
      warm = mem();
      console.log(`after warm-up (${n} iterations): RSS ${warm.rss.toFixed(0)} MB, heap ${warm.heap.toFixed(0)} MB; ${counts()}`);
    }
  }
  const end = mem();
  console.log(`at the end (${n} iterations, ${seconds} s): RSS ${end.rss.toFixed(0)} MB, heap ${end.heap.toFixed(0)} MB; ${counts()}`);
  if (warm) console.log(`RSS end / warm-up: ${(end.rss / warm.rss).toFixed(2)} (target <= 1.20)`);
  sandbox.close();
}
