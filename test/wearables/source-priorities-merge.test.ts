/**
 * Issue 12: team source priorities order the sources of provider-less summaries and timeseries
 * (the preferred provider's item first among items of the same time; its group first).
 */
import { expect, it } from 'vitest';
import { createClient, forEachAdapter, type TestClient } from '../support/client.js';

async function twoProviderUser(c: TestClient, headers: Record<string, string> = {}): Promise<string> {
  const user = (await c.post('/v2/user', { client_user_id: 'prio' }, { headers })).body.user_id as string;
  for (const provider of ['fitbit', 'oura'])
    expect((await c.post('/v2/link/connect/demo', { user_id: user, provider }, { headers })).status).toBe(200);
  return user;
}

/** Per date with both providers, the slug listed first. */
async function firstPerDate(
  c: TestClient,
  resource: 'activity' | 'sleep',
  user: string,
  headers: Record<string, string> = {},
): Promise<string[]> {
  const items = (await c.get(`/v2/summary/${resource}/${user}`, { query: { start_date: '2025-12-20' }, headers })).body[resource] as Array<{
    calendar_date: string;
    source: { slug: string };
  }>;
  const firsts = new Map<string, string>();
  for (const i of items) if (!firsts.has(i.calendar_date)) firsts.set(i.calendar_date, i.source.slug);
  const both = [...firsts.keys()].filter((d) => items.filter((i) => i.calendar_date === d).length === 2);
  expect(both.length).toBeGreaterThan(5);
  return [...new Set(both.map((d) => firsts.get(d) as string))];
}

const groups = async (c: TestClient, user: string) =>
  Object.keys((await c.get(`/v2/timeseries/${user}/heartrate/grouped`, { query: { start_date: '2026-01-04' } })).body.groups);

forEachAdapter('source priorities in merged answers', (adapter) => {
  it("changing a data type's priority reorders that data type only, per team environment, deterministically", async () => {
    const c = createClient(adapter, { seed: 9, users: 0, usersElsewhere: 0 });
    const user = await twoProviderUser(c);
    const otherKey = { 'x-service-api-key': c.creds.teams[1]?.api_keys.sandbox as string };
    const other = await twoProviderUser(c, otherKey);
    await c.advance(86400);
    // Default: the catalogue order.
    expect(await firstPerDate(c, 'activity', user)).toEqual(['oura']);
    expect(await firstPerDate(c, 'sleep', user)).toEqual(['oura']);
    expect(await groups(c, user)).toEqual(['fitbit', 'oura']);
    const before = (await c.get(`/v2/summary/activity/${user}`, { query: { start_date: '2025-12-20' } })).body.activity.length;

    expect(
      (
        await c.patch('/v2/team/source/priorities', [
          { data_type: 'activity', providers: ['fitbit'] },
          { data_type: 'timeseries', providers: ['oura'] },
        ])
      ).status,
    ).toBe(200);
    expect(await firstPerDate(c, 'activity', user)).toEqual(['fitbit']);
    expect(await firstPerDate(c, 'sleep', user)).toEqual(['oura']);
    expect(await groups(c, user)).toEqual(['oura', 'fitbit']);
    // Nothing is dropped: every provider's items are still there.
    expect((await c.get(`/v2/summary/activity/${user}`, { query: { start_date: '2025-12-20' } })).body.activity).toHaveLength(before);
    // A provider filter still answers that provider only.
    const ouraOnly = (await c.get(`/v2/summary/activity/${user}`, { query: { start_date: '2025-12-20', provider: 'oura' } })).body.activity;
    expect(new Set(ouraOnly.map((i: { source: { slug: string } }) => i.source.slug))).toEqual(new Set(['oura']));
    // Another team keeps its own (default) order.
    expect(await firstPerDate(c, 'activity', other, otherKey)).toEqual(['oura']);

    // Same world, same requests: same bytes; moving the other provider to the front flips it back.
    const a = (await c.get(`/v2/summary/activity/${user}`, { query: { start_date: '2025-12-20' } })).text;
    expect((await c.get(`/v2/summary/activity/${user}`, { query: { start_date: '2025-12-20' } })).text).toBe(a);
    await c.patch('/v2/team/source/priorities', [{ data_type: 'activity', providers: ['oura'] }]);
    expect(await firstPerDate(c, 'activity', user)).toEqual(['oura']);
  });
});
