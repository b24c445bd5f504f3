/** The control plane (`/_sandbox/*`): clock, world, journal, jobs, routes, documents. */
import { z } from 'zod';
import { dateTime, JsonObject, uuidString } from './common.js';
import { EventEnvelope } from './events.js';

export const Health = z.object({ status: z.string() });
export const ClockState = z.object({ now: dateTime, mode: z.string(), scale: z.number() });
export const ResetDone = z.object({ status: z.string(), seed: z.number().int().nullable() });
export const ScenarioLoaded = z.object({ status: z.string(), seed: z.number().int(), now: dateTime });

export const SandboxCredentials = z.object({
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
});

/** @public Read as `typeof W.JournalEntry` by the type modules (src/wire/types.ts, src/testing/types.ts), which knip does not trace. */
export const JournalEntry = z.object({
  seq: z.number().int(),
  occurred_at: dateTime,
  team_id: uuidString,
  environment: z.string(),
  envelope: EventEnvelope,
});
export const JournalPage = z.object({ events: z.array(JournalEntry), total: z.number().int() });
export const JobList = z.object({ jobs: z.array(z.object({ at: dateTime, label: z.string() })), pending: z.number().int() });

export const RouteListing = z.object({
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
});

/** An OpenAPI 3.1 document (checked in full by a real OpenAPI parser in the tests). */
export const OpenApiDocument = z.object({ openapi: z.string(), info: JsonObject, paths: z.record(z.string(), JsonObject) }).loose();

/** A route a request no route matched nearly hit (`GET /_sandbox/requests`, `near_misses`). */
export const NearMiss = z.object({
  route_id: z.string(),
  method: z.string(),
  surface: z.string(),
  path: z.string(),
  kind: z.enum(['method', 'surface', 'version', 'segment']),
  hint: z.string(),
});
const RequestSide = z.object({
  content_type: z.string().nullable(),
  /** The body as text, keys masked (null: not kept, or binary). */
  body: z.string().nullable(),
  body_bytes: z.number().int(),
});
/** @public One request of the request journal (read through src/testing/types.ts). */
export const RequestEntry = z.object({
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
  status: z.number().int(),
  fault_id: z.string().nullable(),
  invalid: z.array(z.array(z.union([z.string(), z.number()]))).nullable(),
  near_misses: z.array(NearMiss).nullable(),
  request: RequestSide.extend({ headers: z.record(z.string(), z.string()) }),
  response: RequestSide,
});
export const RequestPage = z.object({
  requests: z.array(RequestEntry),
  size: z.number().int(),
  recorded: z.number().int(),
  bodies: z.boolean(),
});
