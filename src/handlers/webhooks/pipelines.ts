/**
 * Team ETL pipelines (spec 1, changelog Jun/Aug 2024; management OpenAPI
 * `/v1/org/{org_id}/team_etl_pipelines/{env}/{region}`, `UpsertTeamETLPipelinesBody`,
 * `ClientFacingETLPipeline`, `EventDestinationEventHubMatcher`): get, upsert and delete the
 * pipelines of teams. Events then also go to an Azure Event Hubs destination (default hub +
 * ordered matchers by prefix or regex, first match wins), Pub/Sub or RabbitMQ; the sandbox keeps
 * each destination as an inspectable stream (`/_sandbox/pipelines/*`).
 *
 * LIMITATIONS
 * - Nothing leaves the process: streams are in memory (optionally appended as NDJSON to a file
 *   inside the data directory given at start, `--data-dir`, named through the control plane).
 *   Payloads are kept uncompressed; `compressed` and the `content-encoding` property say what
 *   the real destination would get.
 * - `event_type_regex` is checked and run with JavaScript RegExp, not RE2 (RE2-only syntax fails).
 * - The pipeline's `event_type_prefixes` filter its ETL destinations; the team allowlist (team
 *   settings) still applies to everything first.
 * - `preferences.enabled` without `svix` turns webhook delivery off for the team environment.
 * - `push_historical_data` and `provider_raw_data` are stored and returned; they change nothing.
 * - Creating a pipeline needs `preferences` (the response schema requires them); `null` on a
 *   destination removes it, `null` on other fields keeps the stored value.
 * - No pagination: every matching pipeline comes in one page (`next_cursor` null).
 * - Streams keep the most recent `retention` records per team environment
 *   (`PUT /_sandbox/webhooks/settings`, default 5000); the NDJSON file keeps everything.
 * - Deleting a team deletes its pipelines; what they already published stays in the streams.
 */
import { z } from 'zod';
import { ndjsonNameRule, setNdjsonFile } from '../../state/webhooks/rules.js';
import { PIPELINE_ERRORS } from '../../state/webhooks/errors.js';
import {
  clearStreams,
  deletePipelines,
  listPipelines,
  pipelineStreams,
  readStream,
  upsertTeamPipelines,
} from '../../state/webhooks/pipeline-ops.js';
import { requireOrg } from '../../state/management/access.js';
import { defineRoute, reply } from '../../engine/route.js';
import { int, uuid, withRules } from '../../engine/schemas.js';
import { DESTINATIONS, pipelineView } from '../../state/webhooks/pipelines.js';
import {
  Pipeline,
  PipelineList,
  PipelineNdjson,
  PipelineStreamCleared,
  PipelineStreamRecords,
  PipelineStreams,
  PipelineStreamsCleared,
  res,
} from '../../wire/schemas.js';
import { lazySchema } from '../../engine/lazy-schema.js';

const PATH = '/v1/org/:org_id/team_etl_pipelines/:env/:region';
const params = lazySchema(() => z.object({ org_id: uuid(), env: z.enum(['production', 'sandbox']), region: z.enum(['us', 'eu']) }));

const nonEmpty = lazySchema(() => z.string().min(1));
const blobStorage = lazySchema(() => z.object({ connection_string: nonEmpty, container_name: nonEmpty }));
const matcher = lazySchema(() =>
  z.object({
    event_type_prefix: z.string().nullish(),
    event_type_regex: z.string().nullish(),
    event_hub: z.string().nullish(),
    blob_storage: blobStorage.nullish(),
  }),
);
const azure = lazySchema(() =>
  z.object({
    connection_string: nonEmpty,
    default_event_hub: nonEmpty,
    event_hub_matchers: z.array(matcher).default([]),
    compression: z.enum(['always', 'auto']).default('auto'),
  }),
);
const destination = lazySchema(() => z.enum(DESTINATIONS));

const upsertBody = lazySchema(() =>
  z.object({
    team_ids: z.array(uuid()).optional(),
    push_historical_data: z.boolean().nullish(),
    provider_raw_data: z.boolean().nullish(),
    preferences: z.object({ preferred: destination, enabled: z.array(destination) }).nullish(),
    cloud_pubsub: z.object({ project: nonEmpty, topic: nonEmpty, message_ordering: z.boolean() }).nullish(),
    rabbitmq: z.object({ uri: nonEmpty, exchange: nonEmpty }).nullish(),
    svix: z.object({ regional: z.literal(true).default(true) }).nullish(),
    azure_amqp: azure.nullish(),
    event_type_prefixes: z.array(z.string()).optional(),
  }),
);

