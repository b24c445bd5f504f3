/**
 * New wearable data arriving as the clock moves (api-facts H: "periodic daily events every
 * couple of hours"). Every two simulated hours a feed tick walks connected users round-robin
 * and, for each of their connections, emits what became available since the previous tick:
 *
 * - timeseries: `daily.data.<resource>.created` with the samples that came to exist since the
 *   previous tick, each once (a sample spanning time, such as a night's or a workout's, when it
 *   ends, even if it began before the previous tick); a cumulative bucket that
 *   was still open at the previous tick is re-sent with its final value and the same compound
 *   key in `daily.data.<resource>.updated` (spec 6.3);
 * - summaries: activity of each day touched (`.created` the first time, then `.updated` with the
 *   same `id`, spec 6.2); sleep, body, workouts and ECGs once they end; meals, menstrual cycles,
 *   sleep cycles and the profile of a new connection (feed-other-summaries.ts);
 * - workout streams: the shallow `daily.data.workout_stream.created` (spec 6.4).
 *
 * Time costs what it simulates (design rule 11): in the default `auto` mode a team environment
 * where no webhook endpoint, pipeline or in-process subscriber takes `daily.data.*` gets no feed
 * work at all, and a resource nobody takes is not generated; its data stays readable through the
 * API (computed on read). Mode `on` feeds everyone (the journal sees every event); `off` nobody.
 *
 * Cost is capped: users with demo connections (made at run time) are fed every tick, up to
 * FEED_ACTIVE_USERS; seeded users round-robin, at most FEED_USERS per tick (the next tick
 * continues where this one stopped), at most FEED_CATCH_UP of missed data per connection (older data stays readable
 * through the API but is not re-announced). Connections in `error` are skipped until reconnected.
 *
 * LIMITATIONS
 * - `daily.data.electrocardiogram_voltage.*` is not emitted (a 30 s trace is ~15k samples); read
 *   voltages through the timeseries endpoint with the session's start and end.
 * - `hypnogram` has no event type in the reference and gets none.
 */
import { jobKind } from '../../engine/job-kinds.js';
import { sourceNight } from '../../fixtures/wearables/timeseries-model.js';
import type { Domain } from '../domain-context.js';
import { providerBrief } from '../../fixtures/wearables/providers.js';
import { ecgSessionOn, ecgSummary } from '../../fixtures/wearables/ecg.js';
import { activitySummary, bodySummary, clip, sleepSummary, sourceObject, type Range } from '../../fixtures/wearables/summaries.js';
import { TIMESERIES, maxSpan, renderSample, samplesOf, scheduleOf, type TimeseriesRow } from '../../fixtures/wearables/timeseries-table.js';
import type { Schedule } from '../../fixtures/wearables/timeseries-model.js';
import { feedCadence } from '../../fixtures/wearables/cadence.js';
import { workoutSummary } from '../../fixtures/wearables/workouts.js';
import { sleepId } from '../../fixtures/wearables/sleep-cycle.js';
import { DAY, HOUR, MINUTE, localDay, localMidnight } from '../../fixtures/wearables/wearable-time.js';
import { pulledResources, wearablesOf, type Connection, type UserWearables } from './connections.js';
import type { Partition } from '../../engine/tenancy.js';
import { usersOf } from '../users/users.js';
import { dataRanges } from './wearable-data.js';
import { feedSource } from './feed-sources.js';
import { revisionRate } from './revisions.js';
import { pauseAfterIngestionEnd } from './ingestion-pause.js';
import { clientFacingDevice, firmwareUpdates } from '../../fixtures/wearables/devices.js';
import { sleepRevisedAt } from '../../fixtures/wearables/revisions.js';
import { type ConnectionTick, type FeedTick, feedOtherSummaries } from './feed-other-summaries.js';
import { feedActivityRevisions, feedWorkoutRevisions, rememberWorkout } from './feed-revisions.js';
import { providerDown } from '../sandbox/faults-providers.js';
import type { World } from '../../engine/world.js';
import type { EventData, EventType } from '../../wire/events.js';

const FEED_INTERVAL = 2 * HOUR;
/** Ticks fall at 00:30, 02:30, ... UTC, so hourly buckets are open at each tick. */
const FEED_OFFSET = 30 * 60_000;
const FEED_USERS = 200;
const FEED_ACTIVE_USERS = 500;
const FEED_CATCH_UP = DAY;

const WORKOUT_STREAM_MESSAGE =
  'Due to payload size limits, to access the workout stream, please use the /v2/timeseries/workouts/{workout_id}/stream endpoint.';

/** The first feed tick after `now`. */
function nextTick(now: number): number {
  return Math.floor((now - FEED_OFFSET) / FEED_INTERVAL) * FEED_INTERVAL + FEED_OFFSET + FEED_INTERVAL;
}

