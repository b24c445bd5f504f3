/**
 * The WHERE parser and evaluator (src/state/aggregate/where.ts) on their own: precedence, SQL's
 * three-valued logic, literals and quoting, syntax errors, and the nesting and size bounds that
 * keep a hostile clause a 422 instead of a stack overflow.
 */
import { describe, expect, it } from 'vitest';
import { evaluate, parseWhere, type Predicate, WhereSyntaxError } from '../../src/state/aggregate/where.js';

const COLUMNS = new Set(['a', 'b', 's', 'flag', 'n']);
const resolve = (id: string): string => {
  const name = id.startsWith('t.') ? id.slice(2) : id;
  if (!COLUMNS.has(name)) throw new WhereSyntaxError(`unknown column ${id}`);
  return name;
};
const parse = (text: string): Predicate => parseWhere(text, resolve);
const run = (text: string, row: Record<string, unknown>) => evaluate(parse(text), (name) => row[name]);

describe('parseWhere', () => {
  it('binds AND tighter than OR, NOT tighter than AND, parentheses first', () => {
    expect(parse('a = 1 OR b = 2 AND n = 3')).toMatchObject({ op: 'or', right: { op: 'and' } });
    expect(parse('NOT a = 1 AND b = 2')).toMatchObject({ op: 'and', left: { op: 'not' } });
    expect(parse('(a = 1 OR b = 2) AND n = 3')).toMatchObject({ op: 'and', left: { op: 'or' } });
  });

  it('reads literals: numbers, quoted strings with doubled quotes, TRUE, FALSE, NULL; <> is !=', () => {
    expect(parse("s = 'it''s'")).toEqual({
      op: 'cmp',
      cmp: '=',
      left: { kind: 'column', name: 's' },
      right: { kind: 'literal', value: "it's" },
    });
    expect(parse('a >= -1.5e2')).toMatchObject({ right: { kind: 'literal', value: -150 } });
    expect(parse('a <> 2')).toMatchObject({ cmp: '!=' });
    expect(parse('flag = true')).toMatchObject({ right: { kind: 'literal', value: true } });
    expect(parse('b is not null')).toEqual({ op: 'isnull', arg: { kind: 'column', name: 'b' }, negate: true });
    expect(parse('t.a = 1')).toMatchObject({ left: { kind: 'column', name: 'a' } });
  });

  it('refuses bad syntax and unknown columns with WhereSyntaxError', () => {
    for (const bad of ['', 'a =', "s = 'open", 'a = 1 b', '(a = 1', 'a ; 1', 'AND', 'a IS 1', 'zz = 1']) {
      expect(() => parse(bad), bad).toThrow(WhereSyntaxError);
    }
  });

  it('refuses clauses nested or sized past the bounds as syntax errors, not stack overflows', () => {
    const deep = (n: number) => `${'('.repeat(n)}a = 1${')'.repeat(n)}`;
    expect(() => parse(deep(32))).not.toThrow();
    expect(() => parse(deep(20_000))).toThrow(WhereSyntaxError);
    expect(() => parse(`${'NOT '.repeat(20_000)}flag`)).toThrow(WhereSyntaxError);
    expect(() => parse(Array.from({ length: 20_000 }, () => 'a = 1').join(' AND '))).toThrow(WhereSyntaxError);
  });
});

describe('evaluate', () => {
  it('compares like SQL: a null or a type mismatch is unknown, and unknown is not kept', () => {
    expect(run('a > 1', { a: 2 })).toBe(true);
    expect(run('a > 1', { a: null })).toBeNull();
    expect(run("a = '2'", { a: 2 })).toBeNull();
    expect(run('NOT a > 1', { a: undefined })).toBeNull();
    expect(run("s < 'b'", { s: 'a' })).toBe(true);
  });

  it('follows three-valued AND and OR', () => {
    expect(run('a = 1 AND b = 1', { a: 2, b: null })).toBe(false);
    expect(run('a = 1 AND b = 1', { a: 1, b: null })).toBeNull();
    expect(run('a = 1 OR b = 1', { a: 1, b: null })).toBe(true);
    expect(run('a = 1 OR b = 1', { a: 2, b: null })).toBeNull();
  });

  it('IS [NOT] NULL is never unknown; a bare column is true only for a true boolean', () => {
    expect(run('b IS NULL', { b: null })).toBe(true);
    expect(run('b IS NOT NULL', { b: 0 })).toBe(true);
    expect(run('flag', { flag: true })).toBe(true);
    expect(run('flag', { flag: 1 })).toBeNull();
    expect(run('NOT flag', { flag: false })).toBe(true);
  });
});
