/**
 * Shared request-schema pieces (zod 4), compiled once at import. Messages follow pydantic's so
 * 422 bodies look like the real service's.
 */
import { z } from 'zod';

/** A custom issue that `validation.ts` renders with exactly this pydantic type and message. */
function pydanticIssue(ctx: z.core.$RefinementCtx<unknown>, type: string, msg: string, input: unknown): void {
  ctx.addIssue({ code: 'custom', message: msg, input, params: { pydantic: { type, msg } } });
}

/**
 * A request rule zod's built-ins cannot say (one of, both or neither, an order between fields, a
 * format with its own text): where it failed (relative to the schema it refines; `[]` is the
 * schema itself), the text after `Value error, ` and the value to echo as `input` (none when
 * undefined).
 */
export interface RuleFailure {
  path?: Array<string | number>;
  message: string;
  input?: unknown;
}

/** A rule over a schema's parsed value: a failure, or nothing when the value keeps the rule. */
type Rule<T> = (value: T) => RuleFailure | null | undefined | false;

/**
 * Adds request rules to a schema. The first rule that fails becomes one pydantic `value_error`
 * item, rendered byte for byte like `valueError(loc, message, input)` (`validation.ts`). The rules
 * run only when the value parsed without an issue, so a request answers either its type and
 * bound errors or the first rule it breaks, never both.
 */
export function withRules<S extends z.ZodType>(schema: S, ...rules: Array<Rule<z.output<S>>>): S {
  return schema.superRefine(
    (value, ctx) => {
      for (const rule of rules) {
        const failure = rule(value as z.output<S>);
        if (!failure) continue;
        addRuleIssue(ctx, failure);
        return;
      }
    },
    { when: (payload) => payload.issues.length === 0 },
  );
}

/** Reports a broken rule from a refinement or transform (rendered like `valueError`, see `withRules`). */
function addRuleIssue(ctx: z.core.$RefinementCtx<unknown>, failure: RuleFailure): void {
  ctx.addIssue({ code: 'custom', message: failure.message, path: failure.path ?? [], params: { valueError: { input: failure.input } } });
}

/** Any UUID-shaped string (FastAPI's UUID type is not version-strict). */
export const uuid = () => z.guid();

/**
 * The examples the OpenAPI document (and the `/docs` page's "try it out") shows for dates and time
 * zones: values the sandbox accepts (left out, the page invents `"string"` and dates from the
 * pattern, such as the year 8804). test/users/docs-examples.test.ts sends each one.
 */
const EXAMPLE_DATE = '2026-01-05';
export const EXAMPLE_TIME_ZONE = 'Europe/London';

/** `YYYY-MM-DD`, a real calendar date. */
export const isoDate = () => z.iso.date().meta({ example: EXAMPLE_DATE });

/** A number from a query string or JSON number: `parse` reads the text, `valid` judges the result. */
function parsedNumber(
  bounds: { min?: number; max?: number },
  parse: (text: string) => number,
  valid: (n: number) => boolean,
  issue: { type: string; msg: string },
) {
  let inner = z.number();
  if (bounds.min !== undefined) inner = inner.min(bounds.min);
  if (bounds.max !== undefined) inner = inner.max(bounds.max);
  return z
    .union([z.number(), z.string()])
    .transform((v, ctx) => {
      const n = typeof v === 'number' ? v : parse(v);
      if (!valid(n)) {
        pydanticIssue(ctx, issue.type, issue.msg, v);
        return z.NEVER;
      }
      return n;
    })
    .pipe(inner);
}

/** An integer from a query string or JSON number. */
export function int(bounds: { min?: number; max?: number } = {}) {
  return parsedNumber(bounds, (v) => (/^\s*[+-]?\d+\s*$/.test(v) ? Number(v) : Number.NaN), Number.isInteger, {
    type: 'int_parsing',
    msg: 'Input should be a valid integer, unable to parse string as an integer',
  });
}

/** A number from a query string or JSON number. */
export function num(bounds: { min?: number; max?: number } = {}) {
  return parsedNumber(bounds, (v) => (v.trim() === '' ? Number.NaN : Number(v)), Number.isFinite, {
    type: 'float_parsing',
    msg: 'Input should be a valid number, unable to parse string as a number',
  });
}

const TRUE = new Set(['true', '1', 'yes', 'on', 't', 'y']);
const FALSE = new Set(['false', '0', 'no', 'off', 'f', 'n']);

