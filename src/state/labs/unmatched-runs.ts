/**
 * Unmatched-result test runs (`POST /v3/unmatched_result_test`, `GET .../{run_id}`,
 * `GET .../case`): a run goes through its stages on the sandbox clock, `STAGE_MS` apart: it
 * validates the case and the orders (`provided`) or places them for the team's first user
 * (`managed`), moves them to the statuses the case needs, then writes an unmatched result that
 * the listing, accept and resolve see. A failure stops the run at `failed` with a code and a
 * message. `X-Idempotency-Key` replays the same run.
 */
import { ApiError } from '../../engine/errors.js';
import { hashKey } from '../../engine/rng.js';
import { LAB_BY_SLUG, type Lab } from '../../fixtures/labs/labs.js';
import { CASE_BY_NAME, STRANGERS, type UnmatchedCase } from '../../fixtures/labs/unmatched-cases.js';
import { usersOf } from '../users/users.js';
import { LABS_ERRORS, LABS_TEXTS, labsError } from './errors.js';
import { labMarker } from './lab-catalogue.js';
import { labTestsOf, type LabTest } from './lab-tests.js';
import { placeOrder } from './order-actions.js';
import { cancelOrder, planSimulation, runSimulation } from './order-changes.js';
import type { Interpretation, LowStatus } from './order-lifecycle.js';
import { currentStatus, type Order } from './order-model.js';
import { ordersOf } from './order-store.js';
import { jobKind } from '../../engine/job-kinds.js';
import type { Partition } from '../../engine/tenancy.js';
import type { Domain } from '../domain-context.js';
import { emitMatchReview } from './match-review-events.js';
import { RUN_LIMIT, UNMATCHED_LIMIT, unmatchedOf, type Candidate, type RunStage, type TestRun } from './unmatched-store.js';

const STAGE_MS = 2_000;

const NEXT: Partial<Record<RunStage, RunStage>> = {
  queued: 'validating',
  validating: 'selecting_configuration',
  selecting_configuration: 'creating_orders',
  creating_orders: 'transitioning_orders',
  transitioning_orders: 'writing_result',
  writing_result: 'matching_result',
  matching_result: 'verifying_review',
  verifying_review: 'succeeded',
};

interface CreateRunInput {
  case: UnmatchedCase;
  order_source: 'managed' | 'provided';
  orders?: Record<string, string> | null;
  result_status: 'final' | 'partial';
  interpretation: Interpretation;
  lab_test_id?: string | null;
  wrong_lab_test_id?: string | null;
}

class RunFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Creates a run (queued) and schedules its stages; the same key gives back the same run. */
export function createRun(env: Domain, input: CreateRunInput, key: string): TestRun {
  const store = unmatchedOf(env.partition, env.world);
  const existing = store.runOfKey(key);
  if (existing) return existing;
  if (store.runCount >= RUN_LIMIT) throw labsError.badRequest(LABS_ERRORS.unmatchedRunLimit);
  const now = env.world.clock.now();
  const run: TestRun = {
    run_id: env.world.ids.uuid('unmatched_run', env.partition.id),
    stage: 'queued',
    case: input.case,
    order_source: input.order_source,
    result_status: input.result_status,
    interpretation: input.interpretation,
    lab_test_id: input.lab_test_id ?? null,
    wrong_lab_test_id: input.wrong_lab_test_id ?? null,
    provided: { ...(input.orders ?? {}) },
    orders: {},
    raw_result_id: null,
    error: null,
    created_at: now,
    updated_at: now,
    started_at: null,
    completed_at: null,
  };
  store.addRun(run, key);
  scheduleStage(env, run, now);
  return run;
}

export function findRun(env: Domain, runId: string): TestRun {
  const run = unmatchedOf(env.partition, env.world).run(runId);
  if (!run) throw labsError.notFound(LABS_ERRORS.unmatchedRunNotFound);
  return run;
}

function scheduleStage(env: Domain, run: TestRun, from: number): void {
  const next = NEXT[run.stage];
  if (!next) return;
  env.world.scheduler.at(
    from + STAGE_MS,
    RUN_STAGE,
    { partition: env.partition, run, next },
    `unmatched_result_test ${run.run_id} -> ${next}`,
  );
}

/** An unmatched-result test run enters its next stage. */
const RUN_STAGE = jobKind<{ partition: Partition; run: TestRun; next: RunStage }>(
  'unmatched_result_test.stage',
  (world, { partition, run, next }) => {
    const env: Domain = { world, partition };
    const at = env.world.clock.now();
    try {
      enterStage(env, run, next);
      run.stage = next;
    } catch (error) {
      if (!(error instanceof RunFailure)) throw error;
      run.stage = 'failed';
      run.error = { code: error.code, message: error.message };
    }
    run.updated_at = at;
    if (run.stage === 'validating') run.started_at = at;
    if (run.stage === 'succeeded' || run.stage === 'failed') run.completed_at = at;
    else scheduleStage(env, run, at);
  },
);

