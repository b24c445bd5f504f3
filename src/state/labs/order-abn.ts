/**
 * When an order carries an Advance Beneficiary Notice (ABN, form CMS-R-131): Medicare patients
 * must sign one before a test their insurance may not cover. The sandbox's rule (invented,
 * docs/simulated/labs.md): an order billed to `commercial_insurance` with health insurance
 * given, for a patient aged 65 or more (Medicare age) when the order was placed.
 */
import { ageAt } from './order-checks.js';
import type { Order } from './order-model.js';

const MEDICARE_AGE = 65;

export function hasAbn(order: Order): boolean {
  const dob = order.patient_details?.dob;
  return (
    order.billing_type === 'commercial_insurance' &&
    order.health_insurance_id !== null &&
    dob !== undefined &&
    ageAt(dob, order.created_at) >= MEDICARE_AGE
  );
}
