/** Worlds and options that stay put, and durations everywhere (issue 17). */
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/index.js';
import { durationSeconds, parseDuration } from '../../src/engine/duration.js';
import { createClient, forEachAdapter } from '../support/client.js';

describe('durations', () => {
  it.each([
    ['90s', 90],
    ['15m', 900],
    ['2h', 7200],
    ['3d', 259200],
    ['1w', 604800],
    ['1d2h30m', 95400],
    ['1.5h', 5400],
    ['P1DT2H', 93600],
    ['PT45S', 45],
    ['120', 120],
  ])('%s is %d seconds', (text, seconds) => {
    expect(parseDuration(text)).toBe(seconds);
    expect(durationSeconds(text)).toBe(seconds);
  });

  it.each(['', 'P', 'PT', '2 hours', 'P1M', 'P1Y', '-5s', '3x', 'h'])('refuses %j', (text) => {
    expect(parseDuration(text)).toBeNull();
    expect(() => durationSeconds(text)).toThrow(RangeError);
  });

  it('sandbox.advance takes seconds or a duration', async () => {
    const s = createSandbox({ world: 'empty' });
    await s.advance('2h');
    await s.advance(90);
    await s.advance('P1D');
    expect(s.world.clock.iso()).toBe('2026-01-06T11:01:30.000Z');
    await expect(s.advance('soon')).rejects.toThrow('Invalid duration "soon"');
  });
});

forEachAdapter('test kit options', (adapter) => {
  it('an empty world has the org, teams and keys, and nothing else', async () => {
    const c = createClient(adapter, { world: 'empty' });
    const creds = (await c.get('/_sandbox/credentials')).body;
    expect(creds.teams.length).toBeGreaterThanOrEqual(2);
    expect(creds.management_key).not.toBe('');
    expect((await c.get('/v2/user')).body.total).toBe(0);
    expect((await c.get('/v3/orders')).body.orders).toEqual([]);
    expect((await c.get('/_sandbox/events')).body.total).toBe(0);
    expect((await c.get('/_sandbox/jobs')).body.jobs.every((j: { label: string }) => j.label === 'wearables.feed')).toBe(true);
    const team = await c.mgmt('GET', `/v1/org/${c.orgId}/team/${c.creds.teams[0]?.team_id}`);
    expect(team.status).toBe(200);
  });

  it('every option survives a reset; credentials stay unless the seed changes', async () => {
    const c = createClient(adapter, { world: 'empty', feed: 'off', seed: 5 });
    await c.post('/_sandbox/wearables/feed', { mode: 'on' });
    await c.post('/v2/user', { client_user_id: 'gone-after-reset' });
    const before = (await c.get('/_sandbox/credentials')).body;
    expect((await c.post('/_sandbox/reset', {})).status).toBe(200);
    expect((await c.get('/v2/user')).body.total).toBe(0);
    expect((await c.get('/_sandbox/wearables/feed')).body.mode).toBe('off');
    expect((await c.get('/_sandbox/credentials')).body).toEqual(before);
    expect(c.sandbox.options).toMatchObject({ world: 'empty', feed: 'off', seed: 5 });
    await c.post('/_sandbox/reset', { seed: 6 });
    const other = (await c.get('/_sandbox/credentials')).body;
    expect(other.management_key).not.toBe(before.management_key);
    expect(other.teams[0].api_keys.sandbox).not.toBe(before.teams[0].api_keys.sandbox);
    expect((await c.get('/v2/user')).status).toBe(401);
    expect((await c.get('/v2/user', { headers: { 'x-service-api-key': other.teams[0].api_keys.sandbox } })).body.total).toBe(0);
  });

  it('POST /_sandbox/clock/advance takes {"duration": "2h"}, ISO or seconds; a bad one is a 422 naming the field', async () => {
    const c = createClient(adapter, { world: 'empty' });
    expect((await c.post('/_sandbox/clock/advance', { duration: '2h' })).body.now).toBe('2026-01-05T11:00:00.000Z');
    expect((await c.post('/_sandbox/clock/advance', { duration: '90s' })).body.now).toBe('2026-01-05T11:01:30.000Z');
    expect((await c.post('/_sandbox/clock/advance', { duration: 'PT1M' })).body.now).toBe('2026-01-05T11:02:30.000Z');
    expect((await c.post('/_sandbox/clock/advance', { seconds: 30 })).body.now).toBe('2026-01-05T11:03:00.000Z');
    const bad = await c.post('/_sandbox/clock/advance', { duration: 'two hours' });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['body', 'duration']);
    expect(bad.body.detail[0].msg).toContain('90s, 15m, 2h, 3d');
    expect((await c.get('/_sandbox/clock')).body.now).toBe('2026-01-05T11:03:00.000Z');
  });

  it('the default world with nobody listening advances 30 days without piling up events', async () => {
    const c = createClient(adapter, {});
    const res = await c.post('/_sandbox/clock/advance', { duration: '30d' });
    expect(res.status).toBe(200);
    const events = (await c.get('/_sandbox/events', { query: { event_type_prefix: 'daily.data.', limit: 10000 } })).body;
    expect(events.total).toBe(0);
    // Data stays readable, computed on read.
    const users = (await c.get('/v2/user', { query: { limit: 1 } })).body.users;
    const hr = await c.get(`/v2/timeseries/${users[0].user_id}/heartrate`, { query: { start_date: '2026-02-01', end_date: '2026-02-01' } });
    expect(hr.status).toBe(200);
  });
});