function enterStage(env: Domain, run: TestRun, stage: RunStage): void {
  switch (stage) {
    case 'validating':
      return validate(env, run);
    case 'creating_orders':
      return createOrders(env, run);
    case 'transitioning_orders':
      return transitionOrders(env, run);
    case 'writing_result':
      return writeResult(env, run);
    default:
  }
}

function teamLabTest(env: Domain, id: string | null): LabTest {
  const store = labTestsOf(env.partition, env.world);
  if (id) {
    const test = store.get(id);
    if (!test) throw new RunFailure('lab_test_not_found', LABS_TEXTS.runLabTestNotFound(id));
    return test;
  }
  return store.all().find((t) => t.method === 'walk_in_test' && !t.auto_generated) as LabTest;
}

function validate(env: Domain, run: TestRun): void {
  const def = CASE_BY_NAME.get(run.case);
  if (!def) throw new RunFailure('unknown_case', run.case);
  teamLabTest(env, run.lab_test_id);
  if (run.wrong_lab_test_id) teamLabTest(env, run.wrong_lab_test_id);
  if (unmatchedOf(env.partition, env.world).list.length >= UNMATCHED_LIMIT)
    throw new RunFailure('limit_reached', LABS_ERRORS.runUnmatchedLimit);
  if (run.order_source === 'managed') {
    if (def.order_roles.length > 0 && !usersOf(env.partition, env.world).all()[0]) throw new RunFailure('no_user', LABS_ERRORS.runNoUser);
    return;
  }
  for (const role of Object.keys(run.provided))
    if (!def.order_roles.includes(role)) throw new RunFailure('invalid_orders', LABS_TEXTS.runUnknownRole(role));
  for (const role of def.order_roles) {
    const id = run.provided[role];
    if (!id) throw new RunFailure('invalid_orders', LABS_TEXTS.runRoleMissing(role));
    const order = ordersOf(env).get(id);
    if (!order) throw new RunFailure('invalid_orders', LABS_TEXTS.runOrderNotFound(role, id));
    const required = def.required_statuses[role] as LowStatus;
    if (currentStatus(order) !== required)
      throw new RunFailure('order_status_mismatch', LABS_TEXTS.runOrderStatus(role, currentStatus(order), required));
    run.orders[role] = { order_id: order.id, user_id: order.user_id, order_transaction_id: order.transaction_id };
  }
}

const PATIENT = {
  first_name: 'Riley',
  last_name: 'Matcher',
  dob: '1984-05-17',
  gender: 'female',
  phone_number: '+14155551234',
  email: 'riley.matcher@example.com',
};
const ADDRESS = {
  receiver_name: 'Riley Matcher',
  first_line: '1 Main Street',
  second_line: null,
  city: 'Austin',
  state: 'TX',
  zip: '78701',
  country: 'US',
  access_notes: null,
  phone_number: null,
};

function createOrders(env: Domain, run: TestRun): void {
  if (run.order_source !== 'managed') return;
  const def = CASE_BY_NAME.get(run.case);
  const user = usersOf(env.partition, env.world).all()[0];
  if (!def || def.order_roles.length === 0) return;
  if (!user) throw new RunFailure('no_user', LABS_ERRORS.runNoUser);
  const test = teamLabTest(env, run.lab_test_id);
  for (const role of def.order_roles) {
    let order: Order;
    try {
      order = placeOrder(env, {
        user_id: user.user_id,
        lab_test_id: test.id,
        patient_details: { ...PATIENT },
        patient_address: { ...ADDRESS },
        physician: null,
        priority: false,
        billing_type: 'client_bill',
        icd_codes: null,
        passthrough: `unmatched_result_test ${run.run_id}`,
        clinical_notes: null,
        activate_by: null,
        has_health_insurance: false,
      });
    } catch (error) {
      if (error instanceof ApiError) throw new RunFailure('order_creation_failed', error.message);
      throw error;
    }
    run.orders[role] = { order_id: order.id, user_id: order.user_id, order_transaction_id: order.transaction_id };
  }
}

function transitionOrders(env: Domain, run: TestRun): void {
  if (run.order_source !== 'managed') return;
  const def = CASE_BY_NAME.get(run.case);
  for (const [role, ref] of Object.entries(run.orders)) {
    const order = ordersOf(env).get(ref.order_id);
    const target = def?.required_statuses[role];
    if (!order || !target) continue;
    try {
      if (target === 'cancelled') cancelOrder(env, order);
      else {
        const plan = planSimulation(order, target);
        if (plan !== 'noop') runSimulation(env, order, plan, 0);
      }
    } catch (error) {
      if (error instanceof ApiError) throw new RunFailure('order_transition_failed', error.message);
      throw error;
    }
  }
}

