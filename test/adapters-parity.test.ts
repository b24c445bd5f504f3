/**
 * Adapter parity driven by the route table: for every route in ROUTES, a valid request and an
 * invalid one go through express, msw and the CLI's node:http adapter, each over its own sandbox
 * with the same seed, and the answers must be byte-identical (status, content type, body). A new
 * route is covered without editing this file. Destructive routes (deletes, key and team updates,
 * reset) run last so they cannot hide the others.
 */
import { expect, it } from 'vitest';
import { ROUTES } from '../src/routes.js';
import { ALL_ADAPTERS, createClient, type TestClient } from './support/client.js';
import { runRouteCases } from './support/route-cases.js';

/** Runs every case on one client; answers with the served URL replaced, so adapters on different URLs compare. */
async function run(c: TestClient): Promise<string[]> {
  const out: string[] = [];
  // Deliveries go to a refused loopback port: they fail the same way, at once, on every adapter.
  await runRouteCases(c, 'http://127.0.0.1:9/parity-hook', ({ route, kind, res }) => {
    // Served URLs differ by adapter, and measured delivery latencies are wall time.
    let text = res.bytes.toString('latin1').split(c.sandbox.world.urls.base).join('<base>').replace(/"(latency_ms|duration_ms)":\d+/g, '"$1":0');
    // The test receivers echo the request headers each client library sent: transport, not engine.
    if (route.id.startsWith('sandbox.receiver')) text = text.replace(/"headers":\{[^{}]*\}/g, '"headers":{}');
    // Content-Length: the same presence on every adapter, and the length of the bytes received.
    const length = res.headers['content-length'];
    const declared = length === undefined ? 'no content-length' : length === String(res.bytes.length) ? 'content-length of the body' : `content-length ${length} for ${res.bytes.length} bytes`;
    out.push(`${route.id} ${kind} ${res.status} ${res.headers['content-type'] ?? ''} ${declared} ${text}`);
  });
  return out;
}

it('express, msw and node:http answer a valid and an invalid request to every route byte-identically', async () => {
  // A fixed wall clock: signature timestamps and measured latencies are wall time.
  const options = { seed: 8, users: 3, usersElsewhere: 1, feed: 'off' as const, wallClock: () => Date.parse('2026-01-05T09:00:00Z') };
  const answers = [];
  for (const adapter of ALL_ADAPTERS) answers.push(await run(createClient(adapter, options)));
  const [reference, ...others] = answers as [string[], ...string[][]];
  expect(reference.length).toBe(ROUTES.length * 2);
  for (const other of others) {
    for (let i = 0; i < reference.length; i++) expect(other[i], reference[i]?.slice(0, 120)).toBe(reference[i]);
  }
}, 180_000);
