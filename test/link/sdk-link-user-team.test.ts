/** Contract test: the official SDK's `user` (new methods), `team` and `devices` resources against the sandbox. */
import { VitalClient } from '@tryvital/vital-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { platformPayors } from '../../src/fixtures/labs/payors.js';
import { startServer, type RunningServer } from '../support/server.js';

let server: RunningServer;
let client: VitalClient;
let teamId: string;

beforeAll(async () => {
  server = await startServer({ seed: 7, users: 2, usersElsewhere: 0 });
  const creds = server.sandbox.credentials();
  teamId = creds.teams[0]?.team_id ?? '';
  client = new VitalClient({ apiKey: creds.teams[0]?.api_keys.sandbox ?? '', baseUrl: server.baseUrl, maxRetries: 0 });
});

afterAll(async () => {
  await server.close();
});

const address = { firstLine: '1 Market St', country: 'US', zip: '94105', city: 'San Francisco', state: 'CA' };

describe('official SDK user, team and devices resources against the sandbox', () => {
  it('user: metrics, demographics, insurance, refresh, devices, sign-in token, portal URL', async () => {
    const user = await client.user.create({ clientUserId: 'sdk-extras' });
    const metrics = await client.user.getTeamMetrics();
    expect(metrics.teamId).toBe(teamId);
    expect(metrics.numberOfUsers).toBe(3);
    const info = await client.user.upsertUserInfo(user.userId, {
      firstName: 'Ada',
      lastName: 'L',
      email: 'ada@example.com',
      phoneNumber: '+14155550100',
      gender: 'female',
      dob: '1990-12-10',
      address,
    });
    expect(info.address.firstLine).toBe('1 Market St');
    expect((await client.user.getLatestUserInfo(user.userId)).firstName).toBe('Ada');
    const payor = platformPayors()[0]?.payor_code ?? '';
    const insured = {
      firstName: 'Ada',
      lastName: 'L',
      gender: 'female' as const,
      address,
      dob: '1990-12-10',
      email: 'ada@example.com',
      phoneNumber: '+14155550100',
    };
    const ins = await client.user.createInsurance(user.userId, { payorCode: payor, memberId: 'M-1', relationship: 'Self', insured });
    expect(ins.company.name.length).toBeGreaterThan(0);
    expect((await client.user.getLatestInsurance(user.userId)).memberId).toBe('M-1');
    await client.link.connectDemoProvider({ userId: user.userId, provider: 'oura' });
    const refresh = await client.user.refresh(user.userId);
    expect(refresh).toMatchObject({ success: true, userId: user.userId, inProgressSources: ['oura'] });
    const devices = await client.user.getDevices(user.userId);
    expect(devices.map((d) => [d.provider, d.sourceType])).toEqual([['oura', 'ring']]);
    expect((await client.user.getDevice(user.userId, devices[0]?.id ?? '')).id).toBe(devices[0]?.id);
    expect((await client.devices.getRaw(user.userId)).devices.map((d) => d.source.slug)).toEqual(['oura']);
    expect((await client.user.getUserSignInToken(user.userId)).signInToken.length).toBeGreaterThan(20);
    const portal = await client.user.createPortalUrl(user.userId, { context: 'communications' });
    expect(portal.expiresIn).toBe(14 * 24 * 3600);
    expect((await fetch(portal.url)).status).toBe(200);
  });

  it('team: get, getUserById, getSvixUrl, source priorities, physicians, getLinkConfig', async () => {
    expect((await client.team.get(teamId)).id).toBe(teamId);
    const user = await client.user.create({ clientUserId: 'sdk-team' });
    expect((await client.team.getUserById({ queryId: 'sdk-team' })).map((u) => u.userId)).toEqual([user.userId]);
    expect(String((await client.team.getSvixUrl()).url)).toContain(`/team/${teamId}/sandbox/webhook`);
    const priorities = await client.team.getSourcePriorities({ dataType: 'sleep' });
    expect(priorities[0]).toMatchObject({ data_type: 'sleep', priority: 1 });
    expect((await client.team.updateSourcePriorities()).length).toBeGreaterThan(priorities.length);
    expect(Array.isArray(await client.team.getPhysicians(teamId))).toBe(true);
    const token = await client.link.token({ userId: user.userId, filterOnProviders: ['garmin'] });
    const config = await client.team.getLinkConfig({ vitalLinkToken: token.linkToken });
    expect(config).toMatchObject({ team_id: teamId, providers: [{ slug: 'garmin' }] });
  });
});
