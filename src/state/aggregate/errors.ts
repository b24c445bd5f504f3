/**
 * The aggregate area's error catalogue: every text the area answers with, and the typed errors
 * built from them. Query-shape errors are 422 `value_error` items at the offending location
 * (plan.ts builds them with these texts where they are shared).
 */
import { domainErrorOf, type DomainError } from '../domain-error.js';

export const AGGREGATE_ERRORS = {
  queryNotFound: 'Continuous query not found',
  placeholderTimeframe: 'A placeholder timeframe is only resolved for continuous queries; give a relative timeframe.',
  windowTooLong: (days: number, what: string) => `The timeframe is longer than ${days} days, the longest window ${what} is queried over.`,
  tooManyQueries: (max: number) => `A batch holds at most ${max} queries.`,
  acceptExpected: "'*/*', 'application/json' or 'application/vnd.vital.tar+gzip+parquet'",
  resultAcceptExpected: "'*/*', 'application/json' or 'application/vnd.apache.parquet'",
} as const;

/** The query planner's texts (a compiler's checks, each a 422 at the query's body path). */
export const AGGREGATE_PLAN_ERRORS = {
  oneTable: (has: string, got: string) => `A query reads one table: it already reads ${has} and cannot also read ${got}.`,
  unknownColumn: (table: string, name: string) => `Unknown ${table} column: ${name}`,
  unknownValueMacro: (macro: string) => `Unrecognized value macro: ${macro}`,
  unknownTimeseriesField: (field: string) => `Unknown timeseries field: ${field}`,
  indexNeedsTimeseries: 'The timeseries index needs a timeseries expression naming the resource in the same query.',
  subqueryPlaceholder: 'Placeholders are only resolved in templated queries; give the subquery select and from.',
  unnestNeedsList: 'UNNEST needs a list column.',
  unnestFieldMismatch: (key: string, list: string) => `The field names ${key} but the subquery unnests ${list}.`,
  unnestNameField: (list: string, fields: readonly string[]) =>
    `${list} is a list of structs; name one of its fields (${fields.join(', ')}).`,
  whereUnknownElementField: (id: string, list: string, allowed: readonly string[]) =>
    `unknown field ${id}; the elements of ${list} have ${allowed.join(', ')}`,
  whereUnknownColumn: (id: string) => `unknown column ${id}`,
  needsNumeric: (func: string, type: string) => `${func} needs a numeric column; this one is ${type}.`,
  invalidWhere: (reason: string) => `Invalid WHERE clause: ${reason}`,
  selectSomething: 'A query selects at least one column.',
  groupByWhat: 'Group by a column, a source, date_trunc or date_part.',
  groupByList: (name: string) => `Cannot group by the list column ${name}.`,
  groupKeyNeedsGroupBy: 'group_key needs a group_by clause.',
  groupKeyIndex: (k: number, count: number) => `group_key ${k} is not a group_by index (the query has ${count}).`,
  unsupportedAggregateArgument: 'Unsupported aggregate argument.',
  unsupportedSelect: 'Unsupported select expression.',
  readsNoTable:
    'The query reads no table: select or group by at least one column of sleep, activity, workout, body, meal, menstrual_cycle, profile, derived_readiness or a timeseries.',
  plainColumnInGroupedQuery:
    'In a query with group_by or aggregates, a plain column must be one of the group_by expressions; aggregate it instead.',
  alignNeedsTrunc: 'align needs a date_trunc group_by expression: it fills the empty time buckets.',
  carryLimit: 'The carry limit must be at least the group_by period.',
  duplicateColumn: (name: string) => `Duplicate result column ${name}: select each column once.`,
} as const;

const E = AGGREGATE_ERRORS;

/** An aggregate domain error (statuses and bodies: `DOMAIN_ERROR_STATUS`, src/state/domain-error.ts). */
const err = domainErrorOf('aggregate');

const valueError = (loc: Array<string | number>, text: string, input?: unknown): DomainError => err('invalid', text, { loc, input });

export const aggregateError = {
  queryNotFound: (): DomainError => err('not_found', E.queryNotFound),
  tooManyQueries: (max: number): DomainError => valueError(['body', 'queries'], E.tooManyQueries(max)),
  placeholderTimeframe: (): DomainError => valueError(['body', 'timeframe'], E.placeholderTimeframe, { placeholder: true }),
  windowTooLong: (days: number, what: string): DomainError => valueError(['body', 'timeframe', 'past'], E.windowTooLong(days, what)),
  /** A 422 of the query planner at `loc`, with a text of AGGREGATE_PLAN_ERRORS. */
  invalid: valueError,
  /** The pydantic enum error of the `accept` header. */
  badAccept: (value: string, expected: string): DomainError =>
    err('invalid', `Input should be ${expected}`, {
      items: [{ type: 'enum', loc: ['header', 'accept'], msg: `Input should be ${expected}`, input: value, ctx: { expected } }],
    }),
};
