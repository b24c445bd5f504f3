/**
 * The control plane's clock rules (`POST /_sandbox/clock/advance`). The request schema holds the
 * rules on the request's own values (exactly one amount, a duration or an ISO time that parses,
 * at most `MAX_ADVANCE_SECONDS`: `advanceRules`); this domain function holds the rules that need
 * the clock (an `until` in the past, or too far ahead of now), then moves it.
 */
import { parseDuration } from '../../engine/duration.js';
import { SANDBOX_ERRORS, MAX_ADVANCE_SECONDS, sandboxError } from './errors.js';
import { realCalendarDate, type RuleFailure } from '../../engine/schemas.js';
import type { World } from '../../engine/world.js';
import { watchAdvance, type AdvanceReport } from './advance-report.js';

interface AdvanceBody {
  seconds?: number | undefined;
  duration?: string | undefined;
  until?: string | undefined;
}

/** The advance body's rules on its own values (`withRules`), in the order the 422 reports them. */
export function advanceRules(body: AdvanceBody): RuleFailure | null {
  const given = [body.seconds, body.duration, body.until].filter((v) => v !== undefined).length;
  if (given !== 1) return { message: SANDBOX_ERRORS.oneAmount };
  if (body.duration !== undefined) {
    const seconds = parseDuration(body.duration);
    if (seconds === null) return { path: ['duration'], message: SANDBOX_ERRORS.badDuration, input: body.duration };
    if (!(seconds <= MAX_ADVANCE_SECONDS)) return { path: ['duration'], message: SANDBOX_ERRORS.tooFar, input: body.duration };
  } else if (body.until !== undefined) {
    if (Number.isNaN(Date.parse(body.until)) || !realCalendarDate(body.until))
      return { path: ['until'], message: SANDBOX_ERRORS.badUntil, input: body.until };
  } else if (!((body.seconds as number) <= MAX_ADVANCE_SECONDS)) {
    return { path: ['seconds'], message: SANDBOX_ERRORS.tooFar, input: body.seconds };
  }
  return null;
}

/**
 * Moves the clock by the body's one amount (checked by `advanceRules`): an `until` must not be in
 * the past nor more than `MAX_ADVANCE_SECONDS` ahead. Runs the due jobs and waits only for the
 * work the advance caused (webhook barriers), not for requests meanwhile. Answers what the advance
 * caused (events, deliveries) and who makes the wearable feed run.
 */
export async function advanceClock(world: World, body: AdvanceBody): Promise<AdvanceReport> {
  let seconds: number;
  if (body.duration !== undefined) {
    seconds = parseDuration(body.duration) as number;
  } else if (body.until !== undefined) {
    const target = Date.parse(body.until);
    const now = world.clock.now();
    if (target < now) throw sandboxError.clockBackwards(body.until);
    seconds = (target - now) / 1000;
    if (!(seconds <= MAX_ADVANCE_SECONDS)) throw sandboxError.clockTooFar(body.until);
  } else {
    seconds = body.seconds as number;
  }
  const finish = watchAdvance(world);
  try {
    await world.scheduler.advance(Math.round(seconds * 1000));
  } catch (error) {
    finish(); // the counter stops however the advance ends
    throw error;
  }
  return finish();
}
