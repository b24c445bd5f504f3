/**
 * What each shipped scenario promises in its description, checked (issue 17: "the tests load
 * every file in scenarios/ and check what each promises"). The redraw, critical-result and
 * fails-twice promises are in scenario.test.ts; these are the others.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { startSandbox, type StartedSandbox } from '../../src/testing.js';

const dir = resolve(dirname(fileURLToPath(import.meta.url)), '../../scenarios');
const started: StartedSandbox[] = [];
afterAll(() => Promise.all(started.map((s) => s.close())));

async function boot(file: string) {
  const s = await startSandbox({ scenario: resolve(dir, file) });
  started.push(s);
  const creds = await s.credentials();
  const key = creds.teams[0]?.api_keys.sandbox ?? '';
  const get = async (path: string, headers: Record<string, string> = { 'x-vital-api-key': key }) => {
    const res = await fetch(`${path.startsWith('http') ? '' : s.url}${path}`, { headers });
    expect(res.status, path).toBe(200);
    return (await res.json()) as any;
  };
  return { s, creds, get };
}

describe('shipped scenarios keep their promises', () => {
  it('empty-team.yaml: an EU team that only hears lab events, in both environments, in an otherwise empty world', async () => {
    const { s, creds, get } = await boot('empty-team.yaml');
    const team = creds.teams.find((t) => t.name === 'Integration tests EU');
    expect(team?.region).toBe('eu');
    for (const key of [team?.api_keys.sandbox, team?.api_keys.production]) {
      expect((await get(`/v2/team/${team?.team_id}`, { 'x-vital-api-key': key ?? '' })).configuration.event_type_prefixes).toEqual([
        'labtest.',
      ]);
    }
    expect((await get('/v2/user')).total).toBe(0);
    // A connection in that team emits nothing (provider.* is not a labtest. event); in the first team it does.
    for (const t of [team, creds.teams[0]]) {
      const headers = { 'content-type': 'application/json', 'x-vital-api-key': t?.api_keys.sandbox ?? '' };
      const user = (await (
        await fetch(`${s.url}/v2/user`, { method: 'POST', headers, body: JSON.stringify({ client_user_id: 'probe' }) })
      ).json()) as { user_id: string };
      expect(
        (
          await fetch(`${s.url}/v2/link/connect/demo`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ user_id: user.user_id, provider: 'oura' }),
          })
        ).status,
      ).toBe(200);
    }
    expect((await s.events({ team_id: team?.team_id })).map((e) => e.envelope.event_type)).toEqual([]);
    expect((await s.events({ team_id: creds.teams[0]?.team_id })).map((e) => e.envelope.event_type)).toContain(
      'provider.connection.created',
    );
  });

  it('connections-in-error.json: fitbit in error with its message; the oura historical pull retries, then fails (retry quota exhausted); libre healthy', async () => {
    const { s, get } = await boot('connections-in-error.json');
    const errors = await s.events({ event_type: 'provider.connection.error' });
    expect(errors.map((e) => [e.envelope.client_user_id, e.envelope.data])).toEqual([
      [
        'broken-fitbit',
        expect.objectContaining({ provider: 'fitbit', error_type: 'token_refresh_failed', message: 'Refresh token revoked' }),
      ],
    ]);
    const oura = await get('/v2/user/resolve/retrying-oura');
    const pulled = async () =>
      Object.values((await get(`/v2/introspect/historical_pull?user_id=${oura.user_id}`)).data[0].provider.oura.pulled) as Array<{
        status: string;
        error_details: string | null;
      }>;
    expect(new Set((await pulled()).map((r) => r.status))).toEqual(new Set(['scheduled']));
    await s.advance('1h');
    const after = await pulled();
    expect(after.length).toBeGreaterThan(0);
    expect(after.every((r) => r.status === 'failure' && r.error_details === 'retry_quota_exhausted')).toBe(true);
    const libre = await get('/v2/user/resolve/healthy-libre');
    expect((await get(`/v2/user/providers/${libre.user_id}`)).providers.map((p: { status: string }) => p.status)).toEqual(['connected']);
  });

  it('failing-webhook.yaml: the 500 receiver is retried on the clock; the 429 one is retried no sooner than its Retry-After (60 s)', async () => {
    const { s } = await boot('failing-webhook.yaml');
    await s.advance('10m');
    await s.sandbox.settle();
    const times = async (name: string) =>
      (await s.receiver(name).deliveries()).map((d) => `${d.answered_status} ${d.received_at.slice(11, 19)}`);
    expect(await times('broken')).toEqual(['500 09:00:00', '500 09:00:05', '500 09:05:05']);
    // The schedule's first retry is at 5 s; Retry-After: 60 pushes it to 60 s; the next (5 min) already exceeds 60 s.
    expect(await times('throttled')).toEqual(['429 09:00:00', '429 09:01:00', '429 09:06:00']);
    const got = await s.receiver('throttled').deliveries();
    expect(new Set(got.map((d) => d.msg_id)).size).toBe(1);
    expect(got.every((d) => d.verified && d.event_type === 'provider.connection.created')).toBe(true);
  });

  it('afib-apple-health.yaml: the "afib" endpoint hears the connection, the historical ECG pull and new ECG readings, verified, and nothing else', async () => {
    const { s, get } = await boot('afib-apple-health.yaml');
    const user = await get('/v2/user/resolve/patient-afib');
    await s.advance('7d');
    await s.sandbox.settle();
    const got = await s.receiver('afib').deliveries();
    const types = got.map((d) => d.event_type);
    expect(types.slice(0, 2)).toEqual(['provider.connection.created', 'historical.data.electrocardiogram.created']);
    expect(types.filter((t) => t === 'daily.data.electrocardiogram.created').length).toBeGreaterThan(0);
    expect(new Set(types)).toEqual(
      new Set(['provider.connection.created', 'historical.data.electrocardiogram.created', 'daily.data.electrocardiogram.created']),
    );
    expect(got.every((d) => d.verified && JSON.parse(d.body).user_id === user.user_id)).toBe(true);
  });

  it('lab-testkit-lost.yaml: the kit starts at transit_lab (status to start at) and is lost 7 days later', async () => {
    const { s, get } = await boot('lab-testkit-lost.yaml');
    const user = await get('/v2/user/resolve/kit-lost');
    const order = async () =>
      (await get(`/v3/orders?user_id=${user.user_id}`)).orders[0] as { status: string; events: Array<{ status: string }> };
    const first = await order();
    expect(first.events.map((e) => e.status.split('.')[2])).toEqual([
      'ordered',
      'requisition_created',
      'transit_customer',
      'out_for_delivery',
      'with_customer',
      'transit_lab',
    ]);
    expect(first.status).toBe('collecting_sample');
    await s.advance('7d');
    expect((await order()).events.at(-1)?.status).toBe('failed.testkit.lost');
  });
});
