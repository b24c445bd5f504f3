/**
 * The aggregate area's error catalogue: every text the area answers with, and the typed errors
 * built from them. Query-shape errors are 422 `value_error` items at the offending location
 * (plan.ts builds them with these texts where they are shared).
 */
import { notFound, validationError, valueError, type ApiError } from '../../engine/errors.js';

export const AGGREGATE_ERRORS = {
  queryNotFound: 'Continuous query not found',
  placeholderTimeframe: 'A placeholder timeframe is only resolved for continuous queries; give a relative timeframe.',
  windowTooLong: (days: number, what: string) => `The timeframe is longer than ${days} days, the longest window ${what} is queried over.`,
  tooManyQueries: (max: number) => `A batch holds at most ${max} queries.`,
  acceptExpected: "'*/*', 'application/json' or 'application/vnd.vital.tar+gzip+parquet'",
  resultAcceptExpected: "'*/*', 'application/json' or 'application/vnd.apache.parquet'",
} as const;

const E = AGGREGATE_ERRORS;

export const aggregateError = {
  queryNotFound: (): ApiError => notFound(E.queryNotFound),
  tooManyQueries: (max: number): ApiError => valueError(['body', 'queries'], E.tooManyQueries(max)),
  placeholderTimeframe: (): ApiError => valueError(['body', 'timeframe'], E.placeholderTimeframe, { placeholder: true }),
  windowTooLong: (days: number, what: string): ApiError => valueError(['body', 'timeframe', 'past'], E.windowTooLong(days, what)),
  /** The pydantic enum error of the `accept` header. */
  badAccept: (value: string, expected: string): ApiError =>
    validationError([{ type: 'enum', loc: ['header', 'accept'], msg: `Input should be ${expected}`, input: value, ctx: { expected } }]),
};
