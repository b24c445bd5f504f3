/**
 * What a fault rule did to one request (`Exchange.fault`, kept by the request journal): the rule's
 * id, its match and action (references to the rule's own objects, never changed, so an entry stays
 * readable after the rule retires or is removed), the kind of action, and for a latency the wait
 * drawn and the wait the client saw (measured by the adapter that waited: `SimResponse.waited`).
 */
import type { FaultRuleInput } from '../state/sandbox/faults-schema.js';

export type FaultMatch = FaultRuleInput['match'];
export type FaultAction = FaultRuleInput['action'];
export type FaultKind = 'status' | 'latency' | 'drop' | 'malformed';

export interface FaultApplied {
  id: string;
  match: FaultMatch;
  action: FaultAction;
  kind: FaultKind;
  /** A latency's wait as drawn (wall ms). */
  plannedMs?: number;
  /** A latency's wait as the client saw it (wall ms, measured by the adapter), once it answered. */
  waitedMs?: number;
}

export function faultKind(action: FaultAction): FaultKind {
  if (action.status !== undefined) return 'status';
  if (action.drop) return 'drop';
  if (action.malformed) return 'malformed';
  return 'latency';
}

/** A rule in words: `GET /v2/user/* team 1a2b… (sandbox) -> status 429`. */
export function describeFault(match: FaultMatch, action: FaultAction): string {
  const parts = [match.method ?? 'any method', match.path ?? (match.route !== undefined ? `route ${match.route}` : 'any path')];
  if (match.path !== undefined && match.route !== undefined) parts.push(`route ${match.route}`);
  if (match.team_id !== undefined) parts.push(`team ${match.team_id}`);
  if (match.environment !== undefined) parts.push(`(${match.environment})`);
  return `${parts.join(' ')} -> ${actionText(action)}`;
}

function actionText(action: FaultAction): string {
  if (action.status !== undefined) return `status ${action.status}`;
  if (action.drop) return 'drop the connection';
  if (action.malformed) return 'malformed body';
  const latency = action.latency_ms ?? 0;
  return Array.isArray(latency) ? `latency ${latency[0]} to ${latency[1]} ms` : `latency ${latency} ms`;
}
