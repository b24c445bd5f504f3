/**
 * Planning a query (data OpenAPI `Query`; management `Query-Input`): every expression is bound
 * to a column of ONE table, checked (types of reducers, group keys, plain columns in grouped
 * queries, WHERE syntax, alignment), and the result table's columns are named and typed. A
 * query that cannot run is refused here with a 422 (`value_error` at the expression's location),
 * before any data is read. The same plan serves `POST /aggregate/v1/user/{id}/query`,
 * continuous-query validation and continuous-query runs.
 */
import { AGGREGATE_PLAN_ERRORS as P, aggregateError } from './errors.js';
import {
  MACROS,
  MC_LISTS,
  SOURCE_COLUMNS,
  TABLE_COLUMNS,
  TABLE_RESOURCE,
  TIMESERIES_FIELDS,
  type Column,
  type ColumnType,
  type TableName,
} from './columns.js';
import { nominalMs, type Period } from './time.js';
import { parseWhere, WhereSyntaxError, type Predicate } from './where.js';

type Expr = Record<string, unknown>;
type Loc = Array<string | number>;

export type Func = 'mean' | 'min' | 'max' | 'sum' | 'count' | 'median' | 'stddev' | 'oldest' | 'newest';

/** A value read from each row. */
export type Value =
  | { kind: 'column'; name: string; column: Column; key: string }
  | { kind: 'index'; key: string }
  | { kind: 'subquery'; list: string; func: Func; field: string | null; where: Predicate | null; type: ColumnType; key: string };

export type ColumnValue = Extract<Value, { kind: 'column' }>;

export type GroupExpr =
  | { kind: 'trunc'; period: Period; key: string }
  | { kind: 'part'; part: string; key: string }
  | { kind: 'value'; value: ColumnValue; key: string };

export type SelectItem =
  | { kind: 'group_key'; index: number }
  | { kind: 'agg'; func: Func; value: Value }
  | { kind: 'plain'; value: Value; group: number | null };

export interface Carry {
  mode: 'carry_forward' | 'carry_backward' | 'carry_nearest';
  limitMs: number | null;
}

export interface Plan {
  table: TableName;
  /** The timeseries resource (table `timeseries`). */
  resource: string | null;
  /** Client-facing resource read (dependencies). */
  dependency: string;
  groups: GroupExpr[];
  selects: SelectItem[];
  columns: Array<{ name: string; type: ColumnType }>;
  where: Predicate | null;
  /** Columns the WHERE clause names, by name. */
  whereColumns: Record<string, Column>;
  carry: Carry | null;
  aggregated: boolean;
  /** Whether every provider is read (grouped or filtered by a source column), not only the preferred one. */
  allSources: boolean;
}

/** Reducers whose result is a float whatever the column's numeric type. */
const FLOAT_REDUCERS = new Set<Func>(['mean', 'median', 'stddev']);
const NUMERIC = new Set<ColumnType>(['float64', 'int64']);
const ORDERED = new Set<ColumnType>(['float64', 'int64', 'string', 'date', 'datetime', 'boolean']);

interface Binding {
  table: TableName | null;
  resource: string | null;
  set(table: TableName, resource: string | null, loc: Loc): void;
}

function binding(): Binding {
  const b: Binding = {
    table: null,
    resource: null,
    set(table, resource, loc) {
      if (b.table === null) {
        b.table = table;
        b.resource = resource;
        return;
      }
      if (b.table !== table || b.resource !== resource) {
        const has = b.resource ? `timeseries ${b.resource}` : b.table;
        const got = resource ? `timeseries ${resource}` : table;
        throw aggregateError.invalid(loc, P.oneTable(has, got));
      }
    },
  };
  return b;
}

const TABLE_KEYS = Object.keys(TABLE_COLUMNS) as Array<Exclude<TableName, 'timeseries'>>;

