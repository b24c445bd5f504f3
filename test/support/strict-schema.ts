/**
 * A deep strict copy of a zod schema, for tests only (never on the request path): every object
 * in it refuses keys it does not declare (`z.strictObject`), through arrays, optionals,
 * nullables, defaults, unions, records and lazy schemas. Objects with a catchall (`looseObject`,
 * `.catchall()`) stay open; intersections and pipes (transforms) are kept as they are (a strict
 * side of an intersection would refuse the other side's keys).
 */
import { z } from 'zod';

type Strict = (schema: z.ZodType) => z.ZodType;

function strictOf(s: z.ZodType, r: Strict): z.ZodType {
  if (s instanceof z.ZodObject) {
    const shape = Object.fromEntries(Object.entries(s.shape as Record<string, z.ZodType>).map(([k, v]) => [k, r(v)]));
    const catchall = s._zod.def.catchall;
    if (catchall !== undefined && !(catchall instanceof z.ZodNever)) return z.object(shape).catchall(r(catchall as z.ZodType));
    return z.strictObject(shape);
  }
  if (s instanceof z.ZodArray) return z.array(r(s.element as z.ZodType));
  if (s instanceof z.ZodOptional) return r(s.unwrap() as z.ZodType).optional();
  if (s instanceof z.ZodNullable) return r(s.unwrap() as z.ZodType).nullable();
  if (s instanceof z.ZodDefault) return r(s.unwrap() as z.ZodType).optional();
  if (s instanceof z.ZodUnion) return z.union((s.options as z.ZodType[]).map(r));
  if (s instanceof z.ZodRecord) return z.record(s.keyType as z.ZodString, r(s.valueType as z.ZodType));
  if (s instanceof z.ZodLazy) return r(s._zod.def.getter() as z.ZodType);
  return s;
}

/** The deep strict copy of `schema` (recursive schemas included: each schema is copied once). */
export function strictSchema(schema: z.ZodType): z.ZodType {
  const seen = new Map<z.ZodType, z.ZodType>();
  const r: Strict = (s) => {
    const hit = seen.get(s);
    if (hit !== undefined) return hit;
    let made: z.ZodType | undefined;
    seen.set(
      s,
      z.lazy(() => made as z.ZodType),
    );
    made = strictOf(s, r);
    seen.set(s, made);
    return made;
  };
  return r(schema);
}
