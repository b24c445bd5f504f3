/**
 * Team scope requirements, API access tokens, event delivery metrics and data-pull preferences
 * through the management interface (issue 15), on both adapters.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { historicalDaysToPull, scopeRequirementsOf, HISTORICAL_DAYS_LIMIT } from '../../src/state/management/preferences.js';
import { accessTokenPartition, ACCESS_TOKEN_TTL_S, METRIC_STEPS } from '../../src/state/management/tokens-metrics.js';
import { createClient, forEachAdapter, type TestClient } from '../support/client.js';
import { oasValidator } from '../support/openapi.js';
import { createEndpoint, emit, flush, partitionOf, QUIET, startReceiver, type TestReceiver } from '../support/webhooks-support.js';

const mg = oasValidator('management');
const schema = (name: string, value: unknown) => mg?.expectValid(name, value);
const teamPath = (c: TestClient, i = 0) => `/v1/org/${c.orgId}/team/${c.creds.teams[i]?.team_id}`;

let receiver: TestReceiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
});

forEachAdapter('management team settings', (adapter) => {
  it('scope requirements: upsert, get (provider filter), null removes, invalid scopes change nothing', async () => {
    const c = createClient(adapter, QUIET);
    const path = `${teamPath(c)}/scope_requirements`;
    const empty = await c.mgmt('GET', path);
    expect(empty.body).toEqual({ requirements: [] });
    const up = await c.mgmt('POST', path, {
      body: {
        oura: { user_must_grant: ['daily', 'heartrate'], user_may_grant: ['workout'] },
        fitbit: { user_must_grant: ['sleep'], user_may_grant: [] },
      },
    });
    expect(up.status, up.text).toBe(200);
    schema('TeamScopeRequirementsResponse', up.body);
    expect(up.body.requirements.map((r: { provider: string }) => r.provider)).toEqual(['fitbit', 'oura']);
    const oura = await c.mgmt('GET', path, { query: { provider: 'oura' } });
    expect(oura.body.requirements).toEqual([
      { user_must_grant: ['daily', 'heartrate'], user_may_grant: ['workout'], team_id: c.creds.teams[0]?.team_id, provider: 'oura' },
    ]);
    expect(scopeRequirementsOf(c.sandbox.world, c.creds.teams[0]?.team_id as string).get('fitbit')?.user_must_grant).toEqual(['sleep']);

    expect((await c.mgmt('POST', path, { body: { oura: { user_must_grant: ['nope'], user_may_grant: [] } } })).status).toBe(422);
    const both = await c.mgmt('POST', path, { body: { fitbit: null, oura: { user_must_grant: ['daily'], user_may_grant: ['daily'] } } });
    expect(both.status).toBe(422);
    expect(both.body.detail[0].loc).toEqual(['body', 'oura', 'user_may_grant']);
    expect((await c.mgmt('GET', path)).body.requirements).toHaveLength(2);

    const removed = await c.mgmt('POST', path, { body: { fitbit: null } });
    expect(removed.body.requirements.map((r: { provider: string }) => r.provider)).toEqual(['oura']);
  });

  it('access tokens act for the team environment until they expire on the sandbox clock', async () => {
    const c = createClient(adapter, QUIET);
    const res = await c.mgmt('POST', `${teamPath(c)}/create_api_access_token`, { body: { env: 'production' } });
    expect(res.status, res.text).toBe(200);
    schema('CreateTeamAccessTokenResponse', res.body);
    expect(res.body.expires_in).toBe(ACCESS_TOKEN_TTL_S);
    const world = c.sandbox.world;
    expect(accessTokenPartition(world, res.body.access_token, world.clock.now())?.id).toBe(partitionOf(c, 'production').id);
    await c.advance(ACCESS_TOKEN_TTL_S);
    expect(accessTokenPartition(world, res.body.access_token, world.clock.now())).toBeNull();
    expect((await c.mgmt('POST', `${teamPath(c)}/create_api_access_token`, { body: { env: 'staging' } })).status).toBe(422);
  });

  it("event delivery metrics count the team environment's delivery attempts by outcome", async () => {
    const c = createClient(adapter, QUIET);
    const path = `${teamPath(c)}/sandbox/event_delivery_metric`;
    const before = await c.mgmt('GET', path, { query: { interval: '5m' } });
    expect(before.status, before.text).toBe(200);
    schema('PrometheusQueryResponse', before.body);
    const total = (body: any, status: string) =>
      body.data.result.find((r: any) => r.metric.status === status).values.reduce((n: number, [, v]: [number, string]) => n + Number(v), 0);
    expect(total(before.body, 'success')).toBe(0);

    receiver.script = [{ status: 500 }];
    await createEndpoint(c, { url: `${receiver.url}/metrics-${adapter}` });
    emit(c, 'labtest.order.created', { id: 'a' });
    emit(c, 'labtest.order.created', { id: 'b' });
    emit(c, 'labtest.order.created', { id: 'c' }, 'production');
    await flush(c);
    const after = await c.mgmt('GET', path, { query: { interval: '5m' } });
    schema('PrometheusQueryResponse', after.body);
    expect(total(after.body, 'success') + total(after.body, 'failed')).toBe(2);
    expect(total(after.body, 'failed')).toBe(1);
    const series = after.body.data.result[0].values;
    expect(series).toHaveLength(METRIC_STEPS);
    expect(series[1][0] - series[0][0]).toBe(300);
    expect((await c.mgmt('GET', path, { query: { interval: '2h' } })).status).toBe(422);
  });
});

forEachAdapter('management data-pull preferences', (adapter) => {
  it('upsert, get with filters and paging, delete; the historical pulls can read them', async () => {
    const c = createClient(adapter, QUIET);
    const us = c.creds.teams[0]?.team_id as string;
    const eu = c.creds.teams[1]?.team_id as string;
    const base = `/v1/org/${c.orgId}/team_data_pull_preferences/sandbox/us`;
    const providers = {
      oura: { default: { historical_days_to_pull: 90 }, resource_overrides: { sleep: { historical_days_to_pull: 30 } } },
      fitbit: { default: { historical_days_to_pull: 10 } },
    };
    const up = await c.mgmt('POST', base, { body: { team_ids: [us], providers } });
    expect(up.status, up.text).toBe(200);
    schema('TeamDataPullPreferencesResponse', up.body);
    expect(up.body.data_pull_preferences[0].providers.oura).toEqual({
      default: { historical_days_to_pull: 90, historical_days_to_pull_limit: HISTORICAL_DAYS_LIMIT },
      resource_overrides: { sleep: { historical_days_to_pull: 30, historical_days_to_pull_limit: HISTORICAL_DAYS_LIMIT } },
    });
    const p = partitionOf(c);
    expect(historicalDaysToPull({ world: c.sandbox.world, partition: p }, 'oura', 'sleep')).toBe(30);
    expect(historicalDaysToPull({ world: c.sandbox.world, partition: p }, 'oura', 'activity')).toBe(90);
    expect(historicalDaysToPull({ world: c.sandbox.world, partition: partitionOf(c, 'production') }, 'oura')).toBeNull();

    const got = await c.mgmt('GET', base, { query: { provider: ['fitbit'] } });
    schema('TeamDataPullPreferencesResponse', got.body);
    expect(got.body.data_pull_preferences).toEqual([
      {
        team_id: us,
        providers: {
          fitbit: {
            default: { historical_days_to_pull: 10, historical_days_to_pull_limit: HISTORICAL_DAYS_LIMIT },
            resource_overrides: null,
          },
        },
      },
    ]);

    // Rejected: too many days, a team of another region, an unknown provider; nothing changes.
    const tooMany = await c.mgmt('POST', base, {
      body: { team_ids: [us], providers: { oura: { default: { historical_days_to_pull: HISTORICAL_DAYS_LIMIT + 1 } } } },
    });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.detail[0].loc).toEqual(['body', 'providers', 'oura', 'default', 'historical_days_to_pull']);
    expect((await c.mgmt('POST', base, { body: { team_ids: [eu], providers } })).status).toBe(400);
    expect((await c.mgmt('POST', base, { body: { team_ids: [us], providers: { nope: providers.fitbit } } })).status).toBe(422);
    const badResource = {
      oura: { default: { historical_days_to_pull: 1 }, resource_overrides: { moonlight: { historical_days_to_pull: 1 } } },
    };
    expect((await c.mgmt('POST', base, { body: { team_ids: [us], providers: badResource } })).status).toBe(422);
    expect(historicalDaysToPull({ world: c.sandbox.world, partition: p }, 'oura')).toBe(90);

    // Paging over teams: add teams in the region, limit 1.
    for (const name of ['A', 'B'])
      expect((await c.mgmt('POST', `/v1/org/${c.orgId}/team`, { body: { name, region: 'us' } })).status).toBe(200);
    const page1 = await c.mgmt('GET', base, { query: { limit: '2' } });
    expect(page1.body.data_pull_preferences).toHaveLength(2);
    const page2 = await c.mgmt('GET', base, { query: { limit: '2', next_cursor: page1.body.next_cursor } });
    expect(page2.body.data_pull_preferences).toHaveLength(1);
    expect(page2.body.next_cursor).toBeNull();

    expect((await c.mgmt('DELETE', base, { query: { team_id: [us], provider: ['oura'] } })).status).toBe(200);
    expect(Object.keys((await c.mgmt('GET', base, { query: { team_id: [us] } })).body.data_pull_preferences[0].providers)).toEqual([
      'fitbit',
    ]);
    expect((await c.mgmt('DELETE', base)).status).toBe(200);
    expect((await c.mgmt('GET', base, { query: { team_id: [us] } })).body.data_pull_preferences[0].providers).toEqual({});
  });
});
