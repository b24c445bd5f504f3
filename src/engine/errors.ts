/**
 * Errors as coded values in the real service's wire shapes (FastAPI style: every body has
 * `detail`). Handlers throw `ApiError`; dispatch renders it in one place. Tests assert with
 * the same constants.
 */

/** One FastAPI/pydantic validation item. */
export interface ValidationItem {
  type: string;
  loc: Array<string | number>;
  msg: string;
  input?: unknown;
  ctx?: Record<string, unknown>;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(
      typeof body === 'object' && body !== null && 'detail' in body ? JSON.stringify((body as { detail: unknown }).detail) : String(status),
    );
    this.name = 'ApiError';
  }
}

/** Error with body `{"detail": detail}`. */
export function apiError(status: number, detail: unknown, headers?: Record<string, string>): ApiError {
  return new ApiError(status, { detail }, headers);
}

export const unauthorized = (detail: unknown): ApiError => apiError(401, detail);
export const forbidden = (detail: unknown): ApiError => apiError(403, detail);

/** 422 with a list of validation items. */
export function validationError(items: ValidationItem[]): ApiError {
  return new ApiError(422, { detail: items });
}

/** The pydantic item of a custom validator's failure (`input` left out when undefined). */
export function valueErrorItem(loc: Array<string | number>, message: string, input?: unknown): ValidationItem {
  const item: ValidationItem = { type: 'value_error', loc, msg: `Value error, ${message}`, input, ctx: { error: message } };
  if (input === undefined) delete item.input;
  return item;
}

/** 422 with one `value_error` item, the way pydantic reports a custom validator's failure. */
export function valueError(loc: Array<string | number>, message: string, input?: unknown): ApiError {
  return validationError([valueErrorItem(loc, message, input)]);
}

/** The engine's own error texts (routing and internal errors); each area's are in its catalogue. */
export const MESSAGES = {
  notFound: 'Not Found',
  methodNotAllowed: 'Method Not Allowed',
  internal: 'Internal error',
} as const;
