/**
 * Team API access tokens (`create_api_access_token`, `CreateTeamAccessTokenResponse`) and event
 * delivery metrics per team environment (`PrometheusQueryResponse`), computed from the webhook
 * delivery log of `src/state/webhooks/`.
 */
import type { z } from 'zod';
import { stableToken } from '../../engine/ids.js';
import type { Environment, Partition, Team } from '../../engine/tenancy.js';
import type { World } from '../../engine/world.js';
import { attemptOutcomes, attemptsPerStep } from '../webhooks/delivery-views.js';
import type * as W from '../../wire/schemas.js';

/** Lifetime of an access token, in seconds of sandbox time. */
export const ACCESS_TOKEN_TTL_S = 3600;

/**
 * Issues an access token for a team environment. The grant lives in the tenancy (the engine's
 * authentication reads it: `Authorization: Bearer <token>` on the data API).
 */
export function createAccessToken(world: World, team: Team, environment: Environment, nowMs: number): z.input<typeof W.TeamAccessToken> {
  const n = world.ids.nextSeq('team-access-token', team.id);
  const token = `vat_${team.region}_${stableToken(48, world.seed, 'team-access-token', team.id, n)}`;
  world.tenancy.addAccessToken(token, { team_id: team.id, environment, expires_ms: nowMs + ACCESS_TOKEN_TTL_S * 1000 }, nowMs);
  return { access_token: token, expires_in: ACCESS_TOKEN_TTL_S };
}

/** The team environment an unexpired access token acts for, or null. */
export function accessTokenPartition(world: World, token: string, nowMs: number): Partition | null {
  return world.tenancy.accessTokenPartition(token, nowMs);
}

type MetricInterval = '5m' | '15m' | '1h' | '1d';
const STEP_S: Record<MetricInterval, number> = { '5m': 300, '15m': 900, '1h': 3600, '1d': 86400 };
/** Steps per answer: the window ends with the step holding `now`. */
export const METRIC_STEPS = 24;
/** Attempts read from the log per answer (the log itself keeps a bounded number per team environment). */
const ATTEMPT_SCAN_LIMIT = 100_000;

/**
 * Webhook delivery attempts of a team environment per step of `interval`, as a Prometheus range
 * answer: one series per outcome (`status` = `success` / `failed`), values `[step start (Unix s), "count"]`,
 * over the last `METRIC_STEPS` steps.
 */
export function eventDeliveryMetric(
  world: World,
  team: Team,
  environment: Environment,
  interval: MetricInterval,
  nowMs: number,
): z.input<typeof W.EventDeliveryMetric> {
  const step = STEP_S[interval];
  const nowS = Math.floor(nowMs / 1000);
  const lastStart = nowS - (nowS % step);
  const firstStart = lastStart - (METRIC_STEPS - 1) * step;
  const counts =
    attemptsPerStep(world, team.id, environment, ATTEMPT_SCAN_LIMIT, { firstS: firstStart, stepS: step, steps: METRIC_STEPS }) ??
    countAttempts(world, team.id, environment, firstStart, step);
  const series = (status: 'success' | 'failed') => ({
    metric: { __name__: 'event_delivery_attempts', team_id: team.id, environment, status },
    values: counts[status].map((n, i) => [firstStart + i * step, String(n)] as [number, string]),
  });
  return { status: 'success' as const, data: { resultType: 'matrix' as const, result: [series('success'), series('failed')] } };
}

/** The first ATTEMPT_SCAN_LIMIT attempts of a team environment per step, walked one by one (a log holding more than that). */
function countAttempts(
  world: World,
  teamId: string,
  environment: Environment,
  firstStart: number,
  step: number,
): { success: number[]; failed: number[] } {
  const lastStart = firstStart + (METRIC_STEPS - 1) * step;
  const counts = { success: new Array<number>(METRIC_STEPS).fill(0), failed: new Array<number>(METRIC_STEPS).fill(0) };
  // Attempts of one tick share their creation time: parsed once per run of equal times.
  let seen = '';
  let t = Number.NaN;
  attemptOutcomes(world, teamId, environment, ATTEMPT_SCAN_LIMIT, (createdAt, ok) => {
    if (createdAt !== seen) {
      seen = createdAt;
      t = Math.floor(Date.parse(createdAt) / 1000);
    }
    if (t < firstStart || t >= lastStart + step) return;
    const i = Math.floor((t - firstStart) / step);
    const of = ok ? counts.success : counts.failed;
    of[i] = (of[i] ?? 0) + 1;
  });
  return counts;
}
