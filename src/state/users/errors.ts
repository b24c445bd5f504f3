/**
 * The users error catalogue: every text the users area answers with, as constants, and the
 * typed errors built from them (each an ApiError with the real service's status and body).
 * Code and tests import from here; nothing in the area writes an error text inline.
 */
import { ApiError, MESSAGES, apiError, badRequest, conflict, invalidRequest, notFound, valueError } from '../../engine/errors.js';

export const USERS_ERRORS = {
  userNotFound: MESSAGES.userNotFound,
  userResolveNotFound: MESSAGES.userResolveNotFound,
  userGone: MESSAGES.userGone,
  userScheduledForDeletion: MESSAGES.userScheduledForDeletion,
  userAlreadyScheduled: MESSAGES.userAlreadyScheduled,
  clientUserIdExists: MESSAGES.clientUserIdExists,
  clientUserIdTaken: MESSAGES.clientUserIdTaken,
  nothingToPatch: MESSAGES.nothingToPatch,
  sandboxUserCap: MESSAGES.sandboxUserCap,
  noDeletionToUndo: 'No user scheduled for deletion matches this id',
  undoNeedsOneId: 'Provide exactly one of user_id or client_user_id',
  clientUserIdNull: 'client_user_id cannot be reset to null',
  clientUserIdEmpty: 'client_user_id must not be empty',
  personalData: (kind: 'email' | 'phone') =>
    `client_user_id must not contain personal data: it looks like ${kind === 'email' ? 'an e-mail address' : 'a phone number'}`,
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
} as const;

const E = USERS_ERRORS;

/** Typed users errors. */
export const usersError = {
  userNotFound: (): ApiError => notFound(E.userNotFound),
  userResolveNotFound: (): ApiError => notFound(E.userResolveNotFound),
  userGone: (): ApiError => notFound(E.userGone),
  userScheduledForDeletion: (): ApiError => notFound(E.userScheduledForDeletion),
  userAlreadyScheduled: (): ApiError => notFound(E.userAlreadyScheduled),
  clientUserIdExists: (userId: string, createdOn: string): ApiError =>
    invalidRequest(E.clientUserIdExists, { user_id: userId, created_on: createdOn }),
  clientUserIdTaken: (): ApiError => conflict(E.clientUserIdTaken),
  nothingToPatch: (): ApiError => badRequest(E.nothingToPatch),
  sandboxUserCap: (): ApiError => invalidRequest(E.sandboxUserCap),
  noDeletionToUndo: (): ApiError => notFound(E.noDeletionToUndo),
  undoNeedsOneId: (): ApiError => valueError(['query'], E.undoNeedsOneId),
  clientUserIdNull: (): ApiError => valueError(['body', 'client_user_id'], E.clientUserIdNull, null),
  clientUserIdEmpty: (value: string): ApiError => valueError(['body', 'client_user_id'], E.clientUserIdEmpty, value),
  personalData: (kind: 'email' | 'phone', value: string): ApiError => valueError(['body', 'client_user_id'], E.personalData(kind), value),
  badTimeZone: (tz: string): ApiError => valueError(['body', 'fallback_time_zone'], E.badTimeZone(tz), tz),
  boundsOrder: (start: string, end: string): ApiError => valueError(['body', 'ingestion_start'], E.boundsOrder(start, end), start),
  noDemographics: (): ApiError => notFound(E.noDemographics),
  noInsurance: (): ApiError => notFound(E.noInsurance),
  deviceNotFound: (): ApiError => notFound(E.deviceNotFound),
  unknownPayor: (code: string): ApiError => valueError(['body', 'payor_code'], E.unknownPayor(code), code),
  refreshRateLimited: (retryAfterSeconds: number): ApiError => apiError(429, E.refreshRateLimited, { 'retry-after': String(retryAfterSeconds) }),
  portalOrderNotFound: (): ApiError => notFound(E.portalOrderNotFound),
  portalLinkExpired: (): ApiError => notFound(E.portalLinkExpired),
} as const;
