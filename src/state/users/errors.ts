/**
 * The users error catalogue: every text the users area answers with, as constants, and the
 * typed errors built from them (each an ApiError with the real service's status and body).
 * Code and tests import from here; nothing in the area writes an error text inline.
 */
import { domainErrorOf, type DomainError } from '../domain-error.js';

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
  undoAfterReuse: 'You cannot undo a deletion if you have already created a new user using the same client_user_id',
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

/** Builds a users domain error (statuses and bodies: `DOMAIN_ERROR_STATUS`, src/state/domain-error.ts). */
const err = domainErrorOf('users');

const notFound = (text: string): DomainError => err('not_found', text);
const invalid = (loc: Array<string | number>, text: string, input?: unknown): DomainError => err('invalid', text, { loc, input });

/** Typed users errors. */
export const usersError = {
  userNotFound: (): DomainError => notFound(E.userNotFound),
  userResolveNotFound: (): DomainError => notFound(E.userResolveNotFound),
  userGone: (): DomainError => notFound(E.userGone),
  userScheduledForDeletion: (): DomainError => notFound(E.userScheduledForDeletion),
  userAlreadyScheduled: (): DomainError => notFound(E.userAlreadyScheduled),
  clientUserIdExists: (userId: string, createdOn: string): DomainError =>
    err('invalid_request', E.clientUserIdExists, { extra: { user_id: userId, created_on: createdOn } }),
  clientUserIdTaken: (): DomainError => err('conflict', E.clientUserIdTaken),
  nothingToPatch: (): DomainError => err('bad_request', E.nothingToPatch),
  sandboxUserCap: (): DomainError => err('invalid_request', E.sandboxUserCap),
  noDeletionToUndo: (): DomainError => notFound(E.noDeletionToUndo),
  undoAfterReuse: (): DomainError => err('bad_request', E.undoAfterReuse),
  undoNeedsOneId: (): DomainError => invalid(['query'], E.undoNeedsOneId),
  clientUserIdNull: (): DomainError => invalid(['body', 'client_user_id'], E.clientUserIdNull, null),
  clientUserIdEmpty: (value: string): DomainError => invalid(['body', 'client_user_id'], E.clientUserIdEmpty, value),
  personalData: (kind: 'email' | 'phone', value: string): DomainError => invalid(['body', 'client_user_id'], E.personalData(kind), value),
  badTimeZone: (tz: string): DomainError => invalid(['body', 'fallback_time_zone'], E.badTimeZone(tz), tz),
  boundsOrder: (start: string, end: string): DomainError => invalid(['body', 'ingestion_start'], E.boundsOrder(start, end), start),
  noDemographics: (): DomainError => notFound(E.noDemographics),
  noInsurance: (): DomainError => notFound(E.noInsurance),
  deviceNotFound: (): DomainError => notFound(E.deviceNotFound),
  unknownPayor: (code: string): DomainError => invalid(['body', 'payor_code'], E.unknownPayor(code), code),
  refreshRateLimited: (retryAfterSeconds: number): DomainError =>
    err('rate_limited', E.refreshRateLimited, { headers: { 'retry-after': String(retryAfterSeconds) } }),
  portalOrderNotFound: (): DomainError => notFound(E.portalOrderNotFound),
  portalLinkExpired: (): DomainError => notFound(E.portalLinkExpired),
  otherTeam: (): DomainError => err('forbidden', E.otherTeam),
} as const;
