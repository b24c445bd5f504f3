/**
 * A provider outage for a window of sandbox time (`POST /_sandbox/providers/:provider/outage`):
 * every historical pull of that provider running in the window, and every pull of a connection
 * made during it, fails its attempt and is `retrying` (error_details `provider_unavailable`) until
 * the window ends, then succeeds: its `historical.data.*.created` events come then (the catch-up).
 * Outages live in the world (a reset ends them).
 *
 * The periodic new-data feed of that provider's connections sends nothing during the window; its
 * first tick after it catches up (the data of the window, at most a day of it, as after any gap).
 */
import type { z } from 'zod';
import type * as W from '../../wire/schemas.js';
import { type World, worldSlot } from '../../engine/world.js';
import { providerBySlug } from '../../fixtures/wearables/providers.js';
import { currentConnections, pulledResources, wearablesOf, type Connection, type PullOverride } from '../wearables/connections.js';
import { finishedAt, pullPlan, schedulePullAnnouncements } from '../wearables/pulls.js';
import { sandboxError } from './errors.js';

interface Outage {
  provider: string;
  start: number;
  end: number;
}

const outagesSlot = worldSlot('sandbox.faults.outages', (): Outage[] => []);

/** The world's outages (none until one starts: a connect never creates the store). */
const outagesOf = (world: World): Outage[] | undefined => outagesSlot.peek(world);

const OUTAGE_MESSAGES = {
  unknownProvider: (slug: string) => `Unknown provider "${slug}"`,
} as const;

const override = (end: number): PullOverride => ({ outcome: 'retry_then_success', error: 'provider_unavailable', endAt: end });

/**
 * The pull outcomes of a connection made now, when its provider is in an outage (for the
 * wearables' connect, beside the outcomes forced for one user): undefined otherwise.
 */
export function outagePreset(world: World, slug: string): Map<string, PullOverride> | undefined {
  const now = world.clock.now();
  const outage = outagesOf(world)?.find((o) => o.provider === slug && o.start <= now && now < o.end);
  return outage ? new Map([['*', override(outage.end)]]) : undefined;
}

/** Whether the provider is in an outage at `at` (the periodic feed holds its new data until it ends). */
export function providerDown(world: World, slug: string, at: number): boolean {
  return outagesOf(world)?.some((o) => o.provider === slug && o.start <= at && at < o.end) ?? false;
}

/** Starts an outage of `seconds` from now; answers it with the connections whose pulls it caught. */
export function startOutage(world: World, slug: string, seconds: number): z.input<typeof W.ProviderOutage> {
  if (!providerBySlug(slug)) throw sandboxError.faultNotFound(OUTAGE_MESSAGES.unknownProvider(slug));
  const now = world.clock.now();
  const end = now + Math.round(seconds * 1000);
  const list = outagesOf(world) ?? [];
  outagesSlot.put(world, list);
  list.push({ provider: slug, start: now, end });
  const state = wearablesOf(world);
  let affected = 0;
  for (const rec of state.ring) {
    if (rec.gone) continue;
    const conn: Connection | undefined = currentConnections(rec).find((c) => c.provider.slug === slug);
    if (!conn) continue;
    const open = pulledResources(conn).filter((r) => finishedAt(pullPlan(world.seed, rec.user_id, conn, r)) > now);
    if (open.length === 0) continue;
    conn.overrides ??= new Map();
    for (const r of open) conn.overrides.set(r, override(Math.max(end, finishedAt(pullPlan(world.seed, rec.user_id, conn, r)))));
    schedulePullAnnouncements({ world, partition: rec.partition }, rec.user_id, conn);
    affected++;
  }
  return { provider: slug, starts_at: new Date(now).toISOString(), ends_at: new Date(end).toISOString(), connections_affected: affected };
}
