/**
 * The users error catalogue: every text the users area answers with, as constants, and the
 * typed errors built from them (each an ApiError with the real service's status and body).
 * Code and tests import from here; nothing in the area writes an error text inline.
 */
import { DomainError, type DomainErrorDetails, type DomainErrorKind } from '../domain-error.js';

export const USERS_ERRORS = {
  userNotFound: 'Not found',
  userResolveNotFound: 'User not found',
  userGone: 'The user does not or no longer exists in this team',
  userScheduledForDeletion: 'You have scheduled this user for deletion.',
  userAlreadyScheduled: 'The user has been scheduled for deletion as per your previous request',
  clientUserIdExists: 'Client user id already exists.',
  clientUserIdTaken: 'Client user id already exists',
  nothingToPatch: 'Nothing to patch',
  sandboxUserCap: 'You have reached the maximum of 50 Sandbox users',
  noDeletionToUndo: 'No user scheduled for deletion matches this id',
  undoNeedsOneId: 'Provide exactly one of user_id or client_user_id',
  clientUserIdNull: 'client_user_id cannot be reset to null',
  clientUserIdEmpty: 'client_user_id must not be empty',
  personalData: (kind: 'email' | 'phone') =>
    `client_user_id must not contain personal data: it looks like ${kind === 'email' ? 'an e-mail address' : 'a phone number'}`,
  personalDataCreate: (kind: 'email' | 'phone') =>
    `client_user_id must not contain personal data: it looks like ${kind === 'email' ? 'an e-mail address' : 'a phone number'}. Use an opaque id from your own system.`,
  notSupplied: (slug: string, dataType: string) => `${slug} does not supply ${dataType}`,
  badTimeZone: (tz: string) => `Invalid time zone: ${tz} is not an IANA time zone identifier`,
  boundsOrder: (start: string, end: string) => `ingestion_start (${start}) must be on or before ingestion_end (${end})`,
  noDemographics: 'No demographics recorded for this user',
  noInsurance: 'No insurance recorded for this user',
  deviceNotFound: 'Device not found',
  unknownPayor: (code: string) => `Unknown payor_code: ${code}`,
  refreshRateLimited: 'Rate limit exceeded: at most 8 refreshes per user per hour',
  refreshNoSources: 'The user has no connected sources to refresh',
  refreshAllFailed: 'Every connected source of the user is in error',
  portalOrderNotFound: 'Order not found',
  portalLinkExpired: 'This portal link is unknown or has expired',
  otherTeam: 'This API key belongs to another team: a team API key can only read its own team.',
} as const;

const E = USERS_ERRORS;

/** A users domain error (statuses and bodies: `DOMAIN_ERROR_STATUS`, src/state/domain-error.ts). */
class UsersError extends DomainError {
  constructor(kind: DomainErrorKind, text: string, details?: DomainErrorDetails) {
    super('users', kind, text, details);
    this.name = 'UsersError';
  }
}

const notFound = (text: string): UsersError => new UsersError('not_found', text);
const invalid = (loc: Array<string | number>, text: string, input?: unknown): UsersError => new UsersError('invalid', text, { loc, input });

/** Typed users errors. */
export const usersError = {
  userNotFound: (): UsersError => notFound(E.userNotFound),
  userResolveNotFound: (): UsersError => notFound(E.userResolveNotFound),
  userGone: (): UsersError => notFound(E.userGone),
  userScheduledForDeletion: (): UsersError => notFound(E.userScheduledForDeletion),
  userAlreadyScheduled: (): UsersError => notFound(E.userAlreadyScheduled),
  clientUserIdExists: (userId: string, createdOn: string): UsersError =>
    new UsersError('invalid_request', E.clientUserIdExists, { extra: { user_id: userId, created_on: createdOn } }),
  clientUserIdTaken: (): UsersError => new UsersError('conflict', E.clientUserIdTaken),
  nothingToPatch: (): UsersError => new UsersError('bad_request', E.nothingToPatch),
  sandboxUserCap: (): UsersError => new UsersError('invalid_request', E.sandboxUserCap),
  noDeletionToUndo: (): UsersError => notFound(E.noDeletionToUndo),
  undoNeedsOneId: (): UsersError => invalid(['query'], E.undoNeedsOneId),
  clientUserIdNull: (): UsersError => invalid(['body', 'client_user_id'], E.clientUserIdNull, null),
  clientUserIdEmpty: (value: string): UsersError => invalid(['body', 'client_user_id'], E.clientUserIdEmpty, value),
  personalData: (kind: 'email' | 'phone', value: string): UsersError => invalid(['body', 'client_user_id'], E.personalData(kind), value),
  badTimeZone: (tz: string): UsersError => invalid(['body', 'fallback_time_zone'], E.badTimeZone(tz), tz),
  boundsOrder: (start: string, end: string): UsersError => invalid(['body', 'ingestion_start'], E.boundsOrder(start, end), start),
  noDemographics: (): UsersError => notFound(E.noDemographics),
  noInsurance: (): UsersError => notFound(E.noInsurance),
  deviceNotFound: (): UsersError => notFound(E.deviceNotFound),
  unknownPayor: (code: string): UsersError => invalid(['body', 'payor_code'], E.unknownPayor(code), code),
  refreshRateLimited: (retryAfterSeconds: number): UsersError => new UsersError('rate_limited', E.refreshRateLimited, { headers: { 'retry-after': String(retryAfterSeconds) } }),
  portalOrderNotFound: (): UsersError => notFound(E.portalOrderNotFound),
  portalLinkExpired: (): UsersError => notFound(E.portalLinkExpired),
  otherTeam: (): UsersError => new UsersError('forbidden', E.otherTeam),
} as const;
