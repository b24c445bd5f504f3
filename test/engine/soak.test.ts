/**
 * A short soak (issue 11, bounded memory): a few seconds of steady writes through the engine
 * (create a user, connect a demo provider, delete the user, move the clock), asserting that the
 * structures that could grow stay within their documented bounds (docs/simulated/engine.md):
 * the journal ring, the scheduler heap (one purge job per team environment, cancelled jobs
 * reclaimed), users in their grace period and the wearables records. Counts, not RSS (noisy).
 * `npm run bench -- --soak` measures RSS over a longer run.
 */
import { callAt } from '../support/jobs.js';
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/index.js';
import { Clock } from '../../src/engine/clock.js';
import { EventBus } from '../../src/engine/events.js';
import { CANCELLED_SLACK, Scheduler } from '../../src/engine/scheduler.js';
import type { Partition } from '../../src/engine/tenancy.js';
import { graceOf, MAX_PENDING_DELETIONS, pendingDeletions } from '../../src/state/users/deletion-grace.js';
import { createUser, deleteUser, undoDelete } from '../../src/state/users/user-ops.js';
import { usersOf } from '../../src/state/users/users.js';
import { wearablesOf } from '../../src/state/wearables/connections.js';
import { ByUserMap } from '../../src/state/wearables/handed-out-ids.js';
import { MAX_IDEMPOTENCY_KEYS, OrderStore } from '../../src/state/labs/order-store.js';
import { MAX_RECEIVERS, RECEIVER_BODY_BUDGET, receiversOf } from '../../src/state/webhooks/webhook-receiver.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const DAY = 86_400;

