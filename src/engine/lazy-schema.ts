/**
 * Module-scope zod schemas built on first use (issue 33, start-up): `lazySchema(() => z.object(...))`
 * returns at once an object that becomes that schema the first time anything reads from it (a
 * property, a method, `instanceof z.ZodType`, `in`). Its identity never changes, so registries,
 * `Map`s keyed by schema (the OpenAPI builder's `$ref` names) and parents built from it all hold
 * the one object; once built it is an ordinary zod schema (its prototype is the schema's class,
 * no proxy is left on the way), so parsing costs what it costs for an eager one.
 *
 * How: until then the object's prototype is a proxy whose traps build it. Building runs the
 * thunk, then runs the same zod constructor with the thunk's definition on the object itself
 * (zod's constructors are plain functions: every closure of the schema then refers to this
 * object, which `toJSONSchema`'s bookkeeping relies on), and carries over what zod keeps beside
 * the definition: the parent of a clone (`.describe()`, `.meta()`, `.check()` make one) and the
 * global registry's metadata (a description, an example). The answers are the same: the schema
 * is built from the same definition, and a schema nobody reads never runs its thunk.
 */
import { z } from 'zod';

/** Builds `self` as the schema `thunk` makes (see the file's comment). */
function build(self: object, thunk: () => z.ZodType): void {
  const made = thunk();
  const internals = made._zod;
  Object.setPrototypeOf(self, Object.getPrototypeOf(made));
  const constr = internals.constr as unknown as (this: object, def: unknown) => void;
  constr.call(self, internals.def);
  const schema = self as z.ZodType;
  if (internals.parent !== undefined) schema._zod.parent = internals.parent;
  // The clone's own metadata (the registry merges a parent's into it on read).
  const own = z.globalRegistry._map.get(made);
  if (own !== undefined) z.globalRegistry.add(schema, own);
}

/** A schema built on its first use (see the file's comment); typed as the schema the thunk returns. */
export function lazySchema<T extends z.ZodType>(thunk: () => T): T {
  let built = false;
  const first = (): void => {
    if (built) return;
    built = true;
    build(self, thunk);
  };
  // Any read of a property not built yet lands on this prototype: build, then read the schema.
  const trap = new Proxy(Object.create(null) as object, {
    get: (_target, key) => (first(), Reflect.get(self, key, self)),
    has: (_target, key) => (first(), Reflect.has(self, key)),
    set: (_target, key, value) => (first(), Reflect.set(self, key, value, self)),
  });
  const self = Object.create(trap) as object;
  return self as T;
}