/** Schedules the recurring feed on the world's scheduler. */
export function startFeed(world: World): void {
  world.scheduler.at(nextTick(world.clock.now()), FEED_TICK, null);
}

/** One feed tick, then the next one FEED_INTERVAL later. */
const FEED_TICK = jobKind<null>('wearables.feed', (world) => {
  const at = world.clock.now();
  feedTick(world);
  world.scheduler.at(at + FEED_INTERVAL, FEED_TICK, null);
});

/**
 * One feed tick: every user with run-time (demo) connections, up to FEED_ACTIVE_USERS, then
 * the next FEED_USERS users of the seeded ring with connected connections.
 */
function feedTick(world: World): void {
  const state = wearablesOf(world);
  if (state.feedMode === 'off') return;
  const now = world.clock.now();
  const heard = new Map<Partition, Listening>();
  const listening = (partition: Partition): Listening => {
    let l = heard.get(partition);
    if (l === undefined) {
      l = state.feedMode === 'on' ? ALL : listeningOf({ world, partition });
      heard.set(partition, l);
    }
    return l;
  };
  let activeServed = 0;
  for (const rec of state.active) {
    if (activeServed === FEED_ACTIVE_USERS) break;
    if (feedUser(world, rec, now, listening)) activeServed++;
    else if (rec.links.every((l) => !l.current)) state.active.delete(rec);
  }
  const ring = state.ring;
  if (ring.some((r) => r.gone)) {
    const kept = ring.filter((r) => !r.gone);
    ring.length = 0;
    ring.push(...kept);
    state.ringPos = 0;
  }
  const n = ring.length;
  let served = 0;
  for (let i = 0; i < n && served < FEED_USERS; i++) {
    const rec = ring[(state.ringPos + i) % n] as UserWearables;
    if (state.active.has(rec)) continue;
    if (feedUser(world, rec, now, listening)) served++;
    if (served === FEED_USERS) state.ringPos = (state.ringPos + i + 1) % n;
  }
  state.forgetOldIds(now);
}

/** What a team environment listens to: `null` for nothing, else a test per event-type prefix. */
type Listening = ((prefix: string) => boolean) | null;
const ALL: Listening = () => true;

function listeningOf(d: Domain): Listening {
  const { world, partition } = d;
  if (!world.events.listening(partition, 'daily.data.')) return null;
  const memo = new Map<string, boolean>();
  return (prefix) => {
    let yes = memo.get(prefix);
    if (yes === undefined) {
      yes = world.events.listening(partition, prefix);
      memo.set(prefix, yes);
    }
    return yes;
  };
}

function feedUser(world: World, rec: UserWearables, now: number, listening: (p: Partition) => Listening): boolean {
  if (rec.partition.team.deleted) {
    rec.gone = true;
    return false;
  }
  const heard = listening(rec.partition);
  if (heard === null) {
    // Nobody listens here: nothing is generated; the marks move on so a listener that arrives
    // later hears about new data only (what came before stays readable through the API).
    for (const link of rec.links) if (link.current?.status === 'connected') link.current.mark = now;
    return rec.links.some((l) => l.current?.status === 'connected');
  }
  const user = usersOf(rec.partition, world).liveUser(rec.user_id);
  if (!user) return false;
  pauseAfterIngestionEnd({ world, partition: rec.partition }, user);
  let any = false;
  for (const link of rec.links) {
    const conn = link.current;
    if (conn?.status !== 'connected') continue;
    any = true;
    // A provider outage (faults): nothing new arrives; the mark stays, so the next tick after it catches up.
    if (providerDown(world, link.provider.slug, now)) continue;
    const since = Math.max(conn.mark, now - FEED_CATCH_UP);
    if (since < now) feedConnection({ world, partition: rec.partition, user, link, since, now }, heard);
    conn.mark = now;
  }
  return any;
}

/** A timeseries row the feed announces, with its event names built once. */
interface FeedRow {
  row: TimeseriesRow;
  prefix: string;
  created: `daily.data.${string}`;
  updated: `daily.data.${string}`;
}
const FEED_ROWS: readonly FeedRow[] = TIMESERIES.filter((row) => row.events).map((row) => ({
  row,
  prefix: `daily.data.${row.resource}.`,
  created: `daily.data.${row.resource}.created`,
  updated: `daily.data.${row.resource}.updated`,
}));

const prefixes = new Map<string, string>();
/** `daily.data.<resource>.` (built once per resource). */
function prefixOf(resource: string): string {
  let p = prefixes.get(resource);
  if (p === undefined) {
    p = `daily.data.${resource}.`;
    prefixes.set(resource, p);
  }
  return p;
}

