/**
 * How the request journal records (issue 45: a 404 with the journal on within 1.5x one with it
 * off): the ring's records are filled in place once it is full, and read exactly as new ones
 * would (on both adapters); a record handed out (a reader of `newestFirst`, a listener) is never
 * filled again; with the default clocks the wall time is derived from the monotonic timer between
 * readings of the wall clock (at most one a second), and a wall clock a caller gives is read for
 * every request.
 */
import { describe, expect, it } from 'vitest';
import type { SimRequest, SimResponse } from '../../src/engine/http-types.js';
import { type RequestRecord, RequestJournal } from '../../src/engine/journal.js';
import { requestView } from '../../src/engine/journal-view.js';
import { createSandbox } from '../../src/index.js';
import { forEachAdapter, type TestClient } from '../support/client.js';
import { journalClient } from './support.js';

/** Requests of every kind a record holds: matched, a 404 and a 405 no route matched (near misses), refused with bodies, a 422. */
async function mixedTraffic(c: TestClient, after: () => void): Promise<void> {
  const calls: Array<() => Promise<unknown>> = [
    () => c.get('/v2/usr'),
    () => c.get('/v2/user', { query: { limit: 1 } }),
    () => c.post('/v2/user', 'not json', { headers: { 'content-type': 'text/plain' } }),
    () => c.call('DELETE', '/v2/user'),
    () => c.get('/v2/user', { query: { limit: 'x' } }),
    () => c.get('/v2/usr', { anonymous: true }),
    () => c.post('/v2/user', { client_user_id: 'filled-1' }),
    () => c.get('/v3/orderz'),
    () => c.call('HEAD', '/v2/usr'),
    () => c.get('/v2/user'),
  ];
  for (let round = 0; round < 3; round++) {
    for (const call of calls) {
      await call();
      after();
    }
  }
}

forEachAdapter('journal records filled in place', (adapter) => {
  it('read exactly as records made new for each request', async () => {
    const size = 4;
    const filled = journalClient(adapter, { requests: { size } });
    const fresh = journalClient(adapter, { requests: { size } });
    await mixedTraffic(filled.c, () => undefined);
    // Reading after every request hands every record out: none of them is filled again.
    await mixedTraffic(fresh.c, () => [...fresh.c.sandbox.requests.newestFirst()]);
    const page = await filled.c.get('/_sandbox/requests');
    const expected = await fresh.c.get('/_sandbox/requests');
    // Each client has its own server (express): its port is the only header that differs.
    for (const r of [...page.body.requests, ...expected.body.requests]) delete r.request.headers.host;
    expect(page.body.requests).toHaveLength(size);
    expect(page.body.requests.map((r: { path: string }) => r.path)).toEqual(['/v2/user', '/v2/usr', '/v3/orderz', '/v2/user']);
    expect(page.body.requests[2].near_misses).not.toBeNull();
    expect(page.body.requests[3].near_misses).toBeNull();
    // Reads are not recorded: both journals hold the same requests, ids included.
    expect(page.body).toEqual(expected.body);
  });
});

describe('journal records handed out', () => {
  const request = (path: string): SimRequest => ({
    method: 'GET',
    surface: 'data',
    path,
    query: {},
    headers: {},
    rawBody: new Uint8Array(0),
  });

  it('a record a reader holds keeps its request after it left the ring', async () => {
    const sandbox = createSandbox({ seed: 5, users: 1, usersElsewhere: 0, feed: 'off', requests: { size: 2 }, logger: () => undefined });
    await sandbox.dispatch(request('/v2/usr'));
    await sandbox.dispatch(request('/v2/user'));
    const held = [...sandbox.requests.newestFirst()];
    // What a record says of its request (its bodies are let go when it leaves the ring, as they always were).
    const said = () =>
      JSON.stringify(
        held.map((r) => {
          const { request: _request, response: _response, ...rest } = requestView(r);
          return rest;
        }),
      );
    const before = said();
    expect(before).toContain('"near_misses":[{');
    for (let i = 0; i < 6; i++) await sandbox.dispatch(request(`/v2/other-${i}`));
    expect(said()).toBe(before);
    expect([...sandbox.requests.newestFirst()].map((r) => r.path)).toEqual(['/v2/other-5', '/v2/other-4']);
  });

  it('a record a listener keeps is its own', async () => {
    const sandbox = createSandbox({ seed: 5, users: 1, usersElsewhere: 0, feed: 'off', requests: { size: 2 }, logger: () => undefined });
    const seen: RequestRecord[] = [];
    sandbox.requests.subscribe((r) => seen.push(r));
    for (let i = 0; i < 6; i++) await sandbox.dispatch(request(`/v2/path-${i}`));
    expect(seen.map((r) => [r.seq, r.path])).toEqual([0, 1, 2, 3, 4, 5].map((i) => [i + 1, `/v2/path-${i}`]));
  });
});

