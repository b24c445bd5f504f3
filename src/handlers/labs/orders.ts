/**
 * Lab orders (spec 2.4, 3; api-facts B.1 to B.5).
 *
 * Simulates placing an order (lab test or order set, reference validation of patient details
 * and address, unknown user, `X-Idempotency-Key` replay for 24 h of sandbox time), reading it,
 * cancelling it (only from the statuses the reference allows), rescheduling a scheduled order
 * (`activate_by`), the on-site draw, registrable testkits (create unregistered, register by
 * sample id), order transactions and resending events. Orders then move on the sandbox clock
 * (see `src/state/order-lifecycle.ts`); every change emits `labtest.order.created` /
 * `labtest.order.updated` with the full order.
 *
 * LIMITATIONS
 * - Appointments (phlebotomy and PSC availability, booking, rescheduling, cancelling) are not
 *   simulated: appointment statuses happen on the clock or through simulation, and
 *   `details.data.appointment_id` stays null.
 * - `POST /v3/order/import`, requisition, label, ABN and collection-instruction PDFs,
 *   communication settings, PSC and area info are not simulated (404 like any unknown route).
 * - Health insurance, consents, AoE answers and `lab_account_id` are validated and not used;
 *   `has_abn` is always false and `requisition_form_url` null.
 * - A disallowed cancel answers 400 with both the usual `detail` and the documented
 *   `{error, message, status_code}` fields, since the reference's shape is unconfirmed.
 * - Seeded orders stand still until a request moves them (simulate, cancel, draw); orders created
 *   by requests move on the clock.
 */
import { z } from 'zod';
import { ApiError, MESSAGES, badRequest, notFound, valueError } from '../../engine/errors.js';
import { json, type Reply } from '../../engine/http-types.js';
import { defineRoute, type Ctx, type Method, type Route } from '../../engine/route.js';
import { dateOrDateTime, isoDate, uuid } from '../../engine/schemas.js';
import { buildOrder, resultDates, type OrderInit } from '../../state/labs/lab-order-factory.js';
import { addLabTest, labTestsOf, type LabTest } from '../../state/labs/lab-tests.js';
import { fateFromZip, nameHints } from '../../state/labs/order-lifecycle.js';
import {
  IDEMPOTENCY_TTL_MS,
  REGISTRABLE_FROM,
  TransitionError,
  cancelOrder,
  currentStatus,
  drawCompleted,
  orderEnv,
  orderView,
  ordersOf,
  registerTestkit,
  resendOrder,
  scheduleNext,
  startOrder,
  transactionResponse,
  type Order,
  type OrderEnv,
} from '../../state/labs/orders.js';
import { usersOf, type User } from '../../state/users/users.js';
import { LAB_TEST_NOT_FOUND, orderSetMarkers } from './lab-tests.js';
import {
  checkActivateBy,
  checkPatient,
  checkRealPhone,
  createOrderBody,
  createTestkitBody,
  registerTestkitBody,
  toPatientAddress,
  toPatientDetails,
  toPhysician,
  toShippingDetails,
} from './order-requests.js';

export const ORDER_MESSAGES = {
  getNotFound: "This order doesn't exist",
  actionNotFound: "Order doesn't exist",
  resultNotFound: 'Order not found',
  transactionNotFound: 'Order transaction not found',
} as const;

const orderParams = z.object({ order_id: uuid() });

/** The order with this id in the caller's partition, or the given 404. */
export function findOrder(ctx: Ctx, orderId: string, missing: string): { env: OrderEnv; order: Order } {
  const env = orderEnv(ctx.world, ctx.partition);
  const order = env.store.byId.get(orderId);
  if (!order) throw notFound(missing);
  return { env, order };
}

function liveUser(ctx: Ctx, userId: string): User {
  const user = usersOf(ctx.partition, ctx.world).liveUser(userId);
  if (!user) throw notFound(MESSAGES.userNotOnTeam);
  return user;
}

function postOrderResponse(env: OrderEnv, order: Order, message: string): Reply {
  return json({ order: orderView(env.world, order, env.store), status: 'SUCCESS', message });
}