/** What a connection's provider and grant let the feed generate: kept while its grant and preferences are the same. */
interface ConnPlan {
  /**
   * What the plan was made from: the connection's `denied`, `history_days` and `provider`. Kept
   * in an array, not as fields: `history_days` is null or an object and `denied` an empty or a
   * filled array, and fields holding values of several kinds changed the plan's hidden class
   * once seen, which threw away the tick's optimised code.
   */
  from: readonly unknown[];
  pulled: ReadonlySet<string>;
  rows: readonly PlannedRow[];
}

/** A row the connection's feed generates, with its schedule for the provider and how far back a tick looks. */
interface PlannedRow extends FeedRow {
  sched: Schedule;
  /** Cumulative rows: the bucket length (a tick starts at the bucket open at the previous tick); others: the longest span. */
  back: number;
}
const connPlans = new WeakMap<Connection, ConnPlan>();

/**
 * The row list of a plan without rows: an array that held a row and was emptied, so it has the
 * hidden class of a filled list (an array made empty has another). Plans' `rows` then keep one
 * kind of array, and the tick's optimised code is not thrown away when a first plan without rows
 * comes along.
 */
const NO_ROWS: PlannedRow[] = (() => {
  const list: PlannedRow[] = [];
  const fr = FEED_ROWS[0] as FeedRow;
  list.push({ ...fr, sched: { kind: 'nightly' }, back: 0 });
  list.length = 0;
  return list;
})();

function connPlan(conn: Connection): ConnPlan {
  const kept = connPlans.get(conn);
  if (kept && kept.from[0] === conn.denied && kept.from[1] === conn.history_days && kept.from[2] === conn.provider) return kept;
  const pulled = new Set(pulledResources(conn));
  const rows: PlannedRow[] = [];
  for (const fr of FEED_ROWS) {
    if (!pulled.has(fr.row.resource)) continue;
    const sched = scheduleOf(fr.row, conn.provider);
    const bucket = fr.row.cumulative && sched.kind === 'cadence' ? sched.minutes * MINUTE : 0;
    rows.push({
      row: fr.row,
      prefix: fr.prefix,
      created: fr.created,
      updated: fr.updated,
      sched,
      back: fr.row.cumulative ? bucket : maxSpan(sched),
    });
  }
  const plan = { from: [conn.denied, conn.history_days, conn.provider], pulled, rows: rows.length > 0 ? rows : NO_ROWS };
  connPlans.set(conn, plan);
  return plan;
}

/** Where a tick's look at a row starts: the bucket open at `since` (cumulative rows, `bucketStart`), else `since` less the longest span. */
function lookFrom(pr: PlannedRow, since: number): number {
  if (!pr.row.cumulative) return since - pr.back;
  return pr.back > 0 ? Math.floor(since / pr.back) * pr.back : since;
}

function feedConnection({ world, partition, user, link, since, now }: ConnectionTick, heard: (prefix: string) => boolean): void {
  const conn = link.current;
  if (!conn) return;
  const src = feedSource(world, user, link.provider);
  src.revisionRate = revisionRate({ world, partition });
  const plan = connPlan(conn);
  const all = heard === ALL;
  const clientUserId = user.client_user_id;
  const emit = <T extends EventType>(type: T, data: EventData<T>) =>
    world.events.emit(partition, {
      event_type: type,
      data,
      team_id: partition.team.id,
      user_id: user.user_id,
      client_user_id: clientUserId,
    });
  // The visible ranges of each resource, computed once per tick.
  const kept = new Map<string, Range[]>();
  const ranges = (resource: string): Range[] => {
    let rs = kept.get(resource);
    if (rs === undefined) {
      rs = dataRanges(world, user, link, resource, now);
      kept.set(resource, rs);
    }
    return rs;
  };
  const provider = link.provider;
  const source = { ...sourceObject(provider) };
  for (const fr of plan.rows) {
    if (!all && !heard(fr.prefix)) continue;
    const row = fr.row;
    const rs = ranges(row.resource);
    if (rs.length === 0) continue;
    const sched = fr.sched;
    // Cumulative rows: from the bucket open at the previous tick (re-sent as `.updated`). Other
    // rows: far enough back to catch spans (nights, workouts) that began before the previous
    // tick and ended since; each is announced once, when it becomes available.
    const from = lookFrom(fr, since);
    const created: unknown[] = [];
    const updated: unknown[] = [];
    for (const [a, b] of clip(rs, from, now)) {
      if (sched.kind === 'cadence') {
        feedCadence({ row, src, sched, from: a, to: b, now, since, created, updated });
        continue;
      }
      for (const s of samplesOf(row, src, a, b, now)) {
        if (row.cumulative) (s.timestamp < since ? updated : created).push(renderSample(row, src, s));
        else if (s.available > since) created.push(renderSample(row, src, s));
      }
    }
    if (updated.length) emit(fr.updated, { source_id: provider.id, user_id: user.user_id, source, data: updated });
    if (created.length) emit(fr.created, { source_id: provider.id, user_id: user.user_id, source, data: created });
  }
  if (all || heard('provider.device.')) feedDevice(src, conn, since, now, emit);
  const has = (r: string) => plan.pulled.has(r) && (all || heard(prefixOf(r)));
  const tick: FeedTick = { world, partition, user, link, since, now, src, ranges, emit };
  feedSummaries(tick, has);
  // sleep_cycle has no provider resource of its own: it comes with sleep.
  feedOtherSummaries(tick, (r) => plan.pulled.has(r === 'sleep_cycle' ? 'sleep' : r) && (all || heard(prefixOf(r))));
}

