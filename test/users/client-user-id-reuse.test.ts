/**
 * A deleted user's client_user_id during its grace period (issue 31 item 4; api-facts J): a new
 * user may take it, and the deletion can then no longer be undone, through the official SDK.
 */
import { type VitalClient, VitalError } from '@tryvital/vital-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USERS_ERRORS } from '../../src/state/users/errors.js';
import type { RunningServer } from '../support/server.js';
import { startSdkServer } from '../support/sdk-server.js';

let server: RunningServer;
let client: VitalClient;

beforeAll(async () => {
  ({ server, client } = await startSdkServer({ seed: 320, users: 2, usersElsewhere: 0 }));
});
afterAll(async () => server.close());

const refusal = (p: Promise<unknown>) => p.then(() => null).catch((e: unknown) => e as VitalError);

describe('official SDK @tryvital/vital-node: reusing a deleted user client_user_id', () => {
  it('a new user takes the id during the grace period; the old one then cannot be undeleted (by user_id or client_user_id)', async () => {
    const old = await client.user.create({ clientUserId: 'reused-1' });
    expect(await client.user.delete(old.userId)).toEqual({ success: true });
    const fresh = await client.user.create({ clientUserId: 'reused-1' });
    expect(fresh.userId).not.toBe(old.userId);
    expect((await client.user.getByClientUserId('reused-1')).userId).toBe(fresh.userId);

    for (const attempt of [client.user.undoDelete({ userId: old.userId }), client.user.undoDelete({ clientUserId: 'reused-1' })]) {
      const e = await refusal(attempt);
      expect(e).toBeInstanceOf(VitalError);
      expect(e?.statusCode).toBe(400);
      expect(e?.body).toEqual({ detail: USERS_ERRORS.undoAfterReuse });
    }
    // a live holder still refuses a duplicate, and the old user is purged when its grace ends
    const dupe = await refusal(client.user.create({ clientUserId: 'reused-1' }));
    expect(dupe?.statusCode).toBe(400);
    await server.sandbox.advance(7 * 86_400);
    expect((await client.user.get(fresh.userId)).clientUserId).toBe('reused-1');
    expect((await refusal(client.user.get(old.userId)))?.statusCode).toBe(404);
  });

  it('without reuse, the undo still works within the grace period', async () => {
    const user = await client.user.create({ clientUserId: 'kept-1' });
    await client.user.delete(user.userId);
    expect(await client.user.undoDelete({ clientUserId: 'kept-1' })).toEqual({ success: true });
    expect((await client.user.get(user.userId)).clientUserId).toBe('kept-1');
  });
});
