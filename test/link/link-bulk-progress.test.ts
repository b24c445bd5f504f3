/**
 * A Link bulk historical trigger's op follows its pulls on the sandbox clock: `in_progress` with
 * `pending` = pulls still running, `processed` = users done (or failed at once), then `success`
 * with `ended_at` = when the last pull finished; a pull whose connection ends (a pause) stops
 * counting as pending; `wait_for_completion` answers 200 only for an op already finished.
 */
import { expect, it } from 'vitest';
import { createClient, forEachAdapter, type TestClient } from '../support/client.js';
import { oasValidator } from '../support/openapi.js';

const oas = oasValidator('data');
const MISSING = '00000000-0000-4000-8000-000000000000';

async function setup(adapter: Parameters<typeof createClient>[0]): Promise<{ c: TestClient; a: string; b: string }> {
  const c = createClient(adapter, { seed: 7, users: 0, usersElsewhere: 0 });
  const ids: string[] = [];
  for (const name of ['bp-a', 'bp-b']) ids.push((await c.post('/v2/user', { client_user_id: name })).body.user_id as string);
  const recipe = (userId: string) => ({
    user_id: userId,
    access_token: 'at',
    refresh_token: 'rt',
    provider_id: 'p',
    expires_at: 1_800_000_000,
  });
  expect((await c.post('/v2/link/bulk_import', { provider: 'oura', connections: ids.map(recipe) })).status).toBe(202);
  await c.advance(24 * 3600);
  return { c, a: ids[0] as string, b: ids[1] as string };
}

async function latestOp(c: TestClient): Promise<any> {
  const res = await c.get('/v2/link/bulk_op', { query: { page_size: 1 } });
  expect(res.status).toBe(200);
  oas?.expectValid('BulkOpsResponse', res.body);
  return res.body.data[0];
}

forEachAdapter('link bulk trigger: the op tracks its pulls', (adapter) => {
  it('pending counts down as pulls finish; success when the last one ends, at that time', async () => {
    const { c, a, b } = await setup(adapter);
    const res = await c.post('/v2/link/bulk_trigger_historical_pull', { user_ids: [a, b, MISSING, a], provider: 'oura' });
    expect(res.status, res.text).toBe(202);
    oas?.expectValid('BulkOp', res.body);
    expect(res.body).toMatchObject({
      type: 'link_bulk_historical_trigger',
      status: 'in_progress',
      provider: 'oura',
      pending: 2,
      processed: 1,
      ended_at: null,
    });
    expect(await latestOp(c)).toEqual(res.body);
    const started = Date.parse(res.body.started_at);
    // a's pulls finish in a minute, b's (failing) in an hour.
    expect((await c.post(`/_sandbox/historical_pulls/${a}/oura`, { outcome: 'success', finish_in_seconds: 60 })).status).toBe(200);
    expect((await c.post(`/_sandbox/historical_pulls/${b}/oura`, { outcome: 'failure', finish_in_seconds: 3600 })).status).toBe(200);
    await c.advance(30);
    expect(await latestOp(c)).toMatchObject({ status: 'in_progress', pending: 2, processed: 1, ended_at: null });
    await c.advance(60);
    expect(await latestOp(c)).toMatchObject({ status: 'in_progress', pending: 1, processed: 2, ended_at: null });
    await c.advance(3600);
    const done = await latestOp(c);
    expect(done).toEqual({
      ...res.body,
      status: 'success',
      pending: 0,
      processed: 3,
      ended_at: new Date(started + 3600_000).toISOString(),
    });
    // It stays so.
    await c.advance(24 * 3600);
    expect(await latestOp(c)).toEqual(done);
  });

  it('without forced outcomes the op ends when the introspection shows the last resource finished', async () => {
    const { c, a } = await setup(adapter);
    const res = await c.post('/v2/link/bulk_trigger_historical_pull', { user_ids: [a], provider: 'oura' });
    expect(res.body).toMatchObject({ status: 'in_progress', pending: 1, processed: 0 });
    await c.advance(6 * 3600);
    const op = await latestOp(c);
    const pulled = (await c.get('/v2/introspect/historical_pull', { query: { user_id: a } })).body.data[0].provider.oura.pulled;
    const ends = Object.values(pulled).map((p: any) => Date.parse(p.timeline.ended_at));
    expect(op).toMatchObject({ status: 'success', pending: 0, processed: 1, ended_at: new Date(Math.max(...ends)).toISOString() });
  });

  it('a pause ends the pull: the op finishes at the pause', async () => {
    const { c, a } = await setup(adapter);
    const res = await c.post('/v2/link/bulk_trigger_historical_pull', { user_ids: [a], provider: 'oura' });
    await c.advance(10);
    expect((await latestOp(c)).pending).toBe(1);
    expect((await c.post('/v2/link/bulk_pause', { user_ids: [a], provider: 'oura' })).body.user_ids_paused).toEqual([a]);
    const op = await latestOp(c);
    expect(op).toMatchObject({
      status: 'success',
      pending: 0,
      processed: 1,
      ended_at: new Date(Date.parse(res.body.started_at) + 10_000).toISOString(),
    });
    // Settled by the clock later: the same answer.
    await c.advance(24 * 3600);
    expect(await latestOp(c)).toEqual(op);
  });

  it('wait_for_completion: 200 only when no pull could start (a finished failure), 202 while pulls run', async () => {
    const { c, a } = await setup(adapter);
    const failed = await c.post('/v2/link/bulk_trigger_historical_pull', {
      user_ids: [MISSING],
      provider: 'oura',
      wait_for_completion: true,
    });
    expect(failed.status).toBe(200);
    oas?.expectValid('BulkOp', failed.body);
    expect(failed.body).toMatchObject({ status: 'failure', pending: 0, processed: 1 });
    expect(failed.body.ended_at).toBe(failed.body.started_at);
    const running = await c.post('/v2/link/bulk_trigger_historical_pull', { user_ids: [a], provider: 'oura', wait_for_completion: true });
    expect(running.status).toBe(202);
    expect(running.body).toMatchObject({ status: 'in_progress', pending: 1, processed: 0, ended_at: null });
    // An empty list is a finished success.
    const empty = await c.post('/v2/link/bulk_trigger_historical_pull', { user_ids: [], provider: 'oura', wait_for_completion: true });
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({ status: 'success', pending: 0, processed: 0 });
  });
});