export const pipelineRoutes = [
  defineRoute({
    id: 'pipelines.get',
    method: 'GET',
    path: PATH,
    auth: 'management',
    summary: 'ETL pipelines of the teams the key may act on in this region (or one team with team_id).',
    request: { params, query: lazySchema(() => z.object({ team_id: uuid().optional(), next_cursor: z.string().optional() })) },
    responses: { 200: res(PipelineList, 'TeamETLPipelinesResponse'), 403: 'Key not allowed', 404: 'Team not found' },
    access: (ctx, p) => requireOrg(ctx, p.org_id),
    handle: (ctx, { params: p, query }) =>
      reply(200, { pipelines: listPipelines(ctx, p.org_id, p.region, p.env, query.team_id).map(pipelineView), next_cursor: null }),
  }),

  defineRoute({
    id: 'pipelines.upsert',
    method: 'POST',
    path: PATH,
    auth: 'management',
    summary: 'Create or update the ETL pipelines of team_ids (all validated before any is stored).',
    request: {
      params,
      body: lazySchema(() =>
        withRules(
          upsertBody,
          (b) => (b.team_ids ?? []).length === 0 && { path: ['team_ids'], message: PIPELINE_ERRORS.noTeams, input: b.team_ids },
        ),
      ),
    },
    responses: {
      200: res(
        lazySchema(() => z.array(Pipeline)),
        'ClientFacingETLPipeline[]',
      ),
      403: 'Key not allowed',
      404: 'Team not found',
      422: 'Validation error',
    },
    access: (ctx, p) => requireOrg(ctx, p.org_id),
    handle: (ctx, { params: p, body }) => reply(200, upsertTeamPipelines(ctx, p.org_id, p.region, p.env, body).map(pipelineView)),
  }),

  defineRoute({
    id: 'pipelines.delete',
    method: 'DELETE',
    path: PATH,
    auth: 'management',
    summary: 'Delete the ETL pipelines of team_id[] (or of every team the key may act on in this region); answers the deleted ones.',
    request: { params, query: lazySchema(() => z.object({ team_id: z.array(uuid()).optional() })) },
    responses: {
      200: res(
        lazySchema(() => z.array(Pipeline)),
        'ClientFacingETLPipeline[]',
      ),
      403: 'Key not allowed',
      404: 'Team not found',
    },
    access: (ctx, p) => requireOrg(ctx, p.org_id),
    handle: (ctx, { params: p, query }) => reply(200, deletePipelines(ctx, p.org_id, p.region, p.env, query.team_id).map(pipelineView)),
  }),
];

// Control plane: the streams the pipelines publish to.

export const pipelineControlRoutes = [
  defineRoute({
    id: 'sandbox.pipelines.streams',
    method: 'GET',
    path: '/_sandbox/pipelines/streams',
    auth: 'control',
    summary: 'Every pipeline stream (event hub name, blob:<container>, pubsub:<project>/<topic>, rabbitmq:<exchange>) with its size.',
    responses: { 200: res(PipelineStreams, 'OK') },
    handle: (ctx) => reply(200, pipelineStreams(ctx.world)),
  }),

  defineRoute({
    id: 'sandbox.pipelines.stream.read',
    method: 'GET',
    path: '/_sandbox/pipelines/streams/:stream',
    auth: 'control',
    summary: 'The records routed to one stream, oldest first (filters team_id, environment; page with after).',
    request: {
      params: lazySchema(() => z.object({ stream: z.string() })),
      query: lazySchema(() =>
        z.object({
          team_id: z.string().optional(),
          environment: z.enum(['sandbox', 'production']).optional(),
          after: int({ min: 0 }).optional(),
          limit: int({ min: 1, max: 10000 }).default(1000),
        }),
      ),
    },
    responses: { 200: res(PipelineStreamRecords, 'OK') },
    handle(ctx, { params: p, query }) {
      const { limit, ...filter } = query;
      const records = readStream(ctx.world, p.stream, filter, limit);
      return reply(200, { stream: p.stream, records });
    },
  }),

  defineRoute({
    id: 'sandbox.pipelines.stream.clear',
    method: 'DELETE',
    path: '/_sandbox/pipelines/streams/:stream',
    auth: 'control',
    summary: 'Empties one stream.',
    request: { params: lazySchema(() => z.object({ stream: z.string() })) },
    responses: { 200: res(PipelineStreamCleared, 'OK') },
    handle(ctx, { params: p }) {
      return reply(200, { stream: p.stream, cleared: clearStreams(ctx.world, p.stream) });
    },
  }),

  defineRoute({
    id: 'sandbox.pipelines.streams.clear',
    method: 'DELETE',
    path: '/_sandbox/pipelines/streams',
    auth: 'control',
    summary: 'Empties every stream.',
    responses: { 200: res(PipelineStreamsCleared, 'OK') },
    handle(ctx) {
      return reply(200, { cleared: clearStreams(ctx.world) });
    },
  }),

  defineRoute({
    id: 'sandbox.pipelines.ndjson',
    method: 'PUT',
    path: '/_sandbox/pipelines/ndjson',
    auth: 'control',
    summary:
      'Also append every stream record as one NDJSON line to a file inside the data directory given at start ({path: "name.ndjson"}); {path: null} turns it off (the default). 409 without a data directory, 422 for a name leaving it, 500 when the file cannot be written.',
    request: { body: lazySchema(() => withRules(z.object({ path: z.string().min(1).nullable() }), ndjsonNameRule)) },
    responses: { 200: res(PipelineNdjson, '{ndjson_file}'), 409: 'No data directory', 422: 'Bad file name', 500: 'File not writable' },
    async handle(ctx, { body }) {
      return reply(200, await setNdjsonFile(ctx.world, body.path));
    },
  }),
];
