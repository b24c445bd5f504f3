/**
 * Appointment availability (the labs appointments routes' `availability`): open at-home phlebotomy
 * slots for a served address, and Quest PSC slots near a zip code or by site code, each with the
 * booking key that books it (appointments.ts).
 */
import type { z } from 'zod';
import {
  PHLEBOTOMY_AREAS,
  PSC_TIMEZONE,
  bookingKey,
  dateRange,
  keyExpiry,
  pscSite,
  pscSitesNear,
  type PscSite,
  type Slot,
} from '../../fixtures/labs/appointment-slots.js';
import type * as W from '../../wire/schemas.js';
import type { Domain } from '../domain-context.js';
import { appointmentsOf, openSlots } from './appointments.js';
import { LABS_ERRORS, labsError } from './errors.js';
import { iso } from './order-model.js';
import { phlebotomyServed } from './order-progression.js';

type AvailableSlot = z.input<typeof W.AppointmentAvailability>['slots'][number]['slots'][number];

function slotView(env: Domain, slot: Slot): AvailableSlot {
  return {
    booking_key: bookingKey(env.world.seed, env.partition.id, slot, appointmentsOf(env.partition, env.world).generationOf(slot)),
    start: iso(slot.start),
    end: iso(slot.end),
    expires_at: iso(keyExpiry(slot)),
    price: slot.price,
    is_priority: slot.is_priority,
    num_appointments_available: 1,
  };
}

const today = (env: Domain) => new Date(env.world.clock.now()).toISOString().slice(0, 10);

/** `AppointmentAvailabilitySlots` for an at-home address: five days from `startDate`. */
export function phlebotomyAvailability(
  env: Domain,
  address: { first_line: string; zip_code: string },
  startDate: string | undefined,
): z.input<typeof W.AppointmentAvailability> {
  const zip = address.zip_code;
  const area = PHLEBOTOMY_AREAS[zip.slice(0, 5)];
  if (!area || !phlebotomyServed({ first_line: address.first_line, zip })) return { slots: [], timezone: null };
  const dates = dateRange(startDate ?? today(env), 5);
  return {
    slots: dates.map((date) => ({
      date,
      slots: openSlots(env, 'phlebotomy', zip.slice(0, 5), date).map((s) => slotView(env, s)),
      location: null,
    })),
    timezone: area.timezone,
  };
}

function siteView(site: PscSite): Record<string, unknown> {
  return {
    location: { lng: site.lng, lat: site.lat },
    distance: site.distance,
    address: {
      first_line: site.first_line,
      second_line: null,
      city: 'Sandbox City',
      state: 'NY',
      zip_code: site.zip,
      unit: null,
      access_notes: null,
    },
    code: site.code,
    name: site.name,
    iana_timezone: PSC_TIMEZONE,
  };
}

/** `AppointmentAvailabilitySlots` of Quest PSCs near a zip code or by site code: three days from `start_date`. */
export function pscAvailability(
  env: Domain,
  q: {
    lab: 'quest' | 'sonora_quest';
    start_date?: string | undefined;
    site_codes?: string[] | undefined;
    zip_code?: string | undefined;
    radius: number;
  },
): z.input<typeof W.AppointmentAvailability> {
  if (q.lab !== 'quest') throw labsError.notFound(LABS_ERRORS.noPscSlots);
  const sites =
    q.site_codes && q.site_codes.length > 0
      ? q.site_codes.map((c) => pscSite(env.world.seed, c)).filter((s): s is PscSite => s !== null)
      : pscSitesNear(env.world.seed, q.zip_code ?? '', q.radius);
  const days = dateRange(q.start_date ?? today(env), 3).flatMap((date) =>
    sites.map((site) => ({ date, slots: openSlots(env, 'psc', site.code, date).map((s) => slotView(env, s)), location: siteView(site) })),
  );
  if (days.every((d) => d.slots.length === 0)) throw labsError.notFound(LABS_ERRORS.noPscSlots);
  return { slots: days, timezone: PSC_TIMEZONE };
}
