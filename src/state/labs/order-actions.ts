/**
 * The labs domain functions the API handlers and the control plane call (api-facts B.1 to B.7):
 * place an order (lab test or order set) or an unregistered testkit, register a testkit,
 * reschedule, cancel, record the draw, simulate, resend events, and `X-Idempotency-Key`
 * replay. Each validates everything first and then changes state, so a rejected request
 * changes nothing; errors come from the labs catalogue (`errors.ts`).
 */
import { usersOf, type User } from '../users/users.js';
import { orderCancelled } from './appointments.js';
import type { CollectionMethod } from '../../fixtures/labs/labs.js';
import { LABS_ERRORS, LABS_TEXTS, labsError } from './errors.js';
import { buildOrder, resultDates, type OrderInit } from './lab-order-factory.js';
import { addLabTest, labTestsOf, orderSetMarkers, type LabTest } from './lab-tests.js';
import { checkActivateBy, checkPatient, checkRealPhone } from './order-checks.js';
import {
  REGISTRABLE_FROM,
  cancelOrder,
  drawCompleted,
  markRegistered,
  planSimulation,
  resendOrder,
  runSimulation,
  scheduleNext,
  startOrder,
} from './order-changes.js';
import { fateFromZip, nameHints, parseFullStatus, type Interpretation, type LowStatus } from './order-lifecycle.js';
import {
  IDEMPOTENCY_TTL_MS,
  currentStatus,
  type IdempotentReply,
  type Order,
  type PatientAddress,
  type PatientDetails,
  type Physician,
  type ShippingDetails,
} from './order-model.js';
import { resultStage } from './order-results.js';
import { realStepping } from './order-progression.js';
import { ordersOf } from './order-store.js';
import type { Domain } from '../domain-context.js';
import type { ResultType } from '../../fixtures/labs/markers.js';
import { ApiError } from '../../engine/errors.js';

/** The order with this id in the partition, or a 404 with the given catalogue text. */
export function findOrder(env: Domain, orderId: string, missing: string): Order {
  const order = ordersOf(env).get(orderId);
  if (!order) throw labsError.notFound(missing);
  return order;
}

export function liveUser(env: Domain, userId: string): User {
  const user = usersOf(env.partition, env.world).liveUser(userId);
  if (!user) throw labsError.notFound(LABS_ERRORS.userNotOnTeam);
  return user;
}

/**
 * Replays a stored answer for an idempotency key, or runs `create` and stores its answer
 * (success or business error; never a validation error, never when `noCache` is set for
 * errors). `scope` keeps keys per endpoint: the same key on two endpoints names two requests.
 */
export function idempotent<B>(
  env: Domain,
  scope: string,
  key: string | undefined,
  noCache: boolean,
  create: () => IdempotentReply & { body: B },
): IdempotentReply & { body: B } {
  if (!key) return create();
  const scoped = `${scope} ${key}`;
  const now = env.world.clock.now();
  const stored = ordersOf(env).replay(scoped, now, IDEMPOTENCY_TTL_MS);
  if (stored) {
    if (stored.status >= 400) throw new ApiError(stored.status, stored.body);
    // A success stored under `scoped` is what this scope's `create` answered: the same type.
    return stored as IdempotentReply & { body: B };
  }
  try {
    const reply = create();
    ordersOf(env).remember(scoped, { at: now, status: reply.status, body: reply.body }, IDEMPOTENCY_TTL_MS);
    return reply;
  } catch (error) {
    if (error instanceof ApiError && error.status !== 422 && !noCache)
      ordersOf(env).remember(scoped, { at: now, status: error.status, body: error.body }, IDEMPOTENCY_TTL_MS);
    throw error;
  }
}

export interface OrderSetInput {
  lab_test_ids?: string[] | null;
  add_on?: { marker_ids?: number[] | null; provider_ids?: string[] | null } | null;
}

/** What a request placing an order gives, already parsed into the order model's shapes. */
interface PlaceOrderInput {
  user_id: string;
  lab_test_id?: string | null;
  order_set?: OrderSetInput | null;
  collection_method?: CollectionMethod | null;
  patient_details: PatientDetails;
  patient_address: PatientAddress;
  physician: Physician | null;
  priority: boolean;
  billing_type: string;
  icd_codes: string[] | null;
  passthrough: string | null;
  clinical_notes: string | null;
  activate_by: string | null;
  has_health_insurance: boolean;
}

