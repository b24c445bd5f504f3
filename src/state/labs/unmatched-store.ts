/**
 * Unmatched results of one team environment (data OpenAPI tag `unmatched`): results that arrived
 * without a matching order, waiting for the team's review, and the test runs that create them.
 * Indexed by id and by review status; kept in creation order. Bounded: at most
 * `UNMATCHED_LIMIT` results and `RUN_LIMIT` test runs per team environment.
 */
import { partitionSlot } from '../../engine/world.js';
import type { UnmatchedCase } from '../../fixtures/labs/unmatched-cases.js';
import type { Interpretation, LowStatus } from './order-lifecycle.js';
import type { z } from 'zod';
import type * as W from '../../wire/schemas.js';
import { dataClass } from '../../engine/world-codec.js';

export const UNMATCHED_LIMIT = 1000;
export const RUN_LIMIT = 1000;

export type ReviewStatus = 'matched' | 'pending_customer_review' | 'pending_ops_review' | 'resolved';
export type ResolutionAction = 'accept' | 'reject' | 'unsure';

export interface Candidate {
  candidate_type: 'provenance_order' | 'order_option';
  order_id: string;
  order_transaction_id: string;
  last_status: LowStatus;
  confidence_level: 'high' | 'medium' | 'low';
  confidence_score: number;
  reasons: string[];
}

export interface UnmatchedResult {
  id: string;
  seq: number;
  status: ReviewStatus;
  decision_code: UnmatchedCase;
  sub_reason_codes: string[];
  reason: string;
  patient: { first_name: string; last_name: string; dob: string; gender: string };
  lab: { id: number; name: string; slug: string };
  markers: Array<{ provider_id: string; name: string }>;
  interpretation: Interpretation;
  result_status: 'final' | 'partial';
  note: string | null;
  resolution_action: ResolutionAction | null;
  resolved_user_id: string | null;
  resolved_order_id: string | null;
  candidate_groups: Array<{ user_id: string; candidates: Candidate[] }>;
  created_at: number;
  updated_at: number;
  reviewed_at: number | null;
}

export type RunStage =
  | 'queued'
  | 'validating'
  | 'selecting_configuration'
  | 'creating_orders'
  | 'transitioning_orders'
  | 'writing_result'
  | 'matching_result'
  | 'verifying_review'
  | 'succeeded'
  | 'failed';

export interface TestRun {
  run_id: string;
  stage: RunStage;
  case: UnmatchedCase;
  order_source: 'managed' | 'provided';
  result_status: 'final' | 'partial';
  interpretation: Interpretation;
  lab_test_id: string | null;
  wrong_lab_test_id: string | null;
  provided: Record<string, string>;
  orders: Record<string, { order_id: string; user_id: string; order_transaction_id: string }>;
  raw_result_id: string | null;
  error: { code: string; message: string } | null;
  created_at: number;
  updated_at: number;
  started_at: number | null;
  completed_at: number | null;
}

class UnmatchedStore {
  private readonly byId = new Map<string, UnmatchedResult>();

  get(id: string): UnmatchedResult | undefined {
    return this.byId.get(id);
  }
  /** Creation order. */
  readonly list: UnmatchedResult[] = [];
  private readonly byStatusMap = new Map<ReviewStatus, Set<UnmatchedResult>>();
  private readonly runs = new Map<string, TestRun>();
  /** X-Idempotency-Key -> run id. */
  private readonly runKeys = new Map<string, string>();
  private seq = 0;

  run(runId: string): TestRun | undefined {
    return this.runs.get(runId);
  }

  /** The run an idempotency key already started, if any. */
  runOfKey(key: string): TestRun | undefined {
    const id = this.runKeys.get(key);
    return id ? this.runs.get(id) : undefined;
  }

  get runCount(): number {
    return this.runs.size;
  }

  addRun(run: TestRun, key: string): void {
    this.runs.set(run.run_id, run);
    this.runKeys.set(key, run.run_id);
  }

  add(result: Omit<UnmatchedResult, 'seq'>): UnmatchedResult {
    const item: UnmatchedResult = { ...result, seq: ++this.seq };
    this.byId.set(item.id, item);
    this.list.push(item);
    this.index(item);
    return item;
  }

  ofStatus(status: ReviewStatus): ReadonlySet<UnmatchedResult> {
    return this.byStatusMap.get(status) ?? new Set();
  }

  setStatus(item: UnmatchedResult, status: ReviewStatus): void {
    this.byStatusMap.get(item.status)?.delete(item);
    item.status = status;
    this.index(item);
  }

  private index(item: UnmatchedResult): void {
    let set = this.byStatusMap.get(item.status);
    if (!set) this.byStatusMap.set(item.status, (set = new Set()));
    set.add(item);
  }
}
dataClass('UnmatchedStore', UnmatchedStore);

export const unmatchedOf = partitionSlot('unmatched_results', () => new UnmatchedStore());

function iso(ms: number): string;
function iso(ms: number | null): string | null;
function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

const ACTIONS: Record<ReviewStatus, ResolutionAction[]> = {
  pending_customer_review: ['accept', 'reject', 'unsure'],
  pending_ops_review: ['accept', 'reject'],
  matched: [],
  resolved: [],
};

export function allowedActions(item: UnmatchedResult): ResolutionAction[] {
  return ACTIONS[item.status];
}

/** `UnmatchedResult` / `GetUnmatchedResultResponse`. */
export function unmatchedView(item: UnmatchedResult): z.input<typeof W.UnmatchedResult> {
  return {
    id: item.id,
    status: item.status,
    decision_code: item.decision_code,
    sub_reason_codes: item.sub_reason_codes,
    reason: item.reason,
    patient: { ...item.patient, dob: `${item.patient.dob}T00:00:00+00:00` },
    lab: item.lab,
    markers: item.markers,
    interpretation: item.interpretation,
    result_status: item.result_status,
    note: item.note,
    resolution_action: item.resolution_action,
    resolved_user_id: item.resolved_user_id,
    resolved_order_id: item.resolved_order_id,
    allowed_actions: allowedActions(item),
    candidate_groups: item.candidate_groups.map((g) => ({ user_id: g.user_id, candidates: g.candidates.map((c) => ({ ...c })) })),
    created_at: iso(item.created_at),
    updated_at: iso(item.updated_at),
    reviewed_at: iso(item.reviewed_at),
  };
}

const RUN_STATUS: Record<RunStage, 'queued' | 'running' | 'succeeded' | 'failed'> = {
  queued: 'queued',
  validating: 'running',
  selecting_configuration: 'running',
  creating_orders: 'running',
  transitioning_orders: 'running',
  writing_result: 'running',
  matching_result: 'running',
  verifying_review: 'running',
  succeeded: 'succeeded',
  failed: 'failed',
};

export const runStatus = (run: TestRun) => RUN_STATUS[run.stage];

/** `GetUnmatchedResultTestResponse`. */
export function runView(run: TestRun): z.input<typeof W.UnmatchedTestRun> {
  return {
    run_id: run.run_id,
    status: runStatus(run),
    stage: run.stage,
    case: run.case,
    order_source: run.order_source,
    result_status: run.result_status,
    orders: run.orders,
    raw_result_id: run.raw_result_id,
    error: run.error,
    created_at: iso(run.created_at),
    updated_at: iso(run.updated_at),
    started_at: iso(run.started_at),
    completed_at: iso(run.completed_at),
  };
}
