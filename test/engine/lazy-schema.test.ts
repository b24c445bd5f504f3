/**
 * `lazySchema` (src/engine/lazy-schema.ts, issue 33's start-up): a module-scope schema built on
 * first use behaves as the eager one would, keeps its identity, and costs nothing until read.
 */
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { lazySchema } from '../../src/engine/lazy-schema.js';

/** The same three schemas, eager or lazy: an object with a description, a nullable of it, a parent of both. */
function family(lazy: boolean) {
  const wrap = <T extends z.ZodType>(make: () => T): T => (lazy ? lazySchema(make) : make());
  const A = wrap(() => z.object({ a: z.string().nullable(), n: z.number().int().min(1) }).describe('an A'));
  const B = wrap(() => A.nullable());
  const C = wrap(() => z.object({ b: B, list: z.array(A), when: z.string().meta({ example: '2026-01-05' }).optional() }));
  return { A, B, C };
}

/** What the OpenAPI builder does with named schemas: one registry, `$ref`s between them. */
function components(s: ReturnType<typeof family>): string {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(s)) registry.add(schema, { id });
  return JSON.stringify(z.toJSONSchema(registry, { io: 'input', unrepresentable: 'any', uri: (id) => `#/components/schemas/${id}` }));
}

describe('lazySchema', () => {
  it('keeps importing the package cheap: at most 500 zod schemas built (5,781 before module-scope schemas were lazy)', async () => {
    const config = globalThis as { __zod_globalConfig?: { postProcessor?: (schema: unknown) => void } };
    let built = 0;
    const saved = config.__zod_globalConfig;
    config.__zod_globalConfig = { ...saved, postProcessor: () => built++ };
    try {
      vi.resetModules(); // a fresh evaluation of the package's modules (the files of a worker share them)
      await import('../../src/index.js');
    } finally {
      config.__zod_globalConfig = saved;
    }
    expect(built).toBeGreaterThan(0);
    expect(built).toBeLessThanOrEqual(500);
  });

  it('runs no thunk until the schema is read, and each thunk once', () => {
    let runs = 0;
    const S = lazySchema(() => {
      runs++;
      return z.object({ x: z.number() });
    });
    const holder = z.object({ s: S });
    expect(runs).toBe(0);
    expect(holder.parse({ s: { x: 1 } })).toEqual({ s: { x: 1 } });
    expect(S.parse({ x: 2 })).toEqual({ x: 2 });
    expect(runs).toBe(1);
  });

  it('is a zod schema of the right class once read, with no proxy left on its prototype chain', () => {
    const S = lazySchema(() => z.object({ x: z.number() }));
    expect(S instanceof z.ZodType).toBe(true);
    expect(S instanceof z.ZodObject).toBe(true);
    expect(Object.getPrototypeOf(S)).toBe(Object.getPrototypeOf(z.object({})));
    expect(Object.keys(S.shape)).toEqual(['x']);
  });

  it('answers parses, issues and JSON Schemas exactly as the eager schemas do', () => {
    const eager = family(false);
    const lazy = family(true);
    expect(components(lazy)).toBe(components(eager));
    for (const input of [{ b: null, list: [] }, { b: { a: 'x', n: 0 }, list: [{ a: 1 }] }, { b: 3 }, null]) {
      expect(JSON.stringify(lazy.C.safeParse(input))).toBe(JSON.stringify(eager.C.safeParse(input)));
    }
    expect(JSON.stringify(z.toJSONSchema(lazy.B))).toBe(JSON.stringify(z.toJSONSchema(eager.B)));
    expect(z.globalRegistry.get(lazy.A)).toEqual({ description: 'an A' });
  });

  it('keeps one identity: parents built from it hold the very object', () => {
    const { A, C } = family(true);
    expect(C.shape.list.element).toBe(A);
    const ids = new Map<z.ZodType, string>([[A, 'A']]);
    expect(ids.get(C.shape.list.element)).toBe('A');
  });

  it('builds on `in` and on a write as well as on a read', () => {
    const S = lazySchema(() => z.string());
    expect('parse' in S).toBe(true);
    const T = lazySchema(() => z.string()) as z.ZodString & { note?: string };
    T.note = 'kept';
    expect(T.note).toBe('kept');
    expect(T.parse('x')).toBe('x');
  });
});
