/**
 * Continuous queries run on the sandbox clock (issue 15): a query created through the management
 * interface runs one gap after creation and every gap after that, per user of its team
 * environment with connections; task history and the result table fill; the result equals what
 * `POST /aggregate/v1/user/{id}/query` answers over the same window; archived queries stop;
 * another team's query answers like an unknown one. Real response schemas on both adapters.
 */
import { expect, it } from 'vitest';
import type { JournalEntry } from '../../src/engine/events.js';
import { AGGREGATE_ERRORS } from '../../src/state/aggregate/errors.js';
import { createClient, forEachAdapter, type TestClient } from '../support/client.js';
import { oasValidator } from '../support/openapi.js';
import { expectWire } from '../support/wire.js';

const oas = oasValidator('data');
const QUERY = {
  select: [{ group_key: '*' }, { func: 'mean', arg: { value_macro: 'sleep_score' } }, { func: 'count', arg: { index: 'sleep' } }],
  group_by: [{ date_trunc: { unit: 'week', value: 1 }, arg: { index: 'sleep' } }],
};

async function createQuery(c: TestClient, teamId: string, slug: string, gap = 3600, extra: Record<string, unknown> = {}) {
  const res = await c.mgmt('POST', `/v1/org/${c.orgId}/team/${teamId}/sandbox/continuous_query`, {
    body: { slug, title: slug, query: QUERY, scheduling_preferences: { minimum_gap_duration_second: gap }, ...extra },
  });
  expect(res.status, res.text).toBe(200);
  return res.body as { id: string; slug: string };
}

