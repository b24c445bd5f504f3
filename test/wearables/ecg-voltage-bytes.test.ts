/**
 * The plain ECG voltage list is rendered straight into bytes (src/state/wearables/voltage-json.ts):
 * they are exactly `JSON.stringify` of the samples as the list was built before (every
 * provider's samples from `voltageSamples`, sorted by time then source order), for a wide window,
 * a window cutting sessions in the middle, and an empty one; over express and msw the answer is
 * those bytes.
 */
import { expect, it } from 'vitest';
import { wearablesOf } from '../../src/state/wearables/connections.js';
import { MAX_VOLTAGE_SESSIONS, type Rendered, voltageSamples } from '../../src/state/wearables/timeseries.js';
import { usersOf } from '../../src/state/users/users.js';
import { createClient, forEachAdapter } from '../support/client.js';

/** The list as it was built before: objects, sorted, stringified. */
function objectsJson(map: Map<string, { data: Rendered[] }>): string {
  const all: Rendered[] = [];
  for (const g of map.values()) for (const r of g.data) all.push(r);
  all.sort((a, b) => a.t - b.t || a.order - b.order);
  return JSON.stringify(all.map((r) => r.body));
}

const WINDOWS = [
  { start_date: '2025-11-25', end_date: '2026-01-05' },
  { start_date: '2025-12-01T00:00:00Z', end_date: '2026-01-01T00:00:00Z' },
  { start_date: '2020-01-01', end_date: '2020-01-02' },
];

forEachAdapter('ECG voltage list bytes', (adapter) => {
  it('are JSON.stringify of the samples as built before', async () => {
    const c = createClient(adapter, { seed: 21, users: 3, usersElsewhere: 0 });
    const userId = (await c.get('/v2/user', { query: { limit: 1 } })).body.users[0].user_id as string;
    const world = c.sandbox.world;
    const rec = wearablesOf(world).forUser(userId);
    const user = rec ? usersOf(rec.partition, world).get(userId) : undefined;
    if (!user) throw new Error('no user');
    let nonEmpty = 0;
    for (const query of WINDOWS) {
      const res = await c.get(`/v2/timeseries/${userId}/electrocardiogram_voltage`, { query });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      const from = Date.parse(query.start_date.length === 10 ? `${query.start_date}T00:00:00Z` : query.start_date);
      const to = query.end_date.length === 10 ? Date.parse(`${query.end_date}T23:59:59Z`) : Date.parse(query.end_date);
      const expected = objectsJson(voltageSamples(world, user, '', from, to, MAX_VOLTAGE_SESSIONS));
      expect(res.text.length).toBe(expected.length);
      expect(res.text === expected).toBe(true);
      if (expected.length > 2) nonEmpty++;
    }
    expect(nonEmpty).toBe(2);
  });
});
