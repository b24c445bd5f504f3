/**
 * The lab order model (spec 2.4, 3; api-facts B.2 to B.7): what an order, its events, its
 * shipment and its transaction hold, and the small reads every part of the labs domain needs
 * (current status, last event, sample id).
 */
import type { ResultSet } from '../../fixtures/labs/lab-results.js';
import type { CollectionMethod } from '../../fixtures/labs/labs.js';
import type { ResultType } from '../../fixtures/labs/markers.js';
import { stableInt } from '../../engine/ids.js';
import type { JobHandle } from '../../engine/scheduler.js';
import type { LabTest } from './lab-tests.js';
import { DAY, type Fate, type Interpretation, type LowStatus, type Step } from './order-lifecycle.js';

export const IDEMPOTENCY_TTL_MS = DAY;

export interface OrderEvent {
  id: number;
  at: number;
  status: LowStatus;
}

export interface ResultFlags {
  interpretation: Interpretation;
  result_types: ResultType[] | null;
  has_missing_results: boolean;
}

export interface PatientDetails {
  first_name: string;
  last_name: string;
  dob: string;
  gender: string;
  phone_number: string;
  email: string;
  medical_proxy?: Record<string, unknown> | null;
  race?: string | null;
  ethnicity?: string | null;
  sexual_orientation?: string | null;
  gender_identity?: string | null;
  household_income?: number | null;
  household_size?: number | null;
}

/** A US postal address with its receiver: the part a patient address and shipping details share. */
export interface PostalAddress {
  receiver_name: string;
  first_line: string;
  second_line: string | null;
  city: string;
  state: string;
  zip: string;
  country: string;
}

export interface PatientAddress extends PostalAddress {
  access_notes: string | null;
  phone_number: string | null;
}

export interface ShippingDetails extends PostalAddress {
  phone_number: string;
}

export interface Shipment {
  id: string;
  outbound_tracking_number: string | null;
  outbound_tracking_url: string | null;
  inbound_tracking_number: string | null;
  inbound_tracking_url: string | null;
  outbound_courier: string | null;
  inbound_courier: string | null;
  notes: string | null;
}

export interface Physician {
  first_name: string;
  last_name: string;
  npi: string;
  email: string | null;
  licensed_states: string[];
}

export interface Order {
  id: string;
  team_id: string;
  user_id: string;
  /** The user's client_user_id when the order was placed (the user may be gone later). */
  client_user_id: string;
  seq: number;
  method: CollectionMethod;
  registrable: boolean;
  registered: boolean;
  lab_test: LabTest;
  patient_details: PatientDetails | null;
  patient_address: PatientAddress | null;
  shipping_details: ShippingDetails | null;
  physician: Physician | null;
  sample_id: string;
  notes: string | null;
  clinical_notes: string | null;
  priority: boolean;
  billing_type: string;
  icd_codes: string[] | null;
  passthrough: string | null;
  activate_by: string | null;
  health_insurance_id: string | null;
  created_at: number;
  updated_at: number;
  events: OrderEvent[];
  details_id: string;
  /** The order's latest appointment (phlebotomy or PSC), if one was booked. */
  appointment_id: string | null;
  /** Whether the patient gets SMS about the order (communication settings). */
  sms_enabled: boolean;
  shipment: Shipment | null;
  transaction_id: string;
  origin: 'initial' | 'redraw' | 'recreation';
  /** The order this one was created from (a redraw's initial order), else null. */
  parent_id: string | null;
  expected_result_by_date: string | null;
  worst_case_result_by_date: string | null;
  fate: Fate;
  /** The path the order follows and the index of its current step in it. */
  path: Step[];
  pathIndex: number;
  flags: ResultFlags;
  /** A simulation in progress: steps up to `until` come `spacing` ms apart. */
  override: { until: number; spacing: number } | null;
  job: JobHandle | null;
  /** Seeded orders stand still until a request moves them. */
  seeded: boolean;
  /** Cache of the result set for the current stage. */
  resultCache: { key: string; set: ResultSet } | null;
  /** What the listing filters on, computed when results arrive (null before results). */
  summary: ResultSummary | null;
}

/** An order's results in short: kept on the order so listing never computes results. */
export interface ResultSummary {
  interpretation: Interpretation;
  hasCritical: boolean;
}

export interface Transaction {
  id: string;
  team_id: string;
  orders: Order[];
}

export interface IdempotentReply {
  at: number;
  status: number;
  body: unknown;
}

export const iso = (ms: number): string => new Date(ms).toISOString();

export function lastEvent(order: Order): OrderEvent {
  return order.events[order.events.length - 1] as OrderEvent;
}

export function currentStatus(order: Order): LowStatus {
  return lastEvent(order).status;
}

/** A deterministic 10-digit sample (kit / accession) id. */
export function sampleIdFor(seed: number, orderId: string): string {
  return String(1_000_000_000 + (stableInt(seed, 'lab_sample', orderId) % 9_000_000_000)).padStart(10, '0');
}
