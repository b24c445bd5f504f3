/**
 * Team ETL pipelines (spec 1; management OpenAPI `UpsertTeamETLPipelinesBody`,
 * `ClientFacingETLPipeline`; `../shared/reference/webhooks.md` section 4). A pipeline routes a
 * team environment's events to Azure Event Hubs (default hub + ordered matchers, first match
 * wins; a matcher may target Blob Storage instead), Cloud Pub/Sub or RabbitMQ. In the sandbox
 * every destination is an in-memory stream of what would have been published, optionally
 * appended as NDJSON to a file. `preferences.enabled` without `svix` turns webhooks off.
 */
import type { EventEnvelope, JournalEntry } from '../../engine/events.js';
import { stableToken } from '../../engine/ids.js';
import type { Environment, Partition } from '../../engine/tenancy.js';
import { DEFAULT_RETENTION } from './webhooks.js';
import { worldSlot, type World } from '../../engine/world.js';
import { utf8Length } from '../../engine/bytes.js';
import { webhookOptionsOf } from './options.js';
import { dataClass } from '../../engine/world-codec.js';

export const DESTINATIONS = ['cloud_pubsub', 'rabbitmq', 'svix', 'azure_amqp'] as const;
export type DestinationKind = (typeof DESTINATIONS)[number];
/** Payloads this large or larger are gzipped in `auto` mode. */
const COMPRESSION_THRESHOLD_BYTES = 1024;

export interface BlobStorage {
  connection_string: string;
  container_name: string;
}

export interface EventHubMatcher {
  event_type_prefix: string | null;
  event_type_regex: string | null;
  event_hub: string | null;
  blob_storage: BlobStorage | null;
}

export interface AzureAmqp {
  connection_string: string;
  default_event_hub: string;
  event_hub_matchers: EventHubMatcher[];
  compression: 'always' | 'auto';
}

export interface Pipeline {
  team_id: string;
  environment: Environment;
  push_historical_data: boolean;
  provider_raw_data: boolean;
  preferences: { preferred: DestinationKind; enabled: DestinationKind[] };
  cloud_pubsub: { project: string; topic: string; message_ordering: boolean } | null;
  rabbitmq: { uri: string; exchange: string } | null;
  svix: { regional: true } | null;
  azure_amqp: AzureAmqp | null;
  event_type_prefixes: string[] | null;
}

/** One published message as the sandbox keeps it. */
export interface StreamRecord {
  seq: number;
  stream: string;
  destination: Exclude<DestinationKind, 'svix'>;
  team_id: string;
  environment: Environment;
  event_type: string;
  user_id: string;
  /** Event Hubs partition key / Pub/Sub ordering key (the user id), or null. */
  partition_key: string | null;
  /** RabbitMQ routing key (the event type), or null. */
  routing_key: string | null;
  /** Message properties / attributes / headers as the real destination receives them. */
  properties: Record<string, string>;
  /** Blob Storage destinations: the blob name. */
  blob_name: string | null;
  /** Whether the real payload would be gzipped (the sandbox keeps it readable). */
  compressed: boolean;
  enqueued_at: string;
  /** The event envelope (the same JSON a webhook carries). */
  body: EventEnvelope;
}

export function pipelineView(p: Pipeline) {
  return {
    team_id: p.team_id,
    push_historical_data: p.push_historical_data,
    provider_raw_data: p.provider_raw_data,
    preferences: { preferred: p.preferences.preferred, enabled: [...p.preferences.enabled] },
    cloud_pubsub: p.cloud_pubsub ? { ...p.cloud_pubsub } : null,
    rabbitmq: p.rabbitmq ? { ...p.rabbitmq } : null,
    svix: p.svix ? { ...p.svix } : null,
    azure_amqp: p.azure_amqp
      ? {
          connection_string: p.azure_amqp.connection_string,
          default_event_hub: p.azure_amqp.default_event_hub,
          event_hub_matchers: p.azure_amqp.event_hub_matchers.map((m) => ({
            event_type_prefix: m.event_type_prefix,
            event_type_regex: m.event_type_regex,
            event_hub: m.event_hub,
            blob_storage: m.blob_storage ? { ...m.blob_storage } : null,
          })),
          compression: p.azure_amqp.compression,
        }
      : null,
    event_type_prefixes: p.event_type_prefixes === null ? null : [...p.event_type_prefixes],
  };
}

/** Where an event goes under an Azure config: the first matching matcher, else the default hub. */
function routeAzure(config: AzureAmqp, eventType: string, regexes: ReadonlyArray<RegExp | null>): { hub: string } | { blob: BlobStorage } {
  for (let i = 0; i < config.event_hub_matchers.length; i++) {
    const m = config.event_hub_matchers[i] as EventHubMatcher;
    const re = regexes[i] ?? null;
    const hit = m.event_type_prefix !== null ? eventType.startsWith(m.event_type_prefix) : re?.test(eventType);
    if (!hit) continue;
    if (m.blob_storage) return { blob: m.blob_storage };
    if (m.event_hub !== null) return { hub: m.event_hub };
  }
  return { hub: config.default_event_hub };
}

