/**
 * Parses path, query and body with zod and turns failures into FastAPI/pydantic-shaped 422
 * items (`{"detail":[{"type","loc","msg","input"}]}`), the way the real service answers.
 */
import type { z } from 'zod';
import { type ValidationItem, validationError, valueErrorItem } from './errors.js';
import { truncateEcho } from './limits.js';

type Where = 'path' | 'query' | 'body';

interface ZodInternals {
  _zod: { def: { type: string; innerType?: z.ZodType; in?: z.ZodType; shape?: Record<string, z.ZodType> } };
}

function defOf(schema: z.ZodType): ZodInternals['_zod']['def'] {
  return (schema as unknown as ZodInternals)._zod.def;
}

/** Whether a (possibly wrapped) schema is an array: such query keys keep every value. */
function isArraySchema(schema: z.ZodType): boolean {
  let s: z.ZodType | undefined = schema;
  for (let i = 0; s && i < 10; i++) {
    const def = defOf(s);
    if (def.type === 'array') return true;
    s = def.innerType ?? def.in;
  }
  return false;
}

/** The object shape of a (possibly wrapped) object schema, if any. */
function shapeOf(schema: z.ZodType): Record<string, z.ZodType> | undefined {
  let s: z.ZodType | undefined = schema;
  for (let i = 0; s && i < 10; i++) {
    const def = defOf(s);
    if (def.type === 'object') return def.shape;
    s = def.innerType ?? def.in;
  }
  return undefined;
}

const arrayKeysCache = new WeakMap<z.ZodType, Set<string>>();

function arrayKeys(schema: z.ZodType): Set<string> {
  let keys = arrayKeysCache.get(schema);
  if (!keys) {
    keys = new Set();
    const shape = shapeOf(schema);
    if (shape) for (const [k, v] of Object.entries(shape)) if (isArraySchema(v)) keys.add(k);
    arrayKeysCache.set(schema, keys);
  }
  return keys;
}

/** Flattens a multi-valued query into what the schema expects (arrays stay arrays). */
export function queryObject(schema: z.ZodType, query: Record<string, string[]>): Record<string, unknown> {
  const arrays = arrayKeys(schema);
  const out: Record<string, unknown> = {};
  for (const [key, values] of Object.entries(query)) {
    const name = key.endsWith('[]') ? key.slice(0, -2) : key;
    if (arrays.has(name)) {
      const prev = out[name];
      out[name] = Array.isArray(prev) ? [...(prev as string[]), ...values] : values;
    } else {
      out[name] = values[0];
    }
  }
  return out;
}

export function parseWith<T>(schema: z.ZodType<T>, data: unknown, where: Where): T {
  const result = schema.safeParse(data, { reportInput: true });
  if (result.success) return result.data;
  throw validationError(result.error.issues.map((issue) => toItem(issue, where, data)));
}

/** Path values already accepted, per params schema (one path parameter): value -> parsed value. */
const acceptedPaths = new WeakMap<z.ZodType, Map<string, unknown>>();
/** Values remembered per schema before its memo starts over (a bound on memory, not on speed). */
const PATH_MEMO = 1024;

/**
 * `parseWith(schema, params, 'path')` for a route's path parameters. A params schema is a pure
 * function of its input (a module-level zod object of strings, uuids and the like), so a value it
 * accepted once is accepted again with the same result: with one parameter, the result is
 * remembered per value (a fresh object each time; refusals are never remembered, so every 422 is
 * zod's own).
 */
export function parsePathParams(schema: z.ZodType, params: Record<string, string>): unknown {
  let name: string | undefined;
  for (const key in params) {
    if (name !== undefined) return parseWith(schema, params, 'path');
    name = key;
  }
  if (name === undefined) return parseWith(schema, params, 'path');
  const value = params[name] as string;
  let memo = acceptedPaths.get(schema);
  const known = memo?.get(value);
  if (known !== undefined) return { [name]: known };
  const parsed = parseWith(schema, params, 'path') as Record<string, unknown>;
  const out = parsed[name];
  let only = true;
  for (const key in parsed) if (key !== name) only = false;
  // Remembered only when the result is that one parameter, a primitive (a copy is then exact).
  if (only && out !== undefined && out !== null && typeof out !== 'object' && typeof out !== 'function') {
    if (memo === undefined) acceptedPaths.set(schema, (memo = new Map()));
    else if (memo.size >= PATH_MEMO) memo.clear();
    memo.set(value, out);
  }
  return parsed;
}

function valueAt(data: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let cur: unknown = data;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[key];
  }
  return cur;
}

function describe(values: readonly unknown[]): string {
  const quoted = values.map((v) => (typeof v === 'string' ? `'${v}'` : String(v)));
  if (quoted.length <= 1) return quoted.join('');
  return `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}`;
}

