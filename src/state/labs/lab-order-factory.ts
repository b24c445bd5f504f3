/**
 * Builds a new lab order in its first status (`ordered`), for request handlers and seeding
 * alike: ids, sample id, shipment, transaction, the path its fate gives it and the expected
 * result dates.
 */
import type { CollectionMethod } from '../../fixtures/labs/labs.js';
import type { LabTest } from './lab-tests.js';
import { DAY, buildPath, type Fate } from './order-lifecycle.js';
import type { OrderStore } from './order-store.js';
import {
  sampleIdFor,
  type Order,
  type PatientAddress,
  type PatientDetails,
  type Physician,
  type ResultFlags,
  type ShippingDetails,
} from './order-model.js';

/** Days an order spends before the lab has the sample, per method. */
const LOGISTICS_DAYS: Record<CollectionMethod, number> = { testkit: 6, walk_in_test: 2, at_home_phlebotomy: 4, on_site_collection: 1 };

export interface OrderInit {
  seed: number;
  id: string;
  team_id: string;
  user_id: string;
  client_user_id: string;
  lab_test: LabTest;
  at: number;
  details_id: string;
  shipment_id: string | null;
  transaction_id: string;
  patient_details: PatientDetails | null;
  patient_address: PatientAddress | null;
  shipping_details?: ShippingDetails | null;
  physician?: Physician | null;
  registrable?: boolean;
  fate: Fate;
  flags: ResultFlags;
  priority?: boolean;
  billing_type?: string;
  icd_codes?: string[] | null;
  passthrough?: string | null;
  clinical_notes?: string | null;
  activate_by?: string | null;
  health_insurance_id?: string | null;
  /** An imported order keeps the sample id it was collected under. */
  sample_id?: string;
  /** An imported order's requisition already exists: `requisition_bypassed` instead of `requisition_created`. */
  requisition?: 'created' | 'bypassed';
  /** A redraw order: origin `redraw`, its parent the initial order (order-redraw.ts). */
  parent_id?: string | null;
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * `expected_result_by_date` and `worst_case_result_by_date` of an order of this lab test that
 * starts (is placed, or activates when scheduled) at `at` or on `activateBy`, whichever is later.
 */
export function resultDates(labTest: LabTest, at: number, activateBy: string | null): { expected: string; worst: string } {
  const method = labTest.method;
  const start = activateBy ? Math.max(at, Date.parse(`${activateBy}T00:00:00.000Z`)) : at;
  const common = Math.max(0, ...labTest.markers.map((mk) => mk.def.tat[0]));
  const worst = Math.max(0, ...labTest.markers.map((mk) => mk.def.tat[1]));
  return { expected: day(start + (LOGISTICS_DAYS[method] + common) * DAY), worst: day(start + (LOGISTICS_DAYS[method] * 2 + worst) * DAY) };
}

export function buildOrder(store: OrderStore, init: OrderInit): Order {
  const method = init.lab_test.method;
  const registrable = init.registrable ?? false;
  const dates = resultDates(init.lab_test, init.at, init.activate_by ?? null);
  return {
    id: init.id,
    team_id: init.team_id,
    user_id: init.user_id,
    client_user_id: init.client_user_id,
    seq: store.nextSeq(),
    method,
    registrable,
    registered: !registrable,
    lab_test: init.lab_test,
    patient_details: init.patient_details,
    patient_address: init.patient_address,
    shipping_details: init.shipping_details ?? null,
    physician: init.physician ?? null,
    sample_id: init.sample_id ?? sampleIdFor(init.seed, init.id),
    notes: null,
    clinical_notes: init.clinical_notes ?? null,
    priority: init.priority ?? false,
    billing_type: init.billing_type ?? 'client_bill',
    icd_codes: init.icd_codes ?? null,
    passthrough: init.passthrough ?? null,
    activate_by: init.activate_by ?? null,
    health_insurance_id: init.health_insurance_id ?? null,
    created_at: init.at,
    updated_at: init.at,
    events: [{ id: store.nextEventId(), at: init.at, status: 'ordered' }],
    details_id: init.details_id,
    appointment_id: null,
    sms_enabled: true,
    shipment: init.shipment_id
      ? {
          id: init.shipment_id,
          outbound_tracking_number: null,
          outbound_tracking_url: null,
          inbound_tracking_number: null,
          inbound_tracking_url: null,
          outbound_courier: null,
          inbound_courier: null,
          notes: null,
        }
      : null,
    transaction_id: init.transaction_id,
    origin: init.parent_id ? 'redraw' : 'initial',
    parent_id: init.parent_id ?? null,
    expected_result_by_date: dates.expected,
    worst_case_result_by_date: dates.worst,
    fate: init.fate,
    path:
      init.requisition === 'bypassed'
        ? buildPath(method, init.fate, registrable).map((st) =>
            st.status === 'requisition_created' ? { ...st, status: 'requisition_bypassed' as const } : st,
          )
        : buildPath(method, init.fate, registrable),
    pathIndex: 0,
    flags: init.flags,
    override: null,
    job: null,
    seeded: false,
    resultCache: null,
    summary: null,
  };
}
