/** Webhook endpoints, their secrets and headers, ETL pipelines, and the control plane's delivery views. */
import { z } from 'zod';
import { lazySchema } from '../engine/lazy-schema.js';
import { dateTime, JsonObject, listOf, uuidString } from './common.js';
import { EventEnvelope } from './events.js';

export const WebhookEndpoint = lazySchema(() =>
  z.object({
    id: z.string(),
    description: z.string(),
    rate_limit: z.number().int().nullable(),
    url: z.string(),
    disabled: z.boolean(),
    filter_types: z.array(z.string()).nullable(),
    created_at: dateTime,
    updated_at: dateTime,
  }),
);

export const WebhookList = lazySchema(() => z.object({ data: z.array(WebhookEndpoint), next_cursor: z.string().nullable() }));
export const WebhookSecret = lazySchema(() => z.object({ key: z.string() }));
export const WebhookHeaders = lazySchema(() => z.object({ headers: z.record(z.string(), z.string()), sensitive: z.array(z.string()) }));

export const Pipeline = lazySchema(() =>
  z.object({
    team_id: uuidString,
    push_historical_data: z.boolean(),
    provider_raw_data: z.boolean(),
    preferences: z.object({ preferred: z.string(), enabled: z.array(z.string()) }),
    cloud_pubsub: JsonObject.nullable(),
    rabbitmq: JsonObject.nullable(),
    svix: JsonObject.nullable(),
    azure_amqp: JsonObject.nullable(),
    event_type_prefixes: z.array(z.string()).nullable(),
  }),
);
export const PipelineList = lazySchema(() => z.object({ pipelines: z.array(Pipeline), next_cursor: z.string().nullable() }));

// ---- control plane views of delivery ----

export const DeliveryAttempt = lazySchema(() =>
  z.object({
    id: z.string(),
    seq: z.number().int(),
    msg_id: z.string(),
    endpoint_id: z.string(),
    team_id: uuidString,
    environment: z.string(),
    event_type: z.string(),
    url: z.string(),
    trigger: z.string(),
    attempt_number: z.number().int(),
    status: z.string(),
    created_at: dateTime,
    timestamp: z.number().int(),
    request: z.object({ method: z.string(), headers: z.record(z.string(), z.string()), body: z.string() }),
    response: z.object({ status_code: z.number().int(), headers: z.record(z.string(), z.string()), body: z.string() }).nullable(),
    error: z.string().nullable(),
    latency_ms: z.number().nullable(),
    next_attempt_at: dateTime.nullable(),
  }),
);

export const DeliveryMessage = lazySchema(() =>
  z.object({
    id: z.string(),
    seq: z.number().int(),
    event_type: z.string(),
    team_id: uuidString,
    environment: z.string(),
    user_id: z.string().nullable(),
    created_at: dateTime,
    payload: EventEnvelope,
    destinations: z.array(
      z.object({
        endpoint_id: z.string(),
        url: z.string().nullable(),
        status: z.string(),
        failure_reason: z.string().nullable(),
        attempts: z.number().int(),
        scheduled_attempts: z.number().int(),
        last_attempt_at: dateTime.nullable(),
        next_attempt_at: dateTime.nullable(),
      }),
    ),
  }),
);

export const ReceiverDelivery = lazySchema(() =>
  z.object({
    seq: z.number().int(),
    received_at: dateTime,
    msg_id: z.string().nullable(),
    event_type: z.string().nullable(),
    headers: z.record(z.string(), z.string()),
    body: z.string(),
    verified: z.boolean().nullable(),
    // Sandbox control plane (no real counterpart): which endpoint's key verified it, and why not.
    endpoint_id: z.string().nullable(),
    verification_error: z.string().nullable(),
    answered_status: z.number().int(),
  }),
);

// The control plane's answers about delivery (`/_sandbox/webhooks/*`, `/_sandbox/receiver/*`),
// named so the control client of `health-sandbox/testing` is typed from them.

