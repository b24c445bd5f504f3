import { expect, it } from 'vitest';
import { createClient, forEachAdapter } from './support/client.js';

forEachAdapter('users smoke', (adapter) => {
  it('creates and reads a user', async () => {
    const c = createClient(adapter);
    const created = await c.post('/v2/user', { client_user_id: 'smoke-1' });
    expect(created.status).toBe(200);
    const got = await c.get(`/v2/user/${created.body.user_id}`);
    expect(got.body.client_user_id).toBe('smoke-1');
    const list = await c.get('/v2/user/', { query: { limit: 2 } });
    expect(list.body.users).toHaveLength(2);
    const none = await c.get('/v2/user/x', { anonymous: true });
    expect(none.status).toBe(401);
  });
});
