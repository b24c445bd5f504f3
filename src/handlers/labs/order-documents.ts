/**
 * Order documents (api-facts B.1 "PDFs"): the requisition form, specimen labels, collection
 * instructions (per order and per lab test) and the ABN, each a real PDF (the sandbox's own writer,
 * state/labs/pdf-writer.ts) answered as `application/pdf`, byte-identical for the same state. The rules of when
 * a document exists are in `state/labs/order-documents.ts`.
 *
 * LIMITATIONS
 * - The texts of the 404/400 answers before a document exists are invented (the reference
 *   documents only 200 and 422); unknown orders answer the reference's
 *   `{"detail": "This order doesn't exist"}`.
 * - Labels are served for at-home phlebotomy and on-site collection orders only; collection
 *   instructions for testkit lab tests only (`has_collection_instructions`).
 */
import { z } from 'zod';
import { binary, type Reply } from '../../engine/http-types.js';
import { defineRoute } from '../../engine/route.js';
import { dateOrDateTime, int, uuid } from '../../engine/schemas.js';
import { renderDocument, type DocSpec } from '../../state/labs/document-pdf.js';
import {
  abnDocument,
  labTestInstructionsDocument,
  labelsDocument,
  orderInstructionsDocument,
  requisitionDocument,
} from '../../state/labs/order-documents.js';
import { orderEnv } from '../../state/labs/order-store.js';

const orderParams = z.object({ order_id: uuid() });

async function pdf(spec: DocSpec, filename: string): Promise<Reply> {
  return binary(await renderDocument(spec), 'application/pdf', { 'content-disposition': `inline; filename="${filename}.pdf"` });
}

const notFound = 'Unknown order, or the document does not exist (yet) for it';
const PDF = { description: 'application/pdf', contentType: 'application/pdf' };

export const orderDocumentRoutes = [
  defineRoute({
    id: 'orders.requisition.pdf',
    method: 'GET',
    path: '/v3/order/:order_id/requisition/pdf',
    auth: 'team',
    summary: 'The requisition form of an order, once it was sent to the lab (requisition_created).',
    request: { params: orderParams },
    responses: { 200: PDF, 404: notFound, 422: 'Malformed id' },
    handle(ctx, { params }) {
      return pdf(requisitionDocument(orderEnv(ctx.world, ctx.partition), params.order_id), `requisition-${params.order_id}`);
    },
  }),

  defineRoute({
    id: 'orders.labels.pdf',
    method: 'GET',
    path: '/v3/order/:order_id/labels/pdf',
    auth: 'team',
    summary: 'Printable specimen labels of an at-home or on-site order (after its requisition).',
    request: { params: orderParams, query: z.object({ number_of_labels: int().default(3), collection_date: dateOrDateTime('start') }) },
    responses: { 200: PDF, 400: 'Not an at-home phlebotomy or on-site collection order', 404: notFound, 422: 'Validation error' },
    handle(ctx, { params, query }) {
      return pdf(
        labelsDocument(orderEnv(ctx.world, ctx.partition), params.order_id, query.number_of_labels, query.collection_date),
        `labels-${params.order_id}`,
      );
    },
  }),

  defineRoute({
    id: 'orders.collection_instructions.pdf',
    method: 'GET',
    path: '/v3/order/:order_id/collection_instruction_pdf',
    auth: 'team',
    summary: "Collection instructions of an order's lab test, addressed to its patient.",
    request: { params: orderParams },
    responses: { 200: PDF, 404: notFound, 422: 'Malformed id' },
    handle(ctx, { params }) {
      return pdf(
        orderInstructionsDocument(orderEnv(ctx.world, ctx.partition), params.order_id),
        `collection-instructions-${params.order_id}`,
      );
    },
  }),

  defineRoute({
    id: 'orders.abn.pdf',
    method: 'GET',
    path: '/v3/order/:order_id/abn_pdf',
    auth: 'team',
    summary: 'The Advance Beneficiary Notice of an order that has one (has_abn).',
    request: { params: orderParams },
    responses: { 200: PDF, 404: notFound, 422: 'Malformed id' },
    handle(ctx, { params }) {
      return pdf(abnDocument(orderEnv(ctx.world, ctx.partition), params.order_id), `abn-${params.order_id}`);
    },
  }),

  defineRoute({
    id: 'lab_tests.collection_instructions.pdf',
    method: 'GET',
    path: '/v3/lab_test/:lab_test_id/collection_instruction_pdf',
    auth: 'team',
    summary: 'Collection instructions of a lab test (testkit tests).',
    request: { params: z.object({ lab_test_id: uuid() }) },
    responses: { 200: PDF, 404: 'Unknown lab test, or a lab test without instructions', 422: 'Malformed id' },
    handle(ctx, { params }) {
      return pdf(
        labTestInstructionsDocument(orderEnv(ctx.world, ctx.partition), params.lab_test_id),
        `collection-instructions-${params.lab_test_id}`,
      );
    },
  }),
];
