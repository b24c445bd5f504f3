/** Contract test: the official SDK, pointed at the sandbox with baseUrl, drives the user endpoints. */
import { Vital, VitalClient, VitalError } from '@tryvital/vital-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../support/server.js';
import { startSdkServer } from '../support/sdk-server.js';
import { USERS_ERRORS } from '../../src/state/users/errors.js';

let server: RunningServer;
let client: VitalClient;

beforeAll(async () => {
  ({ server, client } = await startSdkServer({ seed: 5 }));
});

afterAll(async () => {
  await server.close();
});

describe('official SDK @tryvital/vital-node against the sandbox', () => {
  it('creates, reads, lists, resolves, patches, deletes and restores a user', async () => {
    const created = await client.user.create({
      clientUserId: 'sdk-user-1',
      fallbackTimeZone: 'Europe/Berlin',
      fallbackBirthDate: '1991-04-05',
    });
    expect(created.clientUserId).toBe('sdk-user-1');
    expect(created.userId).toMatch(/^[0-9a-f-]{36}$/);

    const user = await client.user.get(created.userId);
    expect(user.clientUserId).toBe('sdk-user-1');
    expect(user.connectedSources).toEqual([]);
    expect(user.fallbackTimeZone?.id).toBe('Europe/Berlin');
    expect(user.fallbackTimeZone?.sourceSlug).toBe('manual');
    expect(user.fallbackBirthDate?.value).toBe('1991-04-05');
    expect(new Date(user.createdOn).toISOString()).toBe('2026-01-05T09:00:00.000Z');

    const page = await client.user.getAll({ offset: 0, limit: 10 });
    expect(page.users).toHaveLength(10);
    expect(page.total).toBe(26);
    const all = await client.user.getAll();
    expect(all.users.map((u) => u.userId)).toContain(created.userId);

    const resolved = await client.user.getByClientUserId('sdk-user-1');
    expect(resolved.userId).toBe(created.userId);

    const patched = await client.user.patch(created.userId, { fallbackTimeZone: 'Asia/Tokyo', ingestionStart: '2025-01-01' });
    expect(patched).toBeUndefined();
    const after = await client.user.get(created.userId);
    expect(after.fallbackTimeZone?.id).toBe('Asia/Tokyo');
    expect(after.ingestionStart).toBe('2025-01-01');

    expect(await client.user.delete(created.userId)).toEqual({ success: true });
    await expect(client.user.get(created.userId)).rejects.toMatchObject({
      statusCode: 404,
      body: { detail: USERS_ERRORS.userScheduledForDeletion },
    });
    expect(await client.user.undoDelete({ userId: created.userId })).toEqual({ success: true });
    expect((await client.user.get(created.userId)).userId).toBe(created.userId);
  });

  it('surfaces the duplicate-user 400 as Vital.BadRequestError with user_id and created_on', async () => {
    const first = await client.user.create({ clientUserId: 'sdk-dup' });
    const error = await client.user.create({ clientUserId: 'sdk-dup' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Vital.BadRequestError);
    expect((error as Vital.BadRequestError).body).toMatchObject({ detail: { user_id: first.userId, error_type: 'INVALID_REQUEST' } });
  });

  it('surfaces validation as Vital.UnprocessableEntityError and auth failures as VitalError 401', async () => {
    const invalid = await client.user.getAll({ limit: 501 }).catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(Vital.UnprocessableEntityError);
    expect((invalid as Vital.UnprocessableEntityError).body).toMatchObject({ detail: [{ loc: ['query', 'limit'] }] });
    const stranger = new VitalClient({ apiKey: 'sk_us_unknown', baseUrl: server.baseUrl, maxRetries: 0 });
    const unauthorized = await stranger.user.getAll().catch((e: unknown) => e);
    expect(unauthorized).toBeInstanceOf(VitalError);
    expect((unauthorized as VitalError).statusCode).toBe(401);
  });
});
