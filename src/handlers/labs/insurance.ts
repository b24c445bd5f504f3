/**
 * Insurance payors (spec 2.6, 4.8; api-facts A.12).
 *
 * Simulates payor search over a platform catalogue of a few hundred payors (national carriers
 * and state plans, with aliases, addresses and clearinghouse ids) plus the team's own payors:
 * fuzzy `insurance_name` (every word must match a word of the name or an alias: exactly, as a
 * prefix, or within one typo; best matches first, at most 50), `provider` (only payors that
 * clearinghouse knows) and `provider_payor_id` (exact id, at that clearinghouse when `provider`
 * is given). `POST /v3/payor` creates a team payor (`source: team`) that search then finds.
 *
 * The deprecated `POST /v3/insurance/search/payor` (body `insurance_name`, `provider`,
 * `provider_id`) runs the same search and answers `code` where the GET answers `payor_code`.
 * Diagnosis search and ICD-10 code validation use the catalogue of `fixtures/labs/icd10.ts`
 * (see `state/labs/diagnosis.ts`).
 *
 * LIMITATIONS
 * - A search needs `insurance_name` or `provider_payor_id` (422 otherwise); the reference's rule
 *   for an empty search is unknown.
 */
import { z } from 'zod';
import { LABS_ERRORS } from '../../state/labs/errors.js';
import { diagnosisView, searchDiagnosis, validateIcdCodes } from '../../state/labs/diagnosis.js';
import { defineRoute, reply } from '../../engine/route.js';
import { withRules } from '../../engine/schemas.js';
import { PAYOR_PROVIDERS, createTeamPayor, deprecatedPayorView, payorView, searchPayors } from '../../state/labs/payors.js';
import { DiagnosisInformation, IcdValidation, Payor, PayorSearchDeprecated, res } from '../../wire/schemas.js';
import { lazySchema } from '../../engine/lazy-schema.js';

const PROVIDER = lazySchema(() => z.enum(PAYOR_PROVIDERS));

const searchQuery = lazySchema(() =>
  withRules(
    z.object({
      insurance_name: z.string().optional(),
      provider: PROVIDER.optional(),
      provider_payor_id: z.string().optional(),
    }),
    (q) => !q.insurance_name?.trim() && !q.provider_payor_id?.trim() && { message: LABS_ERRORS.payorSearchNeedsName },
  ),
);

const deprecatedSearchBody = lazySchema(() =>
  withRules(
    z.object({ insurance_name: z.string().nullish(), provider: PROVIDER.nullish(), provider_id: z.string().nullish() }),
    (b) => !b.insurance_name?.trim() && !b.provider_id?.trim() && { message: LABS_ERRORS.payorDeprecatedSearchNeedsName },
  ),
);

const createBody = lazySchema(() =>
  z.object({
    name: z.string().min(1).max(200),
    address: z.object({
      first_line: z.string().min(1),
      second_line: z.string().nullish(),
      country: z.string().min(1),
      zip: z.string().min(1),
      city: z.string().min(1),
      state: z.string().min(1),
      access_notes: z.string().max(1000).nullish(),
    }),
    provider: PROVIDER.nullish(),
    provider_payor_id: z.string().min(1).nullish(),
  }),
);
const payorCreateBody = lazySchema(() =>
  withRules(
    createBody,
    (b) =>
      (b.provider == null) !== (b.provider_payor_id == null) && {
        path: [b.provider == null ? 'provider' : 'provider_payor_id'],
        message: LABS_ERRORS.payorProviderPair,
      },
  ),
);

export const insuranceRoutes = [
  defineRoute({
    id: 'insurance.payor_search',
    method: 'GET',
    path: '/v3/insurance/search/payor',
    auth: 'team',
    summary: 'Search insurance payors by fuzzy name, clearinghouse or clearinghouse payor id.',
    request: { query: searchQuery },
    responses: {
      200: res(
        lazySchema(() => z.array(Payor)),
        'ClientFacingPayorSearchResponse[]',
      ),
      422: 'Validation error, or neither insurance_name nor provider_payor_id',
    },
    handle(ctx, { query }) {
      const found = searchPayors(ctx, query);
      return reply(200, found.map(payorView));
    },
  }),

  defineRoute({
    id: 'insurance.payor_search.deprecated',
    method: 'POST',
    path: '/v3/insurance/search/payor',
    auth: 'team',
    summary: 'Deprecated payor search (body insurance_name, provider, provider_id); items carry code instead of payor_code.',
    request: { body: deprecatedSearchBody },
    responses: {
      200: res(
        lazySchema(() => z.array(PayorSearchDeprecated)),
        'ClientFacingPayorSearchResponseDeprecated[]',
      ),
      422: 'Validation error, or neither insurance_name nor provider_id',
    },
    handle(ctx, { body }) {
      const found = searchPayors(ctx, {
        insurance_name: body.insurance_name,
        provider: body.provider,
        provider_payor_id: body.provider_id,
      });
      return reply(200, found.map(deprecatedPayorView));
    },
  }),

  defineRoute({
    id: 'insurance.diagnosis_search',
    method: 'GET',
    path: '/v3/insurance/search/diagnosis',
    auth: 'team',
    summary: 'Search ICD-10 diagnosis codes by code prefix or description words (at most 50).',
    request: { query: lazySchema(() => z.object({ diagnosis_query: z.string() })) },
    responses: {
      200: res(
        lazySchema(() => z.array(DiagnosisInformation)),
        'ClientFacingDiagnosisInformation[]',
      ),
      422: 'Validation error',
    },
    handle: (_ctx, { query }) => reply(200, searchDiagnosis(query.diagnosis_query).map(diagnosisView)),
  }),

  defineRoute({
    id: 'insurance.validate_icd_codes',
    method: 'POST',
    path: '/v3/insurance/validate_icd_codes',
    auth: 'team',
    summary:
      'Validate ICD-10 codes: format, existence and billability (errors), Excludes1 conflicts (violations), Excludes2 overlaps (warnings).',
    request: { body: lazySchema(() => z.object({ codes: z.array(z.string()) })) },
    responses: { 200: res(IcdValidation, 'ValidateICDCodesResponse'), 422: 'Validation error' },
    handle: (_ctx, { body }) => reply(200, validateIcdCodes(body.codes)),
  }),

  defineRoute({
    id: 'payors.create',
    method: 'POST',
    path: '/v3/payor',
    auth: 'team',
    summary: 'Create a team payor (source: team) that payor search then finds.',
    request: { body: payorCreateBody },
    responses: { 200: res(Payor, 'ClientFacingPayor'), 422: 'Validation error' },
    handle: (ctx, { body }) => reply(200, payorView(createTeamPayor(ctx, body))),
  }),
];
