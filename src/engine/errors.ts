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

/**
 * A refusal the engine answers, not a fault of the program: dispatch renders it and nothing reads
 * its stack, so none is captured (a 4xx costs no stack walk: the fuzz and robustness runs throw
 * thousands), and its message (the detail as JSON, for a test that prints one) is made only when read.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly body: unknown;
  readonly headers: Record<string, string>;
  constructor(status: number, body: unknown, headers: Record<string, string> = {}) {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super();
    Error.stackTraceLimit = limit;
    this.status = status;
    this.body = body;
    this.headers = headers;
  }

  override get message(): string {
    const body = this.body;
    return typeof body === 'object' && body !== null && 'detail' in body
      ? JSON.stringify((body as { detail: unknown }).detail)
      : String(this.status);
  }
}
Object.defineProperty(ApiError.prototype, 'name', { value: 'ApiError', writable: true, configurable: true });

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