/**
 * `provider.device.created` on the first tick of a new connection (its device information
 * appeared with the first sync), `provider.device.updated` when a firmware update changed it.
 */
function feedDevice(src: FeedTick['src'], conn: Connection, since: number, now: number, emit: FeedTick['emit']): void {
  if (conn.mark === conn.created_at) {
    const device = clientFacingDevice(src, conn.created_at, now);
    if (device) emit('provider.device.created', device);
    return;
  }
  if (firmwareUpdates(src, conn.created_at, now) > firmwareUpdates(src, conn.created_at, since)) {
    const device = clientFacingDevice(src, conn.created_at, now);
    if (device) emit('provider.device.updated', device);
  }
}

function feedSummaries(tick: FeedTick, has: (resource: string) => boolean): void {
  const { world, partition, user, link, src, ranges, since, now, emit } = tick;
  const zone = src.subject.zone;
  const within = (rs: Range[], t: number) => t > since && t <= now && rs.some(([a, b]) => t >= a && t <= b);
  const first = localDay(zone, since);
  const last = localDay(zone, now);
  if (has('activity')) {
    const rs = ranges('activity');
    const sent = new Set<number>();
    for (let day = first; day <= last; day++) {
      // The day is announced when data arrived on it since the last tick; the summary covers the
      // whole day (non-null whenever that part is: the part lies inside the day's ranges).
      const midnight = localMidnight(zone, day);
      const dayEnd = Math.min(localMidnight(zone, day + 1) - 1, now);
      if (clip(clip(rs, Math.max(since, midnight), now), midnight, dayEnd).length === 0) continue;
      const full = activitySummary(src, day, rs, now);
      if (!full) continue;
      emit(`daily.data.activity.${midnight > since ? 'created' : 'updated'}`, full);
      sent.add(day);
    }
    feedActivityRevisions(tick, sent);
  }
  if (has('sleep')) {
    const rs = ranges('sleep');
    for (let day = first - 1; day <= last + 1; day++) {
      const night = sourceNight(src, day);
      if (!night) continue;
      // A later sync revised the night (revisions.ts): the revised object, as `.updated`.
      const revised = sleepRevisedAt(src, night.day, night.end);
      if (revised !== null && revised > since && revised <= now && rs.some(([a, b]) => night.end >= a && night.end <= b))
        emit('daily.data.sleep.updated', sleepSummary(src, night, now));
      if (day < first || !within(rs, night.end)) continue;
      wearablesOf(world).sleeps.set(sleepId(src, night), {
        partitionId: partition.id,
        userId: user.user_id,
        provider: link.provider.slug,
        day: night.day,
      });
      emit('daily.data.sleep.created', sleepSummary(src, night, now));
    }
  }
  if (has('body')) {
    const rs = ranges('body');
    for (let day = first; day <= last; day++) {
      const body = bodySummary(src, day, clip(rs, since + 1, now), now);
      if (body) emit('daily.data.body.created', body);
    }
  }
  if (has('workouts')) {
    const rs = ranges('workouts');
    for (let day = first - 1; day <= last; day++) {
      for (const w of src.subject.workoutsOn(day)) {
        if (!within(rs, w.end)) continue;
        const id = rememberWorkout(tick, w);
        // As first sent: a revision due in the same tick follows as `.updated` (feed-revisions.ts).
        const summary = workoutSummary(src, w);
        emit('daily.data.workouts.created', summary);
        if (has('workout_stream')) {
          emit('daily.data.workout_stream.created', {
            user_id: user.user_id,
            workout_id: id,
            provider_id: summary.provider_id,
            message: WORKOUT_STREAM_MESSAGE,
            source: { ...sourceObject(link.provider), ...providerBrief(link.provider) },
            sport: { id: w.sport.id, name: w.sport.name, slug: w.sport.slug },
          });
        }
      }
    }
    feedWorkoutRevisions(tick);
  }
  if (has('electrocardiogram')) {
    const rs = ranges('electrocardiogram');
    for (let day = first; day <= last; day++) {
      const session = ecgSessionOn(src, day);
      if (session && within(rs, session.end)) emit('daily.data.electrocardiogram.created', ecgSummary(src, session));
    }
  }
}
