/**
 * What the API shows of an order's results (api-facts B.6): the order with its result set or the
 * reference's 404s, `LabResultsMetadata` and the sample information of `LabResultsRaw`.
 */
import type { ResultSet } from '../../fixtures/labs/lab-results.js';
import { type ReportHeader, renderResultPdf, resultPdfKey } from './lab-result-pdf.js';
import { keptPdf } from './pdf-memo.js';
import { LAB_BY_ID } from '../../fixtures/labs/labs.js';
import { stableInt } from '../../engine/ids.js';
import { LABS_ERRORS, LABS_TEXTS, labsError } from './errors.js';
import { findOrder } from './order-actions.js';
import { ageAt } from './order-checks.js';
import { iso, type Order } from './order-model.js';
import { orderResults, resultTimes, type ResultTimes } from './order-results.js';
import type { Domain } from '../domain-context.js';
import type { World } from '../../engine/world.js';
import type { z } from 'zod';
import type * as W from '../../wire/schemas.js';

/** An order with its results, or the reference's 404s (unknown order; no results yet). */
export function withResults(env: Domain, orderId: string): { order: Order; set: ResultSet; times: ResultTimes } {
  const order = findOrder(env, orderId, LABS_ERRORS.orderResultNotFound);
  const set = orderResults(env.world, order);
  const times = resultTimes(order);
  if (!set || !times) throw labsError.notFound(LABS_TEXTS.resultsNotAvailable(order.id));
  return { order, set, times };
}

function patientName(order: Order): string {
  const pd = order.patient_details;
  return pd ? `${pd.first_name} ${pd.last_name}` : (order.shipping_details?.receiver_name ?? '');
}

/**
 * The documented result status (`ResultStatus`: `final` or `partial`, lab/results/overview): a
 * correction is signalled by `labtest.order.updated` at `corrected` and the changed values, not
 * by a status of its own.
 */
function resultStatus(stage: ResultSet['stage']): 'final' | 'partial' {
  return stage === 'partial' ? 'partial' : 'final';
}

/** `LabResultsMetadata`. */
export function metadata(order: Order, set: ResultSet, times: ResultTimes): z.input<typeof W.ResultMetadata> {
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
    status: resultStatus(set.stage),
    interpretation: set.interpretation,
    patient_id: order.user_id,
    account_id: `SBX-${lab.slug.toUpperCase()}-${String(stableInt('lab_account', order.team_id, lab.id) % 1_000_000).padStart(6, '0')}`,
  };
}

export function sampleInformation(order: Order, times: ResultTimes): z.input<typeof W.OrderResult>['sample_information'] {
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
          address: {
            first_line: lab.first_line_address,
            second_line: '',
            country: 'US',
            zip: lab.zipcode,
            city: lab.city,
            state: lab.state,
          },
        },
      },
      clinical_information: null,
    },
  };
}

/**
 * The PDF report of a result set drawn for `order` (its header: patient, specimen, laboratory,
 * times), drawn once per content in a world (pdf-memo.ts).
 */
export function orderReportPdf(
  world: World,
  order: Order,
  set: ResultSet,
  times: ResultTimes,
  header: { title: string; dob: string; age: string },
): Promise<Uint8Array> {
  const head: ReportHeader = {
    title: header.title,
    patient: patientName(order),
    dob: header.dob,
    age: header.age,
    sampleId: order.sample_id,
    orderId: order.id,
    laboratory: order.lab_test.lab.name,
    clia: order.lab_test.lab.clia,
    collected: iso(times.collected),
    received: iso(times.received),
    reported: iso(times.reported),
    status: resultStatus(set.stage),
    interpretation: set.interpretation,
    date: new Date(times.reported),
  };
  return keptPdf(world, resultPdfKey(head, set), () => renderResultPdf(head, set));
}
