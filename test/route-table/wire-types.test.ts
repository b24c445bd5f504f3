/**
 * The exported wire types, as an integrator uses them: fixtures typed with the root entry's types
 * (checked by tsc: `npm run typecheck` covers test/), the `@ts-expect-error` lines prove the types
 * are not `any`, and at run time the same fixtures parse with the schemas the routes declare and
 * match what a live sandbox answers.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { ElectrocardiogramSummary, Order, User, WebhookEvent, TimeseriesSample } from '../../src/index.js';
import { createClient } from '../support/client.js';
import { newOrder } from '../support/lab-helpers.js';
import { ElectrocardiogramSummary as EcgSchema, User as UserSchema, eventSchema } from '../../src/wire/schemas.js';

const user: User = {
  user_id: '0ccde090-a539-4390-8ead-b5f09ef67589',
  team_id: 'caaeee1b-8e38-409c-9f5e-c8e059109dc8',
  client_user_id: 'patient-42',
  created_on: '2026-01-05T09:00:00.000Z',
  connected_sources: [],
  fallback_time_zone: { id: 'Europe/London', source_slug: 'manual', updated_at: '2026-01-05T09:00:00.000Z' },
  fallback_birth_date: null,
  ingestion_start: null,
  ingestion_end: null,
};

const ecg: ElectrocardiogramSummary = {
  id: 'ea62346d-f760-4ce3-b4a2-dbd118046363',
  user_id: user.user_id,
  session_start: '2025-12-20T06:52:48.000Z',
  session_end: '2025-12-20T06:53:18.000Z',
  voltage_sample_count: 15360,
  heart_rate_mean: 88,
  sampling_frequency_hz: 512,
  classification: 'sinus_rhythm',
  inconclusive_cause: null,
  algorithm_version: 'sandbox-ecg-1',
  time_zone: 'Australia/Sydney',
  source_provider: 'apple_health_kit',
  source_type: 'watch',
  source_app_id: null,
  source_device_model: null,
  source_device_id: null,
  source: { provider: 'apple_health_kit', type: 'watch', app_id: null, device_id: null },
  created_at: '2025-12-20T06:53:18.000Z',
  updated_at: '2025-12-20T06:53:18.000Z',
};

// @ts-expect-error client_user_id is a string
const wrongUser: User = { ...user, client_user_id: 42 };
// @ts-expect-error voltage_sample_count is required
const missingCount: ElectrocardiogramSummary = { ...ecg, voltage_sample_count: undefined };

/** What an integrator's webhook handler looks like, typed by event type. */
function onOrderUpdated(event: WebhookEvent<'labtest.order.updated'>): string | null {
  // @ts-expect-error data is an order: it has no `heart_rate_mean`
  void event.data.heart_rate_mean;
  return event.data.status;
}

describe('exported wire types', () => {
  it('type the fixtures precisely (tsc) and the fixtures parse with the declared schemas', () => {
    expectTypeOf<WebhookEvent<'labtest.order.updated'>['data']>().toEqualTypeOf<Order>();
    expectTypeOf<Order['lab_test']['markers'][number]['id']>().toEqualTypeOf<number>();
    expectTypeOf<TimeseriesSample['value']>().toEqualTypeOf<number | undefined>();
    expect(UserSchema.safeParse(user).success).toBe(true);
    expect(EcgSchema.safeParse(ecg).success).toBe(true);
    expect(UserSchema.safeParse(wrongUser).success).toBe(false);
    expect(EcgSchema.safeParse(missingCount).success).toBe(false);
  });

  it('a live answer and a live event fit the types', async () => {
    const c = createClient('express', { seed: 4, users: 1, feed: 'off' });
    const live: User = (await c.get('/v2/user')).body.users[0];
    expect(UserSchema.safeParse(live).success).toBe(true);
    const order = await newOrder(c, 'walk_in_test');
    await c.post(`/v3/order/${order.id}/cancel`);
    const events = (await c.get('/_sandbox/events', { query: { event_type: 'labtest.order.updated' } })).body.events as Array<{
      envelope: WebhookEvent<'labtest.order.updated'>;
    }>;
    expect(events.length).toBeGreaterThan(0);
    for (const { envelope } of events) {
      expect(eventSchema('labtest.order.updated').safeParse(envelope).success).toBe(true);
      expect(onOrderUpdated(envelope)).toBe(envelope.data.status);
    }
    const notAnOrder = { ...events[0]!.envelope, data: ecg };
    expect(eventSchema('labtest.order.updated').safeParse(notAnOrder).success).toBe(false);
  });
});
