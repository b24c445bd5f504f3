/**
 * Revised data after a later sync (issue 42), on both adapters: with a revision rate, some
 * nights are re-scored hours after their first upload and sent again as `daily.data.sleep.updated`
 * (same id, the revised object, the one the summary endpoint then serves); the rate is set
 * sandbox-wide or per team through `POST /_sandbox/wearables/feed`; 0 switches revisions off.
 */
import { expect, it } from 'vitest';
import { createClient, forEachAdapter, type TestClient } from '../support/client.js';
import { oasValidator } from '../support/openapi.js';

const oas = oasValidator('data');

async function sleepEvents(c: TestClient, userId: string): Promise<any[]> {
  const body = (await c.get('/_sandbox/events', { query: { limit: 10000, user_id: userId, event_type_prefix: 'daily.data.sleep.' } })).body;
  return body.events.map((e: any) => e.envelope);
}

async function setup(c: TestClient, name: string): Promise<string> {
  const userId = (await c.post('/v2/user', { client_user_id: name })).body.user_id as string;
  expect((await c.post('/v2/link/connect/demo', { user_id: userId, provider: 'oura' })).status).toBe(200);
  return userId;
}

forEachAdapter('wearables: sleep revised after a later sync', (adapter) => {
  it('sends daily.data.sleep.updated with the revised night, which the API then serves', async () => {
    const c = createClient(adapter, { seed: 21, users: 1, usersElsewhere: 0, feed: 'on' });
    const state = await c.get('/_sandbox/wearables/feed');
    expect(state.body).toMatchObject({ revision_rate: 0.05, team_revision_rates: {} });
    const set = await c.post('/_sandbox/wearables/feed', { revision_rate: 1 });
    expect(set.status).toBe(200);
    expect(set.body.revision_rate).toBe(1);
    const userId = await setup(c, 'revised');
    await c.advance(3 * 24 * 3600);
    const events = await sleepEvents(c, userId);
    const created = events.filter((e) => e.event_type === 'daily.data.sleep.created');
    const updated = events.filter((e) => e.event_type === 'daily.data.sleep.updated');
    expect(created.length).toBeGreaterThanOrEqual(2);
    expect(updated.length).toBeGreaterThanOrEqual(2);
    // A night pulled with the history (no `.created`) can be revised too; the fed ones are checked against their first upload.
    let matched = 0;
    for (const u of updated) {
      oas?.expectValid('ClientFacingSleep', u.data);
      const first = created.find((e) => e.data.id === u.data.id);
      if (!first) continue;
      matched++;
      expect(events.indexOf(first)).toBeLessThan(events.indexOf(u));
      expect(Date.parse(u.data.updated_at)).toBeGreaterThan(Date.parse(first.data.updated_at));
      expect(u.data.score).not.toBe(first.data.score);
      // The stages stay: the hypnogram agrees before and after.
      expect([u.data.deep, u.data.light, u.data.rem, u.data.awake]).toEqual([
        first.data.deep,
        first.data.light,
        first.data.rem,
        first.data.awake,
      ]);
    }
    expect(matched).toBeGreaterThanOrEqual(1);
    const date = (updated[0].data.calendar_date as string).slice(0, 10);
    const served = (await c.get(`/v2/summary/sleep/${userId}`, { query: { start_date: date, end_date: date } })).body.sleep;
    expect(served).toContainEqual(updated[0].data);
  });

  it('is switched off by rate 0, and per team', async () => {
    const c = createClient(adapter, { seed: 21, users: 1, usersElsewhere: 0, feed: 'on' });
    const teamId = c.creds.teams[0]?.team_id as string;
    expect((await c.post('/_sandbox/wearables/feed', { revision_rate: 1 })).status).toBe(200);
    const off = await c.post('/_sandbox/wearables/feed', { revision_rate: 0, team_id: teamId });
    expect(off.body.team_revision_rates).toEqual({ [teamId]: 0 });
    const userId = await setup(c, 'never-revised');
    await c.advance(3 * 24 * 3600);
    const events = await sleepEvents(c, userId);
    expect(events.some((e) => e.event_type === 'daily.data.sleep.created')).toBe(true);
    expect(events.filter((e) => e.event_type === 'daily.data.sleep.updated')).toEqual([]);
    expect((await c.post('/_sandbox/wearables/feed', { revision_rate: 2 })).status).toBe(422);
    const unknown = await c.post('/_sandbox/wearables/feed', { revision_rate: 0.1, team_id: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail).toEqual(expect.any(String));
  });
});
