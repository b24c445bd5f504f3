/**
 * Issue 42, the Health SDK's connection policies (docs: wearables/sdks/health/connection-policies,
 * api-reference/user/deregister-a-provider), on both adapters, driven with the official SDK
 * (`@tryvital/vital-node`, its requests carried by the adapter's own transport) and checked
 * through webhooks verified with `svix`: in Auto Connect mode (the default) deregistering Apple
 * HealthKit, Health Connect or Samsung Health has no effect; in Explicit Connect mode it removes
 * the connection as for a cloud provider, nothing brings it back (not the feed, not a refresh)
 * but the SDK's connect (`POST /v2/link/provider/manual/{provider}`). The policy is set per team
 * environment, survives a snapshot and a saved world, and a bad value is a 422.
 */
import type { VitalClient } from '@tryvital/vital-node';
import { Webhook } from 'svix';
import { expect, it } from 'vitest';
import { createClient, forEachAdapter, type TestClient } from '../support/client.js';
import { sdkOf } from '../support/sdk-bridge.js';
import { createEndpoint, scriptedTransport, teamOf } from '../support/webhooks-support.js';

const DAY = 86_400;
const POLICY = '/_sandbox/wearables/health-sdk';

interface Setup {
  c: TestClient;
  sdk: VitalClient;
  /** The verified deliveries so far (svix checks each signature). */
  events(): Array<{ event_type: string; data: any }>;
}

async function setup(adapter: 'express' | 'msw', seed: number): Promise<Setup> {
  const scripted = scriptedTransport();
  const c = createClient(adapter, { seed, users: 0, usersElsewhere: 0, webhookTransport: scripted.transport });
  const { secret } = await createEndpoint(c, { url: 'http://127.0.0.1:9/hooks', filter_types: null });
  const wh = new Webhook(secret);
  return {
    c,
    sdk: sdkOf(c),
    events: () => scripted.received.map((r) => wh.verify(r.body, r.headers) as { event_type: string; data: any }),
  };
}

async function advance(s: Setup, seconds: number): Promise<void> {
  expect((await s.c.advance(seconds)).status).toBe(200);
  await s.c.sandbox.settle();
}

/** The user's current connections, slug to status, through the SDK. */
async function connected(s: Pick<Setup, 'sdk'>, userId: string): Promise<Record<string, string>> {
  const answer = await s.sdk.user.getConnectedProviders(userId);
  return Object.fromEntries(Object.values(answer).flatMap((list) => (list ?? []).map((p) => [p.slug, p.status])));
}

/** The provider an event is about (connection events name it; data events carry their source). */
function providerOf(e: { data: any }): string | undefined {
  const d = e.data;
  return d.provider?.slug ?? d.provider ?? d.source?.slug ?? d.source?.provider;
}

/** A user connected through the Health SDK's connect call: Apple HealthKit, Health Connect and Samsung Health. */
async function sdkUser(s: Setup, name: string): Promise<string> {
  const userId = (await s.sdk.user.create({ clientUserId: name })).userId;
  for (const provider of ['apple_health_kit', 'health_connect'] as const)
    expect(await s.sdk.link.connectManualProvider(provider, { userId })).toEqual({ success: true });
  // Samsung Health is not in the SDK's (non-exhaustive) ManualProviders enum: the mobile SDK's call, as sent.
  expect((await s.c.post('/v2/link/provider/manual/samsung_health', { user_id: userId })).body).toEqual({ success: true });
  return userId;
}

const SDK_PROVIDERS = ['apple_health_kit', 'health_connect', 'samsung_health'] as const;
const ALL = { apple_health_kit: 'connected', health_connect: 'connected', samsung_health: 'connected' };