/** Validates the lab test or order set of a new order; a new order set's lab test is only built, not stored. */
export function chooseLabTest(env: Domain, input: PlaceOrderInput): LabTest | (() => LabTest) {
  const store = labTestsOf(env.partition, env.world);
  if (input.lab_test_id && input.order_set) throw labsError.invalid(['body'], LABS_ERRORS.bothLabTestAndOrderSet);
  if (input.lab_test_id) {
    const test = store.get(input.lab_test_id);
    if (!test) throw labsError.notFound(LABS_ERRORS.labTestNotFound);
    if (test.status !== 'active') throw labsError.badRequest(LABS_TEXTS.labTestInactive(test.id));
    if (input.collection_method && input.collection_method !== test.method)
      throw labsError.badRequest(LABS_TEXTS.methodMismatch(input.collection_method, test.method));
    return test;
  }
  if (!input.order_set) throw labsError.invalid(['body', 'order_set'], LABS_ERRORS.labTestOrOrderSetRequired);
  const { markers, tests } = orderSetMarkers((id) => store.get(id), input.order_set, ['body', 'order_set']);
  if (markers.length === 0) throw labsError.invalid(['body', 'order_set'], LABS_ERRORS.emptyOrderSet);
  if (new Set(tests.map((t) => t.method)).size > 1) throw labsError.badRequest(LABS_ERRORS.mixedOrderSetMethods);
  const method = input.collection_method ?? tests[0]?.method;
  if (!method) throw labsError.invalid(['body', 'collection_method'], LABS_ERRORS.orderSetMethodRequired);
  if (tests[0] && method !== tests[0].method) throw labsError.badRequest(LABS_TEXTS.orderSetMethodMismatch(method, tests[0].method));
  const lab = (markers[0] as (typeof markers)[number]).lab;
  if (!lab.collection_methods.includes(method)) throw labsError.badRequest(LABS_TEXTS.labMethodUnsupported(lab.name, method));
  const addOns = markers.length - tests.reduce((n, t) => n + t.markers.length, 0);
  if (tests.length === 1 && addOns <= 0 && tests[0]) return tests[0];
  const name = [...tests.map((t) => t.name), ...(addOns > 0 ? [`${addOns} add-on marker${addOns === 1 ? '' : 's'}`] : [])].join(' + ');
  return () =>
    addLabTest(store, {
      id: env.world.ids.uuid('lab_test', env.partition.id),
      name: `Order set: ${name}`,
      description: `Auto-generated for an order set of ${markers.length} markers`,
      method,
      lab,
      markers,
      auto_generated: true,
      now: env.world.clock.now(),
    });
}

/** The part of a new order a request fixes (ids, owner, lab test, time); the rest is per kind of order. */
type Placed = Pick<
  OrderInit,
  'seed' | 'id' | 'team_id' | 'user_id' | 'client_user_id' | 'lab_test' | 'at' | 'details_id' | 'shipment_id' | 'transaction_id'
>;

/** Builds and starts an order with fresh ids in the partition. */
export function place(env: Domain, user: User, test: LabTest, rest: (placed: Placed) => OrderInit): Order {
  const { ids } = env.world;
  const pid = env.partition.id;
  const order = buildOrder(
    ordersOf(env),
    rest({
      seed: env.world.seed,
      id: ids.uuid('lab_order', pid),
      team_id: env.partition.team.id,
      user_id: user.user_id,
      client_user_id: user.client_user_id,
      lab_test: test,
      at: env.world.clock.now(),
      details_id: ids.uuid('lab_order_details', pid),
      shipment_id: test.method === 'testkit' ? ids.uuid('lab_shipment', pid) : null,
      transaction_id: ids.uuid('lab_order_transaction', pid),
    }),
  );
  startOrder(env, order);
  return order;
}

/** Places an order for a lab test or an order set (`POST /v3/order`). */
/** What an order takes from its patient: details, address, physician, the zip's scripted path and the last name's result hints. */
export function patientParts(
  input: { patient_details: PatientDetails; patient_address: PatientAddress; physician: Physician | null },
  test: LabTest,
): Pick<OrderInit, 'patient_details' | 'patient_address' | 'physician' | 'fate' | 'flags'> {
  const hints = nameHints(input.patient_details.last_name);
  return {
    patient_details: input.patient_details,
    patient_address: input.patient_address,
    physician: input.physician,
    fate: fateFromZip(input.patient_address.zip, test.method),
    flags: {
      interpretation: hints.interpretation ?? 'normal',
      result_types: null,
      has_missing_results: hints.has_missing_results ?? false,
    },
  };
}

