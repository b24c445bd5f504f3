/**
 * Redraws as the real service runs them (docs: lab/workflow/redraws): when an `initial` walk-in
 * order reaches `redraw_available` it stops there for good (its results, missing what the lab
 * could not run, are readable), and a new order with `origin: "redraw"` and `parent_id` the
 * initial order joins the same order transaction. The redraw order goes through the usual
 * walk-in lifecycle with its own `labtest.order.created` / `labtest.order.updated` events
 * (`requisition_created`, then its results); the transaction is `completed` when it is.
 * One redraw per transaction: a redraw order never reaches `redraw_available`.
 */
import { stableUuid } from '../../engine/ids.js';
import { buildOrder } from './lab-order-factory.js';
import type { Order } from './order-model.js';
import type { OrderStore } from './order-store.js';

/** The redraw order of an initial order (ids derived from the initial's: one redraw per transaction). */
export function buildRedraw(seed: number, store: OrderStore, initial: Order, at: number): Order {
  return buildOrder(store, {
    seed,
    id: redrawId(seed, initial.id),
    team_id: initial.team_id,
    user_id: initial.user_id,
    client_user_id: initial.client_user_id,
    lab_test: initial.lab_test,
    at,
    details_id: stableUuid(seed, 'lab_redraw_details', initial.id),
    shipment_id: null,
    transaction_id: initial.transaction_id,
    patient_details: initial.patient_details,
    patient_address: initial.patient_address,
    physician: initial.physician,
    fate: 'happy',
    flags: { ...initial.flags, has_missing_results: false },
    priority: initial.priority,
    billing_type: initial.billing_type,
    icd_codes: initial.icd_codes,
    passthrough: initial.passthrough,
    clinical_notes: initial.clinical_notes,
    health_insurance_id: initial.health_insurance_id,
    parent_id: initial.id,
  });
}

/** The id the redraw order of `initialId` gets. */
function redrawId(seed: number, initialId: string): string {
  return stableUuid(seed, 'lab_redraw_order', initialId);
}

/** Whether reaching `redraw_available` now creates a redraw order for this order (an initial one, with none yet). */
export function needsRedraw(store: OrderStore, order: Order, seed: number): boolean {
  return order.origin === 'initial' && order.method === 'walk_in_test' && store.get(redrawId(seed, order.id)) === undefined;
}
