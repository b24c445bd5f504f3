/**
 * Time arithmetic of the aggregate engine, in the user's local wall time: the relative
 * timeframe's window, `date_trunc` buckets (weeks start on Monday, ISO) and `date_part` values.
 * A "wall" value is the local clock reading expressed as UTC epoch ms (instant + zone offset),
 * so calendar arithmetic runs on `Date.UTC` fields.
 */
import { DAY, HOUR, MINUTE, dayNumber, localMidnight, tzOffsetSeconds } from '../../fixtures/wearables/wearable-time.js';

export type Unit = 'minute' | 'hour' | 'day' | 'week' | 'month' | 'year';
export interface Period {
  value: number;
  unit: Unit;
}

const FIXED: Partial<Record<Unit, number>> = { minute: MINUTE, hour: HOUR, day: DAY, week: 7 * DAY };
/** Nominal length of a period (months as 30 days, years as 365), for comparing periods. */
export function nominalMs(p: Period): number {
  const unit = FIXED[p.unit] ?? (p.unit === 'month' ? 30 * DAY : 365 * DAY);
  return unit * p.value;
}

export const wallOf = (zone: string, t: number): number => t + tzOffsetSeconds(zone, t) * 1000;

/** The start of the `date_trunc` bucket holding wall time `w`. */
export function truncWall(w: number, p: Period): number {
  const n = p.value;
  switch (p.unit) {
    case 'minute':
    case 'hour':
    case 'day': {
      const size = (FIXED[p.unit] as number) * n;
      return Math.floor(w / size) * size;
    }
    case 'week': {
      // 1969-12-29 was a Monday: week k starts on epoch day 7k - 3.
      const week = Math.floor((Math.floor(w / DAY) + 3) / 7);
      return (Math.floor(week / n) * n * 7 - 3) * DAY;
    }
    case 'month': {
      const d = new Date(w);
      const m = Math.floor((d.getUTCFullYear() * 12 + d.getUTCMonth()) / n) * n;
      return Date.UTC(Math.floor(m / 12), m % 12, 1);
    }
    case 'year': {
      const y = Math.floor(new Date(w).getUTCFullYear() / n) * n;
      return Date.UTC(y, 0, 1);
    }
  }
}

/** The start of the bucket after the one starting at wall time `w`. */
export function nextWall(w: number, p: Period): number {
  const fixed = FIXED[p.unit];
  if (fixed !== undefined) return w + fixed * p.value;
  const d = new Date(w);
  if (p.unit === 'month') return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + p.value, 1);
  return Date.UTC(d.getUTCFullYear() + p.value, 0, 1);
}

/** A bucket's group key: its local start as `YYYY-MM-DDTHH:MM:SS` (the reference's example). */
export function bucketLabel(w: number): string {
  return new Date(w).toISOString().slice(0, 19);
}

function isoWeek(d: Date): number {
  const day = (d.getUTCDay() + 6) % 7; // Monday 0
  const thursday = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - day + 3);
  const jan4 = Date.UTC(new Date(thursday).getUTCFullYear(), 0, 4);
  const jan4Day = (new Date(jan4).getUTCDay() + 6) % 7;
  return 1 + Math.round(((thursday - jan4) / DAY - 3 + jan4Day) / 7);
}

/** `date_part` of wall time `w` (weekday: Monday 1 .. Sunday 7; week and week_of_year: ISO week). */
export function datePart(w: number, part: string): number {
  const d = new Date(w);
  switch (part) {
    case 'minute':
      return d.getUTCMinutes();
    case 'hour':
      return d.getUTCHours();
    case 'day':
      return d.getUTCDate();
    case 'month':
      return d.getUTCMonth() + 1;
    case 'year':
      return d.getUTCFullYear();
    case 'weekday':
      return ((d.getUTCDay() + 6) % 7) + 1;
    case 'day_of_year':
      return Math.floor((w - Date.UTC(d.getUTCFullYear(), 0, 1)) / DAY) + 1;
    default:
      return isoWeek(d);
  }
}

/**
 * The instants `[from, to)` of a relative timeframe: the `past` period ending at the end of the
 * `anchor` date, in the user's zone.
 */
export function windowOf(zone: string, anchor: string, past: Period): [number, number] {
  const endDay = dayNumber(anchor) + 1;
  const to = localMidnight(zone, endDay);
  switch (past.unit) {
    case 'minute':
    case 'hour':
      return [to - (FIXED[past.unit] as number) * past.value, to];
    case 'day':
    case 'week':
      return [localMidnight(zone, endDay - past.value * (past.unit === 'week' ? 7 : 1)), to];
    default: {
      const end = new Date(endDay * DAY);
      const months = past.unit === 'month' ? past.value : past.value * 12;
      const start = Date.UTC(end.getUTCFullYear(), end.getUTCMonth() - months, end.getUTCDate());
      return [localMidnight(zone, Math.floor(start / DAY)), to];
    }
  }
}
