/** The control plane (`/_sandbox/*`): clock, world, journal, jobs, routes, documents. */
import { z } from 'zod';
import { lazySchema } from '../engine/lazy-schema.js';
import { dateTime, JsonObject, uuidString } from './common.js';
import { EventEnvelope } from './events.js';

export const Health = lazySchema(() => z.object({ status: z.string() }));
export const ClockState = lazySchema(() => z.object({ now: dateTime, mode: z.string(), scale: z.number() }));
/** `POST /_sandbox/clock/advance`: the clock, what the advance caused, and who makes the wearable feed run. */
export const AdvanceDone = lazySchema(() =>
  ClockState.extend({
    caused: z.object({
      /** Events emitted while the advance ran. */
      events: z.number().int(),
      /** Of those, `daily.data.*` events of the periodic wearable feed. */
      feed_events: z.number().int(),
      /** Webhook delivery attempts made while the advance ran (first attempts and retries). */
      deliveries: z.number().int(),
      /** Demo users expired while the advance ran (deleted with their data 7 days after their first demo connection). */
      expired_users: z.number().int(),
    }),
    feed: z.object({
      mode: z.string(),
      /** Enabled webhook endpoints that take `daily.data.*` (filter_types null: every event type). */
      listeners: z.array(
        z.object({
          endpoint_id: z.string(),
          team_id: uuidString,
          environment: z.string(),
          url: z.string(),
          filter_types: z.array(z.string()).nullable(),
        }),
      ),
      /** Why the feed runs and how to keep time fast (filter_types, or feed off); null when nothing to say. */
      note: z.string().nullable(),
    }),
  }),
);
export const ResetDone = lazySchema(() => z.object({ status: z.string(), seed: z.number().int().nullable() }));
export const ScenarioLoaded = lazySchema(() => z.object({ status: z.string(), seed: z.number().int(), now: dateTime }));

export const SandboxCredentials = lazySchema(() =>
  z.object({
    base_url: z.string(),
    management_url: z.string(),
    org_id: uuidString,
    management_key: z.string(),
    teams: z.array(
      z.object({
        team_id: uuidString,
        name: z.string(),
        region: z.string(),
        api_keys: z.object({ sandbox: z.string(), production: z.string() }),
      }),
    ),
  }),
);

/** @public Read as `typeof W.JournalEntry` by the type modules (src/wire/types.ts, src/testing/types.ts), which knip does not trace. */
export const JournalEntry = lazySchema(() =>
  z.object({
    seq: z.number().int(),
    occurred_at: dateTime,
    team_id: uuidString,
    environment: z.string(),
    envelope: EventEnvelope,
  }),
);
/** `last_seq`: the sequence number of the last event emitted in this world (kept or not, matching or not): a mark to wait from. */
export const JournalPage = lazySchema(() =>
  z.object({
    events: z.array(JournalEntry),
    total: z.number().int(),
    last_seq: z.number().int(),
    notices: z
      .array(
        z.object({
          at: dateTime,
          kind: z.enum(['demo_user_expired']),
          team_id: z.string(),
          environment: z.enum(['sandbox', 'production']),
          user_id: z.string(),
          text: z.string(),
        }),
      )
      .describe('What the sandbox did on its own that no event announces (a demo user expired), oldest first'),
  }),
);
export const JobList = lazySchema(() =>
  z.object({ jobs: z.array(z.object({ at: dateTime, label: z.string() })), pending: z.number().int() }),
);

export const RouteListing = lazySchema(() =>
  z.object({
    routes: z.array(
      z.object({
        id: z.string(),
        method: z.string(),
        surface: z.string(),
        path: z.string(),
        auth: z.string(),
        beta: z.string().nullable(),
        summary: z.string(),
      }),
    ),
  }),
);

/** An OpenAPI 3.1 document (checked in full by a real OpenAPI parser in the tests). */
export const OpenApiDocument = lazySchema(() =>
  z.object({ openapi: z.string(), info: JsonObject, paths: z.record(z.string(), JsonObject) }).loose(),
);

/** One HTTP fault rule (`/_sandbox/faults`): the rule as given, with its counts. */
export const FaultRuleView = lazySchema(() =>
  z.object({
    id: uuidString,
    match: z.object({
      method: z.string().optional(),
      path: z.string().optional(),
      route: z.string().optional(),
      team_id: z.string().optional(),
      environment: z.string().optional(),
    }),
    action: z.object({
      status: z.number().int().optional(),
      headers: z.record(z.string(), z.string()).optional(),
      body: z.unknown().optional(),
      latency_ms: z.union([z.number().int(), z.tuple([z.number().int(), z.number().int()])]).optional(),
      drop: z.literal(true).optional(),
      malformed: z.literal(true).optional(),
    }),
    times: z.number().int().nullable(),
    probability: z.number().nullable(),
    after: z.number().int(),
    remaining: z.number().int().nullable().describe('Faulted answers left before it retires (null: unlimited)'),
    matched: z.number().int().describe('Requests it matched'),
    fired: z.number().int().describe('Answers it faulted'),
  }),
);
export const FaultList = lazySchema(() => z.object({ faults: z.array(FaultRuleView) }));
export const FaultsCleared = lazySchema(() => z.object({ removed: z.number().int() }));