/** A boolean from a query string (pydantic's accepted spellings) or JSON boolean. */
export function bool() {
  return z.union([z.boolean(), z.string()]).transform((v, ctx) => {
    if (typeof v === 'boolean') return v;
    const s = v.trim().toLowerCase();
    if (TRUE.has(s)) return true;
    if (FALSE.has(s)) return false;
    pydanticIssue(ctx, 'bool_parsing', 'Input should be a valid boolean, unable to interpret input', v);
    return z.NEVER;
  });
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Whether a leading `YYYY-MM-DD` (if any) is a real calendar date. `Date.parse` quietly rolls
 * `2026-02-30T00:00:00Z` over to March 2; pydantic refuses it.
 */
export function realCalendarDate(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(text.trim());
  if (!m) return true;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const last = month === 2 && leap ? 29 : MONTH_DAYS[month - 1];
  return last !== undefined && day >= 1 && day <= last;
}
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * A date or ISO date-time bound, as epoch ms. A date alone gets `dateOnlyTime`
 * (`00:00:00` for start bounds, `23:59:59` for inclusive end bounds); a date-time without
 * an offset is UTC.
 */
export function dateOrDateTime(dateOnlyTime: 'start' | 'end') {
  return z
    .string()
    .meta({ example: EXAMPLE_DATE })
    .transform((v, ctx) => {
      const s = v.trim();
      let ms: number;
      if (DATE_ONLY.test(s)) {
        ms = Date.parse(`${s}T${dateOnlyTime === 'start' ? '00:00:00.000' : '23:59:59.000'}Z`);
        if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== s) ms = Number.NaN;
      } else if (DATE_TIME.test(s)) {
        const hasZone = /(Z|[+-]\d{2}:?\d{2})$/i.test(s);
        ms = realCalendarDate(s) ? Date.parse(hasZone ? s.replace(' ', 'T') : `${s.replace(' ', 'T')}Z`) : Number.NaN;
      } else {
        ms = Number.NaN;
      }
      if (Number.isNaN(ms)) {
        pydanticIssue(
          ctx,
          'datetime_from_date_parsing',
          'Input should be a valid datetime or date, invalid date separator, expected `-`',
          v,
        );
        return z.NEVER;
      }
      return ms;
    });
}

/** Verdicts per zone name; the names come from requests, so the memo is bounded (cleared when full). */
const zoneCache = new Map<string, boolean>();
const ZONE_CACHE_LIMIT = 1024;

/** Whether `id` is an IANA time zone this runtime knows. */
export function isTimeZone(id: string): boolean {
  let ok = zoneCache.get(id);
  if (ok === undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: id });
      ok = id.length > 0 && !/^[+-]?\d/.test(id);
    } catch {
      ok = false;
    }
    if (zoneCache.size >= ZONE_CACHE_LIMIT) zoneCache.clear();
    zoneCache.set(id, ok);
  }
  return ok;
}

/** An IANA time zone id. */
export const timeZone = () =>
  z
    .string()
    .meta({ example: EXAMPLE_TIME_ZONE })
    .refine(isTimeZone, { message: 'Invalid time zone: expected an IANA time zone identifier such as Europe/London' });

/** A US zip code, five digits or ZIP+4. */
export const usZip = () => z.string().regex(/^\d{5}(-\d{4})?$/);

/** A US address as the appointment requests carry it (`zip_code`, `unit`). */
export const usAddress = () =>
  z.object({
    first_line: z.string(),
    second_line: z.string().nullish(),
    city: z.string(),
    state: z.string(),
    zip_code: usZip(),
    unit: z.string().nullish(),
    access_notes: z.string().max(1000).nullish(),
  });

/** A postal address as requests carry it (patient, guarantor and insured addresses). */
export const postalAddress = () =>
  z.object({
    first_line: z.string(),
    second_line: z.string().nullish(),
    country: z.string(),
    zip: z.string(),
    city: z.string(),
    state: z.string(),
    access_notes: z.string().max(1000).nullish(),
  });

/** A guarantor or medical proxy (`medical_proxy` of a user's info and of an order's patient details). */
export const guarantor = () =>
  z.object({
    first_name: z.string(),
    last_name: z.string(),
    address: postalAddress(),
    phone_number: z.string(),
    household_income: z.number().int().nullish(),
    household_size: z.number().int().nullish(),
    email: z.string().nullish(),
  });
