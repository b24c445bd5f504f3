/**
 * The compendium (data OpenAPI tag `compendium`): canonical test search and crosswalk, provider id
 * conversion between labs, and orderable-test search, over the sandbox's marker catalogue
 * (`state/labs/compendium.ts`; docs/simulated/labs.md lists what is invented).
 */
import { z } from 'zod';
import { defineRoute, reply } from '../../engine/route.js';
import { int, uuid, withRules } from '../../engine/schemas.js';
import { LABS_ERRORS } from '../../state/labs/errors.js';
import { COMPENDIUM_LABS, convertCompendium, searchCompendium, searchOrderableTests } from '../../state/labs/compendium-search.js';
import { CompendiumConversion, CompendiumSearch, OrderableTestsSearch, res } from '../../wire/schemas.js';
import { lazySchema } from '../../engine/lazy-schema.js';

const LAB = lazySchema(() => z.enum(COMPENDIUM_LABS));
const limit = (fallback: number) => int({ min: 1, max: 50 }).default(fallback);

export const compendiumRoutes = [
  defineRoute({
    id: 'compendium.search',
    method: 'POST',
    path: '/v3/compendium/search',
    auth: 'team',
    summary: 'Canonical test search (query, cpt_codes or loinc_set_hash); crosswalk mode adds what each lab calls the best match.',
    request: {
      body: lazySchema(() =>
        withRules(
          z.object({
            mode: z.enum(['canonical', 'crosswalk']),
            query: z.string().nullish(),
            cpt_codes: z.array(z.string()).default([]),
            loinc_set_hash: z.string().nullish(),
            labs: z.array(LAB).nullish(),
            include_related: z.boolean().default(true),
            limit: limit(3),
          }),
          (b) =>
            !b.query?.trim() && b.cpt_codes.length === 0 && !b.loinc_set_hash?.trim() && { message: LABS_ERRORS.compendiumNeedsCriteria },
        ),
      ),
    },
    responses: { 200: res(CompendiumSearch, 'SearchCompendiumResponse'), 422: 'Validation error, or no search criterion' },
    handle: (_ctx, { body }) => reply(200, searchCompendium(body)),
  }),

  defineRoute({
    id: 'compendium.convert',
    method: 'POST',
    path: '/v3/compendium/convert',
    auth: 'team',
    summary: "Converts a lab test's or a list of provider ids to the target lab's provider ids.",
    request: {
      body: lazySchema(() =>
        withRules(
          z.object({ lab_test_id: uuid().nullish(), provider_ids: z.array(z.string()).nullish(), target_lab: LAB, limit: limit(3) }),
          (b) => Boolean(b.lab_test_id) && (b.provider_ids?.length ?? 0) > 0 && { message: LABS_ERRORS.convertOneSource },
          (b) => !b.lab_test_id && (b.provider_ids?.length ?? 0) === 0 && { message: LABS_ERRORS.convertNeedsSource },
        ),
      ),
    },
    responses: {
      200: res(CompendiumConversion, 'ConvertCompendiumResponse'),
      404: 'Unknown lab test',
      422: 'Validation error, or neither or both sources',
    },
    handle: (ctx, { body }) => reply(200, convertCompendium(ctx, body)),
  }),

  defineRoute({
    id: 'compendium.search_orderable_tests',
    method: 'POST',
    path: '/v3/compendium/search_orderable_tests',
    auth: 'team',
    summary: "For each provider id, the target lab's orderable candidates.",
    request: {
      body: lazySchema(() => z.object({ provider_ids: z.array(z.string()).max(100), target_lab: LAB, per_provider_limit: limit(1) })),
    },
    responses: { 200: res(OrderableTestsSearch, 'SearchOrderableTestsResponse'), 422: 'Validation error' },
    handle: (_ctx, { body }) => reply(200, searchOrderableTests(body)),
  }),
];