describe('soak: retained structures stay bounded under steady writes', () => {
  it('journal, jobs, users in grace and wearables records level off while the writes go on', async () => {
    const sandbox = createSandbox({ seed: 2, users: 3, limits: false, journalLimit: 500, logger: () => undefined });
    const team = sandbox.credentials().teams[0];
    if (!team) throw new Error('a team');
    const key = team.api_keys.sandbox;
    const teamRecord = sandbox.world.tenancy.teams.get(team.team_id);
    if (!teamRecord) throw new Error('team record');
    const partition = sandbox.world.tenancy.partition(teamRecord, 'sandbox');
    const req = (method: string, path: string, body?: unknown) =>
      sandbox.dispatch({
        method,
        surface: 'data',
        path,
        query: {},
        headers: { 'x-service-api-key': key, 'content-type': 'application/json' },
        rawBody: body === undefined ? new Uint8Array(0) : encoder.encode(JSON.stringify(body)),
      });
    const counts = () => ({
      journal: sandbox.world.events.size,
      liveJobs: sandbox.world.scheduler.pending(),
      heldJobs: sandbox.world.scheduler.held(),
      users: usersOf(partition, sandbox.world).size,
      grace: pendingDeletions({ world: sandbox.world, partition: partition }),
      wearables: wearablesOf(sandbox.world).userCount,
      active: wearablesOf(sandbox.world).active.size,
    });
    // 20 users a simulated 12 hours: the 7-day grace holds at most 15 steps' users at steady state.
    const PER_STEP = 20;
    const STEPS = 20;
    const before = counts();
    const samples: Array<ReturnType<typeof counts>> = [];
    let n = 0;
    for (let step = 0; step < STEPS; step++) {
      for (let i = 0; i < PER_STEP; i++, n++) {
        const created = await req('POST', '/v2/user', { client_user_id: `soak-${n}` });
        expect(created.status).toBe(200);
        const id = (JSON.parse(decoder.decode(created.body)) as { user_id: string }).user_id;
        expect((await req('POST', '/v2/link/connect/demo', { user_id: id, provider: 'oura' })).status).toBe(200);
        expect((await req('DELETE', `/v2/user/${id}`)).status).toBe(200);
      }
      await sandbox.advance(DAY / 2);
      samples.push(counts());
    }
    const last = samples[samples.length - 1];
    expect(sandbox.world.events.emitted).toBeGreaterThanOrEqual(STEPS * PER_STEP);
    for (const c of samples) {
      expect(c.journal).toBeLessThanOrEqual(500);
      expect(c.grace).toBeLessThanOrEqual(15 * PER_STEP);
      expect(c.users).toBeLessThanOrEqual(15 * PER_STEP + 3);
      expect(c.wearables).toBeLessThanOrEqual(15 * PER_STEP + before.wearables);
      expect(c.active).toBe(0);
      // The feed, one purge sweep, a few pulls: not one job per deleted user.
      expect(c.liveJobs).toBeLessThan(20);
      expect(c.heldJobs).toBeLessThanOrEqual(2 * CANCELLED_SLACK + 20);
    }
    // Steady state: the second half of the run retains what the first half's end did.
    const mid = samples[16];
    expect(last?.grace).toBe(mid?.grace);
    expect(last?.users).toBe(mid?.users);
    // And everything goes once the grace period ends.
    await sandbox.advance(8 * DAY);
    expect(pendingDeletions({ world: sandbox.world, partition: partition })).toBe(0);
    expect(usersOf(partition, sandbox.world).size).toBe(3);
    expect(wearablesOf(sandbox.world).userCount).toBe(before.wearables);
    sandbox.close();
  });

  it('users waiting for their purge are capped per team environment; the earliest goes first', () => {
    const sandbox = createSandbox({ seed: 3, world: 'empty', limits: false, logger: () => undefined });
    const team = sandbox.world.tenancy.teams.get(sandbox.credentials().teams[0]?.team_id ?? '');
    if (!team) throw new Error('a team');
    const partition = sandbox.world.tenancy.partition(team, 'sandbox');
    const scope = { world: sandbox.world, partition };
    // The bound itself is MAX_PENDING_DELETIONS; lowered here so the test stays cheap.
    expect(graceOf(partition, sandbox.world).limit).toBe(MAX_PENDING_DELETIONS);
    const LIMIT = 200;
    graceOf(partition, sandbox.world).limit = LIMIT;
    const ids: string[] = [];
    const jobsBefore = sandbox.world.scheduler.pending();
    for (let i = 0; i <= LIMIT; i++) {
      const user = createUser(scope, { client_user_id: `cap-${i}` });
      ids.push(user.user_id);
      deleteUser(scope, user.user_id);
    }
    expect(pendingDeletions({ world: sandbox.world, partition: partition })).toBe(LIMIT);
    const store = usersOf(partition, sandbox.world);
    expect(store.has(ids[0] as string)).toBe(false);
    expect(store.has(ids[1] as string)).toBe(true);
    // The one purged early cannot be undone; the next one can.
    expect(() => undoDelete(scope, { user_id: ids[0] as string })).toThrow();
    expect(undoDelete(scope, { user_id: ids[1] as string }).deletion).toBeNull();
    // One sweep job for the whole queue.
    expect(sandbox.world.scheduler.pending()).toBe(jobsBefore + 1);
    sandbox.close();
  });

  it('the journal is a ring of its capacity; after_seq still pages through what is kept', () => {
    const bus = new EventBus(() => '2026-01-01T00:00:00.000Z', 5);
    const partition = {
      id: 'p',
      environment: 'sandbox',
      team: { id: 't', settings: { sandbox: { event_type_prefixes: null } } },
      slots: new Map(),
      kept: new Map(),
    } as unknown as Partition;
    for (let i = 0; i < 12; i++)
      bus.emit(partition, { event_type: `daily.data.e${i}.created`, data: {}, team_id: 't', user_id: 'u', client_user_id: 'c' });
    expect(bus.size).toBe(5);
    expect(bus.emitted).toBe(12);
    expect(bus.list().map((e) => e.seq)).toEqual([8, 9, 10, 11, 12]);
    expect(bus.list({ after_seq: 9 }).map((e) => e.seq)).toEqual([10, 11, 12]);
    expect(bus.list({ after_seq: 2 }).map((e) => e.seq)).toEqual([8, 9, 10, 11, 12]);
    expect(bus.list({ after_seq: 12 })).toEqual([]);
    expect(bus.list({ event_type: 'daily.data.e10.created' }).map((e) => e.seq)).toEqual([11]);
  });

  it('the scheduler reclaims cancelled jobs instead of holding them until they fall due', async () => {
    const clock = new Clock({ mode: 'manual', startAt: 0, scale: 1, wall: () => 0 });
    const s = new Scheduler(clock);
    const ran: number[] = [];
    for (let i = 0; i < 10 * CANCELLED_SLACK; i++) callAt(s, 1_000_000 + i, 'x', () => undefined).cancel();
    callAt(s, 500, 'kept', () => {
      ran.push(500);
    });
    expect(s.pending()).toBe(1);
    expect(s.held()).toBeLessThanOrEqual(CANCELLED_SLACK + 2);
    await s.advance(2_000_000);
    expect(ran).toEqual([500]);
    expect(s.pending()).toBe(0);
  });

  it('idempotency keys expire on the clock and are capped per team environment', () => {
    const store = new OrderStore();
    const ttl = 1000;
    for (let i = 0; i < MAX_IDEMPOTENCY_KEYS + 10; i++) store.remember(`k${i}`, { at: 0, status: 200, body: {} }, ttl);
    expect(store.replay('k0', 0, ttl)).toBeUndefined();
    expect(store.replay(`k${MAX_IDEMPOTENCY_KEYS + 9}`, 0, ttl)).toBeDefined();
    expect(store.replay('k10', 0, ttl)).toBeDefined();
    expect(store.replay('k10', 1000, ttl)).toBeUndefined();
    store.remember('late', { at: 5000, status: 200, body: {} }, ttl);
    expect(store.replay('late', 5000, ttl)).toBeDefined();
  });

  it("a purged user's handed-out workout and sleep ids go by index, not by a scan", () => {
    const m = new ByUserMap<{ userId: string; day: number }>();
    m.set('w1', { userId: 'u1', day: 1 });
    m.set('w2', { userId: 'u2', day: 2 });
    m.set('w3', { userId: 'u1', day: 3 });
    m.set('w3', { userId: 'u2', day: 4 });
    m.dropUser('u1');
    expect([...m.keys()]).toEqual(['w2', 'w3']);
    m.delete('w2');
    m.dropUser('u2');
    expect(m.size).toBe(0);
  });

  it('test receivers are capped in number (the oldest-created goes) and in body bytes kept', async () => {
    const sandbox = createSandbox({ seed: 4, world: 'empty', limits: false, logger: () => undefined });
    const post = (name: string, body: string) =>
      sandbox.dispatch({
        method: 'POST',
        surface: 'data',
        path: `/_sandbox/receiver/${name}`,
        query: {},
        headers: { 'content-type': 'application/json' },
        rawBody: encoder.encode(body),
      });
    for (let i = 0; i < MAX_RECEIVERS + 5; i++) expect((await post(`r${i}`, '{"n":1}')).status).toBe(200);
    const store = receiversOf(sandbox.world);
    expect(store.names()).toHaveLength(MAX_RECEIVERS);
    expect(store.names()[0]).toBe('r5');
    // A large body each time: the oldest deliveries go once the budget is passed; the latest stays.
    // The megabytes go to the store itself (its budget is what is checked): through the route, the
    // world's input log would keep each body in base64 (22 MB, most of this file's CPU).
    const big = `"${'x'.repeat(Math.floor(RECEIVER_BODY_BUDGET / 3))}"`;
    const receive = (body: string) => store.receive('big', { 'content-type': 'application/json' }, encoder.encode(body));
    expect((await post('big', '{"n":2}')).status).toBe(200);
    for (let i = 0; i < 4; i++) receive(big);
    const kept = store.get('big').deliveries;
    expect(kept.length).toBe(2);
    expect(kept.map((d) => d.seq)).toEqual([MAX_RECEIVERS + 9, MAX_RECEIVERS + 10]);
    const huge = `"${'y'.repeat(RECEIVER_BODY_BUDGET + 10)}"`;
    receive(huge);
    expect(store.get('big').deliveries.map((d) => d.body.length)).toEqual([huge.length]);
    await post('big', '{"small":true}');
    expect(store.get('big').deliveries.map((d) => d.body)).toEqual(['{"small":true}']);
    sandbox.close();
  });
});
