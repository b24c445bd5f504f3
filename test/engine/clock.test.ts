/** The virtual clock and scheduler: manual and realtime modes, job order, async jobs. */
import { callAt, callAfter } from '../support/jobs.js';
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/index.js';
import { Clock } from '../../src/engine/clock.js';
import { Scheduler } from '../../src/engine/scheduler.js';
import { createClient } from '../support/client.js';

const START = Date.parse('2026-01-05T09:00:00Z');

describe('scheduler', () => {
  it('runs due jobs in (time, sequence) order with now pinned to each job time', async () => {
    const clock = new Clock({ mode: 'manual', startAt: START, scale: 1, wall: () => 0 });
    const s = new Scheduler(clock);
    const seen: string[] = [];
    const record = (name: string) => () => {
      seen.push(`${name}@${clock.now() - START}`);
    };
    callAt(s, START + 2000, 'b', record('b'));
    callAt(s, START + 1000, 'a1', record('a1'));
    callAt(s, START + 1000, 'a2', record('a2'));
    const late = callAt(s, START + 5000, 'late', record('late'));
    // The async job waits on a promise only the test resolves: advance must wait for it.
    let started!: () => void;
    const jobStarted = new Promise<void>((r) => (started = r));
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    callAt(s, START + 3000, 'async', async () => {
      started();
      await released;
      seen.push(`async@${clock.now() - START}`);
      callAfter(s, 500, 'child', record('child'));
    });
    late.cancel();
    const advancing = s.advance(4000);
    await jobStarted;
    expect(seen).toEqual(['a1@1000', 'a2@1000', 'b@2000']);
    expect(clock.now() - START).toBe(3000);
    release();
    await advancing;
    expect(seen).toEqual(['a1@1000', 'a2@1000', 'b@2000', 'async@3000', 'child@3500']);
    expect(clock.now() - START).toBe(4000);
    expect(s.pending()).toBe(0);
  });

  it('keeps going when a job throws, reporting it', async () => {
    const clock = new Clock({ mode: 'manual', startAt: START, scale: 1, wall: () => 0 });
    const errors: string[] = [];
    const s = new Scheduler(clock, (label) => errors.push(label));
    let ran = false;
    callAfter(s, 10, 'bad', () => {
      throw new Error('nope');
    });
    callAfter(s, 20, 'good', () => {
      ran = true;
    });
    await s.advance(100);
    expect(errors).toEqual(['bad']);
    expect(ran).toBe(true);
  });
});

describe('realtime clock', () => {
  it('follows the wall clock times the scale and runs jobs when their time comes', async () => {
    let wall = 1_000_000;
    const sandbox = createSandbox({ clock: 'realtime', timeScale: 3600, startAt: START, wallClock: () => wall, logger: () => undefined });
    expect(sandbox.world.clock.now()).toBe(START);
    sandbox.close();
    {
      const c = createClient('express', {
        clock: 'realtime',
        timeScale: 3600,
        startAt: START,
        wallClock: () => wall,
        logger: () => undefined,
      });
      expect((await c.get('/_sandbox/clock')).body).toEqual({ now: '2026-01-05T09:00:00.000Z', mode: 'realtime', scale: 3600 });
      const user = (await c.post('/v2/user', { client_user_id: 'rt-1' })).body;
      await c.delete(`/v2/user/${user.user_id}`);
      wall += 2000; // two wall seconds = two sandbox hours
      expect((await c.get('/_sandbox/clock')).body.now).toBe('2026-01-05T11:00:00.000Z');
      wall += 7 * 24 * 1000; // another 7 sandbox days
      const gone = await c.get(`/v2/user/${user.user_id}`);
      expect(gone.body).toEqual({ detail: 'Not found' });
      await c.advance(3600);
      expect((await c.get('/_sandbox/clock')).body.now).toBe('2026-01-12T12:00:00.000Z');
      c.sandbox.close();
    }
  });
});

describe('event journal', () => {
  it('keeps at most the configured number of entries, oldest dropped first', async () => {
    const { EventBus } = await import('../../src/engine/events.js');
    const sandbox = createSandbox({ users: 0, usersElsewhere: 0 });
    const team = [...sandbox.world.tenancy.teams.values()][0];
    if (!team) throw new Error('no team');
    const partition = sandbox.world.tenancy.partition(team, 'sandbox');
    const bus = new EventBus(() => '2026-01-01T00:00:00.000Z', 10);
    const seen: number[] = [];
    bus.subscribe((e) => seen.push(e.seq));
    for (let i = 0; i < 25; i++)
      bus.emit(partition, { event_type: 'daily.data.x.created', data: {}, team_id: team.id, user_id: 'u', client_user_id: 'c' });
    expect(seen).toHaveLength(25);
    expect(bus.size).toBeLessThanOrEqual(11);
    const kept = bus.list({}, 100).map((e) => e.seq);
    expect(kept[kept.length - 1]).toBe(25);
    expect(bus.list({ after_seq: 20 }).map((e) => e.seq)).toEqual([21, 22, 23, 24, 25]);
  });
});
