/**
 * Contract test: the official SDK (@tryvital/vital-node) `aggregate` methods against the
 * sandbox: `queryOne` sends the SDK's serialisation of a query batch and parses the answer;
 * `getResultTableForContinuousQuery` and `getTaskHistoryForContinuousQuery` read a continuous
 * query (created through the management interface) after it ran on the sandbox clock.
 */
import { type VitalClient, VitalError } from '@tryvital/vital-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../support/server.js';
import { startSdkServer } from '../support/sdk-server.js';

let server: RunningServer;
let client: VitalClient;
let userId: string;

beforeAll(async () => {
  ({ server, client } = await startSdkServer({ seed: 12, users: 1 }));
  userId = (await client.user.create({ clientUserId: 'sdk-aggregate', fallbackTimeZone: 'Europe/London' })).userId;
  for (const provider of ['oura', 'fitbit'] as const)
    expect((await client.link.connectDemoProvider({ userId, provider })).success).toBe(true);
  await server.sandbox.advance(3 * 3600);
});

afterAll(async () => {
  await server.close();
});

describe('official SDK: aggregate', () => {
  it("queryOne: rows, grouped reducers, the SDK's 422", async () => {
    const res = await client.aggregate.queryOne(userId, {
      timeframe: { type: 'relative', anchor: '2026-01-04', past: { value: 2, unit: 'week' } },
      queries: [
        { select: [{ sleep: 'session_start' }, { valueMacro: 'sleep_score' }, { source: 'source_provider' }] },
        {
          select: [{ groupKey: '*' }, { func: 'mean', arg: { activity: 'steps' } }, { func: 'max', arg: { activity: 'calories_total' } }],
          groupBy: [{ dateTrunc: { value: 1, unit: 'week' }, arg: { index: 'activity' } }, { source: 'source_provider' }],
          where: 'steps > 0',
        },
      ],
      config: { providerPriorityOverrides: ['fitbit'] },
    });
    expect(res.results).toHaveLength(2);
    const [rows, grouped] = res.results.map((r) => r.table);
    expect(Object.keys(rows ?? {})).toEqual(['session_start', 'sleep_score', 'source_provider']);
    expect(new Set(rows?.source_provider)).toEqual(new Set(['fitbit']));
    expect(rows?.sleep_score?.length).toBeGreaterThan(10);
    expect(Object.keys(grouped ?? {})).toEqual(['group_key.0', 'group_key.1', 'mean.steps', 'max.calories_total']);
    expect(new Set(grouped?.['group_key.1'])).toEqual(new Set(['fitbit', 'oura']));
    await expect(
      client.aggregate.queryOne(userId, {
        timeframe: { type: 'relative', anchor: '2026-01-04', past: { unit: 'day' } },
        queries: [{ select: [{ func: 'mean', arg: { sleep: 'id' } }] }],
      }),
    ).rejects.toSatisfy((e: unknown) => e instanceof VitalError && e.statusCode === 422);
  });

  it('continuous query: result table and task history after runs', async () => {
    const creds = server.sandbox.credentials();
    const created = await fetch(`${server.managementUrl}/v1/org/${creds.org_id}/team/${creds.teams[0]?.team_id}/sandbox/continuous_query`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-management-key': creds.management_key },
      body: JSON.stringify({
        slug: 'daily-steps',
        title: 'Daily steps',
        query: {
          select: [{ group_key: 0 }, { func: 'sum', arg: { activity: 'steps' } }],
          group_by: [{ date_trunc: { unit: 'day' }, arg: { index: 'activity' } }],
        },
        query_config: { provider_priority_overrides: ['oura'] },
        scheduling_preferences: { minimum_gap_duration_second: 1800 },
      }),
    });
    expect(created.status).toBe(200);
    const { id } = (await created.json()) as { id: string };
    await server.sandbox.advance(3 * 1800);
    const table = await client.aggregate.getResultTableForContinuousQuery(userId, 'daily-steps');
    expect(Object.keys(table.table)).toEqual(['group_key.0', 'sum.steps']);
    expect(table.table['group_key.0']?.length).toBeGreaterThan(20);
    expect(await client.aggregate.getResultTableForContinuousQuery(userId, id)).toEqual(table);
    const history = await client.aggregate.getTaskHistoryForContinuousQuery(userId, id, { limit: 2 });
    expect(history.data.map((e) => e.status)).toEqual(['completed', 'completed']);
    expect(history.data[0]?.queryId).toBe(id);
    expect(history.data[0]?.scheduledAt).toBeInstanceOf(Date);
    expect(history.nextCursor).toBeTruthy();
    const rest = await client.aggregate.getTaskHistoryForContinuousQuery(userId, id, {
      limit: 2,
      nextCursor: history.nextCursor ?? undefined,
    });
    expect(rest.data).toHaveLength(1);
    expect(rest.nextCursor ?? null).toBeNull();
  });
});
