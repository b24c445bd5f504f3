/**
 * Meals, menstrual cycles, sleep cycles and profiles in the periodic feed and the historical
 * pulls, and the team's data-pull preferences (management API) honoured by the pulls and the
 * feed, on both adapters.
 */
import { expect, it } from 'vitest';
import { createClient, forEachAdapter, type TestClient } from '../support/client.js';
import { oasValidator } from '../support/openapi.js';

const oas = oasValidator('data');
const DAY = 86_400_000;

async function events(c: TestClient, userId: string, prefix: string): Promise<any[]> {
  const res = await c.get('/_sandbox/events', { query: { limit: 10000, user_id: userId, event_type_prefix: prefix } });
  expect(res.status).toBe(200);
  return res.body.events.map((e: any) => e.envelope);
}

async function demoUser(c: TestClient, name: string, provider: string): Promise<string> {
  const userId = (await c.post('/v2/user', { client_user_id: name })).body.user_id as string;
  const res = await c.post('/v2/link/connect/demo', { user_id: userId, provider });
  expect(res.status, res.text).toBe(200);
  return userId;
}

forEachAdapter('wearables feed: meals, cycles, profile', (adapter) => {
  it('announces meals, sleep cycles, menstrual cycles and the profile with the values the API serves', async () => {
    // 35 days of every resource pass the default journal ring (10,000): keep them all, the
    // profile announced on the first tick included.
    // No seeded user: feed 'on' would feed them too, and the test reads the demo user's events.
    const c = createClient(adapter, { seed: 66, users: 0, usersElsewhere: 0, feed: 'on', journalLimit: 100_000 });
    // A person who tracks menstrual cycles (seen in their 30 days of demo history).
    let userId = '';
    for (let i = 0; i < 12 && !userId; i++) {
      const u = await demoUser(c, `feed-more-${i}`, 'apple_health_kit');
      await c.advance(3 * 3600);
      const res = await c.get(`/v2/summary/menstrual_cycle/${u}`, { query: { start_date: '2025-11-01' } });
      if (res.body.menstrual_cycle.length > 0) userId = u;
      // The others leave (their connections end): the feed's work stays one person's.
      else expect((await c.delete(`/v2/user/${u}`)).status).toBe(200);
    }
    expect(userId).not.toBe('');
    // Demo users expire 7 days after their demo connection (test/users/demo-users.test.ts): six days of feed
    // (seed 66: the person found starts a new cycle within them).
    await c.advance((6 * DAY) / 1000);
    const q = { start_date: '2025-12-01', end_date: '2026-03-01' };

    const meals = await events(c, userId, 'daily.data.meal.');
    expect(meals.length).toBeGreaterThan(10);
    expect(new Set(meals.map((e) => e.event_type))).toEqual(new Set(['daily.data.meal.created']));
    const served = (await c.get(`/v2/summary/meal/${userId}`, { query: q })).body.meals as any[];
    const byId = new Map(served.map((m) => [m.id, m]));
    // Each meal announced once, as served (the feed starts with the connection: no history).
    expect(new Set(meals.map((e) => e.data.id)).size).toBe(meals.length);
    for (const e of meals) expect(e.data).toEqual(byId.get(e.data.id));
    oas?.expectValid('ClientFacingMealChanged', { ...meals[0], client_user_id: '00000000-0000-4000-8000-000000000000' });

    // A revised night (on by default, issue 42) comes again as .updated: the cycles go with the first upload.
    const sleeps = (await events(c, userId, 'daily.data.sleep.')).filter((e) => e.event_type === 'daily.data.sleep.created');
    const cycles = await events(c, userId, 'daily.data.sleep_cycle.');
    expect(cycles.length).toBe(sleeps.length);
    expect(cycles.map((e) => e.data.sleep_id).sort()).toEqual(sleeps.map((e) => e.data.id).sort());
    oas?.expectValid('ClientFacingSleepCycleChanged', { ...cycles[0], client_user_id: '00000000-0000-4000-8000-000000000000' });

    const menstrual = await events(c, userId, 'daily.data.menstrual_cycle.');
    const created = menstrual.filter((e) => e.event_type.endsWith('.created'));
    expect(created.length).toBeGreaterThan(0);
    // One `.created` per cycle; `.updated` keeps its id; the last event of each cycle is what the API serves.
    expect(new Set(created.map((e) => e.data.id)).size).toBe(created.length);
    const servedCycles = (await c.get(`/v2/summary/menstrual_cycle/${userId}`, { query: q })).body.menstrual_cycle as any[];
    const lastOf = new Map<string, any>();
    for (const e of menstrual) lastOf.set(e.data.id, e.data);
    for (const cycle of servedCycles) if (lastOf.has(cycle.id)) expect(lastOf.get(cycle.id)).toEqual(cycle);
    const updates = menstrual.filter((e) => e.event_type.endsWith('.updated'));
    expect(updates.length).toBeGreaterThan(0);
    for (const u of updates) expect(lastOf.has(u.data.id)).toBe(true);
    oas?.expectValid('ClientFacingMenstrualCycleChanged', { ...menstrual[0], client_user_id: '00000000-0000-4000-8000-000000000000' });

    const profile = await events(c, userId, 'daily.data.profile.');
    expect(profile).toHaveLength(1);
    expect(profile[0].data).toEqual((await c.get(`/v2/summary/profile/${userId}`, { query: { provider: 'apple_health_kit' } })).body);

    const hist = (await events(c, userId, 'historical.data.')).map((e) => e.event_type);
    for (const r of ['meal', 'menstrual_cycle', 'profile', 'sleep_cycle']) expect(hist, r).toContain(`historical.data.${r}.created`);
  }, 90_000);
});

