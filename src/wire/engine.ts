/**
 * The answers of a route: what its entry declares (`responses`) plus the errors the engine gives
 * for every route of its kind (auth, closed beta, request validation, the control plane's JSON-only
 * rule). Used by the wire test (every live answer matches a declared schema) and the OpenAPI
 * documents; never on the request path.
 */
import type { Route, ResponseSpec } from '../engine/route.js';
import { ErrorBody, ValidationErrorBody } from './common.js';

/** Errors the engine answers on a route's behalf, by the route's kind. */
function engineResponses(route: Route): Record<number, ResponseSpec> {
  const out: Record<number, ResponseSpec> = {};
  if (route.auth !== 'none') out[401] = { description: 'Missing or invalid credentials', schema: ErrorBody };
  if (route.beta) out[403] = { description: `Closed beta: the team is not enabled for ${route.beta}`, schema: ErrorBody };
  if (route.request.params || route.request.query || route.request.body)
    out[422] = { description: 'Validation error', schema: ValidationErrorBody };
  if (route.auth === 'control' && route.request.body)
    out[415] = { description: 'The control plane accepts only JSON bodies', schema: ErrorBody };
  return out;
}

/**
 * Every declared answer of a route, by status: the entry's own (an error status given as text
 * alone answers the house error body, a 422 the validation items), then the engine's for statuses the entry does not declare.
 */
export function routeResponses(route: Route): Record<string, ResponseSpec> {
  const out: Record<string, ResponseSpec> = {};
  for (const [status, spec] of Object.entries(engineResponses(route))) out[status] = spec;
  for (const [status, spec] of Object.entries(route.responses)) {
    const code = Number(status);
    const error = code >= 400 && !spec.schema && !spec.contentType;
    out[status] = error ? { ...spec, schema: code === 422 ? ValidationErrorBody : ErrorBody } : spec;
  }
  return out;
}

/** Why a route's declarations are incomplete (no success answer, a 2xx JSON answer without a schema); empty when complete. */
export function missingSchemas(route: Route): string[] {
  const out: string[] = [];
  const success = Object.entries(route.responses).filter(([s]) => Number(s) >= 200 && Number(s) < 300);
  const redirects = Object.keys(route.responses).filter((s) => Number(s) >= 300 && Number(s) < 400);
  if (success.length === 0 && redirects.length === 0) out.push('no 2xx (or redirect) answer declared');
  for (const [status, spec] of success) {
    if (status !== '204' && !spec.schema && !spec.contentType) out.push(`${status} has no schema`);
  }
  return out;
}
