/**
 * Worlds II (issue 47): the usual first setup (one webhook endpoint taking every event, a state
 * file) over 30 simulated days: deliveries made, the state file's size, whether snapshots and
 * exports answer 2xx, and what a restart on the file costs, against a replay of the same world's
 * every input (how worlds were restored before: version 2). `npm run bench -- --worlds [--quick]`.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readStateFile, stateFileSink } from '../src/adapters/state-file.js';
import type { SimRequest } from '../src/engine/http-types.js';
import { worldLogOf, type WorldDocument } from '../src/engine/persist.js';
import { createSandbox, type Sandbox } from '../src/sandbox.js';
import type { WebhookTransport } from '../src/state/webhooks/transport.js';

const encoder = new TextEncoder();
const DAY = 86_400;

function request(sandbox: Sandbox, method: string, surface: 'data' | 'management', path: string, body?: unknown): SimRequest {
  const creds = sandbox.credentials();
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (surface === 'data') headers['x-vital-api-key'] = creds.teams[0]?.api_keys.sandbox ?? '';
  else headers['x-management-key'] = creds.management_key;
  return {
    method,
    surface,
    path,
    query: {},
    headers,
    rawBody: body === undefined ? new Uint8Array() : encoder.encode(JSON.stringify(body)),
  };
}

/** A receiver that takes every event at once. */
const takesAll: WebhookTransport = async () => ({ status: 200, headers: { 'content-type': 'application/json' }, body: '{"ok":true}' });

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function ready(from: WorldDocument, file?: string): Promise<{ ms: number; sandbox: Sandbox }> {
  const t = performance.now();
  const sandbox = createSandbox({
    from,
    webhookTransport: takesAll,
    logger: () => undefined,
    ...(file ? { stateSink: stateFileSink(file) } : {}),
  });
  await sandbox.ready;
  return { ms: performance.now() - t, sandbox };
}

export async function benchWorlds(quick: boolean): Promise<void> {
  const days = quick ? 3 : 30;
  const dir = mkdtempSync(join(tmpdir(), 'hs-bench-worlds-'));
  const file = join(dir, 'world.state');
  try {
    const sink = stateFileSink(file);
    const sandbox = createSandbox({ clock: 'manual', webhookTransport: takesAll, stateSink: sink, logger: () => undefined });
    await sandbox.ready;
    const creds = sandbox.credentials();
    const team = creds.teams[0]?.team_id ?? '';
    const hook = await sandbox.dispatch(
      request(sandbox, 'POST', 'management', `/v1/org/${creds.org_id}/team/${team}/sandbox/webhook`, {
        url: 'https://receiver.example/hooks',
      }),
    );
    if (hook.status >= 300) throw new Error(`endpoint: ${hook.status}`);
    // Kept whole as well, for the baseline: the build and every input (how a world was saved before).
    const log = worldLogOf(sandbox.world);
    const inputs: unknown[] = [];
    let biggest = 0;
    const t = performance.now();
    for (let d = 0; d < days; d++) {
      const res = await sandbox.dispatch(request(sandbox, 'POST', 'data', '/_sandbox/clock/advance', { seconds: DAY }));
      if (res.status !== 200) throw new Error(`advance: ${res.status}`);
      if (log) inputs.push(...log.entries);
      await new Promise((r) => setTimeout(r, 1)); // the state file's compaction runs after the answer
      biggest = Math.max(biggest, statSync(file).size);
    }
    const advanced = performance.now() - t;
    await sandbox.settle();
    const attempts = (sandbox.world.slots.size, (await sandbox.dispatch(request(sandbox, 'GET', 'data', '/_sandbox/report'))).status);
    const snapshot = await sandbox.dispatch(request(sandbox, 'POST', 'data', '/_sandbox/snapshots', { name: 'month' }));
    const exported = await sandbox.dispatch(request(sandbox, 'GET', 'data', '/_sandbox/world'));
    const size = statSync(file).size;
    console.log(
      `${days} days with one endpoint taking every event: advanced in ${(advanced / 1000).toFixed(1)} s; snapshot ${snapshot.status}, export ${exported.status} (${mb(exported.body.length)}); report ${attempts}`,
    );
    console.log(`state file: ${mb(size)} at the end, at most ${mb(biggest)} between days (goal under 50 MB)`);
    sink.close();
    sandbox.close();

    const doc = readStateFile(file) as WorldDocument;
    const restart = await ready(doc);
    console.log(
      `restart on the state file: healthy in ${restart.ms.toFixed(0)} ms (goal within 5000 ms); inputs after its state: ${doc.log.length}`,
    );
    restart.sandbox.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1]?.endsWith('bench-worlds.ts')) void benchWorlds(process.argv.includes('--quick'));
