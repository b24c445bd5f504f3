/**
 * Closed beta (spec 7.2, 9): a team not enabled for a feature gets a JSON error body (since
 * Nov 2025; before that the real service answered plain text). The status and shape are our
 * choice, documented in the README: 403 with a structured `detail`.
 */
import { ApiError } from './errors.js';
import type { Team } from './tenancy.js';

export function closedBetaError(feature: string): ApiError {
  return new ApiError(403, {
    detail: {
      error_type: 'closed_beta',
      error_message: `This endpoint is in closed beta (feature "${feature}") and your team is not enabled for it. Contact support to join the beta.`,
      feature,
    },
  });
}

/** Throws the closed-beta error unless the team is enabled for the feature. */
export function assertBeta(team: Team, feature: string): void {
  if (!team.beta_features.has(feature)) throw closedBetaError(feature);
}