/** Binds a column-like expression (table column, value macro, timeseries field, index, source). */
function bindValue(expr: Expr, loc: Loc, b: Binding): Value | null {
  for (const table of TABLE_KEYS) {
    const name = expr[table];
    if (typeof name !== 'string') continue;
    const column = TABLE_COLUMNS[table][name];
    if (!column) throw aggregateError.invalid([...loc, table], P.unknownColumn(table, name), name);
    b.set(table, null, loc);
    return { kind: 'column', name, column, key: `${table}.${name}` };
  }
  if (typeof expr.value_macro === 'string') {
    const column = MACROS[expr.value_macro];
    if (!column) throw aggregateError.invalid([...loc, 'value_macro'], P.unknownValueMacro(expr.value_macro), expr.value_macro);
    b.set('sleep', null, loc);
    return { kind: 'column', name: expr.value_macro, column, key: `macro.${expr.value_macro}` };
  }
  if (typeof expr.timeseries === 'string') {
    const field = String(expr.field);
    const column = TIMESERIES_FIELDS[field];
    if (!column) throw aggregateError.invalid([...loc, 'field'], P.unknownTimeseriesField(field), field);
    b.set('timeseries', expr.timeseries, loc);
    return { kind: 'column', name: field, column, key: `timeseries.${expr.timeseries}.${field}` };
  }
  if (typeof expr.index === 'string') {
    if (expr.index === 'timeseries') {
      if (b.table !== 'timeseries') throw aggregateError.invalid([...loc, 'index'], P.indexNeedsTimeseries, expr.index);
    } else b.set(expr.index as TableName, null, loc);
    return { kind: 'index', key: `index.${expr.index}` };
  }
  if (typeof expr.source === 'string') {
    const column = SOURCE_COLUMNS[expr.source] as Column;
    return { kind: 'column', name: expr.source, column, key: `source.${expr.source}` };
  }
  return null;
}

function isPlaceholder(x: unknown): boolean {
  return typeof x === 'object' && x !== null && (x as Expr).placeholder === true;
}

/** `{select: AggregateFieldExpr, from: {unnest: list column}, where}`: one scalar per row. */
function bindSubquery(expr: Expr, loc: Loc, b: Binding): Value {
  if (isPlaceholder(expr.select) || isPlaceholder(expr.from)) throw aggregateError.invalid(loc, P.subqueryPlaceholder);
  const from = (expr.from as Expr).unnest as Expr;
  const list = bindValue(from, [...loc, 'from', 'unnest'], b);
  if (list?.kind !== 'column' || list.column.type !== 'list') throw aggregateError.invalid([...loc, 'from', 'unnest'], P.unnestNeedsList);
  const fields = MC_LISTS[list.name] ?? null;
  const sel = expr.select as Expr;
  const func = sel.func as Func;
  const arg = (sel.arg ?? null) as Expr | null;
  let field: string | null = null;
  if (arg && arg.element !== true) {
    const key = Object.keys(arg).find((k) => k !== 'field_for') as string;
    if (key !== list.name) throw aggregateError.invalid([...loc, 'select', 'arg'], P.unnestFieldMismatch(key, list.name));
    field = String(arg[key]);
  } else if (arg?.element === true && fields) {
    throw aggregateError.invalid([...loc, 'select', 'arg'], P.unnestNameField(list.name, fields));
  }
  const elementType: ColumnType =
    field === 'value' ? 'float64' : field === 'protection_used' ? 'boolean' : field === 'date' ? 'date' : 'string';
  checkReducer(func, field === null && fields ? 'list' : elementType, [...loc, 'select', 'func'], func === 'count');
  let where: Predicate | null = null;
  if (typeof expr.where === 'string') {
    const allowed = new Set(fields ?? ['element']);
    where = whereOf(expr.where, [...loc, 'where'], (id) => {
      if (!allowed.has(id)) throw new WhereSyntaxError(P.whereUnknownElementField(id, list.name, [...allowed]));
      return id;
    });
  }
  const type: ColumnType = func === 'count' ? 'int64' : func === 'stddev' ? 'float64' : elementType;
  return {
    kind: 'subquery',
    list: list.name,
    func,
    field,
    where,
    type,
    key: `subquery.${list.name}.${func}.${field ?? 'element'}.${String(expr.where)}`,
  };
}

