/**
 * The ETL pipeline rules: what an upsert may contain (Azure SAS strings, matchers with exactly
 * one of prefix/regex and one of hub/blob, preferences naming configured destinations), checked
 * for every team before any pipeline is stored.
 */
import type { Environment, Team } from '../../engine/tenancy.js';
import type { World } from '../../engine/world.js';
import { webhooksError, PIPELINE_ERRORS, WEBHOOKS_TEXTS } from './errors.js';
import { pipelinesOf, type AzureAmqp, type BlobStorage, type DestinationKind, type EventHubMatcher, type Pipeline } from './pipelines.js';

/** The upsert body (management OpenAPI `UpsertTeamETLPipelinesBody`), parsed. */
export interface PipelineInput {
  push_historical_data?: boolean | null | undefined;
  provider_raw_data?: boolean | null | undefined;
  preferences?: { preferred: DestinationKind; enabled: DestinationKind[] } | null | undefined;
  cloud_pubsub?: Pipeline['cloud_pubsub'] | undefined;
  rabbitmq?: Pipeline['rabbitmq'] | undefined;
  svix?: { regional: true } | null | undefined;
  azure_amqp?:
    | {
        connection_string: string;
        default_event_hub: string;
        event_hub_matchers: Array<{
          event_type_prefix?: string | null | undefined;
          event_type_regex?: string | null | undefined;
          event_hub?: string | null | undefined;
          blob_storage?: BlobStorage | null | undefined;
        }>;
        compression: 'always' | 'auto';
      }
    | null
    | undefined;
  event_type_prefixes?: string[] | undefined;
}

function checkConnectionString(value: string, loc: Array<string | number>): void {
  if (!/Endpoint=sb:\/\//i.test(value) || !/SharedAccessKeyName=/i.test(value) || !/SharedAccessKey=/i.test(value)) {
    throw webhooksError.invalidField(loc, PIPELINE_ERRORS.sasString, value);
  }
}

function checkMatchers(matchers: EventHubMatcher[]): void {
  matchers.forEach((m, i) => {
    const loc = ['body', 'azure_amqp', 'event_hub_matchers', i];
    const hasPrefix = m.event_type_prefix !== null;
    const hasRegex = m.event_type_regex !== null;
    if (hasPrefix === hasRegex) throw webhooksError.invalidField(loc, PIPELINE_ERRORS.prefixOrRegex, m);
    if (hasPrefix && m.event_type_prefix === '')
      throw webhooksError.invalidField([...loc, 'event_type_prefix'], PIPELINE_ERRORS.prefixEmpty, m.event_type_prefix);
    if (hasRegex) {
      try {
        new RegExp(m.event_type_regex as string);
      } catch (error) {
        throw webhooksError.invalidField(
          [...loc, 'event_type_regex'],
          WEBHOOKS_TEXTS.badRegex((error as Error).message),
          m.event_type_regex,
        );
      }
    }
    if ((m.event_hub !== null) === (m.blob_storage !== null)) throw webhooksError.invalidField(loc, PIPELINE_ERRORS.hubOrBlob, m);
    if (m.event_hub === '') throw webhooksError.invalidField([...loc, 'event_hub'], PIPELINE_ERRORS.hubEmpty, m.event_hub);
  });
}

/** The stored pipeline after applying the body, validated; throws before anything changes. */
function merged(existing: Pipeline | undefined, team: Team, env: Environment, body: PipelineInput): Pipeline {
  let azureConfig: AzureAmqp | null | undefined;
  if (body.azure_amqp === null) azureConfig = null;
  else if (body.azure_amqp !== undefined) {
    checkConnectionString(body.azure_amqp.connection_string, ['body', 'azure_amqp', 'connection_string']);
    if (/EntityPath=/i.test(body.azure_amqp.connection_string)) {
      throw webhooksError.invalidField(
        ['body', 'azure_amqp', 'connection_string'],
        PIPELINE_ERRORS.entityPath,
        body.azure_amqp.connection_string,
      );
    }
    const matchers: EventHubMatcher[] = body.azure_amqp.event_hub_matchers.map((m) => ({
      event_type_prefix: m.event_type_prefix ?? null,
      event_type_regex: m.event_type_regex ?? null,
      event_hub: m.event_hub ?? null,
      blob_storage: m.blob_storage ?? null,
    }));
    checkMatchers(matchers);
    azureConfig = { ...body.azure_amqp, event_hub_matchers: matchers };
  }
  const preferences = body.preferences ?? existing?.preferences;
  if (!preferences) throw webhooksError.invalidField(['body', 'preferences'], PIPELINE_ERRORS.preferencesRequired);
  const next: Pipeline = {
    team_id: team.id,
    environment: env,
    push_historical_data: body.push_historical_data ?? existing?.push_historical_data ?? false,
    provider_raw_data: body.provider_raw_data ?? existing?.provider_raw_data ?? false,
    preferences: { preferred: preferences.preferred, enabled: [...new Set(preferences.enabled)] },
    cloud_pubsub: body.cloud_pubsub === undefined ? (existing?.cloud_pubsub ?? null) : body.cloud_pubsub,
    rabbitmq: body.rabbitmq === undefined ? (existing?.rabbitmq ?? null) : body.rabbitmq,
    svix: body.svix === undefined ? (existing?.svix ?? null) : body.svix === null ? null : { regional: true },
    azure_amqp: azureConfig === undefined ? (existing?.azure_amqp ?? null) : azureConfig,
    event_type_prefixes: body.event_type_prefixes ?? existing?.event_type_prefixes ?? null,
  };
  const { enabled, preferred } = next.preferences;
  if (enabled.length === 0) throw webhooksError.invalidField(['body', 'preferences', 'enabled'], PIPELINE_ERRORS.noneEnabled, enabled);
  if (!enabled.includes(preferred))
    throw webhooksError.invalidField(['body', 'preferences', 'preferred'], PIPELINE_ERRORS.preferredNotEnabled, preferred);
  for (const kind of enabled) {
    if (kind !== 'svix' && next[kind] === null) throw webhooksError.invalidField(['body', kind], WEBHOOKS_TEXTS.enabledNotConfigured(kind));
  }
  return next;
}

/** Creates or updates the pipelines of the teams (all validated before any is stored). */
export function upsertPipelines(world: World, teams: Team[], env: Environment, body: PipelineInput): Pipeline[] {
  const store = pipelinesOf(world);
  const next = teams.map((team) => merged(store.get(team.id, env), team, env, body));
  for (const pipeline of next) store.put(pipeline);
  return next;
}
