/** Lab testing: labs, markers, lab tests, orders, results, appointments, locations, payors. */
import { z } from 'zod';
import { lazySchema } from '../engine/lazy-schema.js';
import { calendarDate, dateTime, JsonObject, uuidString } from './common.js';
import { Address } from './users.js';

export const Lab = lazySchema(() =>
  z.object({
    id: z.number().int(),
    slug: z.string(),
    name: z.string(),
    first_line_address: z.string(),
    city: z.string(),
    zipcode: z.string(),
    collection_methods: z.array(z.string()),
    sample_types: z.array(z.string()),
    logo_url: z.string().nullable(),
  }),
);

export const Marker = lazySchema(() =>
  z.object({
    id: z.number().int(),
    name: z.string(),
    slug: z.string(),
    description: z.string().nullable(),
    lab_id: z.number().int().nullable(),
    provider_id: z.string().nullable(),
    type: z.string().nullable(),
    unit: z.string().nullable(),
    price: z.string().nullable(),
    aoe: z.unknown().nullable(),
    a_la_carte_enabled: z.boolean(),
    common_tat_days: z.number().int().nullable(),
    worst_case_tat_days: z.number().int().nullable(),
    is_orderable: z.boolean(),
    expected_results: z.array(JsonObject).optional(),
  }),
);

export const MarkerPage = lazySchema(() =>
  z.object({
    markers: z.array(Marker),
    total: z.number().int(),
    page: z.number().int(),
    size: z.number().int(),
    pages: z.number().int(),
    /** MarkerPricingResponse, with `include_pricing`. */
    pricing: z.object({ currency: z.string().optional(), data: z.record(z.string(), JsonObject) }).nullish(),
  }),
);

export const LabTest = lazySchema(() =>
  z.object({
    id: uuidString,
    slug: z.string(),
    name: z.string(),
    sample_type: z.string(),
    method: z.string(),
    price: z.number(),
    is_active: z.boolean(),
    status: z.string(),
    fasting: z.boolean(),
    lab: Lab.nullable(),
    markers: z.array(Marker),
    is_delegated: z.boolean(),
    auto_generated: z.boolean(),
    has_collection_instructions: z.boolean(),
    common_tat_days: z.number().int().nullable(),
    worst_case_tat_days: z.number().int().nullable(),
  }),
);

export const LabTestPage = lazySchema(() =>
  z.object({ data: z.array(LabTest), next_cursor: z.string().nullable(), pricing: z.unknown().nullable() }),
);

/** @public Read as `typeof W.OrderEvent` by the type modules (src/wire/types.ts, src/testing/types.ts), which knip does not trace. */
export const OrderEvent = lazySchema(() =>
  z.object({
    id: z.number().int(),
    created_at: dateTime,
    status: z.string(),
    status_detail: z.string().nullable(),
  }),
);

const PatientDetails = lazySchema(() =>
  z.object({
    first_name: z.string(),
    last_name: z.string(),
    dob: z.string(),
    gender: z.string(),
    phone_number: z.string(),
    email: z.string(),
    /** GuarantorDetails, as the order's request gave it. */
    medical_proxy: JsonObject.nullish(),
    race: z.string().nullish(),
    ethnicity: z.string().nullish(),
    sexual_orientation: z.string().nullish(),
    gender_identity: z.string().nullish(),
  }),
);

/** ClientFacingPhysician. */
const Physician = lazySchema(() => z.object({ first_name: z.string(), last_name: z.string(), npi: z.string() }));

/** ShippingAddress: where an unregistered testkit goes. */
const ShippingAddress = lazySchema(() =>
  z.object({
    receiver_name: z.string(),
    first_line: z.string(),
    second_line: z.string().nullish(),
    city: z.string(),
    state: z.string(),
    zip: z.string(),
    country: z.string(),
    phone_number: z.string(),
  }),
);

const PatientAddress = lazySchema(() => Address.extend({ receiver_name: z.string().nullish(), phone_number: z.string().nullish() }));

