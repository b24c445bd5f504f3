/**
 * The typed domain errors every area raises (issue 10): a kind and a catalogue text, never a
 * status. One table (`DOMAIN_ERROR_STATUS`) maps each kind to the real service's status, and
 * `bodyOf` to its body shape; dispatch renders them like any other `ApiError`. Each area builds
 * its errors in its `errors.ts` (the area's catalogue) with `domainErrorOf(area)`.
 */
import { ApiError, type ValidationItem, valueErrorItem } from '../engine/errors.js';

/**
 * - `not_found` 404, `bad_request` 400, `forbidden` 403, `conflict` 409, `rate_limited` 429:
 *   `{detail}` (the text, or a structured `detail`), plus any `extra` top-level fields.
 * - `invalid` 422: one pydantic `value_error` item at `loc` (or the given `items`).
 * - `invalid_request` 400: `{detail: {error_type: 'INVALID_REQUEST', error_message, ...extra}}`.
 * - `transition` 400: `detail` with the documented `{error, message, status_code}` fields.
 * - `failed` 500: `{detail}` (a control-plane action the host refused, such as a file write).
 */
type DomainErrorKind =
  | 'not_found'
  | 'bad_request'
  | 'forbidden'
  | 'conflict'
  | 'rate_limited'
  | 'invalid'
  | 'invalid_request'
  | 'transition'
  | 'failed';

const DOMAIN_ERROR_STATUS: Readonly<Record<DomainErrorKind, number>> = {
  not_found: 404,
  bad_request: 400,
  forbidden: 403,
  conflict: 409,
  rate_limited: 429,
  invalid: 422,
  invalid_request: 400,
  transition: 400,
  failed: 500,
};

interface DomainErrorDetails {
  /** `invalid`: where the value is (default `['body']`). */
  loc?: Array<string | number>;
  /** `invalid`: the offending value (no `input` key when undefined). */
  input?: unknown;
  /** `invalid`: validation items of another type than `value_error` (pydantic's own). */
  items?: ValidationItem[];
  /** A structured `detail` instead of the text (the text stays the error's `text`). */
  detail?: unknown;
  /** Top-level fields beside `detail` (or inside it, for `invalid_request`). */
  extra?: Record<string, unknown>;
  headers?: Record<string, string>;
}

function bodyOf(kind: DomainErrorKind, text: string, d: DomainErrorDetails): unknown {
  switch (kind) {
    case 'invalid':
      return { detail: d.items ?? [valueErrorItem(d.loc ?? ['body'], text, d.input)] };
    case 'invalid_request':
      return { detail: { error_type: 'INVALID_REQUEST', error_message: text, ...d.extra } };
    case 'transition':
      return { detail: text, error: 'Bad Request', message: text, status_code: 400 };
    default:
      return { detail: d.detail === undefined ? text : d.detail, ...d.extra };
  }
}

/** A domain error: the area, a kind and a catalogue text, rendered in the real wire shape. */
export class DomainError extends ApiError {
  constructor(
    readonly area: string,
    readonly kind: DomainErrorKind,
    readonly text: string,
    details: DomainErrorDetails = {},
  ) {
    super(DOMAIN_ERROR_STATUS[kind], bodyOf(kind, text, details), details.headers);
    this.name = `${area.charAt(0).toUpperCase()}${area.slice(1)}Error`;
  }
}

/** The error builder of one area (`err('not_found', text)`); its errors are named after it (`LinkError`). */
export const domainErrorOf =
  (area: string) =>
  (kind: DomainErrorKind, text: string, details?: DomainErrorDetails): DomainError =>
    new DomainError(area, kind, text, details);