forEachAdapter('data-pull preferences in pulls and the feed', (adapter) => {
  it('a shortened history is pulled as asked; a resource at 0 days is not pulled, not announced, not served', async () => {
    const c = createClient(adapter, { seed: 62, users: 1, usersElsewhere: 0, feed: 'on' });
    const team = c.creds.teams[0]?.team_id as string;
    const base = `/v1/org/${c.orgId}/team_data_pull_preferences/sandbox/us`;
    const before = await demoUser(c, 'prefs-before', 'oura');
    const up = await c.mgmt('POST', base, {
      body: {
        team_ids: [team],
        providers: { oura: { default: { historical_days_to_pull: 7 }, resource_overrides: { steps: { historical_days_to_pull: 0 } } } },
      },
    });
    expect(up.status, up.text).toBe(200);
    const after = await demoUser(c, 'prefs-after', 'oura');
    await c.advance((2 * DAY) / 1000);

    const pulls = async (userId: string) =>
      (await c.get('/v2/introspect/historical_pull', { query: { user_id: userId } })).body.data[0].provider.oura;
    const p = await pulls(after);
    expect(p.not_pulled).toContain('steps');
    expect(p.pulled.steps).toBeUndefined();
    expect(p.pulled.sleep).toMatchObject({
      status: 'success',
      range_start: '2025-12-29T09:00:00+00:00',
      range_end: '2026-01-05T09:00:00+00:00',
    });
    // A connection made before the preference keeps its 30 days.
    expect((await pulls(before)).pulled.sleep.range_start).toBe('2025-12-06T09:00:00+00:00');
    expect((await pulls(before)).pulled.steps).toBeDefined();

    const hist = await events(c, after, 'historical.data.');
    expect(hist.map((e) => e.event_type)).not.toContain('historical.data.steps.created');
    const sleepHist = hist.find((e) => e.event_type === 'historical.data.sleep.created');
    expect(sleepHist.data.start_date).toBe('2025-12-29T09:00:00+00:00');

    const q = { start_date: '2025-12-01', end_date: '2026-01-08' };
    const sleep = (await c.get(`/v2/summary/sleep/${after}`, { query: q })).body.sleep as any[];
    expect(sleep.length).toBeGreaterThan(5);
    expect(sleep.every((s) => Date.parse(s.bedtime_stop) >= Date.parse('2025-12-29T09:00:00Z'))).toBe(true);
    expect((await c.get(`/v2/summary/sleep/${before}`, { query: q })).body.sleep.length).toBeGreaterThan(sleep.length + 15);
    // Steps: nothing served, nothing announced; other resources flow.
    expect((await c.get(`/v2/timeseries/${after}/steps/grouped`, { query: q })).body.groups).toEqual({});
    expect(await events(c, after, 'daily.data.steps.')).toEqual([]);
    expect((await events(c, after, 'daily.data.heartrate.')).length).toBeGreaterThan(0);
    expect((await events(c, before, 'daily.data.steps.')).length).toBeGreaterThan(0);

    // Deleting the preference: the next connection pulls the provider's usual history again.
    expect((await c.mgmt('DELETE', base, { query: { team_id: [team] } })).status).toBeLessThan(300);
    const later = await demoUser(c, 'prefs-later', 'oura');
    const l = await pulls(later);
    expect(l.pulled.steps).toBeDefined();
    expect(Date.parse(l.pulled.sleep.range_end) - Date.parse(l.pulled.sleep.range_start)).toBe(30 * DAY);
  });
});