class PipelineStore {
  private readonly pipelines = new Map<string, { pipeline: Pipeline; regexes: Array<RegExp | null> }>();
  /** Stream name -> its retained records in publication order. */
  private readonly streams = new Map<string, Set<StreamRecord>>();
  /** Team environment -> its retained records in publication order, over every stream (retention). */
  private readonly byPartition = new Map<string, Set<StreamRecord>>();
  private seq = 0;
  /** Records kept per team environment over all streams; older ones are dropped (the NDJSON file keeps everything). */
  private retentionLimit = DEFAULT_RETENTION;
  /** NDJSON file (a name inside the data directory) every stream record is appended to, or null (the default). */
  ndjsonFile: string | null = null;
  /** The last failed append to the NDJSON file (reported by the control plane), or null. */
  ndjsonError: string | null = null;
  private fileTail: Promise<void> = Promise.resolve();

  /** A store loaded from a saved world writes its file lines from a fresh chain (nothing is in flight then). */
  startFileTail(): void {
    this.fileTail = Promise.resolve();
  }

  constructor(private readonly world: World) {}

  private key(teamId: string, environment: Environment): string {
    return `${teamId}:${environment}`;
  }

  get(teamId: string, environment: Environment): Pipeline | undefined {
    return this.pipelines.get(this.key(teamId, environment))?.pipeline;
  }

  /** Stores a validated pipeline (regexes already checked to compile). */
  put(pipeline: Pipeline): void {
    const regexes = (pipeline.azure_amqp?.event_hub_matchers ?? []).map((m) =>
      m.event_type_regex !== null ? new RegExp(m.event_type_regex) : null,
    );
    this.pipelines.set(this.key(pipeline.team_id, pipeline.environment), { pipeline, regexes });
  }

  delete(teamId: string, environment: Environment): Pipeline | undefined {
    const k = this.key(teamId, environment);
    const found = this.pipelines.get(k);
    this.pipelines.delete(k);
    return found?.pipeline;
  }

  /** Webhooks (Svix) stay on unless a pipeline's preferences leave `svix` out. */
  svixEnabled(teamId: string, environment: Environment): boolean {
    const p = this.get(teamId, environment);
    return p === undefined || p.preferences.enabled.includes('svix');
  }

  /** Whether this team environment's pipeline takes some event whose type starts with `prefix`. */
  listens(partition: Partition, prefix: string): boolean {
    const found = this.pipelines.get(this.key(partition.team.id, partition.environment));
    if (!found?.pipeline.preferences.enabled.some((k) => k !== 'svix')) return false;
    const prefixes = found.pipeline.event_type_prefixes;
    return !prefixes || prefixes.length === 0 || prefixes.some((p) => p.startsWith(prefix) || prefix.startsWith(p));
  }

  onEvent(entry: JournalEntry, partition: Partition): void {
    const found = this.pipelines.get(this.key(partition.team.id, partition.environment));
    if (!found) return;
    const { pipeline, regexes } = found;
    const type = entry.envelope.event_type;
    const prefixes = pipeline.event_type_prefixes;
    if (prefixes && prefixes.length > 0 && !prefixes.some((p) => type.startsWith(p))) return;
    const body = JSON.stringify(entry.envelope);
    const size = utf8Length(body);
    const auto = size >= COMPRESSION_THRESHOLD_BYTES;
    const idempotencyKey = stableToken(22, this.world.seed, 'etl-idempotency', partition.id, entry.seq);
    const base = {
      team_id: partition.team.id,
      environment: partition.environment,
      event_type: type,
      user_id: entry.envelope.user_id,
      enqueued_at: entry.occurred_at,
      body: entry.envelope,
    };
    for (const kind of pipeline.preferences.enabled) {
      if (kind === 'azure_amqp' && pipeline.azure_amqp) {
        const config = pipeline.azure_amqp;
        const compressed = config.compression === 'always' || auto;
        const route = routeAzure(config, type, regexes);
        const properties: Record<string, string> = {
          'event-type': type,
          'user-id': base.user_id,
          'team-id': base.team_id,
          'idempotency-key': idempotencyKey,
        };
        if (compressed) properties['content-encoding'] = 'gzip';
        if ('hub' in route) {
          this.push({
            ...base,
            stream: route.hub,
            destination: 'azure_amqp',
            partition_key: base.user_id,
            routing_key: null,
            properties,
            blob_name: null,
            compressed,
          });
        } else {
          const blobName = `${base.team_id}/${base.user_id}/${entry.occurred_at}#${type}#${idempotencyKey}.json${compressed ? '.gz' : ''}`;
          this.push({
            ...base,
            stream: `blob:${route.blob.container_name}`,
            destination: 'azure_amqp',
            partition_key: null,
            routing_key: null,
            properties,
            blob_name: blobName,
            compressed,
          });
        }
      } else if (kind === 'cloud_pubsub' && pipeline.cloud_pubsub) {
        const c = pipeline.cloud_pubsub;
        const properties: Record<string, string> = { 'event-type': type, 'blob-type': 'json', 'idempotency-key': idempotencyKey };
        if (auto) properties['blob-codec'] = 'gzip';
        this.push({
          ...base,
          stream: `pubsub:${c.project}/${c.topic}`,
          destination: 'cloud_pubsub',
          partition_key: c.message_ordering ? base.user_id : null,
          routing_key: null,
          properties,
          blob_name: null,
          compressed: auto,
        });
      } else if (kind === 'rabbitmq' && pipeline.rabbitmq) {
        const properties: Record<string, string> = { 'Content-Type': 'application/json', 'idempotency-key': idempotencyKey };
        if (auto) properties['Content-Encoding'] = 'gzip';
        this.push({
          ...base,
          stream: `rabbitmq:${pipeline.rabbitmq.exchange}`,
          destination: 'rabbitmq',
          partition_key: null,
          routing_key: type,
          properties,
          blob_name: null,
          compressed: auto,
        });
      }
    }
  }

