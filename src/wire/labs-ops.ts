/**
 * Wire pieces of the lab operations beyond orders: transactions' raw results, appointment
 * requests, insurance search and ICD validation, the compendium, unmatched results and their test
 * runs, the lab report parser. Built from the real OpenAPI components of the same names; fields
 * the real schema marks optional are optional here too.
 */
import { z } from 'zod';
import { lazySchema } from '../engine/lazy-schema.js';
import { JsonObject, dateTime, uuidString } from './common.js';
import { Address } from './users.js';
import { OrderTransactionRef, ResultMarker, ResultMetadata } from './labs.js';

/** `GET /v3/order_transaction/{id}/result` (LabResultsRaw). */
export const LabResultsRaw = lazySchema(() =>
  z.object({
    metadata: ResultMetadata,
    results: z.union([z.array(ResultMarker), JsonObject]),
    missing_results: z.array(JsonObject).nullish(),
    sample_information: z.record(z.string(), JsonObject).nullish(),
    order_transaction: OrderTransactionRef.nullish(),
  }),
);

/** ClientFacingPayorSearchResponseDeprecated. */
export const PayorSearchDeprecated = lazySchema(() =>
  z.object({
    code: z.string(),
    name: z.string(),
    aliases: z.array(z.string()),
    org_address: Address,
    source: z.string(),
  }),
);

/** ClientFacingDiagnosisInformation. */
export const DiagnosisInformation = lazySchema(() =>
  z.object({ diagnosis_code: z.string(), description: z.string(), is_secondary: z.boolean().optional() }),
);

/** ValidateICDCodesResponse. */
export const IcdValidation = lazySchema(() =>
  z.object({
    valid: z.boolean(),
    errors: z.array(z.string()),
    violations: z.array(z.object({ code: z.string(), conflicts_with: z.string(), type: z.string() })),
    warnings: z.array(z.object({ code: z.string(), overlaps_with: z.string(), type: z.string() })),
  }),
);

const strings = lazySchema(() => z.array(z.string()));

/** CanonicalCandidate: one canonical test of the compendium. */
const CanonicalCandidate = lazySchema(() =>
  z.object({
    loinc_set_hash: z.string(),
    display_name: z.string(),
    aliases: strings.optional(),
    loinc_codes: strings.optional(),
    provider_ids: strings.optional(),
    loinc_components: strings.optional(),
    loinc_groups: strings.optional(),
    cpt_codes: strings.optional(),
    popularity_score: z.number(),
    confidence: z.number(),
  }),
);

/** PerLabCandidate: a lab's marker for a canonical test. */
const PerLabCandidate = lazySchema(() =>
  z.object({
    marker_id: z.number().int(),
    lab_id: z.number().int(),
    lab_slug: z.string().nullish(),
    name: z.string(),
    result_names: strings.optional(),
    provider_id: z.string().nullish(),
    loinc_set_hash: z.string(),
    loinc_codes: strings.optional(),
    loinc_components: strings.optional(),
    loinc_groups: strings.optional(),
    cpt_codes: strings.optional(),
    relation: z.string(),
    confidence: z.number(),
    reason_codes: strings.optional(),
    marker_popularity_score: z.number(),
  }),
);

/** SearchCompendiumResponse. */
export const CompendiumSearch = lazySchema(() =>
  z.object({
    mode: z.string(),
    selected_canonical: CanonicalCandidate.nullish(),
    canonical_candidates: z.array(CanonicalCandidate).optional(),
    per_lab: z.record(z.string(), z.array(PerLabCandidate)).optional(),
    related: z
      .array(z.object({ canonical: CanonicalCandidate, relation: z.string(), confidence: z.number(), reason_codes: strings.optional() }))
      .optional(),
  }),
);

/** ConvertCompendiumResponse. */
export const CompendiumConversion = lazySchema(() =>
  z.object({
    source_lab_test_id: uuidString.nullish(),
    source_lab_id: z.number().int().nullish(),
    target_lab_id: z.number().int(),
    target_lab_slug: z.string(),
    source_provider_ids: strings.optional(),
    converted_provider_ids: strings.optional(),
    unresolved_provider_ids: strings.optional(),
    by_source_provider_id: z
      .record(z.string(), z.object({ source_provider_id: z.string(), candidates: z.array(PerLabCandidate).optional() }))
      .optional(),
  }),
);

/** SearchOrderableTestsResponse. */
export const OrderableTestsSearch = lazySchema(() => z.object({ candidates: z.record(z.string(), z.array(PerLabCandidate)).optional() }));

