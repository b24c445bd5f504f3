/**
 * Running a plan over rows: WHERE, then GROUP BY (keys from `date_trunc` / `date_part` of the
 * row's index in the user's local time, columns, sources), the reducers, the post-aggregation
 * alignment (`carry_*`), and the column-oriented result table (`AggregationResult.table`).
 *
 * - Ungrouped, no reducer: one output row per input row, in index order.
 * - Ungrouped with reducers: one output row over all input rows (counts 0 and nulls when empty).
 * - Grouped: one output row per group, ordered by the group keys (nulls first).
 * - Reducers skip nulls; `oldest` / `newest` take the first / last non-null value by index;
 *   `min` / `max` / `sum` keep the column's type; `mean`, `median` and `stddev` (the sample
 *   standard deviation, null under two values) are floats; `count` counts non-null values.
 */
import type { Fields } from './columns.js';
import type { Carry, Func, GroupExpr, Plan, Value } from './plan.js';
import { valueType } from './plan.js';
import type { Row } from './rows.js';
import { bucketLabel, datePart, nextWall, truncWall, wallOf, type Period } from './time.js';
import { evaluate } from './where.js';

export type Table = Record<string, unknown[]>;

const roundTo = (v: number, digits: number) => {
  const f = 10 ** digits;
  return (Math.sign(v) * Math.round(Math.abs(v) * f)) / f;
};

function readValue(v: Value, row: Row): unknown {
  if (v.kind === 'column') return v.column.get(row.fields);
  if (v.kind === 'index') return new Date(row.at).toISOString();
  const list = (row.fields[v.list] as unknown[] | null) ?? [];
  const elements = v.where
    ? list.filter(
        (e) => evaluate(v.where as NonNullable<typeof v.where>, (name) => (name === 'element' ? e : (e as Fields)[name])) === true,
      )
    : list;
  const values = elements.map((e) => (v.field === null ? e : (e as Fields)[v.field]));
  return reduce(v.func, values, v.type);
}

