/** Link bulk operations: import, export, list. */
import { expect, it } from 'vitest';
import { createClient, forEachAdapter } from './support/client.js';
import { oasValidator } from './support/openapi.js';

const oas = oasValidator('data');

forEachAdapter('link bulk operations', (adapter) => {
  it('imports credentials as connections (unknown users fail), exports them, lists the op', async () => {
    const c = createClient(adapter, { seed: 5, users: 0, usersElsewhere: 0 });
    const a = (await c.post('/v2/user', { client_user_id: 'bulk-a' })).body.user_id as string;
    const b = (await c.post('/v2/user', { client_user_id: 'bulk-b' })).body.user_id as string;
    const missing = '00000000-0000-4000-8000-000000000000';
    const recipe = (userId: string) => ({ user_id: userId, access_token: `at-${userId}`, refresh_token: `rt-${userId}`, provider_id: `p-${userId}`, expires_at: 1_800_000_000 });
    const imported = await c.post('/v2/link/bulk_import', { provider: 'fitbit', connections: [recipe(a), recipe(missing)], wait_for_completion: true });
    expect(imported.status).toBe(200);
    oas?.expectValid('BulkImportConnectionsResponse', imported.body);
    expect(imported.body).toEqual({ user_ids_imported: [a], user_ids_failed: [missing] });
    expect((await c.post('/v2/link/bulk_import', { provider: 'fitbit', connections: [recipe(b)] })).status).toBe(202);
    const events = await c.get('/_sandbox/events', { query: { event_type: 'provider.connection.created' } });
    expect(events.body.events.map((e: { envelope: { user_id: string } }) => e.envelope.user_id).sort()).toEqual([a, b].sort());
    const exported = await c.post('/v2/link/bulk_export', { provider: 'fitbit' });
    expect(exported.status).toBe(200);
    oas?.expectValid('BulkExportConnectionsResponse', exported.body);
    expect(exported.body.data.map((r: { access_token: string }) => r.access_token).sort()).toEqual([`at-${a}`, `at-${b}`].sort());
    expect((await c.post('/v2/link/bulk_export', { provider: 'fitbit', user_ids: [b] })).body.data).toHaveLength(1);
    expect((await c.post('/v2/link/bulk_export', { provider: 'nokia' })).status).toBe(422);
    const ops = await c.get('/v2/link/bulk_op', { query: { page_size: 1 } });
    oas?.expectValid('BulkOpsResponse', ops.body);
    expect(ops.body.data).toHaveLength(1);
    expect(ops.body.data[0]).toMatchObject({ type: 'link_bulk_import', status: 'success', provider: 'fitbit', processed: 1 });
    const next = await c.get('/v2/link/bulk_op', { query: { page_size: 5, next_cursor: ops.body.next_cursor } });
    expect(next.body.data.map((o: { processed: number }) => o.processed)).toEqual([2]);
    expect(next.body.next_cursor).toBeNull();
  });
});
