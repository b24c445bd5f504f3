/**
 * A saved world restores to the same world: every GET route of the table answers the same bytes
 * from the world exported and from the world imported into a sandbox built with another seed, the
 * canonical dump of both worlds is the same, and what comes after (the same requests, a clock
 * advance) answers the same bytes in both. Driven from the route table (the route-table tests'
 * valid requests and their preconditions, as test/route-table/determinism-routes.test.ts), so a new route,
 * area or store is covered without edits.
 */
import { describe, expect, it } from 'vitest';
import type { Route } from '../../src/engine/route.js';
import { surfaceOf } from '../../src/engine/router.js';
import { snapshotWorld } from '../../src/engine/snapshot.js';
import { ROUTES } from '../../src/routes.js';
import type { WebhookTransport } from '../../src/state/webhooks/transport.js';
import { type CallOptions, createClient, type TestClient } from '../support/client.js';
import { routeIds, validRequest } from '../support/valid-requests.js';
import { queryFor } from '../support/route-params.js';

const GETS = ROUTES.filter((r) => r.method === 'GET');
/** Every delivery fails at once (a refused connection): attempts, retries and failures in the log. */
const refused: WebhookTransport = () =>
  Promise.reject(new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) }));
const OPTIONS = {
  seed: 5,
  users: 3,
  usersElsewhere: 1,
  feed: 'off',
  wallClock: () => Date.parse('2026-01-05T09:00:00Z'),
  baseUrl: 'http://persist.fetch.test',
  webhookTransport: refused,
} as const;

type Requests = Map<Route, { path: string; options: CallOptions }>;

function narrowQuery(route: Route): Record<string, string> {
  const query = queryFor(route);
  if ('start_date' in query) query.start_date = '2026-01-02';
  if ('end_date' in query) query.end_date = '2026-01-04';
  return query;
}

async function read(c: TestClient, requests: Requests): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const [route, request] of requests) {
    // The world document and snapshots are the saving itself; the request journal is what this
    // sandbox process was sent (kept across resets and restores, never part of a world); the
    // integration report counts the requests this world was sent (a replay sends no reads).
    if (['/_sandbox/world', '/_sandbox/snapshots', '/_sandbox/requests', '/_sandbox/report'].some((p) => route.path.startsWith(p)))
      continue;
    const res = await c.call('GET', request.path, { ...request.options, surface: surfaceOf(route), redirect: 'manual' });
    out.set(route.id, `${res.status} ${res.headers['content-type'] ?? ''} ${res.bytes.toString('base64')}`);
  }
  return out;
}

/** Where two dumps first differ, with some context (empty when equal). */
function firstDifference(a: string, b: string): string {
  if (a === b) return '';
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return `at ${i}: ...${a.slice(Math.max(0, i - 300), i + 200)}\n<> ...${b.slice(Math.max(0, i - 300), i + 200)}`;
}

function differences(a: Map<string, string>, b: Map<string, string>): string[] {
  const show = (t: string | undefined) => {
    const [status, type, body] = (t ?? '').split(' ');
    return `${status} ${type} ${Buffer.from(body ?? '', 'base64').toString('utf8')}`;
  };
  return [...a].filter(([id, text]) => b.get(id) !== text).map(([id, text]) => `${id}: ${firstDifference(show(text), show(b.get(id)))}`);
}

describe('persistence: a restored world answers every GET route alike', () => {
  it('export, import into another seed, then the same future', async () => {
    const a = createClient('fetch', OPTIONS);
    const ids = await routeIds(a);
    const requests: Requests = new Map();
    let serial = 0;
    for (const route of GETS) requests.set(route, await validRequest(a, route, ids, serial++, narrowQuery(route)));
    await a.sandbox.settle();
    const before = await read(a, requests);
    const doc = JSON.parse(JSON.stringify(a.sandbox.exportWorld()));
    // A quiet world saves its state (version 3), no inputs after it (issue 47).
    expect(doc).toMatchObject({ version: 3, log: [] });
    expect(doc.state.form).toBe(1);

    // A fork from the document (createSandbox({ from })) reads the same.
    const b = createClient('fetch', { ...OPTIONS, seed: 77, from: doc });
    await b.sandbox.ready;
    expect(b.sandbox.credentials()).toEqual(a.sandbox.credentials());
    const after = await read(b, requests);
    expect(after.size).toBe(before.size);
    expect(differences(before, after)).toEqual([]);

    // Importing into a sandbox of another seed keeps the imported world's keys.
    const c = createClient('fetch', { ...OPTIONS, seed: 77 });
    const put = await c.put('/_sandbox/world', doc);
    expect(put.status).toBe(200);
    expect(put.body.seed).toBe(5);
    expect(c.sandbox.credentials()).toEqual(a.sandbox.credentials());

    // A snapshot, a day that changes much, a restore: the world reads as before the day.
    expect((await a.post('/_sandbox/snapshots', { name: 'mid' })).status).toBe(201);
    expect((await a.advance(86_400)).status).toBe(200);
    await a.sandbox.settle();
    expect(differences(before, await read(a, requests)).length).toBeGreaterThan(0);
    expect((await a.post('/_sandbox/snapshots/mid/restore')).status).toBe(200);
    expect(differences(before, await read(a, requests))).toEqual([]);

    // The same future in both: a day passes (retries, lab progressions, continuous queries).
    for (const c of [a, b]) {
      expect((await c.advance(86_400)).status).toBe(200);
      await c.sandbox.settle();
    }
    expect(differences(await read(a, requests), await read(b, requests))).toEqual([]);
    // Read alike, the two worlds hold the same state (internal indexes sorted lazily by reads included).
    expect(firstDifference(snapshotWorld(a.sandbox.world), snapshotWorld(b.sandbox.world))).toBe('');
  }, 120_000);
});
