/**
 * What the API shows of lab orders: `ClientFacingOrder`, the order transaction inside it, and
 * `GetOrderTransactionResponse`. Pure reads of the model.
 */
import type { Domain } from '../domain-context.js';
import { FINAL, STATUS_DETAIL, fullStatus, highLevel } from './order-lifecycle.js';
import { labTestView } from './lab-tests.js';
import { hasAbn } from './order-abn.js';
import {
  currentStatus,
  iso,
  lastEvent,
  type Order,
  type OrderEvent,
  type Shipment,
  type ShippingDetails,
  type Transaction,
} from './order-model.js';
import { orderResults } from './order-results.js';
import { ordersOf } from './order-store.js';
import { LABS_ERRORS, labsError } from './errors.js';
import type { z } from 'zod';
import type * as W from '../../wire/schemas.js';

function transactionStatus(tx: Transaction): 'active' | 'completed' | 'cancelled' {
  let allCancelled = true;
  for (const o of tx.orders) {
    const s = currentStatus(o);
    if (!FINAL.has(s)) return 'active';
    if (s !== 'cancelled' && s !== 'do_not_process') allCancelled = false;
  }
  return allCancelled ? 'cancelled' : 'completed';
}

export function transactionView(d: Domain, transactionId: string): z.input<typeof W.Order>['order_transaction'] {
  const tx = ordersOf(d).transaction(transactionId);
  if (!tx) return null;
  return {
    id: tx.id,
    status: transactionStatus(tx),
    orders: tx.orders.map((o) => ({
      id: o.id,
      created_at: iso(o.created_at),
      updated_at: iso(o.updated_at),
      low_level_status: currentStatus(o),
      low_level_status_created_at: iso(lastEvent(o).at),
      origin: o.origin,
      parent_id: o.parent_id,
    })),
  };
}

/** `GetOrderTransactionResponse`. */
export function transactionResponse(d: Domain, transactionId: string): z.input<typeof W.OrderTransaction> {
  const store = ordersOf(d);
  const tx = store.transaction(transactionId);
  if (!tx) throw labsError.notFound(LABS_ERRORS.transactionNotFound);
  return {
    id: tx.id,
    team_id: tx.team_id,
    status: transactionStatus(tx),
    orders: tx.orders.map((o) => ({
      id: o.id,
      origin: o.origin,
      parent_id: o.parent_id,
      last_status: currentStatus(o),
      last_status_created_at: iso(lastEvent(o).at),
      updated_at: iso(o.updated_at),
      created_at: iso(o.created_at),
    })),
  };
}

function eventView(order: Order, e: OrderEvent): z.input<typeof W.OrderEvent> {
  return { id: e.id, created_at: iso(e.at), status: fullStatus(order.method, e.status), status_detail: STATUS_DETAIL[e.status] ?? null };
}

function shipmentView(s: Shipment): Record<string, unknown> {
  return {
    id: s.id,
    outbound_tracking_number: s.outbound_tracking_number,
    outbound_tracking_url: s.outbound_tracking_url,
    inbound_tracking_number: s.inbound_tracking_number,
    inbound_tracking_url: s.inbound_tracking_url,
    outbound_courier: s.outbound_courier,
    inbound_courier: s.inbound_courier,
    notes: s.notes,
  };
}

/** `ShippingAddress`: exactly its declared fields. */
function shippingView(s: ShippingDetails): NonNullable<z.input<typeof W.Order>['shipping_details']> {
  return {
    receiver_name: s.receiver_name,
    first_line: s.first_line,
    second_line: s.second_line,
    city: s.city,
    state: s.state,
    zip: s.zip,
    country: s.country,
    phone_number: s.phone_number,
  };
}

function detailsView(order: Order): z.input<typeof W.Order>['details'] {
  const data: Record<string, unknown> = { id: order.details_id, created_at: iso(order.created_at), updated_at: iso(order.updated_at) };
  if (order.method === 'testkit') data.shipment = order.shipment ? shipmentView(order.shipment) : null;
  if (order.method === 'walk_in_test' || order.method === 'at_home_phlebotomy') data.appointment_id = order.appointment_id;
  return { type: order.method, data };
}

/** `ClientFacingOrder`. */
export function orderView(d: Domain, order: Order): z.input<typeof W.Order> {
  const { world } = d;
  const last = lastEvent(order);
  const results = orderResults(world, order);
  const final = results !== null && results.stage !== 'partial';
  const pd = order.patient_details;
  return {
    user_id: order.user_id,
    id: order.id,
    team_id: order.team_id,
    patient_details: pd
      ? {
          first_name: pd.first_name,
          last_name: pd.last_name,
          dob: `${pd.dob}T00:00:00+00:00`,
          gender: pd.gender,
          phone_number: pd.phone_number,
          email: pd.email,
          medical_proxy: pd.medical_proxy ?? null,
          race: pd.race ?? null,
          ethnicity: pd.ethnicity ?? null,
          sexual_orientation: pd.sexual_orientation ?? null,
          gender_identity: pd.gender_identity ?? null,
        }
      : null,
    patient_address: order.patient_address ? { ...order.patient_address } : null,
    lab_test: labTestView(order.lab_test),
    details: detailsView(order),
    sample_id: order.sample_id,
    notes: order.notes,
    clinical_notes: order.clinical_notes,
    created_at: iso(order.created_at),
    updated_at: iso(order.updated_at),
    events: order.events.map((e) => eventView(order, e)),
    status: highLevel(order.method, last.status),
    last_event: eventView(order, last),
    physician: order.physician
      ? { first_name: order.physician.first_name, last_name: order.physician.last_name, npi: order.physician.npi }
      : null,
    health_insurance_id: order.health_insurance_id,
    requisition_form_url: null,
    priority: order.priority,
    shipping_details: order.shipping_details ? shippingView(order.shipping_details) : null,
    activate_by: order.activate_by,
    passthrough: order.passthrough,
    billing_type: order.billing_type,
    icd_codes: order.icd_codes,
    has_abn: hasAbn(order),
    interpretation: results ? results.interpretation : null,
    has_missing_results: final ? results.missing.length > 0 : null,
    expected_result_by_date: order.expected_result_by_date,
    worst_case_result_by_date: order.worst_case_result_by_date,
    origin: order.origin,
    order_transaction: transactionView(d, order.transaction_id),
  };
}

/** `PostOrderResponse`: the order, `SUCCESS` and a message. */
export function postOrderView(d: Domain, order: Order, message: string): z.input<typeof W.OrderAnswer> {
  return { order: orderView(d, order), status: 'SUCCESS', message };
}