function checkReducer(func: Func, type: ColumnType, loc: Loc, anyType = false): void {
  if (anyType || func === 'count' || func === 'oldest' || func === 'newest') return;
  if ((func === 'min' || func === 'max') && ORDERED.has(type)) return;
  if (NUMERIC.has(type)) return;
  throw aggregateError.invalid(loc, P.needsNumeric(func, type), func);
}

function whereOf(text: string, loc: Loc, resolve: (id: string) => string): Predicate {
  try {
    return parseWhere(text, resolve);
  } catch (e) {
    if (e instanceof WhereSyntaxError) throw aggregateError.invalid(loc, P.invalidWhere(e.message), text);
    throw e;
  }
}

export function valueType(v: Value): ColumnType {
  return v.kind === 'column' ? v.column.type : v.kind === 'index' ? 'datetime' : v.type;
}

/** Plans a query; `loc` is where the query sits in the request body (for 422 locations). */
export function planQuery(query: Expr, loc: Loc): Plan {
  const b = binding();
  const selectsIn = (query.select ?? []) as Expr[];
  const groupsIn = (query.group_by ?? []) as Expr[];
  if (selectsIn.length === 0) throw aggregateError.invalid([...loc, 'select'], P.selectSomething, []);

  // Bind tables first (timeseries expressions name their resource), so `index` can follow.
  const firstPass = (e: Expr, l: Loc) => {
    if (typeof e.timeseries === 'string') bindValue(e, l, b);
  };
  selectsIn.forEach((s, i) => firstPass((s.arg ?? s) as Expr, [...loc, 'select', i]));
  groupsIn.forEach((g, i) => firstPass(g, [...loc, 'group_by', i]));

  const groups: GroupExpr[] = groupsIn.map((g, i) => {
    const l = [...loc, 'group_by', i];
    if ('date_trunc' in g || 'date_part' in g) {
      if (!isPlaceholder(g.arg)) bindValue(g.arg as Expr, [...l, 'arg'], b);
      if ('date_trunc' in g) {
        const period = g.date_trunc as Period;
        return { kind: 'trunc', period, key: `trunc.${period.value}.${period.unit}` };
      }
      return { kind: 'part', part: String(g.date_part), key: `part.${String(g.date_part)}` };
    }
    const v = bindValue(g, l, b);
    if (v?.kind !== 'column') throw aggregateError.invalid(l, P.groupByWhat);
    if (v.column.type === 'list') throw aggregateError.invalid(l, P.groupByList(v.name));
    return { kind: 'value', value: v, key: v.key };
  });

  let aggregated = groups.length > 0;
  const pending: Array<{ item: Expr; l: Loc }> = selectsIn.map((item, i) => ({ item, l: [...loc, 'select', i] }));
  const selects: SelectItem[] = pending.map(({ item, l }) => {
    if ('group_key' in item) {
      if (groups.length === 0) throw aggregateError.invalid([...l, 'group_key'], P.groupKeyNeedsGroupBy, item.group_key);
      if (item.group_key === '*') return { kind: 'group_key', index: -1 };
      const k = item.group_key as number;
      if (k < 0 || k >= groups.length) throw aggregateError.invalid([...l, 'group_key'], P.groupKeyIndex(k, groups.length), k);
      return { kind: 'group_key', index: k };
    }
    if ('func' in item && 'arg' in item) {
      aggregated = true;
      const argLoc = [...l, 'arg'];
      const arg = item.arg as Expr;
      const value = 'from' in arg && 'select' in arg ? bindSubquery(arg, argLoc, b) : bindValue(arg, argLoc, b);
      if (!value) throw aggregateError.invalid(argLoc, P.unsupportedAggregateArgument);
      checkReducer(item.func as Func, valueType(value), [...l, 'func']);
      return { kind: 'agg', func: item.func as Func, value };
    }
    const value = 'from' in item && 'select' in item ? bindSubquery(item, l, b) : bindValue(item, l, b);
    if (!value) throw aggregateError.invalid(l, P.unsupportedSelect);
    return { kind: 'plain', value, group: null };
  });

  if (b.table === null) throw aggregateError.invalid([...loc, 'select'], P.readsNoTable);

  // Plain columns in an aggregated query must be group_by expressions.
  for (const [i, s] of selects.entries()) {
    if (s.kind !== 'plain') continue;
    if (!aggregated) continue;
    const g = groups.findIndex((x) => x.kind === 'value' && x.value.key === s.value.key);
    if (g < 0) throw aggregateError.invalid([...loc, 'select', i], P.plainColumnInGroupedQuery);
    s.group = g;
  }

  const whereColumns = b.table === 'timeseries' ? TIMESERIES_FIELDS : { ...TABLE_COLUMNS[b.table], ...SOURCE_COLUMNS };
  const named = new Set<string>();
  const resolve = whereResolver(b.table, b.resource, whereColumns);
  const where =
    typeof query.where === 'string'
      ? whereOf(query.where, [...loc, 'where'], (id) => {
          const name = resolve(id);
          named.add(name);
          return name;
        })
      : null;
  const allSources =
    groups.some((g) => g.kind === 'value' && g.value.key.startsWith('source.')) || [...named].some((n) => n.startsWith('source_'));
  const carry = alignOf(query.align as Expr | null | undefined, groups, [...loc, 'align']);
  const columns = nameColumns(selects, groups, loc);
  const dependency = b.table === 'timeseries' ? (b.resource as string) : TABLE_RESOURCE[b.table];
  return { table: b.table, resource: b.resource, dependency, groups, selects, columns, where, whereColumns, carry, aggregated, allSources };
}

