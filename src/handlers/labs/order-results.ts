/**
 * Lab results (api-facts B.6).
 *
 * Simulates the results of an order once it reaches partial results, completion or correction:
 * `GET /v3/order/:id/result` (LabResultsRaw: one result per expected result of the order's
 * markers with value, unit, reference range, min/max, flags, interpretation and LOINC; missing
 * results when the order asked for them; sample information), `/result/metadata` and
 * `/result/pdf` (a real PDF report listing them). Before results exist these answer the
 * reference's 404.
 *
 * LIMITATIONS
 * - Values are synthetic (seeded per order and analyte); reference ranges are adult ranges and
 *   ignore sex and age.
 */
import { z } from 'zod';
import { binary } from '../../engine/http-types.js';
import { defineRoute, reply } from '../../engine/route.js';
import { uuid } from '../../engine/schemas.js';
import { metadata, orderReportPdf, sampleInformation, withResults } from '../../state/labs/order-result-views.js';
import { transactionView } from '../../state/labs/order-views.js';
import { OrderResult, ResultMetadata, res } from '../../wire/schemas.js';
import { lazySchema } from '../../engine/lazy-schema.js';

const orderParams = lazySchema(() => z.object({ order_id: uuid() }));

export const orderResultRoutes = [
  defineRoute({
    id: 'orders.result',
    method: 'GET',
    path: '/v3/order/:order_id/result',
    auth: 'team',
    summary: "The order's results (LabResultsRaw) once partial or final results exist.",
    request: { params: orderParams },
    responses: { 200: res(OrderResult, 'LabResultsRaw'), 404: 'Unknown order, or results not available yet', 422: 'Malformed id' },
    handle(ctx, { params }) {
      const { order, set, times } = withResults(ctx, params.order_id);
      return reply(200, {
        metadata: metadata(order, set, times),
        results: set.results,
        missing_results: set.missing,
        sample_information: sampleInformation(order, times),
        order_transaction: transactionView(ctx, order.transaction_id),
      });
    },
  }),

  defineRoute({
    id: 'orders.result.metadata',
    method: 'GET',
    path: '/v3/order/:order_id/result/metadata',
    auth: 'team',
    summary: "The metadata of the order's results.",
    request: { params: orderParams },
    responses: { 200: res(ResultMetadata, 'LabResultsMetadata'), 404: 'Unknown order, or results not available yet', 422: 'Malformed id' },
    handle(ctx, { params }) {
      const { order, set, times } = withResults(ctx, params.order_id);
      return reply(200, metadata(order, set, times));
    },
  }),

  defineRoute({
    id: 'orders.result.pdf',
    method: 'GET',
    path: '/v3/order/:order_id/result/pdf',
    auth: 'team',
    summary: "The order's results as a PDF report.",
    request: { params: orderParams },
    responses: {
      200: { description: 'application/pdf', contentType: 'application/pdf' },
      404: 'Unknown order, or results not available yet',
      422: 'Malformed id',
    },
    async handle(ctx, { params }) {
      const { order, set, times } = withResults(ctx, params.order_id);
      const meta = metadata(order, set, times);
      const pdf = await orderReportPdf(ctx.world, order, set, times, {
        title: `${order.lab_test.lab.name} Laboratory Report`,
        dob: String(meta.dob),
        age: String(meta.age),
      });
      return binary(pdf, 'application/pdf', { 'content-disposition': `inline; filename="${order.id}.pdf"` });
    },
  }),
];