  get retention(): number {
    return this.retentionLimit;
  }

  /** Changes the retention and applies it at once. */
  setRetention(limit: number): void {
    this.retentionLimit = limit;
    for (const key of [...this.byPartition.keys()]) this.prune(key);
  }

  /** Drops the oldest records of a team environment beyond the retention. */
  private prune(partitionKey: string): void {
    const mine = this.byPartition.get(partitionKey);
    if (!mine) return;
    for (const r of mine) {
      if (mine.size <= this.retentionLimit) break;
      mine.delete(r);
      const stream = this.streams.get(r.stream);
      stream?.delete(r);
      if (stream?.size === 0) this.streams.delete(r.stream);
    }
    if (mine.size === 0) this.byPartition.delete(partitionKey);
  }

  private push(record: Omit<StreamRecord, 'seq'>): void {
    const full: StreamRecord = { seq: ++this.seq, ...record };
    let list = this.streams.get(full.stream);
    if (!list) this.streams.set(full.stream, (list = new Set()));
    list.add(full);
    const partitionKey = this.key(full.team_id, full.environment);
    let mine = this.byPartition.get(partitionKey);
    if (!mine) this.byPartition.set(partitionKey, (mine = new Set()));
    mine.add(full);
    this.prune(partitionKey);
    const name = this.ndjsonFile;
    const sink = webhookOptionsOf(this.world).fileSink;
    if (name !== null && sink !== null) {
      const line = `${JSON.stringify(full)}\n`;
      const write = this.fileTail.then(() => sink.append(name, line));
      this.fileTail = write.then(
        () => undefined,
        (error: unknown) => {
          // Reported once per failure streak, and by GET /_sandbox/pipelines/streams.
          if (this.ndjsonError === null) this.world.log(`Cannot append to the NDJSON file ${name}`, error);
          this.ndjsonError = errorText(error);
        },
      );
      this.world.track(this.fileTail);
    }
  }

  /** Canonical state for world snapshots. */
  toJSON(): unknown {
    return {
      pipelines: [...this.pipelines.values()].map((p) => p.pipeline),
      streams: [...this.streams.entries()].map(([name, list]) => [name, [...list]]),
      ndjson_file: this.ndjsonFile,
    };
  }

  /** Every stream with its size, by name. */
  streamNames(): Array<{ stream: string; count: number }> {
    return [...this.streams.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([stream, list]) => ({ stream, count: list.size }));
  }

  read(stream: string, filter: { team_id?: string; environment?: string; after?: number }, limit: number): StreamRecord[] {
    const out: StreamRecord[] = [];
    for (const r of this.streams.get(stream) ?? []) {
      if (out.length >= limit) break;
      if (filter.after !== undefined && r.seq <= filter.after) continue;
      if (filter.team_id !== undefined && r.team_id !== filter.team_id) continue;
      if (filter.environment !== undefined && r.environment !== filter.environment) continue;
      out.push(r);
    }
    return out;
  }

  /** Empties one stream (or all when `stream` is undefined); answers how many records went. */
  clear(stream?: string): number {
    if (stream === undefined) {
      let n = 0;
      for (const list of this.streams.values()) n += list.size;
      this.streams.clear();
      this.byPartition.clear();
      return n;
    }
    const list = this.streams.get(stream);
    if (!list) return 0;
    for (const r of list) {
      const key = this.key(r.team_id, r.environment);
      const mine = this.byPartition.get(key);
      mine?.delete(r);
      if (mine?.size === 0) this.byPartition.delete(key);
    }
    this.streams.delete(stream);
    return list.size;
  }

  /** Drops the pipelines of a deleted team (what they already published stays readable). */
  dropTeam(teamId: string): void {
    for (const env of ['sandbox', 'production'] as const) this.pipelines.delete(this.key(teamId, env));
  }
}
dataClass('PipelineStore', PipelineStore, { skip: ['fileTail'], revive: (store) => store.startFileTail() });

export const pipelinesOf = worldSlot('pipelines', (world) => new PipelineStore(world));

/** A short description of a file error (its code when it has one, never a stack). */
export function errorText(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'code' in error && typeof (error as { code: unknown }).code === 'string')
    return (error as { code: string }).code;
  return error instanceof Error ? error.message : String(error);
}
