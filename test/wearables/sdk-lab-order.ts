/**
 * The lab order the wearables SDK contract tests place to get lab-derived vitals (cholesterol,
 * IgE, IgG): one patient, in the SDK's camelCase shape, and the order completed at once with
 * numeric results only (lab-derived vitals take numeric results; without `result_types` the
 * sandbox cycles numeric, comment and range).
 */
import type { VitalClient } from '@tryvital/vital-node';
import { expect } from 'vitest';

const patientDetails = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  dob: '1980-02-03',
  gender: 'female' as const,
  phoneNumber: '+12125550123',
  email: 'ada@example.com',
};
const patientAddress = {
  receiverName: 'Ada Lovelace',
  firstLine: '10 Market Street',
  city: 'Philadelphia',
  state: 'PA',
  zip: '19103',
  country: 'US',
};

/** The order as the SDK answers it. */
type SdkOrder = Awaited<ReturnType<VitalClient['labTests']['createOrder']>>['order'];

/** Places a walk-in order of `labTestId` for `userId` through the SDK and completes it with numeric results; answers the order. */
export async function completedNumericOrder(client: VitalClient, userId: string, labTestId: string): Promise<SdkOrder> {
  const placed = await client.labTests.createOrder({ userId, labTestId, patientDetails, patientAddress });
  const numeric = { finalStatus: 'completed.walk_in_test.completed' as const, body: { resultTypes: ['numeric' as const] } };
  expect(await client.labTests.simulateOrderProcess(placed.order.id, numeric)).toBe('Success');
  return placed.order;
}
