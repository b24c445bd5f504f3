/**
 * Events typed end to end: `EventBus.emit` takes the `data` that src/wire/events.ts declares for
 * the event type, so an emitter with a wrong payload does not compile (checked by `tsc -b
 * tsconfig.json`: each `@ts-expect-error` fails the build if its line ever compiles).
 */
import { describe, expect, it } from 'vitest';
import { EventBus } from '../../src/engine/events.js';
import type { Partition } from '../../src/engine/tenancy.js';

const partition = {
  id: 't:sandbox',
  environment: 'sandbox',
  team: { id: 't', settings: { sandbox: { event_type_prefixes: null } } },
} as unknown as Partition;
const who = { team_id: 't', user_id: 'u', client_user_id: 'c' };

describe('event payloads are typed by their event type', () => {
  it('accepts the declared data and refuses the rest at compile time', () => {
    const bus = new EventBus(() => '2026-01-01T00:00:00.000Z');
    const error = { provider: 'oura', user_id: 'u', message: 'm', error_type: 'token_refresh_failed', error_details: 'd' };
    bus.emit(partition, { event_type: 'provider.connection.error', data: error, ...who });
    bus.emit(partition, { event_type: 'daily.data.steps.created', data: { user_id: 'u', data: [] }, ...who });
    bus.emit(partition, {
      event_type: 'continuous_query.result_table.changed',
      data: [{ query_id: 'q', query_slug: 's', data: {} }],
      ...who,
    });
    // @ts-expect-error provider.connection.error carries the provider's slug, not its object
    bus.emit(partition, { event_type: 'provider.connection.error', data: { ...error, provider: { slug: 'oura' } }, ...who });
    // @ts-expect-error a match review needs its id, status, decision_code and sub_reason_codes
    bus.emit(partition, { event_type: 'labtest.match_review.created', data: { id: 'x' }, ...who });
    // @ts-expect-error an event type the sandbox does not emit
    bus.emit(partition, { event_type: 'labtest.order.deleted', data: {}, ...who });
    // @ts-expect-error the result-table event carries rows, not an object
    bus.emit(partition, { event_type: 'continuous_query.result_table.changed', data: {}, ...who });
    expect(bus.emitted).toBe(7);
  });
});
