/** Data-side team endpoints: user search, svix url, source priorities, physicians, link config. */
import { expect, it } from 'vitest';
import { createClient, forEachAdapter } from '../support/client.js';
import { oasValidator } from '../support/openapi.js';

const oas = oasValidator('data');

forEachAdapter('team endpoints', (adapter) => {
  it('searches users by user_id or client_user_id', async () => {
    const c = createClient(adapter, { seed: 3, users: 2, usersElsewhere: 0 });
    const user = (await c.post('/v2/user', { client_user_id: 'search-me' })).body;
    for (const q of [user.user_id, 'search-me']) {
      const res = await c.get('/v2/team/users/search', { query: { query_id: q } });
      expect(res.status).toBe(200);
      expect(res.body.map((u: { user_id: string }) => u.user_id)).toEqual([user.user_id]);
      oas?.expectValid('ClientFacingUser', res.body[0]);
    }
    expect((await c.get('/v2/team/users/search', { query: { query_id: 'nobody' } })).body).toEqual([]);
  });

  it('answers source priorities, moves providers first on PATCH, refuses a provider without the data', async () => {
    const c = createClient(adapter, { seed: 3, users: 0, usersElsewhere: 0 });
    const sleep = await c.get('/v2/team/source/priorities', { query: { data_type: 'sleep' } });
    expect(sleep.status).toBe(200);
    expect(sleep.body[0]).toMatchObject({ data_type: 'sleep', priority: 1 });
    const garminBefore = sleep.body.find((e: { provider: { slug: string } }) => e.provider.slug === 'garmin').priority;
    expect(garminBefore).toBeGreaterThan(1);
    const patched = await c.patch('/v2/team/source/priorities', [{ data_type: 'sleep', providers: ['garmin'] }]);
    expect(patched.status).toBe(200);
    const after = (await c.get('/v2/team/source/priorities', { query: { data_type: 'sleep' } })).body;
    expect(after[0]).toMatchObject({ provider: { slug: 'garmin' }, priority: 1 });
    expect(after).toHaveLength(sleep.body.length);
    const bad = await c.patch('/v2/team/source/priorities', [
      { data_type: 'sleep', providers: ['oura'] },
      { data_type: 'body', providers: ['strava'] },
    ]);
    expect(bad.status).toBe(422);
    expect((await c.get('/v2/team/source/priorities', { query: { data_type: 'sleep' } })).body).toEqual(after);
    expect((await c.get('/v2/team/source/priorities', { query: { data_type: 'nope' } })).status).toBe(422);
  });

  it("answers physicians of the caller's team only, the svix url and the link config (narrowed by a token)", async () => {
    const c = createClient(adapter, { seed: 3, users: 1, usersElsewhere: 0 });
    const team = c.creds.teams[0]?.team_id ?? '';
    const physicians = await c.get(`/v2/team/${team}/physicians`);
    expect(physicians.status).toBe(200);
    for (const p of physicians.body) oas?.expectValid('ClientFacingPhysician', p);
    expect((await c.get(`/v2/team/${c.creds.teams[1]?.team_id}/physicians`)).status).toBe(403);
    const svix = await c.get('/v2/team/svix/url');
    expect(svix.body.url).toMatch(new RegExp(`/v1/org/${c.orgId}/team/${team}/sandbox/webhook$`));
    expect((await c.get('/v2/team/link/config')).status).toBe(422);
    const user = (await c.post('/v2/user', { client_user_id: 'cfg' })).body;
    const token = (await c.post('/v2/link/token', { user_id: user.user_id, filter_on_providers: ['oura'] })).body.link_token;
    const narrowed = await c.get('/v2/team/link/config', { headers: { 'x-vital-link-token': token }, anonymous: true });
    expect(narrowed.body).toMatchObject({ team_id: team, reject_duplicate_connection: expect.any(Boolean) });
    expect(narrowed.body.providers.map((p: { slug: string }) => p.slug)).toEqual(['oura']);
    expect((await c.get('/v2/team/link/config', { headers: { 'x-vital-link-token': 'nope' } })).status).toBe(400);
  });
});
