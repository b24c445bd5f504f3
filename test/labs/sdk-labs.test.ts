/** Contract test: the official SDK parses every lab testing answer of the sandbox. */
import { Vital, type VitalClient, VitalError } from '@tryvital/vital-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSdkServer } from '../support/sdk-server.js';
import type { RunningServer } from '../support/server.js';
import { LABS_TEXTS } from '../../src/state/labs/errors.js';

let server: RunningServer;
let client: VitalClient;

beforeAll(async () => {
  ({ server, client } = await startSdkServer(71));
});

afterAll(async () => {
  await server.close();
});

const patientDetails = {
  firstName: 'Sdk',
  lastName: 'Critical',
  dob: '1979-03-04',
  gender: 'male' as const,
  phoneNumber: '+12125550188',
  email: 'sdk@example.com',
};
const patientAddress = {
  receiverName: 'Sdk Critical',
  firstLine: '10 Market Street',
  city: 'Philadelphia',
  state: 'PA',
  zip: '19103',
  country: 'US',
};

describe('official SDK @tryvital/vital-node against the lab testing area', () => {
  it('parses labs, lab tests, markers and order-set markers', async () => {
    const labs = await client.labTests.getLabs();
    expect(labs.map((l) => l.slug)).toContain('quest');
    const tests = await client.labTests.get();
    expect(tests.map((t) => t.method)).toEqual(['testkit', 'walk_in_test', 'at_home_phlebotomy', 'on_site_collection']);
    const one = await client.labTests.getById(tests[1]?.id ?? '');
    expect(one.lab?.slug).toBe('quest');
    const created = await client.labTests.create({
      name: 'SDK Panel',
      method: 'walk_in_test',
      description: 'from the SDK',
      markerIds: [3005, 3009],
    });
    expect(created.markers?.map((m) => m.id)).toEqual([3005, 3009]);
    const markers = await client.labTests.getMarkers({ labId: 4, size: 5 });
    expect(markers.markers).toHaveLength(5);
    expect(markers.markers.every((m) => m.labId === 4)).toBe(true);
    expect(markers.markers[0]?.expectedResults[0]?.required).toBe(true);
    expect(markers.markers[0]?.expectedResults[0]?.loinc?.code).toBe('2093-3');
    const forTest = await client.labTests.getMarkersForLabTest(tests[0]?.id ?? '');
    expect(forTest.total).toBe(4);
    const set = await client.labTests.getMarkersForOrderSet({
      page: 1,
      size: 10,
      body: { labTestIds: [tests[1]?.id ?? ''], addOn: { providerIds: ['899'] } },
    });
    expect(set.total).toBe(5);
    expect(set.pages).toBe(1);
    const single = await client.labTests.getMarkersByLabAndProviderId('7600', 3);
    expect(single.name).toBe('Lipid Panel, Standard');
  });

  it('places, lists, simulates, reads results of and cancels orders', async () => {
    const userId = (await client.user.getAll({ limit: 1 })).users[0]?.userId ?? '';
    const tests = await client.labTests.get({ collectionMethod: 'walk_in_test' });
    const placed = await client.labTests.createOrder({ userId, labTestId: tests[0]?.id ?? '', patientDetails, patientAddress });
    expect(placed.status).toBe('SUCCESS');
    expect(placed.order.hasAbn).toBe(false);
    expect(placed.order.details.type).toBe('walk_in_test');
    expect(placed.order.events[0]?.status).toBe('received.walk_in_test.ordered');
    expect(placed.order.createdAt).toBeInstanceOf(Date);

    const simulated = await client.labTests.simulateOrderProcess(placed.order.id, { finalStatus: 'completed.walk_in_test.completed' });
    expect(simulated).toBe('Success');
    const order = await client.labTests.getOrder(placed.order.id);
    expect(order.status).toBe('completed');
    expect(order.interpretation).toBe('critical');

    const raw = await client.labTests.getResultRaw(order.id);
    expect(raw.metadata.specimenNumber).toBe(order.sampleId);
    expect(Array.isArray(raw.results)).toBe(true);
    const results = raw.results as Vital.BiomarkerResult[];
    expect(results.some((r) => r.interpretation === 'critical')).toBe(true);
    expect(results[0]?.timestamp).toBeInstanceOf(Date);
    const meta = await client.labTests.getResultMetadata(order.id);
    expect(meta.interpretation).toBe('critical');
    const pdf = await client.labTests.getResultPdf(order.id);
    const bytes = Buffer.from(await pdf.arrayBuffer());
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');

    // (SDK 3.1.551's request enum lacks `corrected`, so only `completed` can be asked for here)
    const listed = await client.labTests.getOrders({ status: ['completed', 'cancelled'], orderType: 'walk_in_test', size: 100 });
    expect(listed.orders.map((o) => o.id)).toContain(order.id);
    expect(new Set(listed.orders.map((o) => o.status))).toEqual(new Set(['completed', 'cancelled']));
    const all = await client.labTests.getOrders({ size: 100 });
    expect(all.total).toBeGreaterThan(25);
    const since = await client.labTests.getOrders({ startDate: new Date('2026-01-05T00:00:00Z'), isCritical: true });
    expect(since.orders.map((o) => o.id)).toEqual([order.id]);

    const other = await client.labTests.createOrder({
      userId,
      labTestId: tests[0]?.id ?? '',
      patientDetails: { ...patientDetails, lastName: 'Smith' },
      patientAddress,
    });
    const cancelled = await client.labTests.cancelOrder(other.order.id);
    expect(cancelled.order.status).toBe('cancelled');
    const refused = await client.labTests.cancelOrder(order.id).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(VitalError);
    expect(refused).toMatchObject({ statusCode: 400, body: { detail: LABS_TEXTS.transitionNotAllowed('completed', 'cancelled') } });

    const resent = await client.order.resendEvents({ orderIds: [order.id] });
    expect(resent.orderIds).toEqual([order.id]);
  });

  it('parses registrable testkits, on-site draws and validation errors', async () => {
    const userId = (await client.user.getAll({ limit: 1 })).users[0]?.userId ?? '';
    const kits = await client.labTests.get({ collectionMethod: 'testkit' });
    const kit = await client.testkit.createOrder({
      userId,
      labTestId: kits[0]?.id ?? '',
      shippingDetails: {
        receiverName: 'Kit Person',
        firstLine: '2 Pine Street',
        city: 'Boise',
        state: 'ID',
        zip: '83702',
        country: 'US',
        phoneNumber: '+12085550111',
      },
    });
    expect(kit.order.patientDetails).toBeUndefined();
    await server.sandbox.advance(4 * 86400);
    const registered = await client.testkit.register({ sampleId: kit.order.sampleId ?? '', patientDetails, patientAddress });
    expect(registered.order.events.at(-1)?.status).toBe('received.testkit.registered');

    const onSite = await client.labTests.get({ collectionMethod: 'on_site_collection' });
    const placed = await client.labTests.createOrder({ userId, labTestId: onSite[0]?.id ?? '', patientDetails, patientAddress });
    await server.sandbox.advance(600);
    const drawn = await client.labTests.updateOnSiteCollectionOrderDrawCompleted(placed.order.id);
    expect(drawn.order.status).toBe('sample_with_lab');

    const invalid = await client.labTests
      .createOrder({ userId, labTestId: onSite[0]?.id ?? '', patientDetails: { ...patientDetails, email: 'nope' }, patientAddress })
      .catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(Vital.UnprocessableEntityError);
  });

  it('parses payor search and team payors', async () => {
    const found = await client.insurance.searchGetPayorInfo({ insuranceName: 'cigna' });
    expect(found[0]?.payorCode).toBe('CIGNA');
    expect(found[0]?.orgAddress.firstLine).toBe('900 Cottage Grove Road');
    const mine = await client.payor.createPayor({
      name: 'SDK Health Plan',
      address: { firstLine: '1 Way', country: 'US', zip: '10001', city: 'New York', state: 'NY' },
    });
    expect(mine.source).toBe('team');
    const again = await client.insurance.searchGetPayorInfo({ insuranceName: 'sdk health' });
    expect(again.map((p) => p.payorCode)).toEqual([mine.payorCode]);
  });
});
