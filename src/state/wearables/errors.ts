/**
 * The wearables error catalogue: every text the area answers with, as constants, and the typed
 * errors built from them (ApiError carries the real service's status and body). Code and tests
 * import from here; nothing in the area writes an error text inline.
 */
import { domainErrorOf, type DomainError } from '../domain-error.js';

export const WEARABLES_ERRORS = {
  teamNotFound: (teamId: string) => `Team ${teamId} not found`,
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

/** Builds a wearables domain error (statuses and bodies: `DOMAIN_ERROR_STATUS`, src/state/domain-error.ts). */
const err = domainErrorOf('wearables');

const notFound = (text: string): DomainError => err('not_found', text);
const conflict = (text: string): DomainError => err('conflict', text);
const invalidRequest = (text: string): DomainError => err('invalid_request', text);
const valueError = (loc: Array<string | number>, text: string, input?: unknown): DomainError => err('invalid', text, { loc, input });

/** Typed wearables errors (each an ApiError with the status and body the real service uses). */
export const wearablesError = {
  demoSandboxOnly: (): DomainError => invalidRequest(E.demoSandboxOnly),
  demoAlreadyConnected: (userId: string, provider: string): DomainError => invalidRequest(E.demoAlreadyConnected(userId, provider)),
  demoMixed: (): DomainError => invalidRequest(E.demoMixed),
  providerNotFound: (): DomainError => notFound(E.providerNotFound),
  userNotFound: (): DomainError => notFound(E.userNotFound),
  teamNotFound: (teamId: string): DomainError => notFound(E.teamNotFound(teamId)),
  notConnected: (userId: string, provider: string): DomainError => notFound(E.notConnected(userId, provider)),
  notInError: (): DomainError => conflict(E.notInError),
  retriableNeedsRetry: (detail: string): DomainError => valueError(['body', 'error_details'], E.retriableNeedsRetry(detail), detail),
  nonRetriableNeedsFailure: (detail: string): DomainError =>
    valueError(['body', 'error_details'], E.nonRetriableNeedsFailure(detail), detail),
  unknownResource: (resource: string): DomainError => valueError(['body', 'resources'], E.unknownResource(resource), resource),
  resourceNotPulled: (provider: string, resource: string): DomainError =>
    valueError(['body', 'resources'], E.resourceNotPulled(provider, resource), resource),
  pullFinished: (resources: readonly string[]): DomainError => conflict(E.pullFinished(resources)),
  workoutNotFound: (): DomainError => notFound(E.workoutNotFound),
  sleepNotFound: (): DomainError => notFound(E.sleepNotFound),
  profileNotFound: (): DomainError => notFound(E.profileNotFound),
  invalidCursor: (where: string, cursor: string): DomainError => valueError(['query', where], E.invalidCursor, cursor),
  /** pydantic's enum error for an unknown provider slug. */
  unknownProvider: (where: 'query' | 'path', provider: string, expected: string): DomainError =>
    err('invalid', `Input should be ${expected}`, {
      items: [{ type: 'enum', loc: [where, 'provider'], msg: `Input should be ${expected}`, input: provider, ctx: { expected } }],
    }),
  endBeforeStart: (end: number): DomainError => valueError(['query', 'end_date'], E.endBeforeStart, new Date(end).toISOString()),
} as const;
