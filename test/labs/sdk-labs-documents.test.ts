/** Contract test: the official SDK reads order documents, imports orders and requests appointments (issue 13). */
import { type VitalClient, VitalError } from '@tryvital/vital-node';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROVIDER_CONFIRMS_AFTER } from '../../src/state/labs/appointment-requests.js';
import { LABS_ERRORS, LABS_TEXTS } from '../../src/state/labs/errors.js';
import { startSdkServer } from '../support/sdk-server.js';
import type { RunningServer } from '../support/server.js';

let server: RunningServer;
let client: VitalClient;

beforeAll(async () => {
  ({ server, client } = await startSdkServer(73));
});

afterAll(async () => {
  await server.close();
});

const patientDetails = {
  firstName: 'Sdk',
  lastName: 'Documents',
  dob: '1950-03-04',
  gender: 'male' as const,
  phoneNumber: '+12125550188',
  email: 'sdk@example.com',
};
const patientAddress = {
  receiverName: 'Sdk Documents',
  firstLine: '1 West Lincoln Street',
  city: 'Phoenix',
  state: 'AZ',
  zip: '85004',
  country: 'US',
};

type Method = 'testkit' | 'walk_in_test' | 'at_home_phlebotomy' | 'on_site_collection';

async function userId(): Promise<string> {
  return (await client.user.getAll({ limit: 1 })).users[0]?.userId ?? '';
}

async function labTestId(method: Method): Promise<string> {
  return (await client.labTests.get({ collectionMethod: method }))[0]?.id ?? '';
}

async function place(method: Method, extra: Record<string, unknown> = {}) {
  return (
    await client.labTests.createOrder({
      userId: await userId(),
      labTestId: await labTestId(method),
      patientDetails,
      patientAddress,
      ...extra,
    })
  ).order;
}

async function pdfOf(response: { arrayBuffer(): Promise<ArrayBuffer> }): Promise<PDFDocument> {
  const bytes = Buffer.from(await response.arrayBuffer());
  expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  return PDFDocument.load(bytes);
}

async function statusOf(promise: Promise<unknown>): Promise<{ statusCode: number | undefined; body: unknown }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof VitalError) return { statusCode: error.statusCode, body: error.body };
    throw error;
  }
  return { statusCode: 200, body: null };
}

describe('official SDK @tryvital/vital-node: order documents, import, appointment requests', () => {
  it('reads requisition, labels, collection instructions and ABN PDFs, and the 404s before they exist', async () => {
    const onSite = await place('on_site_collection', { billingType: 'commercial_insurance', healthInsurance: { payorCode: 'MEDICARE' } });
    expect(onSite.hasAbn).toBe(true);
    const early = await statusOf(client.labTests.getOrderRequistionPdf(onSite.id));
    expect(early).toEqual({ statusCode: 404, body: { detail: LABS_TEXTS.requisitionNotAvailable(onSite.id) } });
    await server.sandbox.advance(600);
    expect((await pdfOf(await client.labTests.getOrderRequistionPdf(onSite.id))).getTitle()).toBe('Quest Diagnostics Requisition');
    const labels = await pdfOf(
      await client.labTests.getLabelsPdf(onSite.id, { numberOfLabels: 2, collectionDate: new Date('2026-01-06T10:30:00Z') }),
    );
    expect(labels.getPageCount()).toBe(1);
    expect((await pdfOf(await client.labTests.getOrderAbnPdf(onSite.id))).getTitle()).toBe(
      'Advance Beneficiary Notice of Noncoverage (ABN)',
    );
    expect(await statusOf(client.labTests.getOrderCollectionInstructionPdf(onSite.id))).toEqual({
      statusCode: 404,
      body: { detail: LABS_ERRORS.noCollectionInstructions },
    });

    const kit = await place('testkit');
    expect(kit.hasAbn).toBe(false);
    expect((await pdfOf(await client.labTests.getOrderCollectionInstructionPdf(kit.id))).getSubject()).toBe(
      `Collection instructions for order ${kit.id}`,
    );
    const kitTest = await labTestId('testkit');
    expect((await pdfOf(await client.labTests.getLabTestCollectionInstructionPdf(kitTest))).getSubject()).toBe(
      `Collection instructions for lab test ${kitTest}`,
    );
    expect(await statusOf(client.labTests.getOrderAbnPdf(kit.id))).toEqual({
      statusCode: 404,
      body: { detail: LABS_TEXTS.abnNotAvailable(kit.id) },
    });
    expect((await statusOf(client.labTests.getLabelsPdf(kit.id, { collectionDate: new Date('2026-01-06T10:30:00Z') }))).statusCode).toBe(
      400,
    );
  });

  it('imports an order and parses the PostOrderResponse', async () => {
    const imported = await client.labTests.importOrder({
      userId: await userId(),
      billingType: 'client_bill',
      orderSet: { labTestIds: [await labTestId('walk_in_test')] },
      collectionMethod: 'walk_in_test',
      patientDetails,
      patientAddress,
      sampleId: 'SDK-IMPORT-1',
    });
    expect(imported.status).toBe('SUCCESS');
    expect(imported.order.sampleId).toBe('SDK-IMPORT-1');
    expect(imported.order.details.type).toBe('walk_in_test');
    await server.sandbox.advance(600);
    const order = await client.labTests.getOrder(imported.order.id);
    expect(order.events.map((e) => e.status)).toEqual(['received.walk_in_test.ordered', 'received.walk_in_test.requisition_bypassed']);
  });

  it('requests an at-home appointment and reads it confirmed by the provider', async () => {
    const order = await place('at_home_phlebotomy');
    await server.sandbox.advance(600);
    const requested = await client.labTests.requestPhlebotomyAppointment(order.id, {
      address: { firstLine: '1 West Lincoln Street', city: 'Phoenix', state: 'AZ', zipCode: '85004' },
      provider: 'getlabs',
    });
    expect(requested.status).toBe('pending');
    expect(requested.startAt).toBeUndefined();
    expect(requested.events.map((e) => e.status)).toEqual(['pending']);
    await server.sandbox.advance(PROVIDER_CONFIRMS_AFTER / 1000);
    const confirmed = await client.labTests.getPhlebotomyAppointment(order.id);
    expect(confirmed.status).toBe('confirmed');
    expect(confirmed.startAt).toBeDefined();
    expect((await client.labTests.getOrder(order.id)).events.at(-1)?.status).toBe(
      'collecting_sample.at_home_phlebotomy.appointment_scheduled',
    );
  });
});
