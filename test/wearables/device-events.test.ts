/**
 * Device events (issue 42), on both adapters: `provider.device.created` with the connection's
 * first sync (ClientFacingDevice), and
 * `provider.device.updated` when a firmware update changes its `device_version`.
 */
import { expect, it } from 'vitest';
import { createClient, forEachAdapter } from '../support/client.js';
import { oasValidator } from '../support/openapi.js';

const oas = oasValidator('data');

forEachAdapter('wearables: provider.device events', (adapter) => {
  it('created with the first sync, updated after a firmware update', async () => {
    // Seeded users connected weeks ago: some of their devices get a firmware update this week.
    const c = createClient(adapter, { seed: 5, users: 40, usersElsewhere: 0, feed: 'on' });
    const userId = (await c.post('/v2/user', { client_user_id: '5b0c2a4e-8f7d-4c1e-9a3b-2d6e8f1a7c90' })).body.user_id as string;
    expect((await c.post('/v2/link/connect/demo', { user_id: userId, provider: 'oura' })).status).toBe(200);
    await c.advance(2 * 3600);
    const first = (await c.get('/_sandbox/events', { query: { limit: 100, user_id: userId, event_type_prefix: 'provider.device.' } })).body
      .events;
    await c.advance(7 * 24 * 3600);
    const all = (await c.get('/_sandbox/events', { query: { limit: 10000, event_type_prefix: 'provider.device.' } })).body.events.map(
      (e: any) => e.envelope,
    );
    // Seeded users' client_user_id are not UUIDs (the OAS says uuid): the payload is checked as ClientFacingDevice.
    for (const e of all) oas?.expectValid('ClientFacingDevice', e.data);
    const created = first.map((e: any) => e.envelope).filter((e: any) => e.event_type === 'provider.device.created');
    oas?.expectValid('ClientFacingDeviceChanged', created[0]);
    expect(created).toHaveLength(1);
    expect(created[0].data).toMatchObject({ user_id: userId, provider: 'oura', source_type: 'ring', device_manufacturer: 'Oura' });
    const updated = all.filter((e: any) => e.event_type === 'provider.device.updated');
    expect(updated.length).toBeGreaterThanOrEqual(1);
    for (const u of updated) {
      expect(u.data.user_id).not.toBe(userId);
      // The version's last part counts the firmware updates since the device was first seen.
      expect(Number(u.data.device_version.split('.')[2])).toBeGreaterThanOrEqual(1);
    }
  });
});