describe('journal wall time', () => {
  const req: SimRequest = { method: 'get', surface: 'data', path: '/v2/user', query: {}, headers: {}, rawBody: new Uint8Array(0) };
  const res: SimResponse = { status: 200, headers: { 'content-type': 'application/json' }, body: new Uint8Array(2) };

  function journalWith(defaultClocks: boolean, times: number[]) {
    const sandbox = createSandbox({ seed: 5, users: 1, usersElsewhere: 0, feed: 'off', logger: () => undefined });
    const wallReads: number[] = [];
    let wall = 1_900_000_000_000;
    let at = 0;
    const journal = new RequestJournal(
      { wallClock: () => (wallReads.push(at), (wall += 7)), timer: () => times.shift() ?? Number.NaN, defaultClocks },
      { world: sandbox.world, router: { routes: [] } },
    );
    const record = (startedMs: number) => {
      journal.observe(req, res, { startedMs });
      return [...journal.newestFirst()][0] as RequestRecord;
    };
    return { journal, wallReads, record, setAt: (ms: number) => (at = ms) };
  }

  it('is derived from the timer between readings of the default wall clock, one a second at most', () => {
    // Timer readings at the end of each request: 10.5, 400.25, 1010.75 (wall read again), 1500.
    const { wallReads, record, setAt } = journalWith(true, [10.5, 400.25, 1010.75, 1500]);
    setAt(1);
    const first = record(10);
    expect(first.wallAt).toBe(1_900_000_000_007);
    expect(first.durationMs).toBe(0.5);
    expect(first.method).toBe('GET');
    setAt(2);
    expect(record(400).wallAt).toBe(1_900_000_000_007 + Math.floor(400.25 - 10.5));
    setAt(3);
    expect(record(1010).wallAt).toBe(1_900_000_000_014);
    setAt(4);
    expect(record(1499).wallAt).toBe(1_900_000_000_014 + Math.floor(1500 - 1010.75));
    expect(wallReads).toEqual([1, 3]);
  });

  it('reads a wall clock a caller gave for every request', () => {
    const { wallReads, record } = journalWith(false, [10.5, 400.25, 1010.75]);
    expect([record(10).wallAt, record(400).wallAt, record(1010).wallAt]).toEqual([1_900_000_000_007, 1_900_000_000_014, 1_900_000_000_021]);
    expect(wallReads).toHaveLength(3);
  });

  it("reads the sandbox's own wall clock, given, for every request", async () => {
    let wall = 2_000_000_000_000;
    const sandbox = createSandbox({
      seed: 5,
      users: 1,
      usersElsewhere: 0,
      feed: 'off',
      wallClock: () => (wall += 1000),
      logger: () => undefined,
    });
    for (let i = 0; i < 3; i++) await sandbox.dispatch({ ...req, path: '/v2/usr' });
    const walls = [...sandbox.requests.newestFirst()].map((r) => r.wallAt);
    // Each request read the clock again (it steps 1 s a reading; others may read it in between).
    for (const [newer, older] of [walls.slice(0, 2), walls.slice(1, 3)] as Array<[number, number]>) {
      expect(newer - older).toBeGreaterThan(0);
      expect((newer - older) % 1000).toBe(0);
    }
  });
});