export function placeOrder(env: Domain, input: PlaceOrderInput): Order {
  const user = liveUser(env, input.user_id);
  const now = env.world.clock.now();
  checkPatient(input.patient_details, env.partition, now, ['body', 'patient_details']);
  if (input.patient_address.phone_number) checkRealPhone(input.patient_address.phone_number);
  checkActivateBy(input.activate_by, now, ['body', 'activate_by']);
  const chosen = chooseLabTest(env, input);
  const test = typeof chosen === 'function' ? chosen() : chosen;
  return place(env, user, test, (placed) => ({
    ...placed,
    ...patientParts(input, test),
    priority: input.priority,
    billing_type: input.billing_type,
    icd_codes: input.icd_codes,
    passthrough: input.passthrough,
    clinical_notes: input.clinical_notes,
    activate_by: input.activate_by,
    health_insurance_id: input.has_health_insurance ? env.world.ids.uuid('health_insurance', env.partition.id) : null,
  }));
}

/** Orders an unregistered (registrable) testkit shipped to an address (`POST /v3/order/testkit`). */
export function orderTestkit(
  env: Domain,
  input: { user_id: string; lab_test_id: string; shipping_details: ShippingDetails; passthrough: string | null },
): Order {
  const user = liveUser(env, input.user_id);
  checkRealPhone(input.shipping_details.phone_number);
  const test = labTestsOf(env.partition, env.world).get(input.lab_test_id);
  if (!test) throw labsError.notFound(LABS_ERRORS.labTestNotFound);
  if (test.method !== 'testkit') throw labsError.badRequest(LABS_TEXTS.notTestkit(test.id));
  if (test.status !== 'active') throw labsError.badRequest(LABS_TEXTS.labTestInactive(test.id));
  return place(env, user, test, (placed) => ({
    ...placed,
    patient_details: null,
    patient_address: null,
    shipping_details: input.shipping_details,
    registrable: true,
    fate: fateFromZip(input.shipping_details.zip, 'testkit'),
    flags: { interpretation: 'normal', result_types: null, has_missing_results: false },
    passthrough: input.passthrough,
  }));
}

/** Registers a testkit by its sample id with the patient's details (`POST /v3/order/testkit/register`). */
export function registerTestkit(
  env: Domain,
  input: {
    sample_id: string;
    user_id: string | null;
    patient_details: PatientDetails;
    patient_address: PatientAddress;
    physician: Physician | null;
  },
): Order {
  const order = ordersOf(env).bySample(input.sample_id);
  if (!order?.registrable) throw labsError.notFound(LABS_ERRORS.testkitNotFound);
  if (order.registered) throw labsError.badRequest(LABS_ERRORS.testkitAlreadyRegistered);
  const cur = currentStatus(order);
  if (!REGISTRABLE_FROM.has(cur)) throw labsError.badRequest(LABS_TEXTS.testkitNotRegistrable(cur));
  const user = input.user_id ? liveUser(env, input.user_id) : undefined;
  checkPatient(input.patient_details, env.partition, env.world.clock.now(), ['body', 'patient_details']);
  if (input.patient_address.phone_number) checkRealPhone(input.patient_address.phone_number);
  if (user && user.user_id !== order.user_id) ordersOf(env).reassignUser(order, user.user_id, user.client_user_id);
  order.patient_details = input.patient_details;
  order.patient_address = input.patient_address;
  order.physician = input.physician ?? order.physician;
  const hints = nameHints(input.patient_details.last_name);
  if (order.events.every((e) => e.status !== 'partial_results' && e.status !== 'completed')) {
    order.flags = {
      ...order.flags,
      interpretation: hints.interpretation ?? order.flags.interpretation,
      has_missing_results: hints.has_missing_results ?? order.flags.has_missing_results,
    };
  }
  markRegistered(env, order);
  return order;
}

