/**
 * The wearables domain layer through the API and the control plane, on both adapters: every
 * rejection answers with the catalogue's text and status and changes nothing.
 */
import { expect, it } from 'vitest';
import { WEARABLES_ERRORS as E } from '../../src/state/wearables/errors.js';
import { createClient, forEachAdapter, type TestClient } from '../support/client.js';

async function newUser(c: TestClient, id: string): Promise<string> {
  const res = await c.post('/v2/user', { client_user_id: id });
  expect(res.status).toBe(200);
  return res.body.user_id;
}

forEachAdapter('wearables: domain rules and error catalogue', (adapter) => {
  it('demo connect twice, deregister without connection, reconnect when not in error, forced finished pull', async () => {
    const c = createClient(adapter, { seed: 5, users: 2, usersElsewhere: 0 });
    const userId = await newUser(c, 'domain-a');
    expect((await c.post('/v2/link/connect/demo', { user_id: userId, provider: 'oura' })).status).toBe(200);
    const twice = await c.post('/v2/link/connect/demo', { user_id: userId, provider: 'oura' });
    expect(twice.status).toBe(400);
    expect(twice.body.detail).toEqual({ error_type: 'INVALID_REQUEST', error_message: E.demoAlreadyConnected(userId, 'oura') });

    const noLink = await c.delete(`/v2/user/${userId}/fitbit`);
    expect(noLink.status).toBe(404);
    expect(noLink.body.detail).toBe(E.notConnected(userId, 'fitbit'));

    const before = await c.get(`/v2/user/providers/${userId}`);
    const notInError = await c.post(`/_sandbox/connections/${userId}/oura/reconnect`);
    expect(notInError.status).toBe(409);
    expect(notInError.body.detail).toBe(E.notInError);
    const badDetail = await c.post(`/_sandbox/historical_pulls/${userId}/oura`, {
      outcome: 'success',
      error_details: 'provider_unavailable',
    });
    expect(badDetail.status).toBe(422);
    expect(badDetail.body.detail[0].msg).toBe(`Value error, ${E.retriableNeedsRetry('provider_unavailable')}`);
    const unknown = await c.post(`/_sandbox/historical_pulls/${userId}/oura`, { outcome: 'failure', resources: ['teleportation'] });
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail[0].msg).toBe(`Value error, ${E.unknownResource('teleportation')}`);
    // Rejections changed nothing.
    expect((await c.get(`/v2/user/providers/${userId}`)).text).toBe(before.text);

    await c.advance(2 * 3600);
    const finished = await c.post(`/_sandbox/historical_pulls/${userId}/oura`, { outcome: 'failure', resources: ['sleep'] });
    expect(finished.status).toBe(409);
    expect(finished.body.detail).toBe(E.pullFinished(['sleep']));

    const ghost = await c.post('/_sandbox/connections/00000000-0000-4000-8000-000000000000/oura/error', {});
    expect(ghost.status).toBe(404);
    expect(ghost.body.detail).toBe(E.userNotFound);
  });

  it('invalid cursors and reversed windows answer 422 with the catalogue text', async () => {
    const c = createClient(adapter, { seed: 5, users: 2, usersElsewhere: 0 });
    const userId = await newUser(c, 'domain-b');
    const bad = await c.get(`/v2/timeseries/${userId}/heartrate/grouped`, {
      query: { start_date: '2026-01-01', next_cursor: 'not-a-cursor' },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0]).toMatchObject({
      type: 'value_error',
      loc: ['query', 'next_cursor'],
      msg: `Value error, ${E.invalidCursor}`,
    });
    const reversed = await c.get(`/v2/timeseries/${userId}/heartrate`, { query: { start_date: '2026-01-03', end_date: '2026-01-01' } });
    expect(reversed.status).toBe(422);
    expect(reversed.body.detail[0].msg).toBe(`Value error, ${E.endBeforeStart}`);
  });
});