function transitionError(error: unknown): never {
  if (error instanceof TransitionError) {
    throw new ApiError(400, { detail: error.message, error: 'Bad Request', message: error.message, status_code: 400 });
  }
  throw error;
}

interface TransitionAction {
  id: string;
  method: Method;
  /** Last path segment: `/v3/order/:order_id/<action>`. */
  action: string;
  summary: string;
  /** What the 400 means (the order's status does not allow the transition). */
  refused: string;
  apply: (env: OrderEnv, order: Order) => void;
  message: string;
}

/** An order action that applies one lifecycle transition and answers PostOrderResponse. */
function transitionRoute(t: TransitionAction): Route {
  return defineRoute({
    id: t.id,
    method: t.method,
    path: `/v3/order/:order_id/${t.action}`,
    auth: 'team',
    summary: t.summary,
    request: { params: orderParams },
    responses: { 200: 'PostOrderResponse', 400: t.refused, 404: "Order doesn't exist", 422: 'Malformed id' },
    handle(ctx, { params }) {
      const { env, order } = findOrder(ctx, params.order_id, ORDER_MESSAGES.actionNotFound);
      try {
        t.apply(env, order);
      } catch (error) {
        transitionError(error);
      }
      return postOrderResponse(env, order, t.message);
    },
  });
}

/**
 * Replays a stored answer for an `X-Idempotency-Key`, or runs `create` and stores its answer
 * (success or business error; never a validation error, never with `X-Idempotency-Error: no-cache`
 * for errors). Keys are kept per endpoint (`scope`): the same key on `POST /v3/order` and
 * `POST /v3/order/testkit` names two requests.
 */
async function idempotent(ctx: Ctx, scope: 'order' | 'testkit', create: () => Reply): Promise<Reply> {
  const header = ctx.request.headers['x-idempotency-key'];
  if (!header) return create();
  const key = `${scope} ${header}`;
  const store = ordersOf(ctx.partition, ctx.world);
  const now = ctx.now();
  const stored = store.idempotency.get(key);
  if (stored && now - stored.at < IDEMPOTENCY_TTL_MS) {
    if (stored.status >= 400) throw new ApiError(stored.status, stored.body);
    return json(stored.body, stored.status);
  }
  const remember = (status: number, body: unknown) => {
    // Insertion order is time order (delete first), so expired keys are pruned from the front.
    store.idempotency.delete(key);
    store.idempotency.set(key, { at: now, status, body });
    for (const [k, v] of store.idempotency) {
      if (now - v.at < IDEMPOTENCY_TTL_MS) break;
      store.idempotency.delete(k);
    }
  };
  try {
    const reply = create();
    remember(reply.status, reply.body);
    return reply;
  } catch (error) {
    const noCache = ctx.request.headers['x-idempotency-error'] === 'no-cache';
    if (error instanceof ApiError && error.status !== 422 && !noCache) remember(error.status, error.body);
    throw error;
  }
}

type CreateBody = z.output<typeof createOrderBody>;

function resolveLabTest(ctx: Ctx, body: CreateBody): LabTest {
  const store = labTestsOf(ctx.partition, ctx.world);
  if (body.lab_test_id && body.order_set) throw valueError(['body'], 'Provide either lab_test_id or order_set, not both');
  if (body.lab_test_id) {
    const test = store.byId.get(body.lab_test_id);
    if (!test) throw notFound(LAB_TEST_NOT_FOUND);
    if (test.status !== 'active') throw badRequest(`Lab test ${test.id} is not active`);
    if (body.collection_method && body.collection_method !== test.method) {
      throw badRequest(`collection_method ${body.collection_method} does not match the lab test's method ${test.method}`);
    }
    return test;
  }
  if (!body.order_set) throw valueError(['body', 'order_set'], 'Either lab_test_id or order_set must be provided');
  const { markers, tests } = orderSetMarkers((id) => store.byId.get(id), body.order_set, ['body', 'order_set']);
  if (markers.length === 0) throw valueError(['body', 'order_set'], 'An order set needs at least one lab test or add-on marker');
  const methods = new Set(tests.map((t) => t.method));
  if (methods.size > 1) throw badRequest('All lab tests of an order set must use the same collection method');
  const method = body.collection_method ?? tests[0]?.method;
  if (!method) throw valueError(['body', 'collection_method'], 'collection_method is required when the order set has only add-on markers');
  if (tests[0] && method !== tests[0].method) throw badRequest(`collection_method ${method} does not match the lab tests' method ${tests[0].method}`);
  const lab = (markers[0] as (typeof markers)[number]).lab;
  if (!lab.collection_methods.includes(method)) throw badRequest(`${lab.name} does not support collection method ${method}`);
  const addOns = markers.length - tests.reduce((n, t) => n + t.markers.length, 0);
  if (tests.length === 1 && addOns <= 0 && tests[0]) return tests[0];
  const name = [...tests.map((t) => t.name), ...(addOns > 0 ? [`${addOns} add-on marker${addOns === 1 ? '' : 's'}`] : [])].join(' + ');
  return addLabTest(store, {
    id: ctx.world.ids.uuid('lab_test', ctx.partition.id),
    name: `Order set: ${name}`,
    description: `Auto-generated for an order set of ${markers.length} markers`,
    method,
    lab,
    markers,
    auto_generated: true,
    now: ctx.now(),
  });
}

