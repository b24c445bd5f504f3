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
    super(typeof body === 'object' && body !== null && 'detail' in body ? JSON.stringify((body as { detail: unknown }).detail) : String(status));
    this.name = 'ApiError';
  }
}

/** Error with body `{"detail": detail}`. */
export function apiError(status: number, detail: unknown, headers?: Record<string, string>): ApiError {
  return new ApiError(status, { detail }, headers);
}

export const badRequest = (detail: unknown): ApiError => apiError(400, detail);
export const unauthorized = (detail: unknown): ApiError => apiError(401, detail);
export const forbidden = (detail: unknown): ApiError => apiError(403, detail);
export const notFound = (detail: unknown = 'Not Found'): ApiError => apiError(404, detail);
export const conflict = (detail: unknown): ApiError => apiError(409, detail);

/** 422 with a list of validation items. */
export function validationError(items: ValidationItem[]): ApiError {
  return new ApiError(422, { detail: items });
}

/** 422 with one `value_error` item, the way pydantic reports a custom validator's failure. */
export function valueError(loc: Array<string | number>, message: string, input?: unknown): ApiError {
  const item: ValidationItem = { type: 'value_error', loc, msg: `Value error, ${message}`, input, ctx: { error: message } };
  if (input === undefined) delete item.input;
  return validationError([item]);
}

/** `{"detail":{"error_type":"INVALID_REQUEST","error_message":...}}` with status 400. */
export function invalidRequest(message: string, extra: Record<string, unknown> = {}): ApiError {
  return new ApiError(400, { detail: { error_type: 'INVALID_REQUEST', error_message: message, ...extra } });
}

/** Error texts the real service uses, kept in one place. */
export const MESSAGES = {
  notFound: 'Not Found',
  methodNotAllowed: 'Method Not Allowed',
  internal: 'Internal error',
  userNotFound: 'Not found',
  userResolveNotFound: 'User not found',
  userGone: 'The user does not or no longer exists in this team',
  userScheduledForDeletion: 'You have scheduled this user for deletion.',
  userAlreadyScheduled: 'The user has been scheduled for deletion as per your previous request',
  clientUserIdExists: 'Client user id already exists.',
  clientUserIdTaken: 'Client user id already exists',
  nothingToPatch: 'Nothing to patch',
  sandboxUserCap: 'You have reached the maximum of 50 Sandbox users',
  userNotOnTeam: 'User does not exist on this team',
} as const;
