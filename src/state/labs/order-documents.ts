/**
 * The documents of a lab order (api-facts B.1 "PDFs"): the requisition form, specimen labels,
 * collection instructions (per order and per lab test) and the ABN. Each function checks that
 * the document exists for the order's state (else the catalogue's 404/400) and returns what the
 * PDF shows (`DocSpec`); `renderDocument` draws it. The document date is a time of the order's
 * own history (the requisition, the order's creation), so the same state gives the same bytes.
 */
import type { SampleType } from '../../fixtures/labs/labs.js';
import { LABS_ERRORS, LABS_TEXTS, labsError } from './errors.js';
import type { DocBlock, DocSpec } from './document-pdf.js';
import { labTestPrice, labTestsOf, type LabTest } from './lab-tests.js';
import { hasAbn } from './order-abn.js';
import { findOrder } from './order-actions.js';
import { iso, type Order } from './order-model.js';
import type { Domain } from '../domain-context.js';

const MAX_LABELS = 30;

/** The time the order's requisition was created (or bypassed), if it was. */
function requisitionTime(order: Order): number | null {
  for (const e of order.events) if (e.status === 'requisition_created' || e.status === 'requisition_bypassed') return e.at;
  return null;
}

function withRequisition(env: Domain, orderId: string): { order: Order; at: number } {
  const order = findOrder(env, orderId, LABS_ERRORS.orderGetNotFound);
  const at = requisitionTime(order);
  if (at === null) throw labsError.notFound(LABS_TEXTS.requisitionNotAvailable(order.id));
  return { order, at };
}

function patientBlock(order: Order): DocBlock {
  const pd = order.patient_details;
  const pa = order.patient_address ?? order.shipping_details;
  return {
    kind: 'pairs',
    pairs: [
      ['Patient', pd ? `${pd.last_name}, ${pd.first_name}` : (pa?.receiver_name ?? '')],
      ['Date of birth', pd?.dob ?? ''],
      ['Sex', pd?.gender ?? ''],
      ['Phone', pd?.phone_number ?? ''],
      ['Address', pa ? [pa.first_line, pa.second_line, `${pa.city}, ${pa.state} ${pa.zip}`].filter(Boolean).join(', ') : ''],
    ],
  };
}

function testsBlock(test: LabTest): DocBlock {
  return {
    kind: 'table',
    heads: ['Test code', 'Test', 'Specimen'],
    rows: test.markers.map((mk) => [mk.provider_id, mk.def.name, mk.def.sample.replace(/_/g, ' ')]),
  };
}

/** The requisition form: exists once the order was sent to the lab (`requisition_created`). */
export function requisitionDocument(env: Domain, orderId: string): DocSpec {
  const { order, at } = withRequisition(env, orderId);
  const lab = order.lab_test.lab;
  const physician = order.physician
    ? `${order.physician.first_name} ${order.physician.last_name} (NPI ${order.physician.npi})`
    : 'Junction sandbox physician network';
  return {
    title: `${lab.name} Requisition`,
    subject: `Requisition for order ${order.id}`,
    author: lab.name,
    date: new Date(at),
    blocks: [
      {
        kind: 'pairs',
        pairs: [
          ['Order', order.id],
          ['Accession / sample id', order.sample_id],
          ['Requisition created', iso(at)],
          ['Collection method', order.method],
          ['Priority', order.priority ? 'STAT' : 'routine'],
        ],
      },
      { kind: 'heading', text: 'Patient' },
      patientBlock(order),
      { kind: 'heading', text: 'Ordering provider and billing' },
      {
        kind: 'pairs',
        pairs: [
          ['Physician', physician],
          ['Laboratory', `${lab.name} (CLIA ${lab.clia})`],
          ['Bill to', order.billing_type],
          ['Diagnosis codes', (order.icd_codes ?? []).join(', ') || 'none'],
        ],
      },
      { kind: 'heading', text: 'Tests ordered' },
      testsBlock(order.lab_test),
      ...(order.lab_test.fasting ? [{ kind: 'text' as const, text: 'Fasting required: 8-12 hours, water only.' }] : []),
      ...(order.clinical_notes ? [{ kind: 'text' as const, text: `Clinical notes: ${order.clinical_notes}` }] : []),
    ],
  };
}