/** Reschedules a scheduled order still waiting (`PATCH /v3/order/{id}`); null activates it now. */
export function rescheduleOrder(env: Domain, orderId: string, activateBy: string | null): Order {
  const order = findOrder(env, orderId, LABS_ERRORS.orderActionNotFound);
  const cur = currentStatus(order);
  if (cur !== 'ordered' && cur !== 'awaiting_registration') throw labsError.badRequest(LABS_TEXTS.notReschedulable(cur));
  if (order.activate_by === null) throw labsError.badRequest(LABS_ERRORS.immediateNotReschedulable);
  const now = env.world.clock.now();
  const today = new Date(now).toISOString().slice(0, 10);
  if (activateBy !== null && activateBy < today) throw labsError.badRequest(LABS_ERRORS.activateByInPast);
  order.activate_by = activateBy;
  order.updated_at = now;
  const dates = resultDates(order.lab_test, now, order.activate_by);
  order.expected_result_by_date = dates.expected;
  order.worst_case_result_by_date = dates.worst;
  if (!order.seeded || order.job) scheduleNext(env, order);
  return order;
}

/** Cancels an order (`POST /v3/order/{id}/cancel`). */
export function cancelOrderById(env: Domain, orderId: string): Order {
  const order = findOrder(env, orderId, LABS_ERRORS.orderActionNotFound);
  cancelOrder(env, order);
  orderCancelled(env, order);
  return order;
}

/** Records the draw of an on-site collection order (`PATCH /v3/order/{id}/draw_completed`). */
export function completeDraw(env: Domain, orderId: string): Order {
  const order = findOrder(env, orderId, LABS_ERRORS.orderActionNotFound);
  drawCompleted(env, order);
  return order;
}

interface SimulateInput {
  final_status?: string | undefined;
  delay_seconds: number;
  flags: { interpretation: Interpretation; result_types?: ResultType[] | null; has_missing_results?: boolean | null } | null;
}

/** Moves an order to a status, at once or step by step on the clock (`POST /v3/order/{id}/test`). */
export function simulateOrder(env: Domain, orderId: string, input: SimulateInput): void {
  const order = findOrder(env, orderId, LABS_ERRORS.orderActionNotFound);
  if (env.partition.environment !== 'sandbox') throw labsError.badRequest(LABS_ERRORS.simulationProductionOnly);
  let target: LowStatus = 'completed';
  if (input.final_status) {
    const parsed = parseFullStatus(input.final_status);
    if (!parsed) throw labsError.badRequest(LABS_TEXTS.unknownFinalStatus(input.final_status));
    if (parsed.method !== order.method) throw labsError.badRequest(LABS_TEXTS.finalStatusOtherMethod(input.final_status, order.method));
    target = parsed.low;
  }
  const planned = planSimulation(order, target);
  const plan = planned === 'noop' ? planned : realStepping(env.world, order, planned);
  if (input.flags && resultStage(order) === null) {
    order.flags = {
      interpretation: input.flags.interpretation,
      result_types: input.flags.result_types && input.flags.result_types.length > 0 ? [...input.flags.result_types] : null,
      has_missing_results: input.flags.has_missing_results ?? false,
    };
  }
  if (plan !== 'noop') runSimulation(env, order, plan, input.delay_seconds * 1000);
  if (currentStatus(order) === 'cancelled') orderCancelled(env, order);
}

/** Re-emits the current state of orders chosen by id and/or an `updated_at` range. */
export function resendEvents(env: Domain, input: { order_ids: string[] | null; start: number | null; end: number | null }): Order[] {
  const { order_ids: ids, start, end } = input;
  const candidates = ids ? ids.map((id) => ordersOf(env).get(id)).filter((o): o is Order => o !== undefined) : ordersOf(env).all();
  const chosen = candidates.filter((o) => (start === null || o.updated_at >= start) && (end === null || o.updated_at <= end));
  for (const order of chosen) resendOrder(env, order);
  return chosen;
}

/** `GetOrderCommunicationSettingsResponse` of an order. */
export function communicationSettings(env: Domain, orderId: string): { order_id: string; sms_enabled: boolean } {
  const order = findOrder(env, orderId, LABS_ERRORS.orderGetNotFound);
  return { order_id: order.id, sms_enabled: order.sms_enabled };
}

/** Turns the patient's SMS about an order on or off. */
export function setCommunicationSettings(env: Domain, orderId: string, smsEnabled: boolean): { order_id: string; sms_enabled: boolean } {
  const order = findOrder(env, orderId, LABS_ERRORS.orderActionNotFound);
  order.sms_enabled = smsEnabled;
  return { order_id: order.id, sms_enabled: order.sms_enabled };
}
