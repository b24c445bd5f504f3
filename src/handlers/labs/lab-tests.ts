/**
 * Lab test catalogue (spec 2.5, 4.7; api-facts A.11, B.1, H).
 *
 * Simulates the labs, the team's lab tests (four standard tests, one per collection method, plus
 * tests the team creates and tests auto-generated for order sets), the marker catalogue with
 * expected results, real LOINC codes and prices, markers of a test, one marker by lab and test
 * code, and the markers of an order set (lab tests plus add-on markers), paginated.
 *
 * LIMITATIONS
 * - `GET /v3/lab_test` answers `pricing: null` (prices are in each lab test's markers).
 * - `GET /v3/lab_test/lab_account` and collection-instruction PDFs are not simulated (404 like
 *   any unknown route).
 * - `lab_account_id` is accepted and ignored: every team sees the whole sandbox catalogue.
 * - Markers have no AoE questions (`aoe` is null); pricing has no state or reflex modifiers.
 * - New lab tests are `active` at once (no approval step).
 */
import { z } from 'zod';
import { defineRoute, reply } from '../../engine/route.js';
import { bool, int, uuid } from '../../engine/schemas.js';
import { keptMarkersPage, labsView, markerByCode, markerView, searchMarkers, markersPage } from '../../state/labs/lab-catalogue.js';
import {
  createLabTest,
  findLabTest,
  labTestView,
  listLabTests,
  pageLabTests,
  teamOrderSetMarkers,
  updateLabTest,
} from '../../state/labs/lab-tests.js';
import { LAB_SLUG, METHOD } from './lab-schemas.js';
import { Lab, LabTest, LabTestPage, Marker, MarkerPage, res } from '../../wire/schemas.js';
import { lazySchema } from '../../engine/lazy-schema.js';

const pageQuery = {
  page: int({ min: 1 }).default(1),
  size: int({ min: 1, max: 100 }).default(50),
};

const listQuery = lazySchema(() =>
  z.object({
    generation_method: z.enum(['auto', 'manual', 'all']).default('manual'),
    lab_slug: z.string().optional(),
    collection_method: METHOD.optional(),
    status: z.enum(['active', 'pending_approval', 'inactive']).optional(),
    marker_ids: z.array(int()).optional(),
    provider_ids: z.array(z.string()).optional(),
    name: z.string().optional(),
    order_key: z.enum(['price', 'created_at', 'updated_at']).optional(),
    order_direction: z.enum(['asc', 'desc']).default('asc'),
  }),
);

const createBody = lazySchema(() =>
  z.object({
    name: z.string().min(1).max(200),
    method: METHOD,
    description: z.string(),
    marker_ids: z.array(z.number().int()).nullish(),
    provider_ids: z.array(z.string()).nullish(),
    fasting: z.boolean().nullish(),
    lab_account_id: uuid().nullish(),
    lab_slug: LAB_SLUG.nullish(),
  }),
);

const markersQuery = lazySchema(() =>
  z.object({
    lab_id: z.array(int()).optional(),
    lab_slug: z.string().optional(),
    name: z.string().default(''),
    a_la_carte_enabled: bool().optional(),
    include_pricing: bool().default(false),
    lab_account_id: uuid().optional(),
    ...pageQuery,
  }),
);

const orderSetBody = lazySchema(() =>
  z.object({
    lab_test_ids: z.array(uuid()).nullish(),
    add_on: z.object({ marker_ids: z.array(z.number().int()).nullish(), provider_ids: z.array(z.string()).nullish() }).nullish(),
    lab_account_id: uuid().nullish(),
  }),
);

const testParams = lazySchema(() => z.object({ lab_test_id: uuid() }));

