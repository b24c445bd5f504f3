/**
 * The wearables error catalogue: every text the area answers with, as constants, and the typed
 * errors built from them (ApiError carries the real service's status and body). Code and tests
 * import from here; nothing in the area writes an error text inline.
 */
import { DomainError, type DomainErrorDetails, type DomainErrorKind } from '../domain-error.js';

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

/** A wearables domain error (statuses and bodies: `DOMAIN_ERROR_STATUS`, src/state/domain-error.ts). */
class WearablesError extends DomainError {
  constructor(kind: DomainErrorKind, text: string, details?: DomainErrorDetails) {
    super('wearables', kind, text, details);
    this.name = 'WearablesError';
  }
}

const notFound = (text: string): WearablesError => new WearablesError('not_found', text);
const conflict = (text: string): WearablesError => new WearablesError('conflict', text);
const invalidRequest = (text: string): WearablesError => new WearablesError('invalid_request', text);
const valueError = (loc: Array<string | number>, text: string, input?: unknown): WearablesError => new WearablesError('invalid', text, { loc, input });

/** Typed wearables errors (each an ApiError with the status and body the real service uses). */
export const wearablesError = {
  demoSandboxOnly: (): WearablesError => invalidRequest(E.demoSandboxOnly),
  demoAlreadyConnected: (userId: string, provider: string): WearablesError => invalidRequest(E.demoAlreadyConnected(userId, provider)),
  demoMixed: (): WearablesError => invalidRequest(E.demoMixed),
  providerNotFound: (): WearablesError => notFound(E.providerNotFound),
  userNotFound: (): WearablesError => notFound(E.userNotFound),
  notConnected: (userId: string, provider: string): WearablesError => notFound(E.notConnected(userId, provider)),
  notInError: (): WearablesError => conflict(E.notInError),
  retriableNeedsRetry: (detail: string): WearablesError => valueError(['body', 'error_details'], E.retriableNeedsRetry(detail), detail),
  nonRetriableNeedsFailure: (detail: string): WearablesError => valueError(['body', 'error_details'], E.nonRetriableNeedsFailure(detail), detail),
  unknownResource: (resource: string): WearablesError => valueError(['body', 'resources'], E.unknownResource(resource), resource),
  resourceNotPulled: (provider: string, resource: string): WearablesError => valueError(['body', 'resources'], E.resourceNotPulled(provider, resource), resource),
  pullFinished: (resources: readonly string[]): WearablesError => conflict(E.pullFinished(resources)),
  workoutNotFound: (): WearablesError => notFound(E.workoutNotFound),
  sleepNotFound: (): WearablesError => notFound(E.sleepNotFound),
  profileNotFound: (): WearablesError => notFound(E.profileNotFound),
  invalidCursor: (where: string, cursor: string): WearablesError => valueError(['query', where], E.invalidCursor, cursor),
  /** pydantic's enum error for an unknown provider slug. */
  unknownProvider: (where: 'query' | 'path', provider: string, expected: string): WearablesError =>
    new WearablesError('invalid', `Input should be ${expected}`, { items: [{ type: 'enum', loc: [where, 'provider'], msg: `Input should be ${expected}`, input: provider, ctx: { expected } }] }),
  endBeforeStart: (end: number): WearablesError => valueError(['query', 'end_date'], E.endBeforeStart, new Date(end).toISOString()),
} as const;