/** Specimen labels (`number_of_labels`, default 3): for orders someone else draws (at home, on site), once the requisition exists. */
export function labelsDocument(env: Domain, orderId: string, count: number, collectionDate: number): DocSpec {
  const order = findOrder(env, orderId, LABS_ERRORS.orderGetNotFound);
  if (order.method !== 'at_home_phlebotomy' && order.method !== 'on_site_collection')
    throw labsError.badRequest(LABS_TEXTS.labelsNotForMethod(order.method));
  if (!Number.isInteger(count) || count < 1 || count > MAX_LABELS)
    throw labsError.invalid(['query', 'number_of_labels'], LABS_TEXTS.labelCount(MAX_LABELS), count);
  const { at } = withRequisition(env, orderId);
  const pd = order.patient_details;
  const when = iso(collectionDate).slice(0, 16).replace('T', ' ');
  const label = (i: number) => [
    pd ? `${pd.last_name.toUpperCase()}, ${pd.first_name}` : '',
    `DOB ${pd?.dob ?? ''}  ${pd?.gender ?? ''}`,
    `Accession ${order.sample_id}-${String(i + 1).padStart(2, '0')}`,
    `Collected ${when} UTC`,
    `${order.lab_test.lab.name} / ${order.lab_test.sample_type.replace(/_/g, ' ')}`,
  ];
  return {
    title: `Specimen labels - order ${order.sample_id}`,
    subject: `Specimen labels for order ${order.id}`,
    author: order.lab_test.lab.name,
    date: new Date(at),
    blocks: [{ kind: 'labels', labels: Array.from({ length: count }, (_, i) => label(i)) }],
  };
}

const STEPS: Record<SampleType, string[]> = {
  dried_blood_spot: [
    'Wash your hands with warm water for 30 seconds; warm hands help the blood flow.',
    'Clean the side of a fingertip with the alcohol pad and let it dry.',
    'Press the lancet firmly against the fingertip; wipe away the first drop.',
    'Let drops fall onto each circle of the collection card until every circle is full. Do not touch the card.',
    'Let the card dry flat for at least 3 hours, away from sunlight.',
  ],
  arm_collector: [
    'Apply the collector to the upper arm as shown in the kit.',
    'Press the button and hold for 10 seconds until the chamber is full.',
    'Remove the collector and cap it.',
  ],
  saliva: [
    'Do not eat, drink, smoke or chew gum for 30 minutes before collecting.',
    'Spit into the tube until the liquid (not bubbles) reaches the fill line.',
    'Close the cap tightly to release the stabilising fluid and shake for 5 seconds.',
  ],
  urine: [
    'Collect the first urine of the morning.',
    'Fill the collection cup to the line, then transfer to the tube with the pipette.',
    'Close the tube tightly.',
  ],
  stool: ['Collect the sample with the scoop provided.', 'Place it in the tube and close tightly.'],
  serum: ['A trained phlebotomist draws the blood sample.', 'Bring a photo ID and this form to your appointment.'],
};

function instructionsOf(test: LabTest): DocBlock[] {
  const samples = [...new Set(test.markers.map((mk) => mk.def.sample))];
  return [
    {
      kind: 'pairs',
      pairs: [
        ['Lab test', test.name],
        ['Laboratory', test.lab.name],
        ['Specimen', samples.join(', ').replace(/_/g, ' ')],
        ['Fasting', test.fasting ? 'required (8-12 hours, water only)' : 'not required'],
      ],
    },
    { kind: 'heading', text: 'Before you start' },
    {
      kind: 'list',
      items: [
        'Register your kit before collecting, if your kit asks you to.',
        'Collect on a Monday to Thursday so the sample does not wait over a weekend.',
        'Check that the name on the tube labels is yours.',
      ],
    },
    ...samples.flatMap((s): DocBlock[] => [
      { kind: 'heading', text: `Collecting: ${s.replace(/_/g, ' ')}` },
      { kind: 'list', items: STEPS[s] },
    ]),
    { kind: 'heading', text: 'Sending your sample' },
    {
      kind: 'list',
      items: [
        'Place the sample in the biohazard bag with the absorbent pad.',
        `Put the bag in the prepaid return box addressed to ${test.lab.name}, ${test.lab.first_line_address}, ${test.lab.city}, ${test.lab.state} ${test.lab.zipcode}.`,
        'Drop it off the same day you collect.',
      ],
    },
    { kind: 'heading', text: 'Tests in this kit' },
    testsBlock(test),
  ];
}

