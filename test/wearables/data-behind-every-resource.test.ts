/**
 * The default world carries data behind every resource (issue 31), driven by the route table:
 * for every data GET operation (a team route keyed by a user, or the team's own lists) at least
 * one seeded user, or the team, gets a non-empty answer over a month of history. A route whose
 * answers are all empty is listed, and the test fails. Also: the team metrics count connected
 * sources by week.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Route } from '../../src/engine/route.js';
import { ROUTES } from '../../src/routes.js';
import { createClient, type TestClient, type TestResponse } from '../support/client.js';
import { list, pathFor } from '../support/route-params.js';

const WINDOW: Record<string, string> = { start_date: '2025-12-06', end_date: '2026-01-05' };
/** The team's own data lists (no path parameter). */
const TEAM_DATA = new Set(['/v2/user', '/v2/user/metrics', '/v3/orders', '/v2/introspect/historical_pull', '/v2/introspect/resources']);

/** Whether an answer holds data: a non-empty list somewhere it keeps its items, or a single record. */
function hasData(res: TestResponse): boolean {
  if (res.status >= 300) return false;
  const type = String(res.headers['content-type'] ?? '');
  if (!type.includes('json')) return res.text.length > 0;
  const visit = (body: unknown, depth: number): boolean => {
    if (body === null || body === undefined) return false;
    if (Array.isArray(body)) return body.length > 0;
    if (typeof body !== 'object') return true;
    const values = Object.values(body as Record<string, unknown>);
    const lists = values.filter((v) => Array.isArray(v)) as unknown[][];
    if ('groups' in (body as object) && depth === 0) return visit((body as { groups: unknown }).groups, depth + 1);
    if (depth > 0) return values.some((v) => visit(v, depth + 1));
    return lists.length === 0 ? values.some((v) => v !== null) : lists.some((l) => l.length > 0);
  };
  return visit(res.body, 0);
}

/** The data GET operations: team routes with only a user in their path, and the team's own lists. */
function dataRoutes(): Route[] {
  return ROUTES.filter((r) => {
    if (r.method !== 'GET' || r.auth !== 'team') return false;
    const params = [...r.path.matchAll(/:([a-z_]+)/g)].map((m) => m[1]);
    return params.length === 0 ? TEAM_DATA.has(r.path) : params.every((p) => p === 'user_id' || p === 'client_user_id');
  });
}

function queryOf(route: Route): Record<string, string> {
  const shape = route.request.query as unknown as { shape?: Record<string, unknown> } | undefined;
  const keys = Object.keys(shape?.shape ?? {});
  return Object.fromEntries(keys.filter((k) => k in WINDOW).map((k) => [k, WINDOW[k] as string]));
}

describe('the default world has data behind every resource', () => {
  let c: TestClient;
  let users: Array<{ user_id: string; client_user_id: string }>;
  beforeAll(async () => {
    c = createClient('express', { seed: 1, feed: 'off' });
    users = list((await c.get('/v2/user', { query: { limit: 100 } })).body, 'users');
  });

  it('for every data GET route, some seeded user (or the team) gets a non-empty answer', async () => {
    const routes = dataRoutes();
    expect(routes.length).toBeGreaterThan(80);
    const empty: string[] = [];
    for (const route of routes) {
      const query = queryOf(route);
      const candidates = route.path.includes(':') ? users : [users[0] as (typeof users)[number]];
      let found = false;
      for (const u of candidates) {
        const res = await c.get(pathFor(route, { user_id: u.user_id, client_user_id: u.client_user_id }), { query });
        if (hasData(res)) {
          found = true;
          break;
        }
      }
      if (!found) empty.push(`${route.id} ${route.path}`);
    }
    expect(empty).toEqual([]);
  });

  it('the team metrics count connected sources by week', async () => {
    const metrics = await c.get('/v2/user/metrics');
    expect(metrics.status).toBe(200);
    const weeks = metrics.body.number_of_connected_sources_by_week as Array<Record<string, unknown>>;
    expect(weeks.length).toBeGreaterThan(0);
  });
});
