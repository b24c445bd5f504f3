/**
 * The link error catalogue: the Link error types of the real service (api-facts I), their
 * human texts, the API errors of the link endpoints, and the typed errors built from them.
 * Code and tests import from here; nothing in the area writes an error text inline.
 */
import { domainErrorOf, type DomainError } from '../domain-error.js';

/** Link error types (ProviderLinkResponse.error_type; the redirect's `error_type`). */
export const LINK_ERROR_TYPES = [
  'invalid_token',
  'token_expired',
  'token_not_validated',
  'token_consumed',
  'provider_credential_error',
  'provider_password_expired',
  'provider_api_error',
  'unsupported_region',
  'duplicate_connection',
  'required_scopes_not_granted',
  'incorrect_mfa_code',
  'user_cancelled',
] as const;
export type LinkErrorType = (typeof LINK_ERROR_TYPES)[number];

/** The developer-readable `error` text of each Link error type. */
export const LINK_ERROR_TEXTS: Record<LinkErrorType, string> = {
  invalid_token: 'The link token is invalid or malformed.',
  token_expired: 'The link token has expired.',
  token_not_validated: 'The OAuth flow was not started through the OAuth endpoint with this link token.',
  token_consumed: 'The link token was already used by a successful connection.',
  provider_credential_error: 'The provider rejected the credentials.',
  provider_password_expired: 'The provider password has expired: the user must reset it with the provider.',
  provider_api_error: 'The provider API answered with an error.',
  unsupported_region: 'The provider does not support this region.',
  duplicate_connection: 'This provider account is already connected to another user of the team.',
  required_scopes_not_granted: 'The user did not grant the scopes the team requires.',
  incorrect_mfa_code: 'The MFA code is incorrect.',
  user_cancelled: 'The user cancelled the connection.',
};

export const LINK_ERRORS = {
  userNotFound: 'User not found',
  providerNotFound: 'Provider not found',
  notOAuth: (slug: string) => `${slug} is not an OAuth provider`,
  notPassword: (slug: string) => `${slug} is not a password provider`,
  notEmail: (slug: string) => `${slug} is not an email provider`,
  notManual: (slug: string) => `${slug} is not a manual provider`,
  noPendingMfa: 'No MFA challenge is pending for this link token and provider',
  sessionNotFound: 'OAuth session not found: start it with GET /v2/link/provider/oauth/{provider}',
  demoMixed: 'Demo connections cannot be mixed with real connections: use a user without demo connections',
  expiresInPast: 'expires_at must be in the future',
  badNextToken: 'Invalid cursor',
} as const;

const E = LINK_ERRORS;

/** Builds a link domain error (statuses and bodies: `DOMAIN_ERROR_STATUS`, src/state/domain-error.ts). */
const err = domainErrorOf('link');

const notFound = (text: string): DomainError => err('not_found', text);
const badRequest = (text: string): DomainError => err('bad_request', text);

/** A link-token failure as the API answers it (400 `{detail: {error_type, error_message}}`). */
function linkTokenError(type: LinkErrorType): DomainError {
  return err('bad_request', LINK_ERROR_TEXTS[type], { detail: { error_type: type, error_message: LINK_ERROR_TEXTS[type] } });
}

/** Typed link errors. */
export const linkError = {
  missingLinkToken: (): DomainError =>
    err('invalid', 'Field required', {
      items: [{ type: 'missing', loc: ['header', 'x-vital-link-token'], msg: 'Field required', input: null }],
    }),
  token: linkTokenError,
  userNotFound: (): DomainError => notFound(E.userNotFound),
  providerNotFound: (): DomainError => notFound(E.providerNotFound),
  notOAuth: (slug: string): DomainError => badRequest(E.notOAuth(slug)),
  notPassword: (slug: string): DomainError => badRequest(E.notPassword(slug)),
  notEmail: (slug: string): DomainError => badRequest(E.notEmail(slug)),
  notManual: (slug: string): DomainError => badRequest(E.notManual(slug)),
  noPendingMfa: (): DomainError => badRequest(E.noPendingMfa),
  sessionNotFound: (): DomainError => notFound(E.sessionNotFound),
  demoMixed: (): DomainError => badRequest(E.demoMixed),
  badNextToken: (): DomainError => badRequest(E.badNextToken),
  expiresInPast: (): DomainError => err('invalid', E.expiresInPast, { loc: ['query', 'expires_at'] }),
} as const;
