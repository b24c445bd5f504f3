/**
 * The fast-check property over "any person": a seed, a user id, a time zone, a birth year or none,
 * and a demo provider (the wearables area's one-body-one-day properties run their checks over it).
 */
import fc from 'fast-check';
import { DEMO_PROVIDERS } from '../../src/fixtures/wearables/providers.js';

export const PERSON_ZONES = ['UTC', 'America/New_York', 'Europe/Berlin', 'Asia/Tokyo', 'Australia/Sydney', 'America/Los_Angeles'];

/** Checks `check` for `numRuns` people drawn from a fixed fast-check seed (reproducible runs). */
export function forAnyPerson(
  check: (seed: number, user: string, zone: string, birth: number | null, slug: string) => void,
  numRuns: number,
  zones: readonly string[] = PERSON_ZONES,
): void {
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 2 ** 31 - 1 }),
      fc.uuid(),
      fc.constantFrom(...zones),
      fc.option(fc.integer({ min: 1940, max: 2005 })),
      fc.constantFrom(...DEMO_PROVIDERS),
      check,
    ),
    { numRuns, seed: 42 },
  );
}
