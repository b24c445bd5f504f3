/**
 * `expectWire(routeId, res)`: the answer matches what the route declares for its status (the zod
 * schema of a JSON answer, or the content type of a non-JSON one). For the area tests whose
 * successful answers the route-table requests cannot reach (they need a prepared order, a run,
 * an upload): the wire test covers every route with a generic request, these cover the 2xx.
 */
import { expect } from 'vitest';
import { ROUTES } from '../../src/routes.js';
import { routeResponses } from '../../src/wire/engine.js';
import type { TestResponse } from './client.js';

const BY_ID = new Map(ROUTES.map((r) => [r.id, r]));

export function expectWire(routeId: string, res: TestResponse): void {
  const route = BY_ID.get(routeId);
  if (!route) throw new Error(`no route ${routeId}`);
  const spec = routeResponses(route)[String(res.status)];
  expect(spec, `${routeId}: status ${res.status} not declared`).toBeDefined();
  if (!spec) return;
  if (spec.contentType) {
    expect(res.headers['content-type'] ?? '', `${routeId} ${res.status}`).toContain(spec.contentType);
    return;
  }
  if (spec.alternatives?.some((t) => (res.headers['content-type'] ?? '').startsWith(t))) return;
  expect(res.headers['content-type'] ?? '', `${routeId} ${res.status}`).toContain('application/json');
  expect(spec.schema, `${routeId} ${res.status}: no schema`).toBeDefined();
  const parsed = spec.schema!.safeParse(JSON.parse(res.text));
  expect(
    parsed.success ? [] : parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.')}: ${i.message}`),
    `${routeId} ${res.status}`,
  ).toEqual([]);
}
