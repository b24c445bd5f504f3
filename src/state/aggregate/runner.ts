/**
 * Continuous queries running on the sandbox clock. A query created through the management
 * interface gets ONE scheduler job at `created + gap` (gap = `minimum_gap_duration_second`, else
 * DEFAULT_GAP_SECONDS); when the clock passes it, the query runs for the users of its team
 * environment and schedules its next run `gap` later. Nothing runs when no query exists, and
 * an archived query (or a deleted team) stops at its next due run.
 *
 * A run, per user with wearable connections (at most USERS_PER_RUN per run, round-robin):
 * `skipped` when no provider of the user has the query's resource, else `completed`, and the
 * run becomes the user's latest result: the query over the trailing WINDOW_DAYS local days as
 * of the run. Time costs what it simulates: the table is computed when someone needs it, i.e.
 * when it is read (`latestTable`, memoised per run) or, at the run, when a
 * `continuous_query.result_table.changed` listener needs to know whether it changed (and the
 * query's `export_preferences.data_events.enabled` is not false). A run that fails records
 * `error` with the message. Task history keeps the newest HISTORY_LIMIT entries per (query, user).
 */
import { jobKind } from '../../engine/job-kinds.js';
import type { Environment } from '../../engine/tenancy.js';
import type { Domain } from '../domain-context.js';
import { worldSlot, type World } from '../../engine/world.js';
import { localDate } from '../../fixtures/wearables/wearable-time.js';
import { usersOf, type User } from '../users/users.js';
import { wearablesOf } from '../wearables/connections.js';
import { dataSources, zoneOf } from '../wearables/wearable-data.js';
import type { Table } from './execute.js';
import { planQuery, type Plan } from './plan.js';
import { runPlan } from './query.js';
import { windowOf } from './time.js';

const DEFAULT_GAP_SECONDS = 3600;
const WINDOW_DAYS = 30;
const USERS_PER_RUN = 50;
const HISTORY_LIMIT = 200;
const RESULT_EVENT = 'continuous_query.result_table.changed';

/** What the runner needs of a continuous query (management's `ContinuousQuery`). */
interface RunnableQuery {
  id: string;
  slug: string;
  status: 'active' | 'archived';
  team_id: string;
  environment: Environment;
  query: unknown;
  query_config: Record<string, unknown>;
  scheduling_preferences: { minimum_gap_duration_second?: number | null };
  export_preferences: Record<string, unknown>;
}

export interface TaskEntry {
  query_id: string;
  user_id: string;
  status: 'scheduled' | 'started' | 'completed' | 'error' | 'skipped';
  scheduled_at: string;
  started_at: string | null;
  ended_at: string | null;
  error_details: string | null;
}

/** A user's latest run: its time (the table is computed from it on demand). */
interface LatestRun {
  at: number;
}

interface QueryRuns {
  /** user id -> the user's latest completed run. */
  latest: Map<string, LatestRun>;
  /** user id -> task entries, oldest first (bounded). */
  history: Map<string, TaskEntry[]>;
  /** Round-robin offset into the partition's live users. */
  offset: number;
}

const runsSlot = worldSlot('aggregate-continuous-runs', () => new Map<string, QueryRuns>());

export function runsOf(world: World, queryId: string): QueryRuns | undefined {
  return runsSlot(world).get(queryId);
}

function gapMs(q: RunnableQuery): number {
  return (q.scheduling_preferences.minimum_gap_duration_second ?? DEFAULT_GAP_SECONDS) * 1000;
}

/** Starts a new query's schedule: its first run one gap after now. */
export function scheduleQuery(world: World, q: RunnableQuery): void {
  runsSlot(world).set(q.id, { latest: new Map(), history: new Map(), offset: 0 });
  queryDue(world, q, world.clock.now() + gapMs(q));
}

function queryDue(world: World, q: RunnableQuery, at: number): void {
  world.scheduler.at(at, QUERY_RUN, q, `aggregate.continuous_query.${q.id}`);
}

/** One run of a continuous query (the query is the store's object), then the next one gap later. */
const QUERY_RUN = jobKind<RunnableQuery>('aggregate.continuous_query', (world, q) => {
  const at = world.clock.now();
  const team = world.tenancy.teams.get(q.team_id);
  if (!team || q.status !== 'active') {
    if (!team) runsSlot(world).delete(q.id);
    return;
  }
  const plan = planQuery(q.query as Record<string, unknown>, ['query']);
  runQuery({ world, partition: world.tenancy.partition(team, q.environment) }, q, plan, at);
  queryDue(world, q, at + gapMs(q));
});

