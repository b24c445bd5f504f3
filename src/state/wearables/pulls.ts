/**
 * Historical pulls (spec 3, api-facts A.17). Each resource of a connection is pulled on the
 * sandbox clock: `scheduled`, `in_progress`, then `success`, or `retrying` (with a retriable
 * error detail) followed by `success` or `failure`, or `failure` at once. The plan is a pure
 * function of (seed, user, provider, connection time, resource), so nothing per resource is
 * stored; forced outcomes are kept as overrides. One scheduler job per connection announces
 * finished pulls with `historical.data.<resource>.created`.
 */
import { jobKind } from '../../engine/job-kinds.js';
import type { Partition } from '../../engine/tenancy.js';
import { rowByResource } from '../../fixtures/wearables/timeseries-table.js';
import type { Domain } from '../domain-context.js';
import { iso } from '../../fixtures/wearables/wearable-time.js';
import { hash32, hashKey } from '../../engine/rng.js';
import { stableUuid } from '../../engine/ids.js';
import { emitUserEvent, historyStart, pulledResources, type Connection, type PullOverride } from './connections.js';

export const RETRIABLE = ['provider_rate_limit_exceeded', 'provider_unavailable', 'transport_failure', 'resource_contention'] as const;
export const NON_RETRIABLE = ['non_retriable_error', 'unexpected_error', 'retry_quota_exhausted'] as const;

type PullStatus = 'scheduled' | 'in_progress' | 'retrying' | 'success' | 'failure';

interface PullPlan {
  scheduledAt: number;
  startedAt: number;
  /** End of the first attempt. */
  attemptEnd: number;
  /** End of the retry phase, when the pull retries. */
  retryEnd: number | null;
  outcome: 'success' | 'failure';
  retriable: string | null;
  finalError: string | null;
}

const unit = (...parts: Array<string | number>): number => hashKey(...parts) / 4294967296;

/**
 * Base plans (before forced outcomes) memoised per connection and resource: the feed and the
 * data reads ask for them on every tick and every range. Checked against every input they use.
 */
interface KeptPlan {
  seed: number;
  userId: string;
  slug: string;
  createdAt: number;
  pullMinutes: number;
  demo: boolean;
  plan: PullPlan;
}
const basePlans = new WeakMap<Connection, Map<string, KeptPlan>>();

/**
 * Forgets a connection's memoised plans (it ended: no feed tick asks for them any more, and a read
 * of its past data computes them again, the same). A deleted user in its grace period then keeps
 * no plans (issue 27 item 5).
 */
export function forgetPlans(conn: Connection): void {
  basePlans.delete(conn);
}

/** Whether a connection's plans are memoised (tests of the bound above). */
export function plansKept(conn: Connection): boolean {
  return basePlans.has(conn);
}

/** The plan of one resource's pull (a copy the caller may keep). */
export function pullPlan(seed: number, userId: string, conn: Connection, resource: string): PullPlan {
  const plan = keptPlan(seed, userId, conn, resource);
  return conn.overrides?.get(resource) ? plan : { ...plan };
}

/** The plan of one resource's pull: the kept one when no outcome is forced (read it, do not change it). */
function keptPlan(seed: number, userId: string, conn: Connection, resource: string): PullPlan {
  let kept = basePlans.get(conn);
  if (!kept) {
    kept = new Map();
    basePlans.set(conn, kept);
  }
  const k = kept.get(resource);
  let plan: PullPlan;
  if (
    k &&
    k.seed === seed &&
    k.userId === userId &&
    k.slug === conn.provider.slug &&
    k.createdAt === conn.created_at &&
    k.pullMinutes === conn.pullMinutes &&
    k.demo === conn.demo
  ) {
    plan = k.plan;
  } else {
    plan = basePlan(seed, userId, conn, resource);
    kept.set(resource, {
      seed,
      userId,
      slug: conn.provider.slug,
      createdAt: conn.created_at,
      pullMinutes: conn.pullMinutes,
      demo: conn.demo,
      plan,
    });
  }
  const forced = conn.overrides?.get(resource);
  if (!forced) return plan;
  return forcedPlan(plan, forced, unit(seed, 'pull', userId, conn.provider.slug, conn.created_at, resource, 'retriable'));
}

