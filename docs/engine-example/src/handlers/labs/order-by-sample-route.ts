// The worked example of docs/ENGINE.md ("Adding an endpoint"), step 2: the import and the entry
// between the markers go into src/handlers/labs/order-actions.ts (the entry into the
// `orderActionRoutes` array, which already has the other imports below).
import { z } from 'zod';
import { defineRoute, reply } from '../../engine/route.js';
// #region import
import { orderBySample } from '../../state/labs/order-by-sample.js';
// #endregion
import { orderView } from '../../state/labs/order-views.js';
import { Order, res } from '../../wire/schemas.js';

export const orderActionRoutes = [
  // #region route
  defineRoute({
    id: 'orders.by_sample',
    method: 'GET',
    path: '/v3/order/sample/:sample_id',
    auth: 'team',
    summary: 'The lab order whose sample carries this id (example endpoint of docs/ENGINE.md).',
    request: { params: z.object({ sample_id: z.string().min(1).max(64) }) },
    responses: { 200: res(Order, 'ClientFacingOrder'), 404: "This order doesn't exist", 422: 'Validation error' },
    handle(ctx, { params }) {
      return reply(200, orderView(ctx, orderBySample(ctx, params.sample_id)));
    },
  }),
  // #endregion
];
