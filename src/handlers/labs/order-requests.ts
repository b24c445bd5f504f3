/**
 * Request schemas and reference validation of lab orders (api-facts B.2): patient details and
 * address rules, shipping details of registrable testkits, and their conversion to the order
 * model. The checks that need sandbox time or team settings are in `state/labs/order-checks.ts`.
 * Compiled once at import.
 */
import { z } from 'zod';
import { guarantor, isoDate, usZip, uuid } from '../../engine/schemas.js';
import type { PatientAddress, PatientDetails, Physician, PostalAddress, ShippingDetails } from '../../state/labs/order-model.js';
import { isStateCode, phoneDigits } from '../../state/labs/order-checks.js';
import { METHOD } from './lab-schemas.js';
import { LABS_TEXTS } from '../../state/labs/errors.js';
import { lazySchema } from '../../engine/lazy-schema.js';

const NAME = /^[A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u00ff0-9][A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u00ff0-9 .,'-]*$/;

const personName = () => z.string().min(1).max(50).regex(NAME);

const phone = () =>
  z.string().superRefine((v, ctx) => {
    if (phoneDigits(v) === null) ctx.addIssue({ code: 'custom', message: LABS_TEXTS.invalidPhone(v) });
  });

const state = () =>
  z.string().superRefine((v, ctx) => {
    if (!isStateCode(v)) ctx.addIssue({ code: 'custom', message: LABS_TEXTS.invalidState(v) });
  });

export const patientDetailsSchema = lazySchema(() =>
  z.object({
    first_name: personName(),
    last_name: personName(),
    dob: isoDate(),
    gender: z.enum(['female', 'male', 'other', 'unknown']),
    phone_number: phone(),
    email: z.email(),
    medical_proxy: guarantor().nullish(),
    race: z.string().nullish(),
    ethnicity: z.string().nullish(),
    sexual_orientation: z.string().nullish(),
    gender_identity: z.string().nullish(),
    household_income: z.number().int().nullish(),
    household_size: z.number().int().nullish(),
  }),
);

/** The address lines a patient address and shipping details validate alike (receiver and phone differ). */
const postalFields = {
  first_line: z.string().min(1),
  second_line: z.string().nullish(),
  city: z.string().min(1),
  state: state(),
  zip: usZip(),
  country: z.string().min(1),
};

const patientAddressSchema = lazySchema(() =>
  z.object({
    receiver_name: z.string().default(''),
    ...postalFields,
    access_notes: z.string().max(1000).nullish(),
    phone_number: phone().nullish(),
  }),
);

export const shippingDetailsSchema = lazySchema(() =>
  z.object({
    receiver_name: z.string().min(1),
    ...postalFields,
    phone_number: phone(),
  }),
);

export const physicianSchema = lazySchema(() =>
  z.object({
    first_name: z.string().min(1),
    last_name: z.string().min(1),
    email: z.string().nullish(),
    npi: z.string().min(1),
    licensed_states: z.array(z.string()).default([]),
    signature_image: z.unknown().optional(),
  }),
);

const consentSchema = lazySchema(() =>
  z.object({
    consentType: z.enum([
      'terms-of-use',
      'telehealth-informed-consent',
      'mobile-terms-and-conditions',
      'notice-of-privacy-practices',
      'privacy-policy',
      'hipaa-authorization',
    ]),
    version: z.string().default('1.0'),
    timeOfConsent: z.string().optional(),
  }),
);

export const orderSetSchema = lazySchema(() =>
  z.object({
    lab_test_ids: z.array(uuid()).nullish(),
    add_on: z.object({ marker_ids: z.array(z.number().int()).nullish(), provider_ids: z.array(z.string()).nullish() }).nullish(),
    lab_account_id: uuid().nullish(),
  }),
);

export const createOrderBody = lazySchema(() =>
  z.object({
    user_id: uuid(),
    lab_test_id: uuid().nullish(),
    order_set: orderSetSchema.nullish(),
    collection_method: METHOD.nullish(),
    physician: physicianSchema.nullish(),
    health_insurance: z.record(z.string(), z.unknown()).nullish(),
    priority: z.boolean().default(false),
    billing_type: z.enum(['client_bill', 'commercial_insurance', 'patient_bill_passthrough', 'patient_bill']).default('client_bill'),
    icd_codes: z.array(z.string()).nullish(),
    consents: z.array(consentSchema).default([]),
    activate_by: isoDate().nullish(),
    aoe_answers: z.array(z.object({ marker_id: z.number().int(), question_id: z.number().int(), answer: z.string() })).nullish(),
    passthrough: z.string().nullish(),
    clinical_notes: z.string().nullish(),
    lab_account_id: uuid().nullish(),
    creator_member_id: uuid().nullish(),
    patient_details: patientDetailsSchema,
    patient_address: patientAddressSchema,
  }),
);

export const createTestkitBody = lazySchema(() =>
  z.object({
    user_id: uuid(),
    lab_test_id: uuid(),
    shipping_details: shippingDetailsSchema,
    passthrough: z.string().nullish(),
    lab_account_id: uuid().nullish(),
  }),
);

export const registerTestkitBody = lazySchema(() =>
  z.object({
    user_id: uuid().nullish(),
    sample_id: z.string().min(1),
    patient_details: patientDetailsSchema,
    patient_address: patientAddressSchema,
    physician: physicianSchema.nullish(),
    health_insurance: z.record(z.string(), z.unknown()).nullish(),
    consents: z.array(consentSchema).default([]),
  }),
);

type PatientDetailsInput = z.output<typeof patientDetailsSchema>;
type PatientAddressInput = z.output<typeof patientAddressSchema>;

export function toPatientDetails(d: PatientDetailsInput): PatientDetails {
  return {
    first_name: d.first_name,
    last_name: d.last_name,
    dob: d.dob,
    gender: d.gender,
    phone_number: d.phone_number,
    email: d.email,
    medical_proxy: d.medical_proxy ? { ...d.medical_proxy } : null,
    race: d.race ?? null,
    ethnicity: d.ethnicity ?? null,
    sexual_orientation: d.sexual_orientation ?? null,
    gender_identity: d.gender_identity ?? null,
    household_income: d.household_income ?? null,
    household_size: d.household_size ?? null,
  };
}

function toPostalAddress(a: Omit<PostalAddress, 'second_line'> & { second_line?: string | null }): PostalAddress {
  return {
    receiver_name: a.receiver_name,
    first_line: a.first_line,
    second_line: a.second_line ?? null,
    city: a.city,
    state: a.state,
    zip: a.zip,
    country: a.country,
  };
}

export function toPatientAddress(a: PatientAddressInput): PatientAddress {
  return { ...toPostalAddress(a), access_notes: a.access_notes ?? null, phone_number: a.phone_number ?? null };
}

export function toShippingDetails(s: z.output<typeof shippingDetailsSchema>): ShippingDetails {
  return { ...toPostalAddress(s), phone_number: s.phone_number };
}

export function toPhysician(p: z.output<typeof physicianSchema> | null | undefined): Physician | null {
  return p
    ? { first_name: p.first_name, last_name: p.last_name, npi: p.npi, email: p.email ?? null, licensed_states: p.licensed_states }
    : null;
}