/** Forgets a purged user's task history and results in every query. */
export function forgetUser(world: World, userId: string): void {
  for (const runs of runsSlot(world).values()) {
    runs.history.delete(userId);
    runs.latest.delete(userId);
  }
}

function record(runs: QueryRuns, entry: TaskEntry): void {
  let list = runs.history.get(entry.user_id);
  if (!list) {
    list = [];
    runs.history.set(entry.user_id, list);
  }
  list.push(entry);
  if (list.length > HISTORY_LIMIT) list.splice(0, list.length - HISTORY_LIMIT);
}

/** The users a run visits: the next USERS_PER_RUN live users (round-robin) with wearable connections. */
function usersToRun(d: Domain, runs: QueryRuns): User[] {
  const { world, partition } = d;
  const store = usersOf(partition, world);
  const live = store.liveCount;
  if (live === 0) return [];
  const start = runs.offset % live;
  let batch = store.page(start, USERS_PER_RUN);
  if (batch.length < USERS_PER_RUN && start > 0) batch = batch.concat(store.page(0, Math.min(USERS_PER_RUN - batch.length, start)));
  runs.offset = start + batch.length;
  const wearables = wearablesOf(world);
  return batch.filter((u) => wearables.hasUser(u.user_id));
}

/** Tables computed from runs (outside the world's state: a read does not change the world). */
const computed = new WeakMap<LatestRun, Table>();

/** The query's table for a user as of a run: the trailing WINDOW_DAYS local days up to the run. */
function tableOf(world: World, user: User, q: RunnableQuery, plan: Plan, run: LatestRun): Table {
  let table = computed.get(run);
  if (!table) {
    const zone = zoneOf(user);
    const priority = ((q.query_config.provider_priority_overrides as string[] | null | undefined) ?? []).slice();
    table = runPlan(world, user, plan, windowOf(zone, localDate(zone, run.at), { value: WINDOW_DAYS, unit: 'day' }), run.at, priority);
    computed.set(run, table);
  }
  return table;
}

/** The user's latest result table, null before the first completed run. */
export function latestTable(world: World, user: User, q: RunnableQuery): Table | null {
  const run = runsSlot(world).get(q.id)?.latest.get(user.user_id);
  return run ? tableOf(world, user, q, planQuery(q.query as Record<string, unknown>, ['query']), run) : null;
}

function runQuery(d: Domain, q: RunnableQuery, plan: Plan, at: number): void {
  const { world, partition } = d;
  const runs = runsSlot(world).get(q.id);
  if (!runs) return;
  const when = new Date(at).toISOString();
  const events = (q.export_preferences.data_events as { enabled?: boolean } | undefined)?.enabled !== false;
  const listening = events && world.events.listening(partition, RESULT_EVENT);
  for (const user of usersToRun(d, runs)) {
    const base = { query_id: q.id, user_id: user.user_id, scheduled_at: when };
    if (dataSources(world, user, plan.dependency, '', at).length === 0) {
      record(runs, { ...base, status: 'skipped', started_at: null, ended_at: null, error_details: null });
      continue;
    }
    const before = runs.latest.get(user.user_id);
    const run: LatestRun = { at };
    let table: Table | null = null;
    let previous: Table | null = null;
    try {
      if (listening) {
        table = tableOf(world, user, q, plan, run);
        previous = before ? tableOf(world, user, q, plan, before) : null;
      }
    } catch (e) {
      record(runs, {
        ...base,
        status: 'error',
        started_at: when,
        ended_at: when,
        error_details: e instanceof Error ? e.message : String(e),
      });
      continue;
    }
    runs.latest.set(user.user_id, run);
    record(runs, { ...base, status: 'completed', started_at: when, ended_at: when, error_details: null });
    if (table && (!previous || JSON.stringify(previous) !== JSON.stringify(table))) {
      world.events.emit(partition, {
        event_type: RESULT_EVENT,
        data: [{ query_id: q.id, query_slug: q.slug, data: table }],
        team_id: partition.team.id,
        user_id: user.user_id,
        client_user_id: user.client_user_id,
      });
    }
  }
}