/** One zod issue as a pydantic-style item. */
export function toItem(issue: z.core.$ZodIssue, where: Where, data: unknown): ValidationItem {
  const loc: Array<string | number> = [where, ...issue.path.map((p) => (typeof p === 'number' ? p : String(p)))];
  const raw = valueAt(data, issue.path);
  const input = raw !== undefined ? raw : 'input' in issue ? issue.input : undefined;
  const item = (type: string, msg: string, ctx?: Record<string, unknown>): ValidationItem => {
    const out: ValidationItem = { type, loc, msg };
    if (input !== undefined) out.input = truncateEcho(input);
    if (ctx) out.ctx = ctx;
    return out;
  };
  switch (issue.code) {
    case 'invalid_type': {
      if (input === undefined) return item('missing', 'Field required');
      switch (issue.expected) {
        case 'string':
          return item('string_type', 'Input should be a valid string');
        case 'int':
          return item('int_parsing', 'Input should be a valid integer, unable to parse string as an integer');
        case 'number':
          return item('float_parsing', 'Input should be a valid number, unable to parse string as a number');
        case 'boolean':
          return item('bool_parsing', 'Input should be a valid boolean, unable to interpret input');
        case 'array':
          return item('list_type', 'Input should be a valid list');
        case 'object':
          return item(
            issue.path.length === 0 ? 'model_attributes_type' : 'dict_type',
            'Input should be a valid dictionary or object to extract fields from',
          );
        default:
          return item(`${issue.expected}_type`, `Input should be a valid ${issue.expected}`);
      }
    }
    case 'too_small': {
      if (issue.origin === 'string')
        return item('string_too_short', `String should have at least ${issue.minimum} character${Number(issue.minimum) === 1 ? '' : 's'}`, {
          min_length: Number(issue.minimum),
        });
      if (issue.origin === 'array' || issue.origin === 'set')
        return item(
          'too_short',
          `List should have at least ${issue.minimum} item${Number(issue.minimum) === 1 ? '' : 's'} after validation`,
          { min_length: Number(issue.minimum) },
        );
      return issue.inclusive === false
        ? item('greater_than', `Input should be greater than ${issue.minimum}`, { gt: Number(issue.minimum) })
        : item('greater_than_equal', `Input should be greater than or equal to ${issue.minimum}`, { ge: Number(issue.minimum) });
    }
    case 'too_big': {
      if (issue.origin === 'string')
        return item('string_too_long', `String should have at most ${issue.maximum} character${Number(issue.maximum) === 1 ? '' : 's'}`, {
          max_length: Number(issue.maximum),
        });
      if (issue.origin === 'array' || issue.origin === 'set')
        return item(
          'too_long',
          `List should have at most ${issue.maximum} item${Number(issue.maximum) === 1 ? '' : 's'} after validation`,
          { max_length: Number(issue.maximum) },
        );
      return issue.inclusive === false
        ? item('less_than', `Input should be less than ${issue.maximum}`, { lt: Number(issue.maximum) })
        : item('less_than_equal', `Input should be less than or equal to ${issue.maximum}`, { le: Number(issue.maximum) });
    }
    case 'invalid_format': {
      if (issue.format === 'uuid' || issue.format === 'guid')
        return item(
          'uuid_parsing',
          'Input should be a valid UUID, invalid character: expected an optional prefix of `urn:uuid:` followed by [0-9a-fA-F-]',
        );
      if (issue.format === 'date')
        return item('date_from_datetime_parsing', 'Input should be a valid date or datetime, invalid date format');
      if (issue.format === 'datetime')
        return item('datetime_from_date_parsing', 'Input should be a valid datetime or date, invalid datetime format');
      if (issue.format === 'email') return item('value_error', 'value is not a valid email address: An email address must have an @-sign.');
      if (issue.format === 'url') return item('url_parsing', 'Input should be a valid URL');
      if (issue.format === 'regex')
        return item('string_pattern_mismatch', `String should match pattern '${(issue as { pattern?: string }).pattern ?? ''}'`);
      return item('value_error', `Value error, ${issue.message}`);
    }
    case 'invalid_value':
      if (input === undefined) return item('missing', 'Field required');
      return item('enum', `Input should be ${describe(issue.values)}`, { expected: describe(issue.values) });
    case 'unrecognized_keys':
      return item('extra_forbidden', 'Extra inputs are not permitted');
    case 'custom': {
      const rule = (issue.params as { valueError?: { input?: unknown } } | undefined)?.valueError;
      if (rule) {
        // Exactly `valueError(loc, message, input)`: the rule's own input, echoed as given.
        return valueErrorItem(loc, issue.message, rule.input);
      }
      const exact = (issue.params as { pydantic?: { type: string; msg: string } } | undefined)?.pydantic;
      if (exact) return item(exact.type, exact.msg);
      return item('value_error', `Value error, ${issue.message}`, { error: issue.message });
    }
    default:
      return item('value_error', issue.message);
  }
}
