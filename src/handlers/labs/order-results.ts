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
 * - `GET /v3/order_transaction/:id/result` and `/result/pdf` are not simulated (404 like any
 *   unknown route).
 * - Values are synthetic (seeded per order and analyte); reference ranges are adult ranges and
 *   ignore sex and age.
 */
import { z } from 'zod';
import { notFound } from '../../engine/errors.js';
import { LAB_BY_ID } from '../../fixtures/labs/labs.js';
import type { ResultSet } from '../../fixtures/labs/lab-results.js';
import { binary, json } from '../../engine/http-types.js';
import { defineRoute, type Ctx } from '../../engine/route.js';
import { uuid } from '../../engine/schemas.js';
import { stableInt } from '../../engine/ids.js';
import { renderResultPdf } from '../../state/labs/lab-result-pdf.js';
import { orderResults, resultTimes, transactionView, type Order, type OrderEnv } from '../../state/labs/orders.js';
import { ORDER_MESSAGES, findOrder } from './orders.js';
import { ageAt } from './order-requests.js';

const orderParams = z.object({ order_id: uuid() });

const iso = (ms: number) => new Date(ms).toISOString();

function notAvailable(orderId: string) {
  return notFound(`Results are not available for order - ${orderId}. Did you receive a webhook for this order?`);
}

function withResults(ctx: Ctx, orderId: string): { env: OrderEnv; order: Order; set: ResultSet; times: NonNullable<ReturnType<typeof resultTimes>> } {
  const { env, order } = findOrder(ctx, orderId, ORDER_MESSAGES.resultNotFound);
  const set = orderResults(ctx.world, order);
  const times = resultTimes(order);
  if (!set || !times) throw notAvailable(order.id);
  return { env, order, set, times };
}

function patientName(order: Order): string {
  const pd = order.patient_details;
  return pd ? `${pd.first_name} ${pd.last_name}` : (order.shipping_details?.receiver_name ?? '');
}

function metadata(order: Order, set: ResultSet, times: NonNullable<ReturnType<typeof resultTimes>>): Record<string, unknown> {
  const dob = order.patient_details?.dob ?? '';
  const lab = order.lab_test.lab;
  return {
    age: dob ? String(ageAt(dob, times.collected)) : '',
    dob,
    'clia_#': lab.clia,
    patient: patientName(order),
    provider: order.physician ? `${order.physician.first_name} ${order.physician.last_name}` : null,
    laboratory: lab.name,
    date_reported: iso(times.reported),
    date_collected: iso(times.collected),
    specimen_number: order.sample_id,
    date_received: iso(times.received),
    status: set.stage,
    interpretation: set.interpretation,
    patient_id: order.user_id,
    account_id: `SBX-${lab.slug.toUpperCase()}-${String(stableInt('lab_account', order.team_id, lab.id) % 1_000_000).padStart(6, '0')}`,
  };
}

function sampleInformation(order: Order, times: NonNullable<ReturnType<typeof resultTimes>>): Record<string, unknown> {
  const lab = LAB_BY_ID.get(order.lab_test.lab.id) ?? order.lab_test.lab;
  const stamp = (ms: number) => ({ timestamp: iso(ms), timezone_offset: 0 });
  return {
    [order.sample_id]: {
      sample_id: order.sample_id,
      control_number: String(stableInt('control', order.id) % 100_000_000).padStart(8, '0'),
      date_collected: stamp(times.collected),
      date_received: stamp(times.received),
      date_reported: stamp(times.reported),
      performing_laboratories: {
        [lab.slug]: {
          name: lab.name,
          phone_number: lab.phone_number,
          medical_director: lab.medical_director,
          address: { first_line: lab.first_line_address, second_line: '', country: 'US', zip: lab.zipcode, city: lab.city, state: lab.state },
        },
      },
      clinical_information: null,
    },
  };
}

export const orderResultRoutes = [
  defineRoute({
    id: 'orders.result',
    method: 'GET',
    path: '/v3/order/:order_id/result',
    auth: 'team',
    summary: 'The order\'s results (LabResultsRaw) once partial or final results exist.',
    request: { params: orderParams },
    responses: { 200: 'LabResultsRaw', 404: 'Unknown order, or results not available yet', 422: 'Malformed id' },
    handle(ctx, { params }) {
      const { env, order, set, times } = withResults(ctx, params.order_id);
      return json({
        metadata: metadata(order, set, times),
        results: set.results,
        missing_results: set.missing,
        sample_information: sampleInformation(order, times),
        order_transaction: transactionView(env.store, order.transaction_id),
      });
    },
  }),

  defineRoute({
    id: 'orders.result.metadata',
    method: 'GET',
    path: '/v3/order/:order_id/result/metadata',
    auth: 'team',
    summary: 'The metadata of the order\'s results.',
    request: { params: orderParams },
    responses: { 200: 'LabResultsMetadata', 404: 'Unknown order, or results not available yet', 422: 'Malformed id' },
    handle(ctx, { params }) {
      const { order, set, times } = withResults(ctx, params.order_id);
      return json(metadata(order, set, times));
    },
  }),

  defineRoute({
    id: 'orders.result.pdf',
    method: 'GET',
    path: '/v3/order/:order_id/result/pdf',
    auth: 'team',
    summary: 'The order\'s results as a PDF report.',
    request: { params: orderParams },
    responses: { 200: 'application/pdf', 404: 'Unknown order, or results not available yet', 422: 'Malformed id' },
    async handle(ctx, { params }) {
      const { order, set, times } = withResults(ctx, params.order_id);
      const meta = metadata(order, set, times);
      const pdf = await renderResultPdf(
        {
          title: `${order.lab_test.lab.name} Laboratory Report`,
          patient: patientName(order),
          dob: String(meta.dob),
          age: String(meta.age),
          sampleId: order.sample_id,
          orderId: order.id,
          laboratory: order.lab_test.lab.name,
          clia: order.lab_test.lab.clia,
          collected: iso(times.collected),
          received: iso(times.received),
          reported: iso(times.reported),
          status: set.stage,
          interpretation: set.interpretation,
          date: new Date(times.reported),
        },
        set,
      );
      return binary(pdf, 'application/pdf', { 'content-disposition': `inline; filename="${order.id}.pdf"` });
    },
  }),
];
