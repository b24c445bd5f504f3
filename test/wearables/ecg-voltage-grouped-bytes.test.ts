/**
 * The grouped ECG voltages are rendered straight into bytes (src/state/wearables/voltage-grouped-json.ts):
 * every page is exactly `JSON.stringify` of the page as the route built it from objects before
 * (`voltageSamples` per provider, `{groups, next, next_cursor}`), following the cursor through a
 * wide window, for a window cutting sessions in the middle, one provider only, and an empty
 * window; over express and msw, with users whose sessions come from one or several providers.
 */
import { expect, it } from 'vitest';
import { encodeCursor } from '../../src/state/wearables/cursor.js';
import { wearablesOf } from '../../src/state/wearables/connections.js';
import { pageDays, pageEnd, visibleSpan, voltageSamples } from '../../src/state/wearables/timeseries.js';
import { usersOf } from '../../src/state/users/users.js';
import type { World } from '../../src/engine/world.js';
import type { User } from '../../src/state/users/users.js';
import { createClient, forEachAdapter } from '../support/client.js';

interface Page {
  /** The page's JSON. */
  text: string;
  /** Providers it holds samples of. */
  providers: number;
  next: string | null;
}

/** The page as the route built it before: objects, stringified. */
function objectsPage(world: World, user: User, provider: string, start: number, end: number, resume: number | null): Page {
  const groups: Record<string, unknown[]> = {};
  const span = visibleSpan(world, user, 'electrocardiogram_voltage', provider, resume !== null ? Math.max(start, resume) : start);
  if (!span || span[0] > end) return { text: JSON.stringify({ groups, next: null, next_cursor: null }), providers: 0, next: null };
  const from = span[0];
  const to = pageEnd(from, pageDays('ecg'), end);
  for (const [slug, g] of voltageSamples(world, user, provider, from, to))
    groups[slug] = [{ source: g.source, data: g.data.map((r) => r.body) }];
  const next = to < Math.min(end, span[1]) ? encodeCursor('t', to + 1) : null;
  return { text: JSON.stringify({ groups, next, next_cursor: next }), providers: Object.keys(groups).length, next };
}

const bound = (text: string, end: boolean) =>
  text.length === 10 ? Date.parse(`${text}T${end ? '23:59:59' : '00:00:00'}Z`) : Date.parse(text);

const WINDOWS: Array<{ start_date: string; end_date: string; provider?: string }> = [
  { start_date: '2025-12-15', end_date: '2026-01-05' },
  { start_date: '2025-12-28T16:09:50Z', end_date: '2026-01-03T16:09:55Z' },
  { start_date: '2025-12-15', end_date: '2026-01-05', provider: 'apple_health_kit' },
  { start_date: '2020-01-01', end_date: '2020-01-02' },
];

forEachAdapter('grouped ECG voltage bytes', (adapter) => {
  it('are JSON.stringify of each page as built from objects before', async () => {
    const c = createClient(adapter, { seed: 3, users: 3, usersElsewhere: 0 });
    const world = c.sandbox.world;
    const ids = ((await c.get('/v2/user', { query: { limit: 3 } })).body.users as Array<{ user_id: string }>).map((u) => u.user_id);
    let pages = 0;
    let providersSeen = 0;
    for (const userId of ids) {
      const rec = wearablesOf(world).forUser(userId);
      const user = rec ? usersOf(rec.partition, world).get(userId) : undefined;
      if (!user) continue; // no wearable connection
      for (const window of WINDOWS) {
        let cursor: string | null = null;
        for (let page = 0; page < 20; page++) {
          const query: Record<string, string> = { ...window, ...(cursor ? { next_cursor: cursor } : {}) };
          const res = await c.get(`/v2/timeseries/${userId}/electrocardiogram_voltage/grouped`, { query });
          expect(res.status).toBe(200);
          expect(res.headers['content-type']).toMatch(/^application\/json/);
          const resume = cursor ? Number(atob(cursor).slice(2)) : null;
          const expected = objectsPage(
            world,
            user,
            window.provider ?? '',
            bound(window.start_date, false),
            bound(window.end_date, true),
            resume,
          );
          expect(res.text.length).toBe(expected.text.length);
          expect(res.text === expected.text).toBe(true);
          if (expected.providers > 0) pages++;
          providersSeen = Math.max(providersSeen, expected.providers);
          cursor = expected.next;
          if (!cursor) break;
        }
        expect(cursor).toBeNull();
      }
    }
    expect(pages).toBeGreaterThan(4);
    expect(providersSeen).toBeGreaterThan(1);
  });
});
