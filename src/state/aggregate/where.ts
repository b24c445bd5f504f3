/**
 * The WHERE clause of the aggregate query language (data OpenAPI `Query.where`): SQL expression
 * syntax with `>`, `>=`, `<`, `<=`, `=`, `!=` (and `<>`), `NOT`, `AND`, `OR` and parentheses.
 * Operands are column names of the query's table (bare, or `table.column`), single-quoted
 * strings (`''` escapes a quote), numbers, `TRUE`, `FALSE` and `NULL`; `IS [NOT] NULL` too.
 * Comparisons follow SQL's three-valued logic: a comparison with a null is unknown, and a row
 * is kept only when the whole clause is true.
 *
 * Parsed once when the query is planned (an unknown column or a syntax error is a 422), then
 * evaluated per row.
 */

type Scalar = string | number | boolean | null;

export type Predicate =
  | { op: 'and' | 'or'; left: Predicate; right: Predicate }
  | { op: 'not'; arg: Predicate }
  | { op: 'cmp'; cmp: Cmp; left: Operand; right: Operand }
  | { op: 'isnull'; arg: Operand; negate: boolean }
  | { op: 'truth'; arg: Operand };

type Cmp = '=' | '!=' | '<' | '<=' | '>' | '>=';
export type Operand = { kind: 'literal'; value: Scalar } | { kind: 'column'; name: string };

export class WhereSyntaxError extends Error {}

/**
 * Bounds that keep parsing and per-row evaluation (both recursive) far from the stack's limit: a
 * clause past them is a syntax error (422), never a stack overflow (500). Invented (the real
 * service states none); docs/simulated/aggregate.md.
 */
const WHERE_MAX_TOKENS = 2000;
const WHERE_MAX_DEPTH = 64;

type Token = { t: 'ident' | 'num' | 'str' | 'op' | 'lp' | 'rp'; v: string };

/** Sticky (read at `lastIndex` only): no copy of the rest of the text per token. */
const NUMBER = /-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?/y;
const IDENT = /[A-Za-z_][A-Za-z0-9_.]*/y;

function tokenize(text: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (out.length >= WHERE_MAX_TOKENS) throw new WhereSyntaxError(`more than ${WHERE_MAX_TOKENS} tokens`);
    if (c === '(' || c === ')') {
      out.push({ t: c === '(' ? 'lp' : 'rp', v: c });
      i++;
      continue;
    }
    const two = text.slice(i, i + 2);
    if (two === '>=' || two === '<=' || two === '!=' || two === '<>') {
      out.push({ t: 'op', v: two === '<>' ? '!=' : two });
      i += 2;
      continue;
    }
    if (c === '>' || c === '<' || c === '=') {
      out.push({ t: 'op', v: c });
      i++;
      continue;
    }
    if (c === "'") {
      let s = '';
      i++;
      for (;;) {
        if (i >= text.length) throw new WhereSyntaxError('unterminated string literal');
        if (text[i] === "'") {
          if (text[i + 1] === "'") {
            s += "'";
            i += 2;
            continue;
          }
          i++;
          break;
        }
        s += text[i];
        i++;
      }
      out.push({ t: 'str', v: s });
      continue;
    }
    NUMBER.lastIndex = i;
    const num = NUMBER.exec(text);
    if (num) {
      out.push({ t: 'num', v: num[0] });
      i += num[0].length;
      continue;
    }
    IDENT.lastIndex = i;
    const id = IDENT.exec(text);
    if (id) {
      out.push({ t: 'ident', v: id[0] });
      i += id[0].length;
      continue;
    }
    throw new WhereSyntaxError(`unexpected character '${c}' at position ${i}`);
  }
  return out;
}

const KEYWORDS = new Set(['AND', 'OR', 'NOT', 'IS', 'NULL', 'TRUE', 'FALSE']);

