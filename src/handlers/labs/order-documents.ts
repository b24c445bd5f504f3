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
import { documentPdf, type DocSpec } from '../../state/labs/document-pdf.js';
import {
  abnDocument,
  labTestInstructionsDocument,
  labelsDocument,
  orderInstructionsDocument,
  requisitionDocument,
} from '../../state/labs/order-documents.js';
import type { Domain } from '../../state/domain-context.js';
import type { World } from '../../engine/world.js';
import { lazySchema } from '../../engine/lazy-schema.js';

const orderParams = lazySchema(() => z.object({ order_id: uuid() }));

async function pdf(world: World, spec: DocSpec, filename: string): Promise<Reply> {
  return binary(await documentPdf(world, spec), 'application/pdf', { 'content-disposition': `inline; filename="${filename}.pdf"` });
}

const notFound = 'Unknown order, or the document does not exist (yet) for it';
const PDF = { description: 'application/pdf', contentType: 'application/pdf' };

/** A PDF of one order: `GET /v3/order/{order_id}/<path>`, answered inline as `<file>-<order_id>.pdf`. */
function orderPdfRoute(o: { id: string; path: string; summary: string; document: (d: Domain, orderId: string) => DocSpec; file: string }) {
  return defineRoute({
    id: o.id,
    method: 'GET',
    path: `/v3/order/:order_id/${o.path}`,
    auth: 'team',
    summary: o.summary,
    request: { params: orderParams },
    responses: { 200: PDF, 404: notFound, 422: 'Malformed id' },
    handle(ctx, { params }) {
      return pdf(ctx.world, o.document(ctx, params.order_id), `${o.file}-${params.order_id}`);
    },
  });
}

export const orderDocumentRoutes = [
  orderPdfRoute({
    id: 'orders.requisition.pdf',
    path: 'requisition/pdf',
    summary: 'The requisition form of an order, once it was sent to the lab (requisition_created).',
    document: requisitionDocument,
    file: 'requisition',
  }),

  defineRoute({
    id: 'orders.labels.pdf',
    method: 'GET',
    path: '/v3/order/:order_id/labels/pdf',
    auth: 'team',
    summary: 'Printable specimen labels of an at-home or on-site order (after its requisition).',
    request: {
      params: orderParams,
      query: lazySchema(() => z.object({ number_of_labels: int().default(3), collection_date: dateOrDateTime('start') })),
    },
    responses: { 200: PDF, 400: 'Not an at-home phlebotomy or on-site collection order', 404: notFound, 422: 'Validation error' },
    handle(ctx, { params, query }) {
      return pdf(
        ctx.world,
        labelsDocument(ctx, params.order_id, query.number_of_labels, query.collection_date),
        `labels-${params.order_id}`,
      );
    },
  }),

  orderPdfRoute({
    id: 'orders.collection_instructions.pdf',
    path: 'collection_instruction_pdf',
    summary: "Collection instructions of an order's lab test, addressed to its patient.",
    document: orderInstructionsDocument,
    file: 'collection-instructions',
  }),

  orderPdfRoute({
    id: 'orders.abn.pdf',
    path: 'abn_pdf',
    summary: 'The Advance Beneficiary Notice of an order that has one (has_abn).',
    document: abnDocument,
    file: 'abn',
  }),

  defineRoute({
    id: 'lab_tests.collection_instructions.pdf',
    method: 'GET',
    path: '/v3/lab_test/:lab_test_id/collection_instruction_pdf',
    auth: 'team',
    summary: 'Collection instructions of a lab test (testkit tests).',
    request: { params: lazySchema(() => z.object({ lab_test_id: uuid() })) },
    responses: { 200: PDF, 404: 'Unknown lab test, or a lab test without instructions', 422: 'Malformed id' },
    handle(ctx, { params }) {
      return pdf(ctx.world, labTestInstructionsDocument(ctx, params.lab_test_id), `collection-instructions-${params.lab_test_id}`);
    },
  }),
];
