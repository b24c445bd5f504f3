/**
 * Event payloads: the envelope `{event_type, data, team_id, user_id, client_user_id}` and the
 * `data` of each event type the sandbox emits. `WebhookEvent<'labtest.order.updated'>` is the
 * envelope of one type, its `data` typed.
 */
import { z } from 'zod';
import { lazySchema } from '../engine/lazy-schema.js';
import { dateTime, JsonObject, ProviderRef, uuidString } from './common.js';
import { Appointment, Order } from './labs.js';
import { MatchReviewEventData, ParsingJob } from './labs-ops.js';
import { ResourceAvailability } from './wearables.js';

const ConnectionEventData = lazySchema(() =>
  z.object({
    user_id: uuidString,
    provider: ProviderRef,
    source: ProviderRef,
    external_user_id: z.string().nullable(),
    resource_availability: ResourceAvailability.optional(),
  }),
);

/** `provider.connection.error`: the provider's slug, not its object (reference/api-facts.md F). */
const ConnectionErrorEventData = lazySchema(() =>
  z.object({
    provider: z.string(),
    user_id: uuidString,
    message: z.string(),
    error_type: z.string(),
    error_details: z.string(),
  }),
);

const CriticalResultEventData = lazySchema(() =>
  z.object({
    order_id: uuidString,
    sample_id: z.string().nullable(),
    status: z.string(),
    interpretation: z.string(),
    team_id: uuidString,
    user_id: uuidString,
    created_at: dateTime,
    updated_at: dateTime,
  }),
);

/** `daily.data.<summary>.*` and `historical.data.*`: a summary or a pull's completion. */
const DataEventData = JsonObject;

export const EventEnvelope = lazySchema(() =>
  z.object({
    event_type: z.string(),
    data: z.unknown(),
    team_id: uuidString,
    user_id: uuidString,
    client_user_id: z.string(),
  }),
);

/** The `data` schema of each event type with a dedicated shape. */
const EVENT_DATA = {
  'labtest.order.created': Order,
  'labtest.order.updated': Order,
  'labtest.appointment.created': Appointment,
  'labtest.appointment.updated': Appointment,
  'labtest.result.critical': CriticalResultEventData,
  'labtest.match_review.created': MatchReviewEventData,
  'labtest.match_review.updated': MatchReviewEventData,
  'provider.connection.created': ConnectionEventData,
  'provider.connection.error': ConnectionErrorEventData,
  'lab_report.parsing_job.created': ParsingJob,
  'lab_report.parsing_job.updated': ParsingJob,
} as const;

export type KnownEventType = keyof typeof EVENT_DATA;

/** One row of `continuous_query.result_table.changed`: a query's new result table. */
export interface ResultTableChange {
  query_id: string;
  query_slug: string;
  data: Record<string, unknown>;
}

/** Event types whose `data` is a JSON object without a dedicated schema here. */
type ObjectEventType = `daily.data.${string}` | `historical.data.${string}` | 'provider.device.created' | 'provider.device.updated';

export type EventType = KnownEventType | ObjectEventType | 'continuous_query.result_table.changed';

type DataOf<T extends EventType> = T extends KnownEventType
  ? z.output<(typeof EVENT_DATA)[T]>
  : T extends 'continuous_query.result_table.changed'
    ? ResultTableChange[]
    : Record<string, unknown>;

/**
 * The `data` an emitter hands over for an event of type `T` (the schema's input side, as views
 * build it): `EventBus.emit` takes it, so an emitter with a wrong payload does not compile.
 */
export type EventData<T extends EventType> = T extends KnownEventType
  ? z.input<(typeof EVENT_DATA)[T]>
  : T extends 'continuous_query.result_table.changed'
    ? ResultTableChange[]
    : object;

/** A webhook (or pipeline) event of type `T`: the envelope with its `data` typed. */
export interface WebhookEvent<T extends EventType = EventType> {
  event_type: T;
  data: DataOf<T>;
  team_id: string;
  user_id: string;
  client_user_id: string;
}

/** The schema of the envelope of one event type (tests, documentation). */
export function eventSchema(type: string): z.ZodType {
  const data = (EVENT_DATA as Record<string, z.ZodType>)[type] ?? DataEventData;
  return EventEnvelope.extend({ event_type: z.literal(type), data });
}