function compareValues(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return -1;
  if (b === null || b === undefined) return 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  const x = String(a);
  const y = String(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** One reducer over values in index order (nulls skipped). */
function reduce(func: Func, values: unknown[], type: string): unknown {
  const xs = values.filter((v) => v !== null && v !== undefined);
  if (func === 'count') return xs.length;
  if (xs.length === 0) return null;
  if (func === 'oldest') return xs[0];
  if (func === 'newest') return xs[xs.length - 1];
  if (func === 'min' || func === 'max') {
    let best = xs[0];
    for (const x of xs) if (func === 'min' ? compareValues(x, best) < 0 : compareValues(x, best) > 0) best = x;
    return best;
  }
  const nums = xs as number[];
  const keep = (v: number) => roundTo(v, 6);
  if (func === 'sum') return type === 'int64' ? Math.round(nums.reduce((a, b) => a + b, 0)) : keep(nums.reduce((a, b) => a + b, 0));
  const mean = nums.reduce((a, b) => a + b, 0) / nums.length;
  if (func === 'mean') return keep(mean);
  if (func === 'median') {
    const s = [...nums].sort((a, b) => a - b);
    const mid = Math.floor(s.length / 2);
    return keep(s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2);
  }
  if (nums.length < 2) return null;
  const variance = nums.reduce((a, b) => a + (b - mean) ** 2, 0) / (nums.length - 1);
  return roundTo(Math.sqrt(variance), 6);
}

function groupValue(g: GroupExpr, row: Row, zone: string): unknown {
  if (g.kind === 'value') return g.value.column.get(row.fields) ?? null;
  const w = wallOf(zone, row.at);
  if (g.kind === 'part') return datePart(w, g.part);
  return bucketLabel(truncWall(w, g.period));
}

interface Group {
  keys: unknown[];
  rows: Row[];
  filled: boolean;
}

function compareKeys(a: unknown[], b: unknown[]): number {
  for (let i = 0; i < a.length; i++) {
    const c = compareValues(a[i], b[i]);
    if (c !== 0) return c;
  }
  return 0;
}

/** Adds the empty time buckets of the window to each combination of the other keys. */
function materialise(plan: Plan, groups: Map<string, Group>, zone: string, window: [number, number]): void {
  const t = plan.groups.findIndex((g) => g.kind === 'trunc');
  const period = (plan.groups[t] as { period: Period }).period;
  const combos = new Map<string, unknown[]>();
  for (const g of groups.values()) combos.set(JSON.stringify(g.keys.filter((_, i) => i !== t)), g.keys);
  const last = truncWall(wallOf(zone, window[1] - 1), period);
  for (const keys of combos.values()) {
    for (let w = truncWall(wallOf(zone, window[0]), period); w <= last; w = nextWall(w, period)) {
      const k = [...keys];
      k[t] = bucketLabel(w);
      const id = JSON.stringify(k);
      if (!groups.has(id)) groups.set(id, { keys: k, rows: [], filled: true });
    }
  }
}

/** Fills the aggregate cells of materialised buckets from their non-empty neighbours. */
function carryValues(plan: Plan, ordered: Group[], cells: unknown[][], carry: Carry): void {
  const t = plan.groups.findIndex((g) => g.kind === 'trunc');
  const startOf = (g: Group) => Date.parse(`${String(g.keys[t])}Z`);
  const partitions = new Map<string, number[]>();
  ordered.forEach((g, i) => {
    const k = JSON.stringify(g.keys.filter((_, j) => j !== t));
    const list = partitions.get(k) ?? [];
    list.push(i);
    partitions.set(k, list);
  });
  const aggCols = plan.selects.flatMap((s, i) => (s.kind === 'agg' ? [i] : []));
  for (const idx of partitions.values()) {
    const real = idx.filter((i) => !(ordered[i] as Group).filled);
    for (const i of idx) {
      const g = ordered[i] as Group;
      if (!g.filled) continue;
      const at = startOf(g);
      const before = real.filter((j) => startOf(ordered[j] as Group) < at).pop();
      const after = real.find((j) => startOf(ordered[j] as Group) > at);
      const dist = (j: number | undefined) => (j === undefined ? Number.POSITIVE_INFINITY : Math.abs(startOf(ordered[j] as Group) - at));
      let from: number | undefined;
      if (carry.mode === 'carry_forward') from = before;
      else if (carry.mode === 'carry_backward') from = after;
      else from = dist(before) <= dist(after) ? before : after;
      if (from === undefined || (carry.limitMs !== null && dist(from) > carry.limitMs)) continue;
      for (const c of aggCols) (cells[i] as unknown[])[c] = (cells[from] as unknown[])[c];
    }
  }
}

/** Runs a plan over rows (already limited to the window) and answers the column-oriented table. */
export function execute(plan: Plan, rows: Row[], zone: string, window: [number, number]): Table {
  const where = plan.where;
  const kept = where ? rows.filter((r) => evaluate(where, (name) => plan.whereColumns[name]?.get(r.fields) ?? null) === true) : rows;
  const table: Table = Object.fromEntries(plan.columns.map((c) => [c.name, [] as unknown[]]));
  const names = plan.columns.map((c) => c.name);
  const emit = (cells: unknown[]) => cells.forEach((v, i) => (table[names[i] as string] as unknown[]).push(v ?? null));

  if (!plan.aggregated) {
    for (const r of kept) emit(plan.selects.map((s) => (s.kind === 'plain' ? readValue(s.value, r) : null)));
    return table;
  }

  const groups = new Map<string, Group>();
  if (plan.groups.length === 0) groups.set('[]', { keys: [], rows: kept, filled: false });
  for (const r of plan.groups.length ? kept : []) {
    const keys = plan.groups.map((g) => groupValue(g, r, zone));
    const id = JSON.stringify(keys);
    const g = groups.get(id);
    if (g) g.rows.push(r);
    else groups.set(id, { keys, rows: [r], filled: false });
  }
  if (plan.carry && groups.size > 0) materialise(plan, groups, zone, window);
  const ordered = [...groups.values()].sort((a, b) => compareKeys(a.keys, b.keys));
  const cells = ordered.map((g) =>
    plan.selects.map((s) => {
      if (s.kind === 'group_key') return s.index === -1 ? g.keys : g.keys[s.index];
      if (s.kind === 'plain') return g.keys[s.group as number];
      return reduce(
        s.func,
        g.rows.map((r) => readValue(s.value, r)),
        valueType(s.value),
      );
    }),
  );
  if (plan.carry) carryValues(plan, ordered, cells, plan.carry);
  for (const row of cells) {
    const flat: unknown[] = [];
    plan.selects.forEach((s, i) => {
      if (s.kind === 'group_key' && s.index === -1) flat.push(...(row[i] as unknown[]));
      else flat.push(row[i]);
    });
    emit(flat);
  }
  return table;
}
