/**
 * How lab orders progress (issue 31; api-facts B.7, H, J): the team's progression mode, and the
 * real sandbox's rules a simulation follows.
 *
 * - `clock` (the default): orders walk their path on the sandbox clock, and
 *   `POST /v3/order/{id}/test` moves them where asked.
 * - `manual`: the real sandbox. Nothing moves on the clock; the first simulation of an order
 *   still `ordered` stops at the next status (`requisition_created`) whatever `final_status`
 *   says, and later ones go to `final_status`.
 * - In both: an at-home phlebotomy order does not go past `requisition_created` until an
 *   appointment is booked for it (the clock waits, a simulation stops there and answers as
 *   usual); a booking is possible only at the served addresses (85004 West Lincoln Street, 54650).
 *
 * The mode is per team: `world.options.labsProgression` (CLI `--labs-progression`, the scenario's
 * `labs.progression`), overridden per team through `PUT /_sandbox/teams/{team_id}/labs`.
 */
import { PHLEBOTOMY_AREAS } from '../../fixtures/labs/appointment-slots.js';
import { worldSlot, type LabsProgression, type World } from '../../engine/world.js';
import type { LowStatus, Step } from './order-lifecycle.js';
import { currentStatus, type Order } from './order-model.js';
import { LABS_ERRORS, labsError } from './errors.js';

export type { LabsProgression } from '../../engine/world.js';
export const LABS_PROGRESSIONS: readonly LabsProgression[] = ['clock', 'manual'];

const teamModes = worldSlot('labs.progression', () => new Map<string, LabsProgression>());

/** The progression mode of a team: its own setting, else the world's. */
export function labsProgression(world: World, teamId: string): LabsProgression {
  return teamModes(world).get(teamId) ?? world.options.labsProgression;
}

/** Sets a team's progression mode (both environments). */
function setLabsProgression(world: World, teamId: string, mode: LabsProgression): void {
  teamModes(world).set(teamId, mode);
}

/** A team's lab settings (control plane): its progression and whether the team set it; 404 for an unknown team. */
export function teamLabs(world: World, teamId: string, set?: LabsProgression) {
  if (!world.tenancy.teams.get(teamId)) throw labsError.notFound(LABS_ERRORS.teamNotFound);
  if (set) setLabsProgression(world, teamId, set);
  return {
    team_id: teamId,
    progression: labsProgression(world, teamId),
    set_by: teamModes(world).has(teamId) ? ('team' as const) : ('world' as const),
  };
}

/** The one street served in 85004: "only one specific address: West Lincoln Street, Phoenix, AZ 85004, USA" (lab/overview/sandbox). */
const PHOENIX_STREET = /\bwest lincoln street\b/i;

/**
 * Whether the sandbox's phlebotomy is served at an address (lab/overview/sandbox "Collection
 * Method Restrictions"): zip 85004 (Getlabs) on West Lincoln Street only (any house number,
 * as the docs' own examples use "West Lincoln Street" and "256 West Lincoln Street"), and zip
 * 54650 (PhlebFinders).
 */
export function phlebotomyServed(address: { first_line: string; zip: string } | null | undefined): boolean {
  if (!address) return false;
  const zip = address.zip.slice(0, 5);
  if (PHLEBOTOMY_AREAS[zip] === undefined) return false;
  return zip !== '85004' || PHOENIX_STREET.test(address.first_line);
}

/** Statuses an unbooked phlebotomy order may still reach by simulation. */
const WITHOUT_BOOKING: ReadonlySet<LowStatus> = new Set<LowStatus>(['requisition_created', 'cancelled']);

/**
 * Whether an at-home phlebotomy order has an appointment it may go on with: one was booked, its
 * path no longer waits for a booking, and it was not cancelled since.
 */
function appointmentBooked(order: Order): boolean {
  return (
    order.appointment_id !== null && currentStatus(order) !== 'appointment_cancelled' && !order.path.some((s) => s.gate === 'appointment')
  );
}

interface Plan {
  path: Step[];
  from: number;
  to: number;
}

/**
 * A planned simulation as the real sandbox steps it: an unbooked phlebotomy order stops before
 * the first status that needs an appointment; in `manual` mode an order still `ordered` goes one
 * step only. 'noop' when nothing is left to do.
 */
export function realStepping<P extends Plan>(world: World, order: Order, plan: P): P | 'noop' {
  let to = plan.to;
  const cancelling = plan.path[plan.to]?.status === 'cancelled';
  if (order.method === 'at_home_phlebotomy' && !appointmentBooked(order)) {
    for (let i = plan.from + 1; i <= to; i++) {
      if (!WITHOUT_BOOKING.has((plan.path[i] as Step).status)) {
        to = i - 1;
        break;
      }
    }
  }
  if (!cancelling && labsProgression(world, order.team_id) === 'manual' && currentStatus(order) === 'ordered') {
    to = Math.min(to, plan.from + 1);
  }
  return to <= plan.from ? 'noop' : { ...plan, to };
}
