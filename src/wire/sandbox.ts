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

/** A saved world in memory (`/_sandbox/snapshots`). */
export const SnapshotInfo = z.object({ name: z.string(), now: dateTime, seed: z.number().int(), inputs: z.number().int() });
export const SnapshotList = z.object({ snapshots: z.array(SnapshotInfo) });
/** The world now served after a restore or an import. */
export const WorldRestored = z.object({ status: z.string(), seed: z.number().int(), now: dateTime });
/** A whole world as one document (docs/simulated/engine.md "Worlds that last"). */
export const WorldDocument = z.object({ format: z.string(), version: z.number().int(), build: JsonObject, log: z.array(JsonObject) });