/** Parses a WHERE clause; `resolve` maps an identifier to a column name (or throws). */
export function parseWhere(text: string, resolve: (ident: string) => string): Predicate {
  const tokens = tokenize(text);
  let pos = 0;
  let depth = 0;
  const nested = <T>(inner: () => T): T => {
    if (++depth > WHERE_MAX_DEPTH) throw new WhereSyntaxError(`nested more than ${WHERE_MAX_DEPTH} levels deep`);
    const out = inner();
    depth--;
    return out;
  };
  const peek = () => tokens[pos];
  const kw = (word: string) => {
    const t = peek();
    return t !== undefined && t.t === 'ident' && t.v.toUpperCase() === word;
  };
  const expectKw = (word: string) => {
    if (!kw(word)) throw new WhereSyntaxError(`expected ${word}`);
    pos++;
  };
  const operand = (): Operand => {
    const t = tokens[pos++];
    if (!t) throw new WhereSyntaxError('unexpected end of expression');
    if (t.t === 'num') return { kind: 'literal', value: Number(t.v) };
    if (t.t === 'str') return { kind: 'literal', value: t.v };
    if (t.t === 'ident') {
      const up = t.v.toUpperCase();
      if (up === 'NULL') return { kind: 'literal', value: null };
      if (up === 'TRUE' || up === 'FALSE') return { kind: 'literal', value: up === 'TRUE' };
      if (KEYWORDS.has(up)) throw new WhereSyntaxError(`unexpected ${up}`);
      return { kind: 'column', name: resolve(t.v) };
    }
    throw new WhereSyntaxError(`unexpected '${t.v}'`);
  };
  const primary = (): Predicate => {
    const t = peek();
    if (t?.t === 'lp') {
      pos++;
      const inner = nested(or);
      if (peek()?.t !== 'rp') throw new WhereSyntaxError('expected )');
      pos++;
      return inner;
    }
    const left = operand();
    if (kw('IS')) {
      pos++;
      const negate = kw('NOT');
      if (negate) pos++;
      expectKw('NULL');
      return { op: 'isnull', arg: left, negate };
    }
    const o = peek();
    if (o?.t === 'op') {
      pos++;
      return { op: 'cmp', cmp: o.v as Cmp, left, right: operand() };
    }
    return { op: 'truth', arg: left };
  };
  const not = (): Predicate => {
    if (kw('NOT')) {
      pos++;
      return { op: 'not', arg: nested(not) };
    }
    return primary();
  };
  const and = (): Predicate => {
    let left = not();
    while (kw('AND')) {
      pos++;
      left = { op: 'and', left, right: not() };
    }
    return left;
  };
  const or = (): Predicate => {
    let left = and();
    while (kw('OR')) {
      pos++;
      left = { op: 'or', left, right: and() };
    }
    return left;
  };
  if (tokens.length === 0) throw new WhereSyntaxError('empty expression');
  const p = or();
  if (pos < tokens.length) throw new WhereSyntaxError(`unexpected '${(tokens[pos] as Token).v}'`);
  return p;
}

function compare(cmp: Cmp, a: Scalar, b: Scalar): boolean | null {
  if (a === null || b === null) return null;
  if (typeof a !== typeof b) return null;
  const c = a < b ? -1 : a > b ? 1 : 0;
  switch (cmp) {
    case '=':
      return c === 0;
    case '!=':
      return c !== 0;
    case '<':
      return c < 0;
    case '<=':
      return c <= 0;
    case '>':
      return c > 0;
    case '>=':
      return c >= 0;
  }
}

function value(o: Operand, get: (name: string) => unknown): Scalar {
  if (o.kind === 'literal') return o.value;
  const v = get(o.name);
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? v : null;
}

/** Three-valued evaluation: true, false or null (unknown). */
export function evaluate(p: Predicate, get: (name: string) => unknown): boolean | null {
  switch (p.op) {
    case 'and': {
      const a = evaluate(p.left, get);
      if (a === false) return false;
      const b = evaluate(p.right, get);
      if (b === false) return false;
      return a === null || b === null ? null : true;
    }
    case 'or': {
      const a = evaluate(p.left, get);
      if (a === true) return true;
      const b = evaluate(p.right, get);
      if (b === true) return true;
      return a === null || b === null ? null : false;
    }
    case 'not': {
      const a = evaluate(p.arg, get);
      return a === null ? null : !a;
    }
    case 'cmp':
      return compare(p.cmp, value(p.left, get), value(p.right, get));
    case 'isnull': {
      const isNull = value(p.arg, get) === null;
      return p.negate ? !isNull : isNull;
    }
    case 'truth': {
      const v = value(p.arg, get);
      return v === null ? null : typeof v === 'boolean' ? v : null;
    }
  }
}