function basePlan(seed: number, userId: string, conn: Connection, resource: string): PullPlan {
  // `unit(seed, 'pull', userId, slug, created_at, resource, part)`: the parts joined once (what
  // `hashKey` joins), each draw hashing the key and its part.
  const joined = [seed, 'pull', userId, conn.provider.slug, conn.created_at, resource].join('\u241f');
  const draw = (part: string): number => hash32(`${joined}\u241f${part}`) / 4294967296;
  const scheduledAt = conn.created_at;
  const startedAt = scheduledAt + Math.round((2 + draw('start') * 18) * 1000);
  const minutes = conn.pullMinutes * (0.3 + 0.7 * draw('len'));
  const attemptEnd = startedAt + Math.round(minutes * 60_000);
  const roll = draw('outcome');
  const retriable = RETRIABLE[Math.floor(draw('retriable') * RETRIABLE.length)] as string;
  let plan: PullPlan;
  if (conn.demo ? roll < 0.9 : roll < 0.85) {
    plan = { scheduledAt, startedAt, attemptEnd, retryEnd: null, outcome: 'success', retriable: null, finalError: null };
  } else if (conn.demo || roll < 0.92) {
    plan = {
      scheduledAt,
      startedAt,
      attemptEnd,
      retryEnd: attemptEnd + Math.round((5 + draw('retry') * 25) * 60_000),
      outcome: 'success',
      retriable,
      finalError: null,
    };
  } else if (roll < 0.96) {
    plan = {
      scheduledAt,
      startedAt,
      attemptEnd,
      retryEnd: attemptEnd + Math.round((20 + draw('retry') * 60) * 60_000),
      outcome: 'failure',
      retriable,
      finalError: 'retry_quota_exhausted',
    };
  } else {
    plan = {
      scheduledAt,
      startedAt,
      attemptEnd,
      retryEnd: null,
      outcome: 'failure',
      retriable: null,
      finalError: draw('final') < 0.5 ? 'non_retriable_error' : 'unexpected_error',
    };
  }
  return plan;
}

function forcedPlan(plan: PullPlan, forced: PullOverride, retriableRoll: number): PullPlan {
  const startedAt = plan.startedAt;
  const retriable = RETRIABLE[Math.floor(retriableRoll * RETRIABLE.length)] as string;
  let attemptEnd: number;
  const end = forced.endAt ?? plan.retryEnd ?? plan.attemptEnd;
  const started = Math.min(startedAt, end);
  const retry = forced.outcome === 'retry_then_success' || forced.outcome === 'retry_then_failure';
  if (retry) attemptEnd = started + Math.floor((end - started) / 2);
  else attemptEnd = end;
  const success = forced.outcome === 'success' || forced.outcome === 'retry_then_success';
  return {
    scheduledAt: plan.scheduledAt,
    startedAt: started,
    attemptEnd,
    retryEnd: retry ? end : null,
    outcome: success ? 'success' : 'failure',
    retriable: retry ? (forced.error && isRetriable(forced.error) ? forced.error : retriable) : null,
    finalError: success
      ? null
      : forced.error && !isRetriable(forced.error)
        ? forced.error
        : retry
          ? 'retry_quota_exhausted'
          : 'non_retriable_error',
  };
}

export function isRetriable(detail: string): boolean {
  return (RETRIABLE as readonly string[]).includes(detail);
}

/** When a plan's pull finishes. */
export function finishedAt(plan: PullPlan): number {
  return plan.retryEnd ?? plan.attemptEnd;
}

interface PullState {
  status: PullStatus;
  started_at: number | null;
  ended_at: number | null;
  error_details: string | null;
}

/** A pull's state at time `t`. */
export function pullStateAt(plan: PullPlan, t: number): PullState {
  if (t < plan.startedAt) return { status: 'scheduled', started_at: null, ended_at: null, error_details: null };
  if (t < plan.attemptEnd) return { status: 'in_progress', started_at: plan.startedAt, ended_at: null, error_details: null };
  if (plan.retryEnd !== null && t < plan.retryEnd)
    return { status: 'retrying', started_at: plan.startedAt, ended_at: plan.attemptEnd, error_details: plan.retriable };
  return { status: plan.outcome, started_at: plan.startedAt, ended_at: finishedAt(plan), error_details: plan.finalError };
}