/** The part of a new order a request fixes (ids, owner, lab test, time); the rest is per kind of order. */
type Placed = Pick<OrderInit, 'seed' | 'id' | 'team_id' | 'user_id' | 'client_user_id' | 'lab_test' | 'at' | 'details_id' | 'shipment_id' | 'transaction_id'>;

/** Builds and starts an order placed by a request, with fresh ids in the caller's partition; answers PostOrderResponse. */
function placeOrder(ctx: Ctx, user: User, test: LabTest, shipped: boolean, rest: (placed: Placed) => OrderInit): Reply {
  const env = orderEnv(ctx.world, ctx.partition);
  const { ids } = ctx.world;
  const pid = ctx.partition.id;
  const order = buildOrder(
    env.store,
    rest({
      seed: ctx.world.seed,
      id: ids.uuid('lab_order', pid),
      team_id: ctx.partition.team.id,
      user_id: user.user_id,
      client_user_id: user.client_user_id,
      lab_test: test,
      at: ctx.now(),
      details_id: ids.uuid('lab_order_details', pid),
      shipment_id: shipped ? ids.uuid('lab_shipment', pid) : null,
      transaction_id: ids.uuid('lab_order_transaction', pid),
    }),
  );
  startOrder(env, order);
  return postOrderResponse(env, order, 'Order submitted');
}

function createOrder(ctx: Ctx, body: CreateBody): Reply {
  const user = liveUser(ctx, body.user_id);
  const now = ctx.now();
  checkPatient(body.patient_details, ctx.partition, now, ['body', 'patient_details']);
  if (body.patient_address.phone_number) checkRealPhone(body.patient_address.phone_number);
  checkActivateBy(body.activate_by, now, ['body', 'activate_by']);
  const test = resolveLabTest(ctx, body);
  const hints = nameHints(body.patient_details.last_name);
  return placeOrder(ctx, user, test, test.method === 'testkit', (placed) => ({
    ...placed,
    patient_details: toPatientDetails(body.patient_details),
    patient_address: toPatientAddress(body.patient_address),
    physician: toPhysician(body.physician),
    fate: fateFromZip(body.patient_address.zip, test.method),
    flags: { interpretation: hints.interpretation ?? 'normal', result_types: null, has_missing_results: hints.has_missing_results ?? false },
    priority: body.priority,
    billing_type: body.billing_type,
    icd_codes: body.icd_codes ?? null,
    passthrough: body.passthrough ?? null,
    clinical_notes: body.clinical_notes ?? null,
    activate_by: body.activate_by ?? null,
    health_insurance_id: body.health_insurance ? ctx.world.ids.uuid('health_insurance', ctx.partition.id) : null,
  }));
}