/** ClientFacingOrderTransaction: the transaction an order (and a transaction's raw result) carries; not GetOrderTransactionResponse. */
export const OrderTransactionRef = lazySchema(() =>
  z.object({
    id: uuidString,
    status: z.string(),
    orders: z.array(
      z.object({
        id: uuidString,
        created_at: dateTime,
        updated_at: dateTime,
        low_level_status: z.string().nullable(),
        low_level_status_created_at: dateTime.nullish(),
        origin: z.string().nullable(),
        parent_id: uuidString.nullable(),
      }),
    ),
  }),
);

export const Order = lazySchema(() =>
  z.object({
    user_id: uuidString,
    id: uuidString,
    team_id: uuidString,
    patient_details: PatientDetails.nullable(),
    patient_address: PatientAddress.nullable(),
    lab_test: LabTest,
    details: z.object({ type: z.string(), data: JsonObject.nullable() }),
    sample_id: z.string().nullable(),
    notes: z.string().nullable(),
    clinical_notes: z.string().nullable(),
    created_at: dateTime,
    updated_at: dateTime,
    events: z.array(OrderEvent),
    status: z.string().nullable(),
    last_event: OrderEvent.nullable(),
    physician: Physician.nullable(),
    health_insurance_id: z.string().nullable(),
    requisition_form_url: z.string().nullable(),
    priority: z.boolean(),
    shipping_details: ShippingAddress.nullable(),
    activate_by: z.string().nullable(),
    passthrough: z.string().nullable(),
    billing_type: z.string().nullable(),
    icd_codes: z.array(z.string()).nullable(),
    has_abn: z.boolean(),
    interpretation: z.string().nullable(),
    has_missing_results: z.boolean().nullable(),
    expected_result_by_date: calendarDate.nullable(),
    worst_case_result_by_date: calendarDate.nullable(),
    origin: z.string().nullable(),
    order_transaction: OrderTransactionRef.nullable(),
  }),
);

/** `{order, status, message}` of the order-changing calls. */
export const OrderAnswer = lazySchema(() => z.object({ order: Order, status: z.string(), message: z.string() }));
export const OrderList = lazySchema(() =>
  z.object({ orders: z.array(Order), total: z.number().int(), page: z.number().int(), size: z.number().int() }),
);

export const OrderTransaction = lazySchema(() =>
  z.object({
    id: uuidString,
    team_id: uuidString,
    status: z.string(),
    orders: z.array(
      z.object({
        id: uuidString,
        origin: z.string().nullable(),
        parent_id: uuidString.nullable(),
        last_status: z.string(),
        last_status_created_at: dateTime,
        updated_at: dateTime,
        created_at: dateTime,
      }),
    ),
  }),
);

export const ResultMetadata = lazySchema(() =>
  z.object({
    age: z.string(),
    dob: z.string(),
    'clia_#': z.string().nullable(),
    patient: z.string(),
    provider: z.string().nullable(),
    laboratory: z.string().nullable(),
    date_reported: z.string(),
    date_collected: z.string().nullable(),
    specimen_number: z.string(),
    date_received: z.string().nullable(),
    status: z.enum(['final', 'partial']).nullable(),
    interpretation: z.string().nullable(),
    patient_id: z.string().nullable(),
    account_id: z.string().nullable(),
  }),
);

export const ResultMarker = lazySchema(() =>
  z.object({
    name: z.string(),
    slug: z.string().nullable(),
    value: z.number().nullable(),
    result: z.string(),
    type: z.string(),
    unit: z.string().nullable(),
    timestamp: dateTime.nullable(),
    notes: z.string().nullable(),
    reference_range: z.string().nullable(),
    min_range_value: z.number().nullable(),
    max_range_value: z.number().nullable(),
    is_above_max_range: z.boolean().nullable(),
    is_below_min_range: z.boolean().nullable(),
    interpretation: z.string(),
    loinc: z.string().nullable(),
    loinc_slug: z.string().nullable(),
    provider_id: z.string().nullable(),
    source_markers: z.array(JsonObject).nullable(),
    source_interpretation: z.string().optional(),
    performing_laboratory: z.string().nullish(),
    source_sample_id: z.string().nullish(),
  }),
);

/** `GET /v3/order/{order_id}/result`. */
export const OrderResult = lazySchema(() =>
  z.object({
    metadata: ResultMetadata,
    results: z.array(ResultMarker),
    missing_results: z.array(JsonObject),
    sample_information: z.record(z.string(), JsonObject),
    order_transaction: OrderTransactionRef.nullish(),
  }),
);