/** The time the connection's pulls are evaluated at (a deregistered connection stops pulling). */
export function pullClock(conn: Connection, now: number): number {
  return conn.ended_at === null ? now : Math.min(now, conn.ended_at);
}

/** Whether a resource's history has been pulled successfully by `now`. */
export function historyPulled(seed: number, userId: string, conn: Connection, resource: string, now: number): boolean {
  const plan = keptPlan(seed, userId, conn, resource);
  return plan.outcome === 'success' && finishedAt(plan) <= pullClock(conn, now);
}

/** A short deterministic trace id and release string for the introspection view. */
export function traceId(seed: number, userId: string, conn: Connection): string {
  return stableUuid(seed, 'pull.trace', userId, conn.provider.slug, conn.created_at).replace(/-/g, '');
}

export function release(seed: number): string {
  return `0.0.0-sandbox.${stableUuid(seed, 'release').slice(0, 7)}`;
}

/** Whether a resource's completion is announced with `historical.data.<resource>.created`. */
function announced(resource: string): boolean {
  const row = rowByResource(resource);
  return row ? row.events : true;
}

/**
 * (Re)schedules the job that announces the connection's finished pulls: at each finish time
 * it emits `historical.data.<resource>.created` for every resource that finished successfully.
 */
export function schedulePullAnnouncements(d: Domain, userId: string, conn: Connection): void {
  const { world } = d;
  conn.pullJob?.cancel();
  conn.pullJob = null;
  if (conn.ended_at !== null) return;
  let next = Number.POSITIVE_INFINITY;
  for (const r of pulledResources(conn)) {
    const end = finishedAt(pullPlan(world.seed, userId, conn, r));
    if (end > conn.pullAnnounced && end < next) next = end;
  }
  if (!Number.isFinite(next)) return;
  conn.pullJob = world.scheduler.at(
    next,
    PULLS_FINISHED,
    { partition: d.partition, userId, conn },
    `wearables.pull ${userId} ${conn.provider.slug}`,
  );
}

/** A connection's pulls that finished by now are announced; the next finish is scheduled. */
const PULLS_FINISHED = jobKind<{ partition: Partition; userId: string; conn: Connection }>(
  'wearables.pulls_finished',
  (world, { partition, userId, conn }) => {
    const d: Domain = { world, partition };
    conn.pullJob = null;
    if (conn.ended_at !== null) return;
    const now = world.clock.now();
    const done: Array<[number, string]> = [];
    for (const r of pulledResources(conn)) {
      const plan = pullPlan(world.seed, userId, conn, r);
      const end = finishedAt(plan);
      if (end > conn.pullAnnounced && end <= now && plan.outcome === 'success' && announced(r)) {
        done.push([end, r]);
        // Sleep cycles come with the sleep pull from the providers that record stages.
        if (r === 'sleep' && conn.provider.resources.includes('hypnogram')) done.push([end, 'sleep_cycle']);
      }
    }
    done.sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
    conn.pullAnnounced = now;
    for (const [, r] of done) {
      emitUserEvent(d, userId, `historical.data.${r}.created`, {
        user_id: userId,
        start_date: iso(historyStart(conn, r)),
        end_date: iso(conn.created_at),
        is_final: true,
        provider: conn.provider.slug,
      });
    }
    schedulePullAnnouncements(d, userId, conn);
  },
);

/** Applies preset outcomes (forced before the connection existed) to a new connection. */
export function applyOverrides(conn: Connection, overrides: Map<string, PullOverride> | undefined): void {
  if (!overrides) return;
  const all = overrides.get('*');
  const map = new Map<string, PullOverride>();
  for (const r of pulledResources(conn)) {
    const o = overrides.get(r) ?? all;
    if (o) map.set(r, { outcome: o.outcome, error: o.error, endAt: o.afterMs != null ? conn.created_at + o.afterMs : o.endAt });
  }
  if (map.size > 0) conn.overrides = map;
}
