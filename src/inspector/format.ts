/**
 * The inspector's formatting, with no DOM: times, masked keys, JSON, status classes, query
 * strings, names and ranges that a world may leave empty. Unit-tested in test/journal/inspector-logic.test.ts.
 */

/** `2026-01-05 09:00:00` (sandbox times are UTC; the date is always shown), or '' for none. */
export function time(iso: string | null | undefined): string {
  if (!iso) return '';
  return String(iso)
    .replace('T', ' ')
    .replace(/\.\d+Z$|Z$/, '');
}

/** The day (`YYYY-MM-DD`) of an instant, moved by whole days. */
export function day(iso: string, deltaDays = 0): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return '';
  return new Date(at + deltaDays * 86_400_000).toISOString().slice(0, 10);
}

/** A secret cut to a short prefix. */
export function mask(value: string | null | undefined): string {
  return value ? `${value.slice(0, Math.min(8, Math.floor(value.length / 3)))}***` : '';
}

/** The first 8 characters of an id. */
export function short(id: string | null | undefined): string {
  return id ? String(id).slice(0, 8) : '';
}

export function indented(value: unknown): string {
  return JSON.stringify(value, null, 2) ?? String(value);
}

/** A body as text: JSON indented, anything else as it is. */
export function pretty(text: string | null | undefined): string {
  if (text === null || text === undefined) return '';
  try {
    return indented(JSON.parse(text));
  } catch {
    return text;
  }
}

export function statusClass(status: number): 's2' | 's4' | 's5' {
  return status >= 500 ? 's5' : status >= 400 ? 's4' : 's2';
}

/** `?a=1&b=x%20y` of the given values, skipping empty ones; '' when none. */
export function qs(values: Record<string, string | number | boolean | null | undefined>): string {
  const pairs: string[] = [];
  for (const [k, v] of Object.entries(values)) {
    if (v === undefined || v === null || v === '') continue;
    pairs.push(`${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`);
  }
  return pairs.length ? `?${pairs.join('&')}` : '';
}

/** A patient's name, or '-' when the order has none (a test-kit order may have `patient_details: null`). */
export function patientName(p: { first_name?: string | null; last_name?: string | null } | null | undefined): string {
  const name = [p?.first_name, p?.last_name].filter((x) => typeof x === 'string' && x !== '').join(' ');
  return name || '-';
}

/** A reference range: `3.5 to 5.1`, `below 199`, `above 40`, or '' when neither bound is known. */
export function rangeText(min: number | null | undefined, max: number | null | undefined): string {
  const hasMin = typeof min === 'number';
  const hasMax = typeof max === 'number';
  if (hasMin && hasMax) return `${min} to ${max}`;
  if (hasMax) return `below ${max}`;
  if (hasMin) return `above ${min}`;
  return '';
}

/** A time range `a to b`, with a missing end said as such. */
export function timeRange(from: string | null | undefined, to: string | null | undefined): string {
  if (!from && !to) return '-';
  return `${time(from) || '(open)'} to ${time(to) || '(open)'}`;
}

/** A value for a table cell: '-' for nothing, JSON for objects. */
export function cell(value: unknown): string {
  if (value === null || value === undefined || value === '') return '-';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