export const ControlEndpointList = lazySchema(() =>
  listOf(
    'endpoints',
    WebhookEndpoint.extend({
      team_id: z.string(),
      environment: z.string(),
      whitelabel_headers: z.boolean(),
      signing_keys: z.number().int(),
      failing_since: dateTime.nullable(),
      disabled_reason: z.string().nullable(),
    }),
  ),
);
export const DeliveryMessagePage = lazySchema(() =>
  z.object({ messages: z.array(DeliveryMessage), next_after: z.number().int().nullable() }),
);
export const DeliveryMessageDetail = lazySchema(() => DeliveryMessage.extend({ attempts: z.array(DeliveryAttempt) }));
export const DeliveryAttemptPage = lazySchema(() =>
  z.object({ attempts: z.array(DeliveryAttempt), next_after: z.number().int().nullable() }),
);
/**
 * `attempt` is null when the queued attempt did not run: its endpoint deleted or disabled, or its
 * team deleted, meanwhile, or the attempt failed inside the sandbox.
 */
export const ResendDone = lazySchema(() => z.object({ attempt: DeliveryAttempt.nullable() }));
export const RecoverDone = lazySchema(() => z.object({ recovered: z.number().int(), attempts: z.array(DeliveryAttempt) }));
export const DeliverySettings = lazySchema(() => z.object({ jitter: z.boolean(), retention: z.number().int(), evicted: z.number().int() }));
/** What Svix would tell Vital about an endpoint: failing, exhausted, recovered, disabled. */
export const OperationalEvent = lazySchema(() =>
  z.object({
    seq: z.number().int(),
    type: z.string(),
    at: dateTime,
    team_id: uuidString,
    environment: z.string(),
    endpoint_id: z.string(),
    msg_id: z.string().nullable(),
    detail: z.string(),
  }),
);
export const OperationalEvents = lazySchema(() => listOf('events', OperationalEvent));
/** How the test receiver answers (`PUT /_sandbox/receiver/:name`): any status, any JSON body. */
export const ReceiverConfig = lazySchema(() =>
  z.object({
    status: z.number().int(),
    body: z.unknown(),
    retry_after: z.string().nullable(),
    headers: z.record(z.string(), z.string()),
    times: z.number().int().optional(),
  }),
);
export const ReceiverState = lazySchema(() =>
  z.object({
    name: z.string(),
    url: z.string(),
    config: ReceiverConfig,
    count: z.number().int(),
    deliveries: z.array(ReceiverDelivery),
  }),
);
export const ReceiverConfigured = lazySchema(() => z.object({ name: z.string(), config: ReceiverConfig }));

// The control plane's pipeline streams (`/_sandbox/pipelines/*`).

export const PipelineStreams = lazySchema(() =>
  z.object({
    streams: z.array(z.object({ stream: z.string(), count: z.number().int() })),
    ndjson_file: z.string().nullable(),
    ndjson_error: z.string().nullable(),
  }),
);
/** One record published to a pipeline stream, as the sandbox keeps it. */
export const StreamRecord = lazySchema(() =>
  z.object({
    seq: z.number().int(),
    stream: z.string(),
    destination: z.string(),
    team_id: uuidString,
    environment: z.string(),
    event_type: z.string(),
    user_id: z.string(),
    partition_key: z.string().nullable(),
    routing_key: z.string().nullable(),
    properties: z.record(z.string(), z.string()),
    blob_name: z.string().nullable(),
    compressed: z.boolean(),
    enqueued_at: dateTime,
    body: EventEnvelope,
  }),
);
export const PipelineStreamRecords = lazySchema(() => z.object({ stream: z.string(), records: z.array(StreamRecord) }));
export const PipelineStreamCleared = lazySchema(() => z.object({ stream: z.string(), cleared: z.number().int() }));
export const PipelineStreamsCleared = lazySchema(() => z.object({ cleared: z.number().int() }));
export const PipelineNdjson = lazySchema(() => z.object({ ndjson_file: z.string().nullable() }));
