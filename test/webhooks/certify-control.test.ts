/**
 * The receiver certification through the control client (`control.certifyReceiver`, `POST
 * /_sandbox/receivers/certify`, issue 46) against receivers written for the purpose on 127.0.0.1.
 * The silent receiver runs under a short injected attempt timeout (its attempts are aborted).
 */
import { Webhook } from 'svix';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type StartedSandbox } from '../../src/testing.js';
import { ControlError } from '../../src/testing/control-client.js';
import { SECRET, SIGNATURE_CHECKS, testReceiver, type TestReceiver } from './certify-receivers.js';

let sandbox: StartedSandbox;
let short: StartedSandbox;
const receivers: TestReceiver[] = [];

beforeAll(async () => {
  sandbox = await startSandbox();
  short = await startSandbox({ deliveryTimeout: 0.05 });
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await sandbox.close();
  await short.close();
});

async function receiver(kind: Parameters<typeof testReceiver>[0]): Promise<TestReceiver> {
  const r = await testReceiver(kind);
  receivers.push(r);
  return r;
}

describe('control.certifyReceiver', () => {
  it('passes every check for a receiver verifying with svix; what was sent verifies with svix too', async () => {
    const r = await receiver('svix');
    const result = await sandbox.certifyReceiver(r.url, SECRET);
    expect(result.failed).toEqual([]);
    expect(result.passed).toBe(true);
    expect(result.checks.map((c) => c.id)).toEqual([
      'signed_event_accepted',
      ...SIGNATURE_CHECKS,
      'rotation_signature_accepted',
      'redelivery_accepted',
      'unknown_event_type_accepted',
      'out_of_order_accepted',
    ]);
    const signed = result.checks[0]!.sent[0]!;
    expect(new Webhook(SECRET).verify(signed.body, signed.headers)).toMatchObject({ event_type: 'labtest.order.created' });
    const redelivery = result.checks.find((c) => c.id === 'redelivery_accepted')!;
    expect(redelivery.sent[0]!.headers['svix-id']).toBe(redelivery.sent[1]!.headers['svix-id']);
    const rotation = result.checks.find((c) => c.id === 'rotation_signature_accepted')!;
    expect(rotation.sent[0]!.headers['svix-signature']!.split(' ')).toHaveLength(2);
    expect(result.timing.max_ms).toBeGreaterThanOrEqual(result.timing.p50_ms);
    expect(result.timing.timeout_ms).toBe(15_000);
    expect(r.received).toBe(11);
  });

  it('fails exactly the signature checks for a receiver that accepts everything', async () => {
    const r = await receiver('accept_all');
    const result = await sandbox.certifyReceiver(r.url, SECRET);
    expect(result.passed).toBe(false);
    expect(result.failed).toEqual(SIGNATURE_CHECKS);
    for (const id of result.failed) expect(id).toContain('signature');
    expect(result.checks.find((c) => c.id === 'bad_signature_refused')!.detail).toContain('answered 200; expected 4xx');
  });

  it('fails the redelivery check for a receiver that refuses a seen svix-id', async () => {
    const r = await receiver('no_redelivery');
    const result = await sandbox.certifyReceiver(r.url, SECRET);
    expect(result.failed).toEqual(['redelivery_accepted']);
    expect(result.checks.find((c) => c.id === 'redelivery_accepted')!.received.map((x) => x.status)).toEqual([204, 409]);
  });

  it('fails every check of a receiver that never answers within the attempt timeout', async () => {
    const r = await receiver('silent');
    const result = await short.certifyReceiver(r.url, SECRET);
    expect(result.passed).toBe(false);
    expect(result.failed).toHaveLength(result.checks.length);
    expect(result.checks[0]!.detail).toMatch(/no answer \(timeout/);
    expect(result.timing.timeout_ms).toBe(50);
  });

  it('refuses a bad secret and a destination the webhook rules refuse (422, nothing sent)', async () => {
    const r = await receiver('svix');
    await expect(sandbox.certifyReceiver(r.url, 'not-a-secret')).rejects.toMatchObject({ status: 422 });
    await expect(sandbox.certifyReceiver('http://169.254.169.254/latest', SECRET)).rejects.toBeInstanceOf(ControlError);
    await expect(sandbox.certifyReceiver(`${sandbox.url}/v2/user`, SECRET)).rejects.toMatchObject({ status: 422 });
    expect(r.received).toBe(0);
  });
});
