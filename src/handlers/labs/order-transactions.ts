/**
 * Order transaction results (api-facts B.1 "Order transaction"): `GET
 * /v3/order_transaction/{id}/result` (LabResultsRaw over all orders of the transaction) and
 * `/result/pdf` (the same as a PDF report). The merge rule is in
 * `state/labs/order-transactions.ts`.
 *
 * LIMITATIONS
 * - An unknown transaction answers 404 `{"detail": "Order transaction not found"}` and a
 *   transaction without results yet 404 with an invented text (the reference documents only 200
 *   and 422).
 */
import { z } from 'zod';
import { binary } from '../../engine/http-types.js';
import { defineRoute, reply } from '../../engine/route.js';
import { uuid } from '../../engine/schemas.js';
import { metadata, orderReportPdf } from '../../state/labs/order-result-views.js';
import { transactionResults, transactionResultsView } from '../../state/labs/order-transactions.js';
import { LabResultsRaw, res } from '../../wire/schemas.js';
import { lazySchema } from '../../engine/lazy-schema.js';

const params = lazySchema(() => z.object({ transaction_id: uuid() }));

export const orderTransactionRoutes = [
  defineRoute({
    id: 'order_transactions.result',
    method: 'GET',
    path: '/v3/order_transaction/:transaction_id/result',
    auth: 'team',
    summary: 'The results of all orders of a transaction (LabResultsRaw).',
    request: { params },
    responses: { 200: res(LabResultsRaw, 'LabResultsRaw'), 404: 'Unknown transaction, or no results yet', 422: 'Malformed id' },
    handle(ctx, { params: p }) {
      return reply(200, transactionResultsView(ctx, transactionResults(ctx, p.transaction_id)));
    },
  }),

  defineRoute({
    id: 'order_transactions.result.pdf',
    method: 'GET',
    path: '/v3/order_transaction/:transaction_id/result/pdf',
    auth: 'team',
    summary: 'The results of all orders of a transaction as a PDF report.',
    request: { params },
    responses: {
      200: { description: 'application/pdf', contentType: 'application/pdf' },
      404: 'Unknown transaction, or no results yet',
      422: 'Malformed id',
    },
    async handle(ctx, { params: p }) {
      const tr = transactionResults(ctx, p.transaction_id);
      const latest = tr.parts[tr.parts.length - 1];
      if (!latest) throw new Error('transactionResults returned no parts');
      const { order, times } = latest;
      const dob = order.patient_details?.dob ?? '';
      // The report's age is the latest order's (the metadata of `/result`), without building that whole view.
      const meta = metadata(order, latest.set, times);
      const pdf = await orderReportPdf(ctx.world, order, tr.set, times, {
        title: `${order.lab_test.lab.name} Laboratory Report (order transaction)`,
        dob,
        age: String(meta.age),
      });
      return binary(pdf, 'application/pdf', { 'content-disposition': `inline; filename="${tr.transactionId}.pdf"` });
    },
  }),
];