function createUnregisteredTestkit(ctx: Ctx, body: z.output<typeof createTestkitBody>): Reply {
  const user = liveUser(ctx, body.user_id);
  checkRealPhone(body.shipping_details.phone_number);
  const test = labTestsOf(ctx.partition, ctx.world).byId.get(body.lab_test_id);
  if (!test) throw notFound(LAB_TEST_NOT_FOUND);
  if (test.method !== 'testkit') throw badRequest(`Lab test ${test.id} is not a testkit lab test`);
  if (test.status !== 'active') throw badRequest(`Lab test ${test.id} is not active`);
  return placeOrder(ctx, user, test, true, (placed) => ({
    ...placed,
    patient_details: null,
    patient_address: null,
    shipping_details: toShippingDetails(body.shipping_details),
    registrable: true,
    fate: fateFromZip(body.shipping_details.zip, 'testkit'),
    flags: { interpretation: 'normal', result_types: null, has_missing_results: false },
    passthrough: body.passthrough ?? null,
  }));
}

const resendBody = z.object({
  order_ids: z.array(uuid()).nullish(),
  start_at: dateOrDateTime('start').nullish(),
  end_at: dateOrDateTime('end').nullish(),
});

export const orderRoutes = [
  defineRoute({
    id: 'orders.create',
    method: 'POST',
    path: '/v3/order',
    auth: 'team',
    summary: 'Place a lab order (lab test or order set); honours X-Idempotency-Key.',
    request: { body: createOrderBody },
    responses: { 200: 'PostOrderResponse', 400: 'Business rule (fictional phone, minors, lab/method mismatch)', 404: 'Unknown user or lab test', 422: 'Validation error' },
    handle(ctx, { body }) {
      return idempotent(ctx, 'order', () => createOrder(ctx, body));
    },
  }),

  defineRoute({
    id: 'orders.testkit.create',
    method: 'POST',
    path: '/v3/order/testkit',
    auth: 'team',
    summary: 'Order an unregistered (registrable) testkit shipped to an address.',
    request: { body: createTestkitBody },
    responses: { 200: 'PostOrderResponse', 400: 'Not a testkit test', 404: 'Unknown user or lab test', 422: 'Validation error' },
    handle(ctx, { body }) {
      return idempotent(ctx, 'testkit', () => createUnregisteredTestkit(ctx, body));
    },
  }),

  defineRoute({
    id: 'orders.testkit.register',
    method: 'POST',
    path: '/v3/order/testkit/register',
    auth: 'team',
    summary: 'Register a testkit by its sample id with the patient\'s details.',
    request: { body: registerTestkitBody },
    responses: { 200: 'PostOrderResponse', 400: 'Already registered or past registration', 404: 'Unknown sample id or user', 422: 'Validation error' },
    handle(ctx, { body }) {
      const env = orderEnv(ctx.world, ctx.partition);
      const order = env.store.bySample.get(body.sample_id);
      if (!order || !order.registrable) throw notFound('Testkit not found');
      if (order.registered) throw badRequest('This testkit has already been registered');
      const cur = currentStatus(order);
      if (!REGISTRABLE_FROM.has(cur)) throw badRequest(`A testkit in status ${cur} cannot be registered`);
      const user = body.user_id ? liveUser(ctx, body.user_id) : undefined;
      checkPatient(body.patient_details, ctx.partition, ctx.now(), ['body', 'patient_details']);
      if (body.patient_address.phone_number) checkRealPhone(body.patient_address.phone_number);
      if (user && user.user_id !== order.user_id) {
        const previous = env.store.byUser.get(order.user_id);
        if (previous) env.store.byUser.set(order.user_id, previous.filter((o) => o !== order));
        order.user_id = user.user_id;
        order.client_user_id = user.client_user_id;
        const mine = env.store.byUser.get(user.user_id);
        if (mine) mine.push(order);
        else env.store.byUser.set(user.user_id, [order]);
      }
      order.patient_details = toPatientDetails(body.patient_details);
      order.patient_address = toPatientAddress(body.patient_address);
      order.physician = toPhysician(body.physician) ?? order.physician;
      const hints = nameHints(body.patient_details.last_name);
      if (order.events.every((e) => e.status !== 'partial_results' && e.status !== 'completed')) {
        order.flags = { ...order.flags, interpretation: hints.interpretation ?? order.flags.interpretation, has_missing_results: hints.has_missing_results ?? order.flags.has_missing_results };
      }
      registerTestkit(env, order);
      return postOrderResponse(env, order, 'Testkit registered');
    },
  }),

  defineRoute({
    id: 'orders.resend_events',
    method: 'POST',
    path: '/v3/order/resend_events',
    auth: 'team',
    summary: 'Re-emit the current state of orders chosen by id and/or an updated_at range.',
    request: { body: resendBody },
    responses: { 200: '{order_ids}', 422: 'No selection given' },
    handle(ctx, { body }) {
      const ids = body.order_ids ?? null;
      const start = body.start_at ?? null;
      const end = body.end_at ?? null;
      if (ids === null && start === null && end === null) throw valueError(['body'], 'Provide order_ids or a start_at/end_at range');
      const env = orderEnv(ctx.world, ctx.partition);
      const candidates = ids ? ids.map((id) => env.store.byId.get(id)).filter((o): o is Order => o !== undefined) : env.store.all();
      const chosen = candidates.filter((o) => (start === null || o.updated_at >= start) && (end === null || o.updated_at <= end));
      for (const order of chosen) resendOrder(env, order);
      return json({ order_ids: chosen.map((o) => o.id) });
    },
  }),

  defineRoute({
    id: 'orders.get',
    method: 'GET',
    path: '/v3/order/:order_id',
    auth: 'team',
    summary: 'One lab order.',
    request: { params: orderParams },
    responses: { 200: 'ClientFacingOrder', 404: "This order doesn't exist", 422: 'Malformed id' },
    handle(ctx, { params }) {
      const { env, order } = findOrder(ctx, params.order_id, ORDER_MESSAGES.getNotFound);
      return json(orderView(env.world, order, env.store));
    },
  }),

  defineRoute({
    id: 'orders.update',
    method: 'PATCH',
    path: '/v3/order/:order_id',
    auth: 'team',
    summary: 'Reschedule a scheduled order (activate_by; null activates it now).',
    request: { params: orderParams, body: z.object({ activate_by: isoDate().nullable() }) },
    responses: { 200: 'PostOrderResponse', 400: 'Not a scheduled order still waiting, or a past date', 404: 'Unknown order', 422: 'Validation error' },
    handle(ctx, { params, body }) {
      const { env, order } = findOrder(ctx, params.order_id, ORDER_MESSAGES.actionNotFound);
      const cur = currentStatus(order);
      if (cur !== 'ordered' && cur !== 'awaiting_registration') throw badRequest(`Order in status ${cur} cannot be rescheduled`);
      if (order.activate_by === null) throw badRequest('Order was created for immediate processing and cannot be rescheduled');
      const today = new Date(ctx.now()).toISOString().slice(0, 10);
      if (body.activate_by !== null && body.activate_by < today) throw badRequest('activate_by cannot be in the past');
      order.activate_by = body.activate_by;
      order.updated_at = ctx.now();
      const dates = resultDates(order.lab_test, ctx.now(), order.activate_by);
      order.expected_result_by_date = dates.expected;
      order.worst_case_result_by_date = dates.worst;
      if (!order.seeded || order.job) scheduleNext(env, order);
      return postOrderResponse(env, order, 'Order updated');
    },
  }),

  transitionRoute({
    id: 'orders.cancel',
    method: 'POST',
    action: 'cancel',
    summary: 'Cancel an order (only from the statuses the reference allows).',
    refused: 'Transition not allowed',
    apply: cancelOrder,
    message: 'Order cancelled',
  }),

  transitionRoute({
    id: 'orders.draw_completed',
    method: 'PATCH',
    action: 'draw_completed',
    summary: 'Record the draw of an on-site collection order.',
    refused: 'Not on-site, or not waiting for the draw',
    apply: drawCompleted,
    message: 'Draw completed',
  }),

  defineRoute({
    id: 'order_transactions.get',
    method: 'GET',
    path: '/v3/order_transaction/:transaction_id',
    auth: 'team',
    summary: 'An order transaction with a summary of its orders.',
    request: { params: z.object({ transaction_id: uuid() }) },
    responses: { 200: 'GetOrderTransactionResponse', 404: 'Unknown transaction', 422: 'Malformed id' },
    handle(ctx, { params }) {
      const view = transactionResponse(ordersOf(ctx.partition, ctx.world), params.transaction_id);
      if (!view) throw notFound(ORDER_MESSAGES.transactionNotFound);
      return json(view);
    },
  }),
];
