/**
 * Area and PSC information (api-facts B, "Area / PSC info"): `GET /v3/order/area/info`,
 * `GET /v3/order/psc/info` and `GET /v3/order/{order_id}/psc/info`.
 *
 * LIMITATIONS
 * - Only Quest has patient service centers in the sandbox (three generated sites per zip code,
 *   bookable through the PSC appointment routes); other labs list none.
 * - `lab_account_id` is validated and not used.
 */
import { z } from 'zod';
import { defineRoute, reply } from '../../engine/route.js';
import { int, uuid } from '../../engine/schemas.js';
import { areaInfo, orderPscInfo, pscInfo } from '../../state/labs/lab-locations.js';
import { AreaInfo, PscInfo, res } from '../../wire/schemas.js';
import { lazySchema } from '../../engine/lazy-schema.js';

const radius = lazySchema(() => z.enum(['10', '20', '25', '50', '100']).default('25'));
const capabilities = lazySchema(() =>
  z.array(z.enum(['stat', 'appointment_scheduling_via_junction', 'appointment_scheduling_with_lab'])).optional(),
);
const zip = lazySchema(() => z.string().regex(/^\d{5}$/));
const LABS = lazySchema(() => z.enum(['quest', 'labcorp', 'bioreference', 'sonora_quest']));

export const labLocationRoutes = [
  defineRoute({
    id: 'labs.area_info',
    method: 'GET',
    path: '/v3/order/area/info',
    auth: 'team',
    summary: 'Phlebotomy coverage and lab PSCs around a zip code.',
    request: {
      query: lazySchema(() =>
        z.object({ zip_code: zip, radius, lab: LABS.optional(), labs: z.array(LABS).optional(), lab_account_id: uuid().optional() }),
      ),
    },
    responses: { 200: res(AreaInfo, 'AreaInfo'), 422: 'Validation error' },
    handle(ctx, { query }) {
      const labs = query.labs ?? (query.lab ? [query.lab] : LABS.options);
      return reply(200, areaInfo(ctx, query.zip_code, Number(query.radius), [...labs]));
    },
  }),
  defineRoute({
    id: 'labs.psc_info',
    method: 'GET',
    path: '/v3/order/psc/info',
    auth: 'team',
    summary: "A lab's patient service centers around a zip code.",
    request: {
      query: lazySchema(() => z.object({ zip_code: zip, lab_id: int(), radius, capabilities, lab_account_id: uuid().optional() })),
    },
    responses: { 200: res(PscInfo, 'PSCInfo'), 404: 'Unknown lab', 422: 'Validation error' },
    handle(ctx, { query }) {
      return reply(200, pscInfo(ctx, query.lab_id, query.zip_code, Number(query.radius), query.capabilities));
    },
  }),
  defineRoute({
    id: 'labs.order_psc_info',
    method: 'GET',
    path: '/v3/order/:order_id/psc/info',
    auth: 'team',
    summary: "The patient service centers of the order's lab around its patient address.",
    request: { params: lazySchema(() => z.object({ order_id: uuid() })), query: lazySchema(() => z.object({ radius, capabilities })) },
    responses: { 200: res(PscInfo, 'PSCInfo'), 404: 'Unknown order', 422: 'Validation error' },
    handle(ctx, { params, query }) {
      return reply(200, orderPscInfo(ctx, params.order_id, Number(query.radius), query.capabilities));
    },
  }),
];
