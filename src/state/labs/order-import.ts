/**
 * Importing an order placed outside the API (`POST /v3/order/import`, ImportOrderBody): the
 * patient was ordered for under an existing requisition and sample id, so the order keeps that
 * sample id and records `requisition_bypassed` (the reference's status for a requisition that
 * already existed) where a placed order records `requisition_created`; then it follows the
 * lifecycle of its collection method on the clock, with the same events as a placed order.
 * Checks everything first (user, patient, sample id unused in the team environment, order set),
 * then creates.
 */
import type { CollectionMethod } from '../../fixtures/labs/labs.js';
import { LABS_ERRORS, labsError } from './errors.js';
import { chooseLabTest, liveUser, patientParts, place } from './order-actions.js';
import { checkPatient } from './order-checks.js';
import type { Order, PatientAddress, PatientDetails, Physician } from './order-model.js';
import { ordersOf } from './order-store.js';
import type { Domain } from '../domain-context.js';
import type { OrderSetInput } from './order-actions.js';

interface ImportOrderInput {
  user_id: string;
  billing_type: string;
  order_set: OrderSetInput;
  collection_method: CollectionMethod;
  physician: Physician | null;
  patient_details: PatientDetails;
  patient_address: PatientAddress;
  sample_id: string;
}

export function importOrder(env: Domain, input: ImportOrderInput): Order {
  const user = liveUser(env, input.user_id);
  checkPatient(input.patient_details, env.partition, env.world.clock.now(), ['body', 'patient_details']);
  if (ordersOf(env).bySample(input.sample_id)) throw labsError.badRequest(LABS_ERRORS.importSampleIdUsed);
  const chosen = chooseLabTest(env, {
    user_id: input.user_id,
    lab_test_id: null,
    order_set: input.order_set,
    collection_method: input.collection_method,
    patient_details: input.patient_details,
    patient_address: input.patient_address,
    physician: input.physician,
    priority: false,
    billing_type: input.billing_type,
    icd_codes: null,
    passthrough: null,
    clinical_notes: null,
    activate_by: null,
    has_health_insurance: false,
  });
  const test = typeof chosen === 'function' ? chosen() : chosen;
  return place(env, user, test, (placed) => ({
    ...placed,
    ...patientParts(input, test),
    billing_type: input.billing_type,
    sample_id: input.sample_id,
    requisition: 'bypassed',
  }));
}
