/**
 * The connection error types (`error_details.error_type` of a connection in `error`; the control
 * route `POST /_sandbox/connections/:user_id/:provider/error` takes one), in one list that imports
 * nothing: the route's schema, scenarios and the inspector (a browser bundle) read the same one.
 */
export const ERROR_TYPES = [
  'token_refresh_failed',
  'webhook_registration_failed',
  'user_not_found',
  'deregistered_per_provider',
  'required_scopes_not_granted',
  'provider_credential_error',
  'provider_password_expired',
  'unknown',
] as const;

export type ConnectionErrorType = (typeof ERROR_TYPES)[number];
