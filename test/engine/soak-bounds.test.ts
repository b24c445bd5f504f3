/**
 * The bounds found under the mixed soak (issue 27 item 5; BENCHMARKS.md "Memory under the mixed
 * soak"), each checked on its own, fast and without the network:
 * - a deleted user in its grace period keeps no memoised pull plans (they are recomputed, the
 *   same, if its past data is read after an undo);
 * - a final attempt record is kept compactly, and every answer that shows it is unchanged;
 * - the world's input log keeps at most `limit` entries in memory; past it the world can no longer
 *   be saved from memory (409), and nothing else changes.
 */
import { describe, expect, it } from 'vitest';
import { WORLD_LOG_LIMIT, type WorldLog, worldLogOf } from '../../src/engine/persist.js';
import { createSandbox, type Sandbox } from '../../src/index.js';
import { wearablesOf } from '../../src/state/wearables/connections.js';
import { plansKept } from '../../src/state/wearables/pulls.js';
import { deliveryOf } from '../../src/state/webhooks/delivery.js';
import { KeptAttempt } from '../../src/state/webhooks/message.js';
import { emit, endpoint } from '../webhooks/support.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const QUIET = { logger: () => undefined, limits: false } as const;

async function call(sandbox: Sandbox, method: string, path: string, body?: unknown, query: Record<string, string[]> = {}) {
  const team = sandbox.credentials().teams[0];
  if (!team) throw new Error('a team');
  const res = await sandbox.dispatch({
    method,
    surface: 'data',
    path,
    query,
    headers: { 'x-service-api-key': team.api_keys.sandbox, 'content-type': 'application/json' },
    rawBody: body === undefined ? new Uint8Array(0) : encoder.encode(JSON.stringify(body)),
  });
  const text = decoder.decode(res.body);
  return { status: res.status, text, body: text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>) };
}

describe('a deleted user in its grace period', () => {
  it('keeps its ended connections without their memoised pull plans; after an undo its data reads the same', async () => {
    const sandbox = createSandbox({ ...QUIET, seed: 5, users: 1, clock: 'manual', feed: 'off' });
    const id = (await call(sandbox, 'POST', '/v2/user', { client_user_id: 'grace-plans' })).body?.user_id as string;
    expect((await call(sandbox, 'POST', '/v2/link/connect/demo', { user_id: id, provider: 'oura' })).status).toBe(200);
    await sandbox.advance(2 * 86_400);
    const range = { start_date: ['2026-01-01'], end_date: ['2026-01-08'] };
    const before = await call(sandbox, 'GET', `/v2/summary/sleep/${id}`, undefined, range);
    expect(before.status).toBe(200);
    const conn = wearablesOf(sandbox.world).forUser(id)?.links[0]?.current;
    if (!conn) throw new Error('a connection');
    expect(plansKept(conn)).toBe(true);

    expect((await call(sandbox, 'DELETE', `/v2/user/${id}`)).status).toBe(200);
    expect(plansKept(conn)).toBe(false);
    expect(wearablesOf(sandbox.world).forUser(id)?.links[0]?.past).toEqual([conn]);

    expect((await call(sandbox, 'POST', '/v2/user/undo_delete', undefined, { user_id: [id] })).status).toBe(200);
    const after = await call(sandbox, 'GET', `/v2/summary/sleep/${id}`, undefined, range);
    expect(after.text).toBe(before.text);
    sandbox.close();
  });
});

