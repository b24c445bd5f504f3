/**
 * Durations for moving the clock: a number of seconds, a short form (`90s`, `15m`, `2h`, `3d`,
 * `1w`, combinable as `1d2h30m`, decimals allowed as `1.5h`) or an ISO 8601 duration (`P1DT2H30M`,
 * `PT45S`, `P2W`). Years and months are refused: their length varies.
 */
const ISO = /^P(?:(\d+(?:\.\d+)?)W)?(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/i;
const SHORT = /^(?:(\d+(?:\.\d+)?)w)?(?:(\d+(?:\.\d+)?)d)?(?:(\d+(?:\.\d+)?)h)?(?:(\d+(?:\.\d+)?)m)?(?:(\d+(?:\.\d+)?)s)?$/;
const UNITS = [604800, 86400, 3600, 60, 1] as const;

/** A duration as the engine, the control client and the control plane accept it. */
export type Duration = number | string;

export const DURATION_HELP = 'Use seconds (a number), a short form such as 90s, 15m, 2h, 3d or 1d2h, or ISO 8601 such as P1DT2H';

function sum(parts: Array<string | undefined>): number {
  return parts.reduce((total, v, i) => total + (v === undefined ? 0 : Number(v) * (UNITS[i] as number)), 0);
}

/** Seconds in a duration text, or null when it is not one. */
export function parseDuration(text: string): number | null {
  const t = text.trim();
  if (t === '') return null;
  if (/^\d+(?:\.\d+)?$/.test(t)) return Number(t);
  const iso = ISO.exec(t);
  if (iso) {
    if (t.toUpperCase() === 'P' || /T$/i.test(t)) return null;
    return sum(iso.slice(1));
  }
  const short = SHORT.exec(t);
  if (short) return sum(short.slice(1));
  return null;
}

/** Seconds in a duration; throws a RangeError naming the problem for a bad one. */
export function durationSeconds(value: Duration): number {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) throw new RangeError(`Invalid duration ${String(value)}: seconds must be a number >= 0`);
    return value;
  }
  if (typeof value !== 'string') throw new RangeError(`Invalid duration: ${DURATION_HELP}`);
  const seconds = parseDuration(value);
  if (seconds === null) throw new RangeError(`Invalid duration "${value}": ${DURATION_HELP}`);
  return seconds;
}
