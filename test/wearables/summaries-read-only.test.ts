/**
 * Reading summaries changes no state (docs/ENGINE.md, "The shape of an area"): every
 * `GET /v2/summary/*` route of the table, raw variants included, leaves the world's dump
 * (`snapshotWorld`, less the request journal every request writes) byte-identical, and a sleep
 * and a workout id handed out by a summary still find their streams.
 */
import { expect, it } from 'vitest';
import type { SimRequest } from '../../src/engine/http-types.js';
import { snapshotWorld } from '../../src/engine/snapshot.js';
import { createSandbox, type Sandbox } from '../../src/index.js';
import { ROUTES } from '../../src/routes.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

async function send(sandbox: Sandbox, method: string, path: string, body?: unknown, query: Record<string, string[]> = {}) {
  const req: SimRequest = {
    method,
    surface: 'data',
    path,
    query,
    headers: { 'x-service-api-key': sandbox.credentials().teams[0]?.api_keys.sandbox ?? '', 'content-type': 'application/json' },
    rawBody: body === undefined ? new Uint8Array(0) : encoder.encode(JSON.stringify(body)),
  };
  const res = await sandbox.dispatch(req);
  return { status: res.status, body: res.body.length ? (JSON.parse(decoder.decode(res.body)) as Record<string, unknown>) : {} };
}

type Parts = Map<string, string>;

/** The world's dump by part (sections, world slots, partition slots), less the request journal (which records every request, reads included). */
function state(sandbox: Sandbox): Parts {
  const dump = JSON.parse(snapshotWorld(sandbox.world)) as Record<string, unknown>;
  const parts: Parts = new Map();
  for (const [k, v] of Object.entries(dump)) if (k !== 'worldSlots' && k !== 'partitions') parts.set(k, JSON.stringify(v));
  for (const [k, v] of Object.entries(dump.worldSlots as Record<string, unknown>))
    if (k !== 'journal') parts.set(`world.${k}`, JSON.stringify(v));
  for (const p of dump.partitions as Array<{ id: string; slots: Record<string, unknown> }>)
    for (const [k, v] of Object.entries(p.slots)) parts.set(`${p.id}.${k}`, JSON.stringify(v));
  return parts;
}

/** An empty store, as a store slot first read creates it (a lazily made empty store holds nothing). */
const EMPTY = new Set(['{"$map":[]}', '{"$set":[]}', '[]', '{}']);

/** The parts that differ (a store first made empty by the reads aside). */
const changed = (a: Parts, b: Parts) =>
  [...new Set([...a.keys(), ...b.keys()])].filter((k) => a.get(k) !== b.get(k) && !(a.get(k) === undefined && EMPTY.has(b.get(k) ?? '')));

it('every summaries GET leaves the state unchanged; handed-out sleep and workout ids still find their streams', async () => {
  const sandbox = createSandbox({ seed: 5, users: 1, usersElsewhere: 0, logger: () => undefined });
  const user = await send(sandbox, 'POST', '/v2/user', { client_user_id: 'read-only' });
  const userId = user.body.user_id as string;
  for (const provider of ['oura', 'fitbit', 'apple_health_kit'])
    expect((await send(sandbox, 'POST', '/v2/link/connect/demo', { user_id: userId, provider })).status).toBe(200);
  await sandbox.advance(6 * 3600);

  const routes = ROUTES.filter((r) => r.method === 'GET' && r.path.startsWith('/v2/summary/'));
  expect(routes.length).toBeGreaterThanOrEqual(12);
  const before = state(sandbox);
  const answers: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const res = await send(sandbox, 'GET', r.path.replace(':user_id', userId), undefined, {
      start_date: ['2025-12-20'],
      end_date: ['2026-01-05'],
    });
    expect(res.status, r.id).toBe(200);
    answers[r.id] = res.body;
  }
  expect(changed(before, state(sandbox))).toEqual([]);

  const sleep = (answers['summary.sleep']?.sleep as Array<{ id: string }>)[0];
  const workout = (answers['summary.workouts']?.workouts as Array<{ id: string }>)[0];
  expect(sleep && workout).toBeTruthy();
  expect((await send(sandbox, 'GET', `/v2/timeseries/sleep/${sleep?.id}/stream`)).status).toBe(200);
  expect((await send(sandbox, 'GET', `/v2/timeseries/workouts/${workout?.id}/stream`)).status).toBe(200);
});
