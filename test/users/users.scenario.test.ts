import { describe, expect, it } from 'vitest';
import { USERS_ERRORS } from '../../src/state/users/errors.js';
import { createClient, forEachAdapter, type TestClient } from '../support/client.js';
import { oasValidator } from '../support/openapi.js';

/** The smallest world these tests need: two users per team environment (the default world builds 25). */
const SMALL = { users: 2 } as const;

const oas = oasValidator('data');
const SDK_USER_KEYS = [
  'user_id',
  'team_id',
  'client_user_id',
  'created_on',
  'connected_sources',
  'fallback_time_zone',
  'fallback_birth_date',
  'ingestion_start',
  'ingestion_end',
];
const DAY = 86400;

async function create(c: TestClient, clientUserId: string, extra: Record<string, unknown> = {}) {
  const res = await c.post('/v2/user', { client_user_id: clientUserId, ...extra });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

forEachAdapter('users', (adapter) => {
  describe('create', () => {
    it('answers 200 with the full user object the SDK and the OpenAPI require', async () => {
      const c = createClient(adapter, SMALL);
      const user = await create(c, 'cust-1', { fallback_time_zone: 'Europe/London', fallback_birth_date: '1990-02-03' });
      expect(Object.keys(user)).toEqual(SDK_USER_KEYS);
      expect(user.client_user_id).toBe('cust-1');
      expect(user.team_id).toBe(c.creds.teams[0]?.team_id);
      expect(user.created_on).toBe('2026-01-05T09:00:00.000Z');
      expect(user.fallback_time_zone).toEqual({ id: 'Europe/London', source_slug: 'manual', updated_at: '2026-01-05T09:00:00.000Z' });
      expect(user.fallback_birth_date).toEqual({ value: '1990-02-03', source_slug: 'manual', updated_at: '2026-01-05T09:00:00.000Z' });
      oas?.expectValid('ClientFacingUser', user);
    });

    it('is idempotent on client_user_id: a second create answers 400 with the existing user_id and created_on', async () => {
      const c = createClient(adapter, SMALL);
      const first = await create(c, 'dup-1');
      await c.advance(60);
      const again = await c.post('/v2/user', { client_user_id: 'dup-1' });
      expect(again.status).toBe(400);
      expect(again.body).toEqual({
        detail: {
          error_type: 'INVALID_REQUEST',
          error_message: USERS_ERRORS.clientUserIdExists,
          user_id: first.user_id,
          created_on: first.created_on,
        },
      });
      oas?.expectValid('ClientUserIDConflictResponse', again.body);
      const list = await c.get('/v2/user', { query: { limit: 500 } });
      expect(list.body.users.filter((u: { client_user_id: string }) => u.client_user_id === 'dup-1')).toHaveLength(1);
    });

    it.each([
      ['jane.doe@example.com', 'e-mail'],
      ['+1 (415) 555-0100', 'phone'],
      ['07700900123', 'phone'],
    ])('refuses personal data as client_user_id (%s) with a clear 422', async (id, kind) => {
      const c = createClient(adapter, SMALL);
      const res = await c.post('/v2/user', { client_user_id: id });
      expect(res.status).toBe(422);
      expect(res.body.detail[0].loc).toEqual(['body', 'client_user_id']);
      expect(res.body.detail[0].msg).toContain(kind);
      expect(res.body.detail[0].input).toBe(id);
    });

    it('answers 422 in the FastAPI shape for a missing field, bad JSON, bad time zone and bad dates', async () => {
      const c = createClient(adapter, SMALL);
      const missing = await c.post('/v2/user', {});
      expect(missing.status).toBe(422);
      expect(missing.body.detail[0]).toMatchObject({ type: 'missing', loc: ['body', 'client_user_id'], msg: 'Field required' });
      const noBody = await c.call('POST', '/v2/user');
      expect(noBody.status).toBe(422);
      expect(noBody.body.detail[0]).toMatchObject({ type: 'missing', loc: ['body'] });
      const badJson = await c.post('/v2/user', '{"client_user_id": ');
      expect(badJson.status).toBe(422);
      expect(badJson.body.detail[0].type).toBe('json_invalid');
      const badZone = await c.post('/v2/user', { client_user_id: 'z1', fallback_time_zone: 'Mars/Olympus' });
      expect(badZone.status).toBe(422);
      expect(badZone.body.detail[0].loc).toEqual(['body', 'fallback_time_zone']);
      const badDate = await c.post('/v2/user', { client_user_id: 'z2', fallback_birth_date: '1990-02-30' });
      expect(badDate.status).toBe(422);
      expect(badDate.body.detail[0].loc).toEqual(['body', 'fallback_birth_date']);
      const bounds = await c.post('/v2/user', { client_user_id: 'z3', ingestion_start: '2025-02-01', ingestion_end: '2025-01-01' });
      expect(bounds.status).toBe(422);
      const wrongType = await c.post('/v2/user', { client_user_id: 12 });
      expect(wrongType.body.detail[0]).toMatchObject({ type: 'string_type', loc: ['body', 'client_user_id'] });
      // Nothing was created by any of these.
      for (const id of ['z1', 'z2', 'z3']) expect((await c.get(`/v2/user/resolve/${id}`)).status).toBe(404);
    });
  });

  describe('list', () => {
    it('pages with offset (default 0) and limit (default 100) in a stable, oldest-first order', async () => {
      // 15 seeded users: enough for a full page at offset 10.
      const c = createClient(adapter, { users: 15 });
      const all = await c.get('/v2/user');
      expect(all.status).toBe(200);
      expect(all.body).toMatchObject({ total: 15, offset: 0, limit: 100 });
      expect(all.body.users).toHaveLength(15);
      oas?.expectValid('PaginatedUsersResponse', all.body);
      const created = all.body.users.map((u: { created_on: string }) => u.created_on);
      expect([...created].sort()).toEqual(created);
      const slash = await c.get('/v2/user/');
      expect(slash.text).toBe(all.text);
      const page = await c.get('/v2/user', { query: { offset: 10, limit: 5 } });
      expect(page.body.users.map((u: { user_id: string }) => u.user_id)).toEqual(
        all.body.users.slice(10, 15).map((u: { user_id: string }) => u.user_id),
      );
      expect(page.body).toMatchObject({ total: 15, offset: 10, limit: 5 });
      const extra = await create(c, 'newest');
      const after = await c.get('/v2/user', { query: { offset: 15 } });
      expect(after.body.users.map((u: { user_id: string }) => u.user_id)).toEqual([extra.user_id]);
    });

    it.each([
      [{ limit: 501 }, 'limit', 'less_than_equal'],
      [{ limit: 0 }, 'limit', 'greater_than_equal'],
      [{ offset: -1 }, 'offset', 'greater_than_equal'],
      [{ limit: 'ten' }, 'limit', 'int_parsing'],
      [{ offset: '1.5' }, 'offset', 'int_parsing'],
    ])('answers 422 naming the parameter for %o', async (query, name, type) => {
      const c = createClient(adapter, SMALL);
      const res = await c.get('/v2/user', { query });
      expect(res.status).toBe(422);
      expect(res.body.detail[0]).toMatchObject({ loc: ['query', name], type });
    });

    it('accepts the bounds themselves', async () => {
      const c = createClient(adapter, SMALL);
      expect((await c.get('/v2/user', { query: { limit: 500, offset: 0 } })).status).toBe(200);
      expect((await c.get('/v2/user', { query: { limit: 1 } })).body.users).toHaveLength(1);
    });
  });

  describe('get and resolve', () => {
    it('reads a user by id and by client_user_id', async () => {
      const c = createClient(adapter, SMALL);
      const user = await create(c, 'reader-1');
      const byId = await c.get(`/v2/user/${user.user_id}`);
      expect(byId.body).toEqual(user);
      const resolved = await c.get('/v2/user/resolve/reader-1');
      expect(resolved.body).toEqual(user);
    });

    it('answers the reference 404s and a 422 for a malformed id', async () => {
      const c = createClient(adapter, SMALL);
      const unknown = await c.get('/v2/user/00000000-0000-4000-8000-000000000000');
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ detail: USERS_ERRORS.userNotFound });
      const bad = await c.get('/v2/user/not-a-uuid');
      expect(bad.status).toBe(422);
      expect(bad.body.detail[0]).toMatchObject({ type: 'uuid_parsing', loc: ['path', 'user_id'], input: 'not-a-uuid' });
      const unresolved = await c.get('/v2/user/resolve/nobody');
      expect(unresolved.status).toBe(404);
      expect(unresolved.body).toEqual({ detail: USERS_ERRORS.userResolveNotFound });
    });
  });

  describe('patch', () => {
    it('answers 204 with no body and stores zones and birth dates with source_slug manual', async () => {
      const c = createClient(adapter, SMALL);
      const user = await create(c, 'patch-1');
      await c.advance(3600);
      const res = await c.patch(`/v2/user/${user.user_id}`, {
        fallback_time_zone: 'America/Chicago',
        fallback_birth_date: '1985-07-14',
        ingestion_start: '2025-01-01',
        ingestion_end: '2025-12-31',
      });
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      const got = (await c.get(`/v2/user/${user.user_id}`)).body;
      expect(got.fallback_time_zone).toEqual({ id: 'America/Chicago', source_slug: 'manual', updated_at: '2026-01-05T10:00:00.000Z' });
      expect(got.fallback_birth_date).toEqual({ value: '1985-07-14', source_slug: 'manual', updated_at: '2026-01-05T10:00:00.000Z' });
      expect(got.ingestion_start).toBe('2025-01-01');
      expect(got.ingestion_end).toBe('2025-12-31');
      const cleared = await c.patch(`/v2/user/${user.user_id}`, { fallback_time_zone: null });
      expect(cleared.status).toBe(204);
      expect((await c.get(`/v2/user/${user.user_id}`)).body.fallback_time_zone).toBeNull();
    });

    it('changes client_user_id, keeping it unique', async () => {
      const c = createClient(adapter, SMALL);
      const a = await create(c, 'patch-a');
      await create(c, 'patch-b');
      const taken = await c.patch(`/v2/user/${a.user_id}`, { client_user_id: 'patch-b' });
      expect(taken.status).toBe(409);
      expect(taken.body).toEqual({ detail: USERS_ERRORS.clientUserIdTaken });
      const ok = await c.patch(`/v2/user/${a.user_id}`, { client_user_id: 'patch-c' });
      expect(ok.status).toBe(204);
      expect((await c.get('/v2/user/resolve/patch-c')).body.user_id).toBe(a.user_id);
      expect((await c.get('/v2/user/resolve/patch-a')).status).toBe(404);
      const toNull = await c.patch(`/v2/user/${a.user_id}`, { client_user_id: null });
      expect(toNull.status).toBe(422);
    });

    it('validates everything before applying anything', async () => {
      const c = createClient(adapter, SMALL);
      const user = await create(c, 'patch-v', { ingestion_start: '2025-03-01' });
      const before = (await c.get(`/v2/user/${user.user_id}`)).text;
      const cases: Array<[Record<string, unknown>, number]> = [
        [{ fallback_time_zone: 'Not/AZone', fallback_birth_date: '1999-01-01' }, 422],
        [{ fallback_birth_date: '1999-13-01', fallback_time_zone: 'Europe/Paris' }, 422],
        [{ ingestion_end: '2025-02-01', fallback_time_zone: 'Europe/Paris' }, 422],
        [{ client_user_id: 'someone@example.com', fallback_time_zone: 'Europe/Paris' }, 422],
        [{}, 400],
      ];
      for (const [body, status] of cases) {
        const res = await c.patch(`/v2/user/${user.user_id}`, body);
        expect(res.status, JSON.stringify(body)).toBe(status);
        expect(res.body.detail).toBeDefined();
      }
      expect((await c.patch(`/v2/user/${user.user_id}`, {})).body).toEqual({ detail: USERS_ERRORS.nothingToPatch });
      expect((await c.get(`/v2/user/${user.user_id}`)).text).toBe(before);
      const badZone = await c.patch(`/v2/user/${user.user_id}`, { fallback_time_zone: 'Not/AZone' });
      expect(badZone.body.detail[0]).toMatchObject({ type: 'value_error', loc: ['body', 'fallback_time_zone'] });
    });

    it('answers 404 for an unknown user', async () => {
      const c = createClient(adapter, SMALL);
      const res = await c.patch('/v2/user/00000000-0000-4000-8000-000000000000', { fallback_time_zone: 'Europe/Paris' });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: USERS_ERRORS.userGone });
    });
  });

  describe('delete and undo', () => {
    it('starts a 7-day grace period; reads answer as the reference records; undo restores', async () => {
      const c = createClient(adapter, SMALL);
      const user = await create(c, 'del-1');
      const del = await c.delete(`/v2/user/${user.user_id}`);
      expect(del.status).toBe(200);
      expect(del.body).toEqual({ success: true });
      expect((await c.get(`/v2/user/${user.user_id}`)).body).toEqual({ detail: USERS_ERRORS.userScheduledForDeletion });
      expect((await c.get('/v2/user/resolve/del-1')).body).toEqual({ detail: USERS_ERRORS.userScheduledForDeletion });
      const again = await c.delete(`/v2/user/${user.user_id}`);
      expect(again.status).toBe(404);
      expect(again.body).toEqual({ detail: USERS_ERRORS.userAlreadyScheduled });
      const list = await c.get('/v2/user');
      expect(list.body.total).toBe(SMALL.users);
      expect(list.body.users.some((u: { user_id: string }) => u.user_id === user.user_id)).toBe(false);
      // reusing the client_user_id now would make the undo impossible (test/users/client-user-id-reuse.test.ts)
      await c.advance(6 * DAY);
      const undo = await c.post(`/v2/user/undo_delete?user_id=${user.user_id}`);
      expect(undo.status).toBe(200);
      expect(undo.body).toEqual({ success: true });
      expect((await c.get(`/v2/user/${user.user_id}`)).body).toEqual(user);
      await c.advance(2 * DAY);
      expect((await c.get(`/v2/user/${user.user_id}`)).status).toBe(200);
    });

    it('purges the user when the grace period ends; undo is then impossible and the id is free', async () => {
      const c = createClient(adapter, SMALL);
      const user = await create(c, 'del-2');
      await c.delete(`/v2/user/${user.user_id}`);
      await c.advance(7 * DAY - 1);
      expect((await c.get(`/v2/user/${user.user_id}`)).body).toEqual({ detail: USERS_ERRORS.userScheduledForDeletion });
      await c.advance(1);
      const gone = await c.get(`/v2/user/${user.user_id}`);
      expect(gone.status).toBe(404);
      expect(gone.body).toEqual({ detail: USERS_ERRORS.userNotFound });
      expect((await c.delete(`/v2/user/${user.user_id}`)).body).toEqual({ detail: USERS_ERRORS.userGone });
      expect((await c.post('/v2/user/undo_delete', { user_id: user.user_id })).status).toBe(404);
      const reborn = await create(c, 'del-2');
      expect(reborn.user_id).not.toBe(user.user_id);
    });

    it('undoes by client_user_id in the query or a JSON body, and refuses neither or both', async () => {
      const c = createClient(adapter, SMALL);
      const a = await create(c, 'undo-a');
      const b = await create(c, 'undo-b');
      await c.delete(`/v2/user/${a.user_id}`);
      await c.delete(`/v2/user/${b.user_id}`);
      expect((await c.post('/v2/user/undo_delete', undefined, { query: { client_user_id: 'undo-a' } })).status).toBe(200);
      expect((await c.post('/v2/user/undo_delete', { client_user_id: 'undo-b' })).status).toBe(200);
      expect((await c.post('/v2/user/undo_delete')).status).toBe(422);
      expect((await c.post('/v2/user/undo_delete', undefined, { query: { client_user_id: 'undo-a', user_id: a.user_id } })).status).toBe(
        422,
      );
      expect((await c.post('/v2/user/undo_delete', undefined, { query: { user_id: a.user_id } })).status).toBe(404);
    });
  });

  describe('sandbox user cap', () => {
    it('caps live users at 50 per team in the sandbox environment, with the real error; deletion frees a slot', async () => {
      // 48 seeded users (building them costs less than creating them through the API), 2 created.
      const c = createClient(adapter, { users: 48 });
      for (let i = 0; i < 2; i++) await create(c, `cap-${i}`);
      const over = await c.post('/v2/user', { client_user_id: 'cap-over' });
      expect(over.status).toBe(400);
      expect(over.body).toEqual({ detail: { error_type: 'INVALID_REQUEST', error_message: USERS_ERRORS.sandboxUserCap } });
      const victim = (await c.get('/v2/user/resolve/cap-0')).body;
      await c.delete(`/v2/user/${victim.user_id}`);
      expect((await c.post('/v2/user', { client_user_id: 'cap-over' })).status).toBe(200);
      // Undo would exceed the cap again.
      expect((await c.post('/v2/user/undo_delete', { user_id: victim.user_id })).status).toBe(400);
    });

    it('does not cap production, nor a sandbox with limits off or more than 50 seeded users', async () => {
      const c = createClient(adapter, SMALL);
      const prod = c.creds.teams[0]?.api_keys.production ?? '';
      for (let i = 0; i < 51; i++) {
        const res = await c.post('/v2/user', { client_user_id: `prod-${i}` }, { headers: { 'x-service-api-key': prod } });
        expect(res.status).toBe(200);
      }
      const off = createClient(adapter, { users: 48, limits: false });
      for (let i = 0; i < 3; i++) await create(off, `off-${i}`);
      expect((await off.get('/v2/user')).body.total).toBe(51);
      const big = createClient(adapter, { users: 60 });
      expect(big.sandbox.options.limits).toBe(false);
      expect((await big.get('/v2/user')).body.total).toBe(60);
      await create(big, 'big-61');
    });
  });

  describe('tenancy', () => {
    it("never shows one team environment's users to another", async () => {
      const c = createClient(adapter, SMALL);
      const user = await create(c, 'tenant-1');
      const others = [c.creds.teams[0]?.api_keys.production, c.creds.teams[1]?.api_keys.sandbox, c.creds.teams[1]?.api_keys.production];
      for (const key of others) {
        const headers = { 'x-service-api-key': key ?? '' };
        expect((await c.get(`/v2/user/${user.user_id}`, { headers })).status).toBe(404);
        expect((await c.get('/v2/user/resolve/tenant-1', { headers })).status).toBe(404);
        const list = await c.get('/v2/user', { headers, query: { limit: 500 } });
        expect(list.body.users.some((u: { user_id: string }) => u.user_id === user.user_id)).toBe(false);
        expect(list.body.total).toBe(3);
        expect((await c.delete(`/v2/user/${user.user_id}`, { headers })).status).toBe(404);
        // The same client_user_id is free in another partition.
        expect((await c.post('/v2/user', { client_user_id: 'tenant-1' }, { headers })).status).toBe(200);
      }
      expect((await c.get(`/v2/user/${user.user_id}`)).status).toBe(200);
    });
  });
});