export const Appointment = lazySchema(() =>
  z.object({
    id: uuidString,
    user_id: uuidString,
    order_id: uuidString,
    order_transaction_id: uuidString.nullable(),
    address: z.object({
      first_line: z.string(),
      second_line: z.string().nullable(),
      city: z.string(),
      state: z.string(),
      zip_code: z.string(),
      unit: z.string().nullable(),
      access_notes: z.string().nullable(),
    }),
    location: z.object({ lng: z.number(), lat: z.number() }),
    start_at: dateTime.nullable(),
    end_at: dateTime.nullable(),
    iana_timezone: z.string().nullable(),
    type: z.string(),
    provider: z.string(),
    status: z.string(),
    provider_id: z.string(),
    external_id: z.string().nullable(),
    can_reschedule: z.boolean(),
    appointment_notes: z.string().nullable(),
    event_status: z.string(),
    event_data: JsonObject.nullable(),
    events: z.array(z.object({ created_at: dateTime, status: z.string(), data: JsonObject.nullable() })),
  }),
);

export const AppointmentAvailability = lazySchema(() =>
  z.object({
    slots: z.array(
      z.object({
        date: calendarDate,
        slots: z.array(
          z.object({
            booking_key: z.string(),
            start: dateTime,
            end: dateTime,
            expires_at: dateTime.nullable(),
            price: z.number(),
            is_priority: z.boolean(),
            num_appointments_available: z.number().int(),
          }),
        ),
        location: JsonObject.nullable(),
      }),
    ),
    timezone: z.string().nullable(),
  }),
);

export const CancellationReason = lazySchema(() => z.object({ id: z.string(), name: z.string(), is_refundable: z.boolean() }));

const PatientServiceCenter = lazySchema(() =>
  z.object({
    metadata: JsonObject,
    distance: z.number(),
    site_code: z.string(),
    supported_bill_types: z.array(z.string()),
    location: z.object({ lng: z.number(), lat: z.number() }),
    capabilities: z.array(z.string()),
  }),
);

export const PscInfo = lazySchema(() =>
  z.object({ lab_id: z.number().int(), slug: z.string(), patient_service_centers: z.array(PatientServiceCenter) }),
);

export const AreaInfo = lazySchema(() =>
  z.object({
    zip_code: z.string(),
    phlebotomy: z.object({
      is_served: z.boolean(),
      providers: z.array(z.object({ name: z.string(), service_types: z.array(z.string()) })),
    }),
    central_labs: z.record(
      z.string(),
      z.object({ patient_service_centers: JsonObject, supported_bill_types: z.array(z.string()), lab_id: z.number().int() }),
    ),
  }),
);

export const Payor = lazySchema(() =>
  z.object({
    payor_code: z.string(),
    name: z.string(),
    aliases: z.array(z.string()),
    org_address: Address.partial(),
    source: z.string(),
  }),
);

export const CommunicationSettings = lazySchema(() => z.object({ order_id: uuidString, sms_enabled: z.boolean() }));

export const LabAccount = lazySchema(() =>
  z.object({
    id: uuidString,
    lab: z.string(),
    org_id: uuidString,
    status: z.string(),
    delegated_flow: z.string(),
    provider_account_id: z.string(),
    account_name: z.string().nullable(),
    default_clinical_notes: z.string().nullable(),
    business_units: z.unknown().nullable(),
    allowed_billing: JsonObject.nullable(),
    team_id_allowlist: z.array(z.string()).nullable(),
  }),
);

export const LabLifecycle = lazySchema(() =>
  z.object({
    methods: z.record(
      z.string(),
      z.object({ statuses: z.record(z.string(), z.string()), cancellable_from: z.array(z.string()), paths: z.unknown() }),
    ),
  }),
);
/** `GET|PUT /_sandbox/teams/:team_id/labs`: how the team's lab orders move, and whether the team set it or follows the world. */
export const TeamLabsSettings = lazySchema(() =>
  z.object({
    team_id: z.string(),
    progression: z.enum(['clock', 'manual']),
    set_by: z.enum(['team', 'world']),
  }),
);
export const LabScenarios = lazySchema(() => z.object({ zip_hints: z.array(JsonObject), last_name_hints: z.array(JsonObject) }));
