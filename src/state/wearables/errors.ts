/**
 * The wearables error catalogue: every text the area answers with, as constants, and the typed
 * errors built from them (ApiError carries the real service's status and body). Code and tests
 * import from here; nothing in the area writes an error text inline.
 */
import { ApiError, conflict, invalidRequest, notFound, valueError } from '../../engine/errors.js';

export const WEARABLES_ERRORS = {
  demoSandboxOnly: 'Demo connections are only available in the sandbox environment',
  demoAlreadyConnected: (userId: string, provider: string) => `User ${userId} is already connected to ${provider}`,
  demoMixed: 'Demo connections cannot be mixed with real connections: use a user without connections',
  demoConnected: (userId: string, provider: string) => `Connected user ${userId} to provider ${provider}`,
  providerNotFound: 'Provider not found',
  userNotFound: 'User not found',
  notConnected: (userId: string, provider: string) => `User ${userId} is not connected to ${provider}`,
  notInError: 'The connection is not in error',
  retriableNeedsRetry: (detail: string) => `${detail} is a retriable detail: use a retry_then_* outcome`,
  nonRetriableNeedsFailure: (detail: string) => `${detail} is a non-retriable detail: use a failure outcome`,
  unknownResource: (resource: string) => `Unknown or unsimulated resource: ${resource}`,
  resourceNotPulled: (provider: string, resource: string) => `${provider} does not pull ${resource} for this connection`,
  pullFinished: (resources: readonly string[]) => `The historical pull of ${resources.join(', ')} already finished`,
  workoutNotFound: 'Workout not found',
  sleepNotFound: 'Sleep not found',
  profileNotFound: 'Profile not found',
  invalidCursor: 'Invalid cursor',
  endBeforeStart: 'end_date must be on or after start_date',
} as const;

const E = WEARABLES_ERRORS;

/** Typed wearables errors (each an ApiError with the status and body the real service uses). */
export const wearablesError = {
  demoSandboxOnly: (): ApiError => invalidRequest(E.demoSandboxOnly),
  demoAlreadyConnected: (userId: string, provider: string): ApiError => invalidRequest(E.demoAlreadyConnected(userId, provider)),
  demoMixed: (): ApiError => invalidRequest(E.demoMixed),
  providerNotFound: (): ApiError => notFound(E.providerNotFound),
  userNotFound: (): ApiError => notFound(E.userNotFound),
  notConnected: (userId: string, provider: string): ApiError => notFound(E.notConnected(userId, provider)),
  notInError: (): ApiError => conflict(E.notInError),
  retriableNeedsRetry: (detail: string): ApiError => valueError(['body', 'error_details'], E.retriableNeedsRetry(detail), detail),
  nonRetriableNeedsFailure: (detail: string): ApiError => valueError(['body', 'error_details'], E.nonRetriableNeedsFailure(detail), detail),
  unknownResource: (resource: string): ApiError => valueError(['body', 'resources'], E.unknownResource(resource), resource),
  resourceNotPulled: (provider: string, resource: string): ApiError => valueError(['body', 'resources'], E.resourceNotPulled(provider, resource), resource),
  pullFinished: (resources: readonly string[]): ApiError => conflict(E.pullFinished(resources)),
  workoutNotFound: (): ApiError => notFound(E.workoutNotFound),
  sleepNotFound: (): ApiError => notFound(E.sleepNotFound),
  profileNotFound: (): ApiError => notFound(E.profileNotFound),
  invalidCursor: (where: string, cursor: string): ApiError => valueError(['query', where], E.invalidCursor, cursor),
  endBeforeStart: (end: number): ApiError => valueError(['query', 'end_date'], E.endBeforeStart, new Date(end).toISOString()),
} as const;