function checkInstructions(test: LabTest): void {
  if (test.method !== 'testkit') throw labsError.notFound(LABS_ERRORS.noCollectionInstructions);
}

/** Collection instructions of a lab test (testkit tests: `has_collection_instructions`). */
export function labTestInstructionsDocument(env: Domain, labTestId: string): DocSpec {
  const test = labTestsOf(env.partition, env.world).get(labTestId);
  if (!test) throw labsError.notFound(LABS_ERRORS.labTestNotFound);
  checkInstructions(test);
  return {
    title: `${test.name} - Collection instructions`,
    subject: `Collection instructions for lab test ${test.id}`,
    author: test.lab.name,
    date: new Date(test.created_at),
    blocks: instructionsOf(test),
  };
}

/** Collection instructions of an order (its lab test's), addressed to its patient. */
export function orderInstructionsDocument(env: Domain, orderId: string): DocSpec {
  const order = findOrder(env, orderId, LABS_ERRORS.orderGetNotFound);
  checkInstructions(order.lab_test);
  return {
    title: `${order.lab_test.name} - Collection instructions`,
    subject: `Collection instructions for order ${order.id}`,
    author: order.lab_test.lab.name,
    date: new Date(order.created_at),
    blocks: [
      {
        kind: 'pairs',
        pairs: [
          ['Order', order.id],
          ['Kit / sample id', order.sample_id],
        ],
      },
      patientBlock(order),
      ...instructionsOf(order.lab_test),
    ],
  };
}

/** The Advance Beneficiary Notice of Noncoverage (CMS-R-131) of an order that has one (`has_abn`). */
export function abnDocument(env: Domain, orderId: string): DocSpec {
  const order = findOrder(env, orderId, LABS_ERRORS.orderGetNotFound);
  if (!hasAbn(order)) throw labsError.notFound(LABS_TEXTS.abnNotAvailable(order.id));
  const lab = order.lab_test.lab;
  const pd = order.patient_details;
  return {
    title: 'Advance Beneficiary Notice of Noncoverage (ABN)',
    subject: `ABN for order ${order.id}`,
    author: lab.name,
    date: new Date(order.created_at),
    blocks: [
      {
        kind: 'pairs',
        pairs: [
          ['A. Notifier', `${lab.name}, ${lab.first_line_address}, ${lab.city}, ${lab.state} ${lab.zipcode}`],
          ['B. Patient name', pd ? `${pd.first_name} ${pd.last_name}` : ''],
          ['C. Identification number', order.sample_id],
        ],
      },
      {
        kind: 'text',
        text: 'NOTE: If Medicare does not pay for the tests below, you may have to pay. Medicare does not pay for everything, even some care that you or your health care provider have good reason to think you need.',
      },
      {
        kind: 'table',
        heads: ['D. Test', 'E. Reason Medicare may not pay', 'F. Estimated cost'],
        rows: [[order.lab_test.name, 'Frequency or diagnosis limits', `$${labTestPrice(order.lab_test).toFixed(2)}`]],
      },
      { kind: 'heading', text: 'G. Options: check only one box' },
      {
        kind: 'list',
        items: [
          'OPTION 1. I want the tests listed above. Bill Medicare for an official decision on payment; if Medicare does not pay, I am responsible for payment.',
          'OPTION 2. I want the tests listed above, but do not bill Medicare. I am responsible for payment.',
          'OPTION 3. I do not want the tests listed above. I am not responsible for payment.',
        ],
      },
      {
        kind: 'pairs',
        pairs: [
          ['I. Signature', '______________________________'],
          ['J. Date', '______________'],
        ],
      },
      { kind: 'text', text: 'Form CMS-R-131 (sandbox rendering).' },
    ],
  };
}