forEachAdapter('wearables: Health SDK connection policies', (adapter) => {
  it('Auto Connect (default): deregistering a Health SDK connection has no effect, its data keeps coming', async () => {
    const s = await setup(adapter, 5);
    expect((await s.c.get(POLICY)).body).toEqual({ connection_policy: 'auto', team_connection_policies: {} });
    const userId = await sdkUser(s, 'auto-connect');
    for (const provider of ['apple_health_kit', 'health_connect'] as const)
      expect(await s.sdk.user.deregisterProvider(userId, provider)).toEqual({ success: true });
    // Samsung Health is not in the SDK's Providers enum either: the same DELETE, sent as is.
    expect((await s.c.delete(`/v2/user/${userId}/samsung_health`)).body).toEqual({ success: true });
    expect(await connected(s, userId)).toEqual(ALL);
    const before = s.events().length;
    await advance(s, DAY);
    expect(await connected(s, userId)).toEqual(ALL);
    const later = s.events().slice(before);
    for (const provider of SDK_PROVIDERS)
      expect(
        later.some((e) => e.event_type.startsWith('daily.data.') && providerOf(e) === provider),
        provider,
      ).toBe(true);
  });

  it('Explicit Connect: deregistering removes the connection; only the SDK connect makes one again', async () => {
    const s = await setup(adapter, 6);
    const team = teamOf(s.c);
    const set = await s.c.post(POLICY, { connection_policy: 'explicit', team_id: team });
    expect(set.body).toEqual({
      connection_policy: 'auto',
      team_connection_policies: { [team]: { sandbox: 'explicit', production: 'explicit' } },
    });
    const userId = await sdkUser(s, 'explicit-connect');
    await advance(s, 3600);
    for (const provider of ['apple_health_kit', 'health_connect'] as const)
      expect(await s.sdk.user.deregisterProvider(userId, provider)).toEqual({ success: true });
    expect(await connected(s, userId)).toEqual({ samsung_health: 'connected' });
    expect((await s.sdk.user.get(userId)).connectedSources.map((c) => c.provider.slug)).toEqual(['samsung_health']);
    // As for any provider: a second deregistration finds nothing to end.
    expect((await s.c.delete(`/v2/user/${userId}/apple_health_kit`)).status).toBe(404);
    // Neither the feed nor a refresh reinstates them, and their data stops (Samsung Health's goes on).
    const before = s.events().length;
    expect((await s.sdk.user.refresh(userId)).success).toBe(true);
    await advance(s, DAY);
    expect(await connected(s, userId)).toEqual({ samsung_health: 'connected' });
    const later = s.events().slice(before);
    expect(later.filter((e) => providerOf(e) === 'apple_health_kit' || providerOf(e) === 'health_connect')).toEqual([]);
    expect(later.some((e) => e.event_type.startsWith('daily.data.') && providerOf(e) === 'samsung_health')).toBe(true);
    expect((await s.c.delete(`/v2/user/${userId}/samsung_health`)).body).toEqual({ success: true });
    expect(await connected(s, userId)).toEqual({});
    // The SDK's connect() creates it again (provider.connection.created).
    expect(await s.sdk.link.connectManualProvider('apple_health_kit', { userId })).toEqual({ success: true });
    expect(await connected(s, userId)).toEqual({ apple_health_kit: 'connected' });
    await advance(s, 0);
    const created = s.events().filter((e) => e.event_type === 'provider.connection.created' && providerOf(e) === 'apple_health_kit');
    expect(created).toHaveLength(2);
  });

  it('per team environment: explicit in production leaves the sandbox environment in Auto Connect', async () => {
    const s = await setup(adapter, 7);
    const team = teamOf(s.c);
    const set = await s.c.post(POLICY, { connection_policy: 'explicit', team_id: team, environment: 'production' });
    expect(set.body.team_connection_policies).toEqual({ [team]: { sandbox: 'auto', production: 'explicit' } });
    const prodKey = s.c.creds.teams[0]?.api_keys.production ?? '';
    const prod = { ...s, sdk: sdkOf(s.c, prodKey) };
    const sandboxUser = (await s.sdk.user.create({ clientUserId: 'env-sandbox' })).userId;
    const prodUser = (await prod.sdk.user.create({ clientUserId: 'env-production' })).userId;
    for (const [sdk, userId] of [
      [s.sdk, sandboxUser],
      [prod.sdk, prodUser],
    ] as const) {
      await sdk.link.connectManualProvider('apple_health_kit', { userId });
      expect(await sdk.user.deregisterProvider(userId, 'apple_health_kit')).toEqual({ success: true });
    }
    expect(await connected(s, sandboxUser)).toEqual({ apple_health_kit: 'connected' });
    expect(await connected(prod, prodUser)).toEqual({});
    // The sandbox-wide policy does not override an environment set apart; the others follow it.
    expect((await s.c.post(POLICY, { connection_policy: 'explicit' })).body).toEqual({
      connection_policy: 'explicit',
      team_connection_policies: { [team]: { sandbox: 'explicit', production: 'explicit' } },
    });
    expect((await s.c.post(POLICY, { connection_policy: 'auto' })).body).toEqual({
      connection_policy: 'auto',
      team_connection_policies: { [team]: { sandbox: 'auto', production: 'explicit' } },
    });
  });

  it('the policy survives a snapshot and a saved world; a reset goes back to auto', async () => {
    const c = createClient(adapter, { seed: 8, users: 0, usersElsewhere: 0, feed: 'off' });
    const team = teamOf(c);
    await c.post(POLICY, { connection_policy: 'explicit', team_id: team, environment: 'sandbox' });
    const explicit = (await c.get(POLICY)).body;
    expect((await c.post('/_sandbox/snapshots', { name: 'explicit' })).status).toBe(201);
    const saved = (await c.get('/_sandbox/world')).body;
    expect((await c.post('/_sandbox/reset', {})).status).toBe(200);
    expect((await c.get(POLICY)).body).toEqual({ connection_policy: 'auto', team_connection_policies: {} });
    expect((await c.post('/_sandbox/snapshots/explicit/restore')).status).toBe(200);
    expect((await c.get(POLICY)).body).toEqual(explicit);
    await c.post(POLICY, { connection_policy: 'auto', team_id: team });
    expect((await c.put('/_sandbox/world', saved)).status).toBe(200);
    expect((await c.get(POLICY)).body).toEqual(explicit);
    // And it acts: a restored explicit policy ends the connection.
    const sdk = sdkOf(c);
    const userId = (await sdk.user.create({ clientUserId: 'restored' })).userId;
    await sdk.link.connectManualProvider('apple_health_kit', { userId });
    expect(await connected({ sdk }, userId)).toEqual({ apple_health_kit: 'connected' });
    await sdk.user.deregisterProvider(userId, 'apple_health_kit');
    expect(await connected({ sdk }, userId)).toEqual({});
  });

  it('a bad value is a 422 with detail; an unknown team a 404; nothing changes', async () => {
    const c = createClient(adapter, { seed: 9, users: 0, usersElsewhere: 0, feed: 'off' });
    const bad = await c.post(POLICY, { connection_policy: 'sometimes' });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['body', 'connection_policy']);
    const envOnly = await c.post(POLICY, { connection_policy: 'explicit', environment: 'production' });
    expect(envOnly.status).toBe(422);
    expect(envOnly.body.detail[0].loc).toEqual(['body', 'environment']);
    const extra = await c.post(POLICY, { connection_policy: 'explicit', policy: 'explicit' });
    expect(extra.status).toBe(422);
    const unknown = await c.post(POLICY, { connection_policy: 'explicit', team_id: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.status).toBe(404);
    expect(typeof unknown.body.detail).toBe('string');
    expect((await c.get(POLICY)).body).toEqual({ connection_policy: 'auto', team_connection_policies: {} });
  });

  it("a scenario's health_sdk sets the policy sandbox-wide and per team", async () => {
    const c = createClient(adapter, { seed: 10, users: 0, usersElsewhere: 0, feed: 'off' });
    const loaded = await c.put('/_sandbox/scenario', {
      health_sdk: { connection_policy: 'explicit' },
      teams: [{ name: 'Auto team', health_sdk: { connection_policy: 'auto' } }],
    });
    expect(loaded.status, loaded.text).toBe(200);
    const auto = c.sandbox.credentials().teams.find((t) => t.name === 'Auto team')?.team_id ?? '';
    expect((await c.get(POLICY)).body).toEqual({
      connection_policy: 'explicit',
      team_connection_policies: { [auto]: { sandbox: 'auto', production: 'auto' } },
    });
  });
});