function whereResolver(table: TableName, resource: string | null, columns: Record<string, Column>): (id: string) => string {
  const prefix = table === 'timeseries' ? `${resource as string}.` : `${table}.`;
  return (id) => {
    const name = id.startsWith(prefix) ? id.slice(prefix.length) : id;
    if (!columns[name]) throw new WhereSyntaxError(P.whereUnknownColumn(id));
    return name;
  };
}

function alignOf(align: Expr | null | undefined, groups: GroupExpr[], loc: Loc): Carry | null {
  if (!align) return null;
  const trunc = groups.find((g) => g.kind === 'trunc');
  if (trunc?.kind !== 'trunc') throw aggregateError.invalid(loc, P.alignNeedsTrunc);
  const carry = align.carry as Expr;
  const limit = (carry.max_age ?? carry.span ?? null) as Period | null;
  if (limit && nominalMs(limit) < nominalMs(trunc.period)) {
    throw aggregateError.invalid([...loc, 'carry', carry.mode === 'carry_nearest' ? 'span' : 'max_age'], P.carryLimit, limit);
  }
  return { mode: carry.mode as Carry['mode'], limitMs: limit ? nominalMs(limit) : null };
}

function valueName(v: Value): string {
  if (v.kind === 'column') return v.name;
  if (v.kind === 'index') return 'index';
  return v.list;
}

function groupType(g: GroupExpr): ColumnType {
  return g.kind === 'trunc' ? 'string' : g.kind === 'part' ? 'int64' : g.value.column.type;
}

function nameColumns(selects: SelectItem[], groups: GroupExpr[], loc: Loc): Array<{ name: string; type: ColumnType }> {
  const out: Array<{ name: string; type: ColumnType }> = [];
  const seen = new Set<string>();
  const add = (name: string, type: ColumnType, i: number) => {
    if (seen.has(name)) throw aggregateError.invalid([...loc, 'select', i], P.duplicateColumn(name), name);
    seen.add(name);
    out.push({ name, type });
  };
  selects.forEach((s, i) => {
    if (s.kind === 'group_key') {
      const keys = s.index === -1 ? groups.map((_, j) => j) : [s.index];
      for (const k of keys) add(`group_key.${k}`, groupType(groups[k] as GroupExpr), i);
    } else if (s.kind === 'agg') {
      const t = valueType(s.value);
      const type = s.func === 'count' ? 'int64' : FLOAT_REDUCERS.has(s.func) ? 'float64' : s.value.kind === 'index' ? 'datetime' : t;
      add(`${s.func}.${valueName(s.value)}`, type, i);
    } else add(valueName(s.value), valueType(s.value), i);
  });
  return out;
}
