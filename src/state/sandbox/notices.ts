/**
 * Sandbox notices: what the sandbox did on its own that no webhook event announces (a demo user
 * expiring 7 days after its first demo connection, deleted with its data and lab orders). The
 * real service sends no event for it, so none is emitted; the notices sit beside the event
 * journal (`GET /_sandbox/events` answers them as `notices`, the inspector's Events view shows
 * them) and in the log. A bounded ring per world, oldest first.
 */
import { worldSlot } from '../../engine/world.js';
import type { World } from '../../engine/world.js';

/** Notices kept per world (the newest; older ones drop off). */
const NOTICES_KEPT = 1000;

export interface SandboxNotice {
  /** Sandbox time (ISO). */
  at: string;
  kind: 'demo_user_expired';
  team_id: string;
  environment: 'sandbox' | 'production';
  user_id: string;
  text: string;
}

const noticesOf = worldSlot('sandbox.notices', () => [] as SandboxNotice[]);

/** Records a notice (and drops the oldest past `NOTICES_KEPT`). */
export function addNotice(world: World, notice: Omit<SandboxNotice, 'at'>): void {
  const list = noticesOf(world);
  list.push({ at: new Date(world.clock.now()).toISOString(), ...notice });
  if (list.length > NOTICES_KEPT) list.splice(0, list.length - NOTICES_KEPT);
}

/** The notices of a team environment (or all), oldest first. */
export function listNotices(world: World, filter: { team_id?: string; environment?: string; user_id?: string }): SandboxNotice[] {
  return noticesOf(world).filter(
    (n) =>
      (filter.team_id === undefined || n.team_id === filter.team_id) &&
      (filter.environment === undefined || n.environment === filter.environment) &&
      (filter.user_id === undefined || n.user_id === filter.user_id),
  );
}