describe('attempt records', () => {
  it('are kept compactly once final, and the attempt log answers the same bytes', async () => {
    const transport = async () => ({ status: 500, headers: { 'content-type': 'text/plain', 'x-n': 'one' }, body: 'no' });
    const sandbox = createSandbox({ ...QUIET, seed: 6, users: 1, clock: 'manual', feed: 'off', webhookTransport: transport });
    const ep = await endpoint(sandbox, 'https://hooks.example.com/a');
    emit(sandbox, 2);
    await sandbox.settle();
    const list = async () =>
      (await call(sandbox, 'GET', '/_sandbox/webhooks/attempts', undefined, { limit: ['100'] })).body?.attempts as unknown[];
    const first = await list();
    expect(first).toHaveLength(2);
    // Walk the ladder: every attempt but each destination's last is final, so kept compactly.
    for (let i = 0; i < 6; i++) {
      await sandbox.advance(10 * 3600);
      await sandbox.settle();
    }
    const all = await list();
    expect(all.length).toBeGreaterThan(8);
    expect(JSON.stringify(all.slice(0, 2))).toBe(JSON.stringify(first));
    const log = deliveryOf(sandbox.world).log;
    for (const msg of log.messages.values()) {
      const dest = msg.destinations.get(ep);
      if (!dest) throw new Error('a destination');
      expect(dest.status).toBe('failed');
      // Finished: every one of its attempts is in the kept form.
      expect(dest.attempts.every((a) => a instanceof KeptAttempt)).toBe(true);
      const detail = await call(sandbox, 'GET', `/_sandbox/webhooks/messages/${msg.id}`);
      expect(detail.status).toBe(200);
      const shown = detail.body?.attempts as Array<{ attempt_number: number; next_attempt_at: string | null; response: unknown }>;
      expect(shown.map((a) => a.attempt_number)).toEqual(dest.attempts.map((_, i) => i + 1));
      expect(shown[0]?.response).toEqual({ status_code: 500, headers: { 'content-type': 'text/plain', 'x-n': 'one' }, body: 'no' });
      expect(shown[0]?.next_attempt_at).not.toBeNull();
      expect(shown[shown.length - 1]?.next_attempt_at).toBeNull();
    }
    sandbox.close();
  });

  it('the kept form gives back a record field for field', () => {
    const message = {
      id: 'msg_1',
      seq: 1,
      journal_seq: 1,
      partition_id: 'p',
      team_id: 't',
      environment: 'sandbox' as const,
      event_type: 'daily.data.steps.created',
      user_id: 'u',
      created_at: '2026-01-01T00:00:00.000Z',
      created_ms: 0,
      body: '{}',
      destinations: undefined,
    };
    const dest = { message, endpoint_id: 'ep_1' } as never;
    const record = {
      id: 'atmpt_1',
      seq: 3,
      msg_id: 'msg_1',
      endpoint_id: 'ep_1',
      team_id: 't',
      environment: 'sandbox' as const,
      event_type: 'daily.data.steps.created',
      url: 'https://hooks.example.com/a',
      trigger: 'scheduled' as const,
      attempt_number: 1,
      status: 'failed' as const,
      created_at: '2026-01-01T00:00:00.000Z',
      timestamp: 1_767_225_600,
      request: { method: 'POST' as const, headers: { 'svix-id': 'msg_1' }, body: '{}' },
      response: null,
      error: 'connect ECONNREFUSED',
      latency_ms: 3,
      next_attempt_at: '2026-01-01T00:00:05.000Z',
    };
    expect(KeptAttempt.fits(dest, record)).toBe(true);
    expect(JSON.stringify(new KeptAttempt(dest, record).full())).toBe(JSON.stringify(record));
    // A record that does not match its message is left as it is.
    expect(KeptAttempt.fits(dest, { ...record, team_id: 'other' })).toBe(false);
  });
});

describe('the world input log', () => {
  it(`keeps at most its limit (${WORLD_LOG_LIMIT}) in memory: past it a quiet world's state replaces its inputs, and saving always works (issue 47)`, async () => {
    const sandbox = createSandbox({ ...QUIET, seed: 8, users: 1, clock: 'manual', feed: 'off' });
    const log = worldLogOf(sandbox.world) as WorldLog;
    expect(log.limit).toBe(WORLD_LOG_LIMIT);
    log.limit = 5; // lowered so the test stays cheap
    for (let i = 0; i < 5; i++) expect((await call(sandbox, 'POST', '/v2/user', { client_user_id: `log-${i}` })).status).toBe(200);
    expect(log.entries).toHaveLength(5);
    expect((await call(sandbox, 'POST', '/_sandbox/snapshots', { name: 'five' })).status).toBe(201);
    // The snapshot saved the quiet world's state: its inputs went with it.
    expect(log.entries).toHaveLength(0);
    for (let i = 5; i < 20; i++) await call(sandbox, 'POST', '/v2/user', { client_user_id: `log-${i}` });
    // Never more than the limit in memory: past it, the next quiet moment (an answer leaving) saves the state.
    expect(log.entries.length).toBeLessThanOrEqual(5);
    expect(log.overflowed).toBe(false);
    const snap = await call(sandbox, 'POST', '/_sandbox/snapshots', { name: 'late' });
    expect(snap.status).toBe(201);
    expect((await call(sandbox, 'GET', '/_sandbox/world')).status).toBe(200);
    expect((await call(sandbox, 'POST', '/_sandbox/snapshots/five/restore')).status).toBe(200);
    expect((await call(sandbox, 'GET', '/v2/user', undefined, { limit: ['100'] })).body?.total).toBe(6);
    expect((await call(sandbox, 'POST', '/_sandbox/snapshots/late/restore')).status).toBe(200);
    expect((await call(sandbox, 'GET', '/v2/user', undefined, { limit: ['100'] })).body?.total).toBe(21);
    sandbox.close();
  });
});