/** `POST /_sandbox/orders/:order_id/fault`. */
export const LabFaultApplied = lazySchema(() =>
  z.object({
    order_id: uuidString,
    fault: z.string(),
    status: z.string().describe('The full status after it'),
  }),
);
/** `POST /_sandbox/providers/:provider/outage`. */
export const ProviderOutage = lazySchema(() =>
  z.object({
    provider: z.string(),
    starts_at: dateTime,
    ends_at: dateTime,
    connections_affected: z.number().int().describe('Connections whose running pulls it caught'),
  }),
);

/** A route a request no route matched nearly hit (`GET /_sandbox/requests`, `near_misses`). */
export const NearMiss = lazySchema(() =>
  z.object({
    route_id: z.string(),
    method: z.string(),
    surface: z.string(),
    path: z.string(),
    kind: z.enum(['method', 'surface', 'version', 'segment']),
    hint: z.string(),
  }),
);
const RequestSide = lazySchema(() =>
  z.object({
    content_type: z.string().nullable(),
    /** The body as text, keys masked (null: not kept, or binary). */
    body: z.string().nullable(),
    body_bytes: z.number().int(),
    body_dropped: z.boolean().describe('The body was kept, then let go to hold the journal within its byte budget'),
    body_omitted: z
      .boolean()
      .describe(
        'The body is kept but this read left it out (a read renders at most 256 KiB of bodies, newest first): read with since or a smaller limit',
      ),
  }),
);
/** @public One request of the request journal (read through src/testing/types.ts). */
export const RequestEntry = lazySchema(() =>
  z.object({
    id: z.string(),
    seq: z.number().int(),
    sandbox_time: dateTime,
    wall_time: dateTime,
    duration_ms: z.number(),
    method: z.string(),
    surface: z.string(),
    path: z.string(),
    query: z.string(),
    route_id: z.string().nullable(),
    team_id: z.string().nullable(),
    environment: z.string().nullable(),
    status: z.number().int().nullable().describe('The status sent; null when a fault dropped the connection'),
    dropped: z.boolean().describe('A fault closed the connection with no answer'),
    fault_id: z.string().nullable(),
    fault: z
      .object({
        id: z.string(),
        rule: z.string().describe('The rule in words (readable after it retired)'),
        action: z.enum(['status', 'latency', 'drop', 'malformed']),
        status: z.number().int().nullable().describe('The status the fault sent (status, malformed)'),
        latency_ms: z.number().nullable().describe('The wait the client saw, measured by the adapter that waited (null until it answered)'),
        planned_latency_ms: z.number().nullable().describe('The wait the rule drew'),
      })
      .nullable(),
    invalid: z.array(z.array(z.union([z.string(), z.number()]))).nullable(),
    near_misses: z.array(NearMiss).nullable(),
    request: RequestSide.extend({ headers: z.record(z.string(), z.string()) }),
    response: RequestSide,
  }),
);
export const RequestPage = lazySchema(() =>
  z.object({
    requests: z.array(RequestEntry),
    size: z.number().int(),
    recorded: z.number().int(),
    bodies: z.boolean(),
  }),
);

/** A saved world in memory (`/_sandbox/snapshots`). */
export const SnapshotInfo = lazySchema(() =>
  z.object({ name: z.string(), now: dateTime, seed: z.number().int(), inputs: z.number().int() }),
);
export const SnapshotList = lazySchema(() => z.object({ snapshots: z.array(SnapshotInfo) }));
/** The world now served after a restore or an import. */
export const WorldRestored = lazySchema(() => z.object({ status: z.string(), seed: z.number().int(), now: dateTime }));
/** A whole world as one document (docs/simulated/engine.md "Worlds that last"). */
export const WorldDocument = lazySchema(() =>
  z.object({
    format: z.string(),
    version: z.number().int(),
    build: JsonObject,
    /** Version 3: the world's state when it was saved (`form`, and the state in engine/world-codec.ts's form). */
    state: z.object({ form: z.number().int(), state: z.unknown() }).optional(),
    log: z.array(JsonObject),
    /** What stores that change on unlogged requests saved (fault rules), by store key. */
    stores: JsonObject.optional(),
  }),
);
