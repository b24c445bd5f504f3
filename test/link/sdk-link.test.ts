/** Contract test: the official SDK's `link` resource against the sandbox (every served method). */
import type { VitalClient } from '@tryvital/vital-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_MFA_CODE, SANDBOX_PASSWORD } from '../../src/fixtures/link/credentials.js';
import type { RunningServer } from '../support/server.js';
import { startSdkServer } from '../support/sdk-server.js';

let server: RunningServer;
let client: VitalClient;

beforeAll(async () => {
  ({ server, client } = await startSdkServer({ seed: 6, users: 2, usersElsewhere: 0 }));
});

afterAll(async () => {
  await server.close();
});

const newToken = async (clientUserId: string, extra: Partial<Parameters<VitalClient['link']['token']>[0]> = {}) => {
  const user = await client.user.create({ clientUserId });
  const token = await client.link.token({ userId: user.userId, redirectUrl: 'https://app.example/cb', ...extra });
  return { userId: user.userId, ...token };
};

describe('official SDK link resource against the sandbox', () => {
  it('token, isTokenValid, tokenState, getAllProviders, startConnect and generateOauthLink parse', async () => {
    const { linkToken, linkWebUrl } = await newToken('sdk-link-1', { filterOnProviders: ['oura', 'peloton'] });
    expect(linkWebUrl.startsWith(`${server.baseUrl}/link?token=`)).toBe(true);
    expect(await client.link.isTokenValid({ token: linkToken })).toEqual({ success: true });
    expect(await client.link.tokenState({ vitalLinkToken: linkToken })).toMatchObject({ state: 'active', provider: null });
    const providers = await client.link.getAllProviders({ vitalLinkToken: linkToken });
    expect(providers.map((p) => [p.slug, p.authType])).toEqual([
      ['oura', 'oauth'],
      ['peloton', 'password'],
    ]);
    const started = await client.link.startConnect({ linkToken, provider: 'oura' });
    expect(String(started.oauth_url)).toContain('/link/oauth/authorize?provider=oura');
    const source = await client.link.generateOauthLink('oura', { vitalLinkToken: linkToken });
    expect(source.slug).toBe('oura');
    expect(source.oauthUrl).toBe(started.oauth_url);
    await expect(client.link.isTokenValid({ token: 'nope' })).rejects.toMatchObject({
      statusCode: 400,
      body: { detail: { error_type: 'invalid_token' } },
    });
  });

  it('connectPasswordProvider with completePasswordProviderMfa, passwordAuth, emailAuth, connectEmailAuthProvider, connectManualProvider, codeCreate', async () => {
    const a = await newToken('sdk-link-2');
    await expect(client.link.connectPasswordProvider('peloton', { username: 'u', password: 'sandbox-mfa-email' })).rejects.toMatchObject({
      statusCode: 422,
    });
    const pending = await client.link.connectPasswordProvider('peloton', {
      vitalLinkToken: a.linkToken,
      username: 'u',
      password: 'sandbox-mfa-email',
    });
    expect(pending.state).toBe('pending_provider_mfa');
    expect(pending.providerMfa?.method).toBe('email');
    const done = await client.link.completePasswordProviderMfa('peloton', { vitalLinkToken: a.linkToken, mfaCode: SANDBOX_MFA_CODE });
    expect(done).toMatchObject({ state: 'success', connected: true, provider: 'peloton' });

    const b = await newToken('sdk-link-3');
    expect(
      await client.link.passwordAuth({
        vitalLinkToken: b.linkToken,
        username: 'u',
        password: SANDBOX_PASSWORD,
        provider: 'zwift',
        authType: 'password',
      }),
    ).toMatchObject({ state: 'success' });
    const c = await newToken('sdk-link-4');
    expect(
      await client.link.emailAuth({
        vitalLinkToken: c.linkToken,
        email: 'x@example.com',
        provider: 'freestyle_libre',
        authType: 'email',
        region: 'us',
      }),
    ).toMatchObject({ state: 'success' });
    const d = await newToken('sdk-link-5');
    expect(
      await client.link.connectEmailAuthProvider('freestyle_libre', {
        vitalLinkToken: d.linkToken,
        email: 'provider_api_error@example.com',
        region: 'us',
      }),
    ).toMatchObject({ state: 'error', error_type: 'provider_api_error' });
    expect(await client.link.connectManualProvider('health_connect', { userId: d.userId })).toEqual({ success: true });
    const code = await client.link.codeCreate({ userId: d.userId });
    expect(code.code).toMatch(/^sk(us|eu)[0-9a-f]{8}$/);
    expect(code.expiresAt).toBeInstanceOf(Date);
  });

  it('bulkImport, bulkExport and listBulkOps parse', async () => {
    const user = await client.user.create({ clientUserId: 'sdk-bulk' });
    const imported = await client.link.bulkImport({
      provider: 'oura',
      connections: [{ userId: user.userId, accessToken: 'at', refreshToken: 'rt', providerId: 'pid', expiresAt: 1_800_000_000 }],
      waitForCompletion: true,
    });
    expect(imported).toEqual({ userIdsImported: [user.userId], userIdsFailed: [] });
    const exported = await client.link.bulkExport({ provider: 'oura', userIds: [user.userId] });
    expect(exported.data.map((r) => r.accessToken)).toEqual(['at']);
    const ops = await client.link.listBulkOps();
    expect(ops.data[0]).toMatchObject({ type: 'link_bulk_import', status: 'success', provider: 'oura' });
  });

  it('bulkTriggerHistoricalPull and bulkPause parse; the trigger shows in listBulkOps, the pause in the connection status', async () => {
    const user = await client.user.create({ clientUserId: 'sdk-bulk-2' });
    await client.link.bulkImport({
      provider: 'oura',
      connections: [{ userId: user.userId, accessToken: 'at', refreshToken: 'rt', providerId: 'pid', expiresAt: 1_800_000_000 }],
      waitForCompletion: true,
    });
    const op = await client.link.bulkTriggerHistoricalPull({ userIds: [user.userId], provider: 'oura', waitForCompletion: true });
    // The pull runs on the clock: the op is in progress until it finishes.
    expect(op).toMatchObject({ type: 'link_bulk_historical_trigger', status: 'in_progress', pending: 1, processed: 0, ended_at: null });
    const running = await client.link.listBulkOps({ pageSize: 1 });
    expect(running.data[0]).toMatchObject({
      type: 'link_bulk_historical_trigger',
      status: 'in_progress',
      provider: 'oura',
      pending: 1,
      processed: 0,
    });
    expect(running.data[0]?.endedAt ?? null).toBeNull();
    await server.sandbox.advance(6 * 3600);
    const ops = await client.link.listBulkOps({ pageSize: 1 });
    expect(ops.data[0]).toMatchObject({
      type: 'link_bulk_historical_trigger',
      status: 'success',
      provider: 'oura',
      pending: 0,
      processed: 1,
    });
    expect(ops.data[0]?.startedAt).toBeInstanceOf(Date);
    expect(ops.data[0]?.endedAt).toBeInstanceOf(Date);
    expect(await client.link.bulkPause({ userIds: [user.userId], provider: 'oura' })).toEqual({
      user_ids_paused: [user.userId],
      user_ids_failed: [],
    });
    const providers = await client.user.getConnectedProviders(user.userId);
    expect(
      Object.values(providers)
        .flat()
        .map((p) => p.status),
    ).toEqual(['paused']);
  });
});