/** ListUnmatchedResultTestCasesResponse. */
export const UnmatchedTestCases = lazySchema(() =>
  z.object({
    data: z.array(
      z.object({ case: z.string(), order_roles: strings, required_statuses: z.record(z.string(), z.string()), lab_constraints: strings }),
    ),
  }),
);

/** CreateUnmatchedResultTestResponse. */
export const UnmatchedTestRunCreated = lazySchema(() => z.object({ run_id: uuidString, status: z.string() }));

/** GetUnmatchedResultTestResponse. */
export const UnmatchedTestRun = lazySchema(() =>
  UnmatchedTestRunCreated.extend({
    stage: z.string(),
    case: z.string(),
    order_source: z.string(),
    result_status: z.string(),
    orders: z.record(z.string(), JsonObject).optional(),
    raw_result_id: uuidString.nullish(),
    error: JsonObject.nullish(),
    created_at: dateTime,
    updated_at: dateTime,
    started_at: dateTime.nullish(),
    completed_at: dateTime.nullish(),
  }),
);

/** UnmatchedResult (= GetUnmatchedResultResponse): a lab result no order claimed, under review. */
export const UnmatchedResult = lazySchema(() =>
  z.object({
    id: uuidString,
    status: z.string(),
    decision_code: z.string(),
    sub_reason_codes: strings.optional(),
    reason: z.string(),
    patient: z
      .object({ first_name: z.string().nullish(), last_name: z.string().nullish(), dob: dateTime.nullish(), gender: z.string().nullish() })
      .nullish(),
    lab: z.object({ id: z.number().int(), name: z.string(), slug: z.string() }),
    markers: z.array(z.object({ provider_id: z.string().nullish(), name: z.string().nullish() })).optional(),
    interpretation: z.string().nullish(),
    result_status: z.string().nullish(),
    note: z.string().nullish(),
    resolution_action: z.string().nullish(),
    resolved_user_id: uuidString.nullish(),
    resolved_order_id: uuidString.nullish(),
    allowed_actions: strings.optional(),
    candidate_groups: z.array(z.object({ user_id: uuidString.nullish(), candidates: z.array(JsonObject).optional() })).optional(),
    created_at: dateTime,
    updated_at: dateTime,
    reviewed_at: dateTime.nullish(),
  }),
);

/** ListUnmatchedResultResponse. */
export const UnmatchedResultList = lazySchema(() =>
  z.object({
    data: z.array(UnmatchedResult).optional(),
    next_cursor: z.string().nullish(),
    total: z.number().int(),
  }),
);

/** LabReportResult: one parsed line of a lab report. */
const LabReportResult = lazySchema(() =>
  z.object({
    test_name: z.string(),
    value: z.string(),
    sample_type: z.string().optional(),
    measurement_kind: z.string().optional(),
    type: z.string().nullish(),
    units: z.string().nullish(),
    max_reference_range: z.number().nullish(),
    min_reference_range: z.number().nullish(),
    source_panel_name: z.string().nullish(),
    sensitivity: z.string().optional(),
    loinc_matches: z.array(JsonObject).nullish(),
    loinc_match_status: z.string().nullish(),
    interpretation: z.string().nullish(),
    is_above_max_range: z.boolean().nullish(),
    is_below_min_range: z.boolean().nullish(),
  }),
);

/** ResultMetadata of a parsed lab report (not the LabResultsMetadata of order results). */
const ParsedReportMetadata = lazySchema(() =>
  z.object({
    patient_first_name: z.string().nullish(),
    patient_last_name: z.string().nullish(),
    dob: z.string().nullish(),
    gender: z.string().optional(),
    lab_name: z.string().nullish(),
    date_reported: z.string().nullish(),
    date_collected: z.string().nullish(),
    specimen_number: z.string().nullish(),
  }),
);

/** ParsingJob: a lab report parser job. */
export const ParsingJob = lazySchema(() =>
  z.object({
    id: uuidString,
    // not in the real OpenAPI: the official SDK (3.1.551) requires it (the same id); without it every SDK call throws.
    job_id: uuidString,
    status: z.string(),
    failure_reason: z.string().nullish(),
    data: z.object({ metadata: ParsedReportMetadata, results: z.array(LabReportResult) }).nullish(),
    needs_human_review: z.boolean(),
    is_reviewed: z.boolean(),
  }),
);

/** `MatchReviewWebhookPayload`: the `data` of `labtest.match_review.created` / `.updated`. */
export const MatchReviewEventData = lazySchema(() =>
  z.object({
    id: uuidString,
    status: z.string(),
    decision_code: z.string(),
    sub_reason_codes: z.array(z.string()),
    resolution_action: z.string().nullish(),
    resolved_user_id: uuidString.nullish(),
    resolved_order_id: uuidString.nullish(),
  }),
);