export const labTestRoutes = [
  defineRoute({
    id: 'lab_tests.list',
    method: 'GET',
    path: '/v3/lab_tests',
    auth: 'team',
    summary: "The team's lab tests (standard, created and auto-generated), filtered and sorted.",
    request: { query: listQuery },
    responses: {
      200: res(
        lazySchema(() => z.array(LabTest)),
        'ClientFacingLabTest[]',
      ),
      422: 'Validation error',
    },
    handle(ctx, { query }) {
      return reply(200, listLabTests(ctx, query).map(labTestView));
    },
  }),

  defineRoute({
    id: 'lab_tests.create',
    method: 'POST',
    path: '/v3/lab_tests',
    auth: 'team',
    summary: 'Create a lab test from marker ids or lab test codes of one lab.',
    request: { body: createBody },
    responses: {
      200: res(LabTest, 'ClientFacingLabTest'),
      400: 'Unknown markers, mixed labs, or a lab without that method',
      422: 'Validation error',
    },
    handle(ctx, { body }) {
      return reply(200, labTestView(createLabTest(ctx, body)));
    },
  }),

  defineRoute({
    id: 'lab_tests.labs',
    method: 'GET',
    path: '/v3/lab_tests/labs',
    auth: 'team',
    summary: 'The labs of the catalogue.',
    responses: {
      200: res(
        lazySchema(() => z.array(Lab)),
        'ClientFacingLab[]',
      ),
    },
    handle() {
      return reply(200, labsView());
    },
  }),

  defineRoute({
    id: 'lab_tests.markers',
    method: 'GET',
    path: '/v3/lab_tests/markers',
    auth: 'team',
    summary: 'Search the marker catalogue by lab, name or test code; paginated.',
    request: { query: markersQuery },
    responses: { 200: res(MarkerPage, 'GetMarkersResponse'), 422: 'Validation error (page >= 1, size 1 to 100)' },
    handle: (_ctx, { query }) => reply(200, searchMarkers(query)),
  }),

  defineRoute({
    id: 'lab_tests.order_set_markers',
    method: 'POST',
    path: '/v3/lab_tests/list_order_set_markers',
    auth: 'team',
    summary: 'The markers of an order set (lab tests plus add-on markers), paginated.',
    request: { query: lazySchema(() => z.object(pageQuery)), body: orderSetBody },
    responses: {
      200: res(MarkerPage, 'GetMarkersResponse'),
      400: 'Mixed labs or unknown markers',
      404: 'Unknown lab test',
      422: 'Validation error',
    },
    handle: (ctx, { query, body }) => reply(200, markersPage(teamOrderSetMarkers(ctx, body), query.page, query.size)),
  }),

  defineRoute({
    id: 'lab_tests.get',
    method: 'GET',
    path: '/v3/lab_tests/:lab_test_id',
    auth: 'team',
    summary: "One of the team's lab tests.",
    request: { params: testParams, query: lazySchema(() => z.object({ lab_account_id: uuid().optional() })) },
    responses: { 200: res(LabTest, 'ClientFacingLabTest'), 404: 'Unknown lab test', 422: 'Malformed id' },
    handle(ctx, { params }) {
      return reply(200, labTestView(findLabTest(ctx, params.lab_test_id)));
    },
  }),

  defineRoute({
    id: 'lab_tests.update',
    method: 'PATCH',
    path: '/v3/lab_tests/:lab_test_id',
    auth: 'team',
    summary: 'Rename a lab test and/or (de)activate it.',
    request: {
      params: testParams,
      body: lazySchema(() => z.object({ name: z.string().min(1).max(200).nullish(), active: z.boolean().nullish() })),
    },
    responses: { 200: res(LabTest, 'ClientFacingLabTest'), 404: 'Unknown lab test', 422: 'Validation error' },
    handle(ctx, { params, body }) {
      return reply(200, labTestView(updateLabTest(ctx, params.lab_test_id, { name: body.name ?? null, active: body.active ?? null })));
    },
  }),

  defineRoute({
    id: 'lab_tests.paginated',
    method: 'GET',
    path: '/v3/lab_test',
    auth: 'team',
    summary: "The team's lab tests, filtered and sorted like GET /v3/lab_tests, by cursor.",
    request: {
      query: lazySchema(() =>
        listQuery.extend({
          lab_test_limit: int({ min: 1, max: 1000 }).default(50),
          next_cursor: z.string().optional(),
          include_pricing: bool().default(false),
          lab_account_id: uuid().optional(),
        }),
      ),
    },
    responses: { 200: res(LabTestPage, 'LabTestResourcesResponse'), 422: 'Validation error or invalid cursor' },
    handle(ctx, { query }) {
      const page = pageLabTests(ctx, query, query.lab_test_limit, query.next_cursor ?? null);
      return reply(200, { data: page.data.map(labTestView), next_cursor: page.next_cursor, pricing: null });
    },
  }),

  defineRoute({
    id: 'lab_tests.test_markers',
    method: 'GET',
    path: '/v3/lab_tests/:lab_test_id/markers',
    auth: 'team',
    summary: 'The markers of a lab test with their expected results, paginated.',
    request: { params: testParams, query: lazySchema(() => z.object({ lab_account_id: uuid().optional(), ...pageQuery })) },
    responses: { 200: res(MarkerPage, 'GetMarkersResponse'), 404: 'Unknown lab test', 422: 'Validation error' },
    handle(ctx, { params, query }) {
      return reply(200, keptMarkersPage(findLabTest(ctx, params.lab_test_id).markers, query.page, query.size));
    },
  }),

  defineRoute({
    id: 'lab_tests.marker_by_code',
    method: 'GET',
    path: '/v3/lab_tests/:lab_id/markers/:provider_id',
    auth: 'team',
    summary: "One marker by lab id and the lab's test code.",
    request: {
      params: lazySchema(() => z.object({ lab_id: int(), provider_id: z.string().min(1) })),
      query: lazySchema(() => z.object({ lab_account_id: uuid().optional() })),
    },
    responses: { 200: res(Marker, 'ClientFacingMarker'), 404: 'Unknown lab or test code', 422: 'Validation error' },
    handle: (_ctx, { params }) => reply(200, markerView(markerByCode(params.lab_id, params.provider_id))),
  }),
];