const SAMPLE_ID_CASES: ReadonlySet<UnmatchedCase> = new Set([
  'match_completed',
  'match_cancelled',
  'wrong_collection',
  'match_sample_id_mismatch_demo',
]);

const REASONS: Record<UnmatchedCase, string[]> = {
  match_completed: ['sample_id_match', 'matched_completed_order', 'same_lab', 'marker_overlap_exact'],
  match_cancelled: ['sample_id_match', 'matched_cancelled_order', 'same_lab', 'marker_overlap_exact'],
  wrong_collection: ['sample_id_match', 'invalid_collection_state', 'same_lab', 'marker_overlap_exact'],
  wrong_lab: ['demographic_match', 'possible_wrong_lab', 'marker_overlap_exact'],
  multiple_demo_match: ['demographic_match', 'same_user', 'same_lab', 'marker_overlap_exact'],
  match_sample_id_mismatch_demo: ['sample_id_match', 'demographic_mismatch', 'same_lab', 'marker_overlap_exact'],
  match_demo: ['demographic_match', 'same_lab', 'marker_overlap_exact'],
  no_match: [],
};

function candidateFor(run: TestRun, order: Order): Candidate {
  const sample = SAMPLE_ID_CASES.has(run.case);
  const level = run.case === 'wrong_lab' ? 'low' : sample && run.case !== 'match_sample_id_mismatch_demo' ? 'high' : 'medium';
  const score = { high: 0.95, medium: run.case === 'multiple_demo_match' ? 0.5 : 0.7, low: 0.4 }[level];
  return {
    candidate_type: sample ? 'provenance_order' : 'order_option',
    order_id: order.id,
    order_transaction_id: order.transaction_id,
    last_status: currentStatus(order),
    confidence_level: level,
    confidence_score: score,
    reasons: REASONS[run.case],
  };
}

function otherLab(lab: Lab): Lab {
  return LAB_BY_SLUG.get(lab.slug === 'quest' ? 'labcorp' : 'quest') as Lab;
}

function writeResult(env: Domain, run: TestRun): void {
  const store = unmatchedOf(env.partition, env.world);
  const def = CASE_BY_NAME.get(run.case);
  const orders = Object.values(run.orders).flatMap((ref) => ordersOf(env).get(ref.order_id) ?? []);
  const first = orders[0];
  const test = first?.lab_test ?? teamLabTest(env, run.lab_test_id);
  let lab = test.lab;
  if (run.case === 'wrong_lab') lab = run.wrong_lab_test_id ? teamLabTest(env, run.wrong_lab_test_id).lab : otherLab(lab);
  const markers = test.markers
    .map((mk) => labMarker(lab, mk.def.slug) ?? mk)
    .map((mk) => ({ provider_id: mk.provider_id, name: mk.def.name }));
  const stranger = STRANGERS[hashKey(env.world.seed, 'unmatched_stranger', run.run_id) % STRANGERS.length] as (typeof STRANGERS)[number];
  const pd = first?.patient_details;
  let patient = pd ? { first_name: pd.first_name, last_name: pd.last_name, dob: pd.dob, gender: pd.gender } : { ...stranger };
  if (run.case === 'match_sample_id_mismatch_demo')
    patient = {
      ...patient,
      last_name: `${patient.last_name}-Ortega`,
      dob: `${Number(patient.dob.slice(0, 4)) - 1}${patient.dob.slice(4)}`,
    };
  const groups = new Map<string, Candidate[]>();
  for (const order of orders) {
    const list = groups.get(order.user_id) ?? [];
    list.push(candidateFor(run, order));
    groups.set(order.user_id, list);
  }
  const now = env.world.clock.now();
  const item = store.add({
    id: env.world.ids.uuid('unmatched_result', env.partition.id),
    status: 'pending_customer_review',
    decision_code: run.case,
    sub_reason_codes: run.case === 'wrong_lab' ? ['lab_account_mismatch'] : [],
    reason: def?.reason ?? '',
    patient,
    lab: { id: lab.id, name: lab.name, slug: lab.slug },
    markers,
    interpretation: run.interpretation,
    result_status: run.result_status,
    note: null,
    resolution_action: null,
    resolved_user_id: null,
    resolved_order_id: null,
    candidate_groups: [...groups.entries()].map(([user_id, candidates]) => ({ user_id, candidates })),
    created_at: now,
    updated_at: now,
    reviewed_at: null,
  });
  run.raw_result_id = item.id;
  emitMatchReview(env, item, 'created');
}