forEachAdapter('continuous queries on the clock', (adapter) => {
  it('runs per gap, fills task history and the result table, stops when archived', async () => {
    const c = createClient(adapter, { seed: 8, users: 0, usersElsewhere: 0 });
    const events: JournalEntry[] = [];
    c.sandbox.subscribe((e) => events.push(e));
    const teamId = c.creds.teams[0]?.team_id as string;
    // A uuid client_user_id: the reference's event schema declares the field as a uuid.
    const userId = (
      await c.post('/v2/user', { client_user_id: '5f0c2a9e-1b7d-4c3e-9a8f-2d6e4b1c0a73', fallback_time_zone: 'America/New_York' })
    ).body.user_id as string;
    const glucoseOnly = (await c.post('/v2/user', { client_user_id: 'cq-b' })).body.user_id as string;
    const idle = (await c.post('/v2/user', { client_user_id: 'cq-c' })).body.user_id as string;
    expect((await c.post('/v2/link/connect/demo', { user_id: userId, provider: 'oura' })).status).toBe(200);
    expect((await c.post('/v2/link/connect/demo', { user_id: glucoseOnly, provider: 'freestyle_libre' })).status).toBe(200);
    // Nothing is scheduled without a query; a query has exactly one pending run.
    const jobs = () => c.sandbox.world.scheduler.list(100_000).filter((j) => j.label.startsWith('aggregate.'));
    expect(jobs()).toEqual([]);
    const q = await createQuery(c, teamId, 'weekly-sleep');
    expect(jobs()).toHaveLength(1);
    const base = `/aggregate/v1/user/${userId}/continuous_query`;

    // Before the first run: the schema's columns, empty; no history.
    const empty = await c.get(`${base}/${q.id}/result_table`);
    expect(empty.status, empty.text).toBe(200);
    oas?.expectValid('AggregationResult', empty.body);
    expectWire('aggregate.continuous_query.result_table', empty);
    expect(empty.body).toEqual({ table: { 'group_key.0': [], 'mean.sleep_score': [], 'count.index': [] } });
    expect((await c.get(`${base}/${q.id}/task_history`)).body).toEqual({ data: [], next_cursor: null });

    await c.advance(3599);
    expect((await c.get(`${base}/${q.id}/task_history`)).body.data).toEqual([]);
    await c.advance(1);
    const history = await c.get(`${base}/weekly-sleep/task_history`);
    oas?.expectValid('ContinuousQueryTaskHistoryResponse', history.body);
    expectWire('aggregate.continuous_query.task_history', history);
    const runAt = new Date(Date.parse('2026-01-05T09:00:00Z') + 3600_000).toISOString();
    expect(history.body).toEqual({
      data: [
        {
          query_id: q.id,
          user_id: userId,
          status: 'completed',
          scheduled_at: runAt,
          started_at: runAt,
          ended_at: runAt,
          error_details: null,
        },
      ],
      next_cursor: null,
    });

    // The run's table is the query's answer over the trailing 30 local days.
    const table = (await c.get(`${base}/weekly-sleep/result_table`)).body;
    oas?.expectValid('AggregationResult', table);
    const direct = await c.post(`/aggregate/v1/user/${userId}/query`, {
      timeframe: { type: 'relative', anchor: '2026-01-05', past: { value: 30, unit: 'day' } },
      queries: [QUERY],
    });
    expect(direct.status, direct.text).toBe(200);
    expect(table).toEqual(direct.body.results[0]);
    expect(table.table['count.index'].reduce((a: number, b: number) => a + b, 0)).toBeGreaterThan(20);

    // The event went out once (the table changed), to the user; other users: skipped or not run.
    const changed = events.filter((e) => e.envelope.event_type === 'continuous_query.result_table.changed');
    expect(changed).toHaveLength(1);
    expect(changed[0]?.envelope).toMatchObject({
      user_id: userId,
      team_id: teamId,
      data: [{ query_id: q.id, query_slug: 'weekly-sleep', data: table.table }],
    });
    oas?.expectValid('ClientFacingContinuousQueryResultTableChanged', changed[0]?.envelope);
    const skipped = (await c.get(`/aggregate/v1/user/${glucoseOnly}/continuous_query/${q.id}/task_history`)).body.data;
    expect(skipped.map((e: any) => [e.status, e.started_at])).toEqual([['skipped', null]]);
    expect((await c.get(`/aggregate/v1/user/${idle}/continuous_query/${q.id}/task_history`)).body.data).toEqual([]);

    // Two more runs; pages newest first through next_cursor.
    await c.advance(2 * 3600);
    const page1 = await c.get(`${base}/${q.id}/task_history`, { query: { limit: 2 } });
    expect(page1.body.data.map((e: any) => e.scheduled_at)).toEqual([
      new Date(Date.parse(runAt) + 7200_000).toISOString(),
      new Date(Date.parse(runAt) + 3600_000).toISOString(),
    ]);
    expect(page1.body.next_cursor).toEqual(expect.any(String));
    const page2 = await c.get(`${base}/${q.id}/task_history`, { query: { limit: 2, next_cursor: page1.body.next_cursor } });
    expect(page2.body).toEqual({ data: [expect.objectContaining({ scheduled_at: runAt })], next_cursor: null });
    expect((await c.get(`${base}/${q.id}/task_history`, { query: { next_cursor: 'garbage' } })).status).toBe(422);
    expect((await c.get(`${base}/${q.id}/task_history`, { query: { limit: 0 } })).status).toBe(422);

    // Archived: no more runs; its slug no longer resolves, its id still does.
    expect((await c.mgmt('DELETE', `/v1/org/${c.orgId}/team/${teamId}/sandbox/continuous_query/${q.id}`)).status).toBe(200);
    await c.advance(5 * 3600);
    expect((await c.get(`${base}/${q.id}/task_history`, { query: { limit: 50 } })).body.data).toHaveLength(3);
    expect(jobs()).toEqual([]);
    const gone = await c.get(`${base}/weekly-sleep/task_history`);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ detail: AGGREGATE_ERRORS.queryNotFound });
  });

  it("another team's query, unknown queries and users answer 404; parquet and accept", async () => {
    const c = createClient(adapter, { seed: 8, users: 1, usersElsewhere: 1 });
    const teams = c.creds.teams.map((t) => t.team_id);
    expect(teams.length).toBeGreaterThan(1);
    const mine = await createQuery(c, teams[0] as string, 'mine');
    const theirs = await createQuery(c, teams[1] as string, 'theirs');
    const userId = (await c.get('/v2/user', { query: { limit: 1 } })).body.users[0].user_id as string;
    const base = `/aggregate/v1/user/${userId}/continuous_query`;
    expect((await c.get(`${base}/${mine.id}/result_table`)).status).toBe(200);
    const other = await c.get(`${base}/${theirs.id}/result_table`);
    const unknown = await c.get(`${base}/00000000-0000-4000-8000-000000000009/result_table`);
    expect(other.status).toBe(404);
    expect(other.body).toEqual(unknown.body);
    expect((await c.get(`${base}/theirs/task_history`)).status).toBe(404);
    expect((await c.get(`/aggregate/v1/user/00000000-0000-4000-8000-000000000001/continuous_query/mine/result_table`)).status).toBe(404);

    // data_events disabled: runs complete, no result_table.changed event even with a listener.
    const events: JournalEntry[] = [];
    c.sandbox.subscribe((e) => events.push(e));
    const quiet = await createQuery(c, teams[0] as string, 'quiet', 1800, { export_preferences: { data_events: { enabled: false } } });
    const demo = (await c.post('/v2/user', { client_user_id: 'cq-quiet' })).body.user_id as string;
    expect((await c.post('/v2/link/connect/demo', { user_id: demo, provider: 'oura' })).status).toBe(200);
    await c.advance(1800);
    expect(
      (await c.get(`/aggregate/v1/user/${demo}/continuous_query/${quiet.id}/task_history`)).body.data.map((e: any) => e.status),
    ).toEqual(['completed']);
    expect(
      events.filter(
        (e) =>
          e.envelope.event_type === 'continuous_query.result_table.changed' &&
          e.envelope.user_id === demo &&
          (e.envelope.data as any[])[0].query_id === quiet.id,
      ),
    ).toEqual([]);

    const parquet = await c.get(`${base}/mine/result_table`, { headers: { accept: 'application/vnd.apache.parquet' } });
    expect(parquet.status).toBe(200);
    expect(parquet.headers['content-type']).toContain('application/vnd.apache.parquet');
    expectWire('aggregate.continuous_query.result_table', parquet);
    expect(parquet.bytes.subarray(0, 4).toString()).toBe('PAR1');
    expect(parquet.bytes.subarray(parquet.bytes.length - 4).toString()).toBe('PAR1');
    const wrong = await c.get(`${base}/mine/result_table`, { headers: { accept: 'application/vnd.vital.tar+gzip+parquet' } });
    expect(wrong.status).toBe(422);
    expect(wrong.body.detail[0].loc).toEqual(['header', 'accept']);
  });
});
