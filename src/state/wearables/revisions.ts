/**
 * The share of nights, activity days and workouts a later sync revises (`daily.data.sleep.updated`,
 * `daily.data.activity.updated`, `daily.data.workouts.updated`; fixtures/wearables/revisions.ts):
 * a sandbox-wide rate (default DEFAULT_REVISION_RATE, on at a low rate) and, per team, an override. Set through `POST /_sandbox/wearables/feed` `{revision_rate, team_id?}` and a
 * scenario's `data_revisions`. Kept in the world (a reset goes back to the default).
 */
import { DEFAULT_REVISION_RATE } from '../../fixtures/wearables/revisions.js';
import type { Domain } from '../domain-context.js';
import { type World, worldSlot } from '../../engine/world.js';

interface RevisionRates {
  rate: number;
  teams: Map<string, number>;
}

const ratesOf = worldSlot('wearables.revisions', (): RevisionRates => ({ rate: DEFAULT_REVISION_RATE, teams: new Map() }));

/** The revision rate of a team environment. */
export function revisionRate(d: Domain): number {
  const { world, partition } = d;
  const r = ratesOf.peek(world);
  if (!r) return DEFAULT_REVISION_RATE;
  return r.teams.get(partition.team.id) ?? r.rate;
}

/** Sets the sandbox-wide rate, or one team's (both environments) when `teamId` is given. */
export function setRevisionRate(world: World, rate: number, teamId?: string): void {
  const r = ratesOf(world);
  if (teamId === undefined) r.rate = rate;
  else r.teams.set(teamId, rate);
}

/** The rates as the control plane shows them. */
export function revisionRates(world: World): { revision_rate: number; team_revision_rates: Record<string, number> } {
  const r = ratesOf.peek(world);
  return { revision_rate: r?.rate ?? DEFAULT_REVISION_RATE, team_revision_rates: Object.fromEntries(r?.teams ?? []) };
}
