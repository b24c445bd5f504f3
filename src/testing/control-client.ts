/**
 * The typed control client of `health-sandbox/testing`: one interface over the control plane
 * (`/_sandbox/*`), whether the sandbox runs in this process or in a CLI server elsewhere. It
 * only sends requests the control plane serves; every answer is the control plane's own.
 */
import type { Duration } from '../engine/duration.js';
import type { ScenarioInput } from '../scenario/schema.js';
import { requestControls, type RequestControls } from './control-requests.js';
import type { ERROR_TYPES } from '../state/wearables/connections.js';
import type { PULL_ERROR_DETAILS, PULL_OUTCOMES } from '../state/wearables/operations.js';
import {
  labControls,
  queryOf,
  seg,
  webhookControls,
  type AttemptFilter,
  type LabControls,
  type WebhookControls,
} from './control-groups.js';
import {
  ehrControls,
  orgControls,
  pipelineControls,
  teamControls,
  type EhrControls,
  type OrgControls,
  type PipelineControls,
  type TeamControls,
} from './control-org.js';
import { faultControls, type FaultControls } from './control-faults.js';
import type {
  AdvanceDone,
  ClockView,
  Connection,
  CertifyResult,
  Credentials,
  DeliveryAttemptPage,
  FeedState,
  Health,
  HealthSdkSettings,
  HistoricalPullForced,
  IntegrationReport,
  JobList,
  JournalEntry,
  OpenApiDocument,
  ReceiverConfigured,
  ReceiverDelivery,
  ReceiverState,
  ResetDone,
  RouteListing,
  ScenarioLoaded,
  SnapshotInfo,
  WorldDocument,
  WorldRestored,
} from './types.js';

/** Sends one control-plane request; answers status and parsed JSON. */
export type ControlTransport = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: unknown }>;

/** Which journal entries `events()` answers (`GET /_sandbox/events`). */
export interface EventQuery {
  team_id?: string;
  environment?: 'sandbox' | 'production';
  event_type?: string;
  event_type_prefix?: string;
  user_id?: string;
  /** Only entries after this sequence number. */
  after_seq?: number;
  /** 1 to 10000 (default 1000). */
  limit?: number;
}

/**
 * Where a wait starts looking in the event journal:
 * - `'test'` (the default): every event since the start of the test, that is since this client's
 *   last `reset()` or `beginTest()` (for a new client, since the world began; a world reset
 *   elsewhere meanwhile counts from that reset). "Make the request, then wait" finds the event the
 *   request emitted.
 * - a sequence number (from `mark()`, or an entry's `seq`): only events after it;
 * - `'now'`: only events emitted after the wait begins.
 */
export type Since = 'test' | 'now' | number;

/** What a test receiver answers (`PUT /_sandbox/receiver/:name`). */
export interface ReceiverAnswer {
  /** 200 to 599. */
  status: number;
  body?: unknown;
  retry_after?: number | string | null;
  headers?: Record<string, string>;
  /** Answer this for the next N deliveries only, then 200 again (fails N times, then succeeds). */
  times?: number;
}

export interface ReceiverHandle {
  name: string;
  /** The URL to give a webhook endpoint. */
  url: string;
  /** Deliveries received so far (after the given seq), each with whether its signature verified. */
  deliveries(after?: number): Promise<ReceiverDelivery[]>;
  /** Its name, URL, configuration, count and deliveries. */
  state(after?: number): Promise<ReceiverState>;
  /**
   * What it answers: e.g. `{ status: 500 }` to fail, `{ status: 429, retry_after: 60 }`;
   * `times: N` answers that for the next N deliveries only, then 200 again (fails N times, then succeeds).
   */
  answer(config: ReceiverAnswer): Promise<ReceiverConfigured>;
  /** Forgets its deliveries and answers 200 again. */
  clear(): Promise<void>;
}

/** Forces the outcome of a connection's historical pulls (`POST /_sandbox/historical_pulls/...`). */
export interface PullOutcome {
  outcome: (typeof PULL_OUTCOMES)[number];
  /** The resources it applies to (default: every resource of the provider). */
  resources?: string[];
  /** Why a failure failed (`retry_quota_exhausted`, ...). */
  error_details?: (typeof PULL_ERROR_DETAILS)[number];
  finish_in_seconds?: number;
}

export class ControlError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    what: string,
  ) {
    super(`${what} answered ${status}: ${JSON.stringify(body)}`);
    this.name = 'ControlError';
  }
}

/**
 * The control client. Every method is async and answers the control route's own answer, typed
 * from the route's schema; bad input (a negative duration, an unknown user) is a rejected promise
 * with a ControlError carrying the control plane's 4xx, never a synchronous throw.
 */
export class SandboxControl {
  /** Lab controls: `lifecycle()`, `scenarios()`. */
  readonly labs: LabControls;
  /** Webhook delivery controls: endpoints, messages, attempts, resend, recover, settings, operational events. */
  readonly webhooks: WebhookControls;
  /** The ETL pipelines' streams: `streams()`, `records(stream)`, `clear(stream)`, `clearAll()`, `ndjson(path)`. */
  readonly pipelines: PipelineControls;
  /** Orgs and plans: `list()`, `create()`, `get(id)`, `setPlan(id, plan)`, `acceptInvite(...)`, `mail(id)`. */
  readonly orgs: OrgControls;
  /** Teams' closed-beta features: `betaFeatures(teamId)`, `setBetaFeatures(teamId, features)`. */
  readonly teams: TeamControls;
  /** EHR: `dashboard(token)`, `deliveries(teamId, environment)`. */
  readonly ehr: EhrControls;
  /** Faults: HTTP rules (`add`, `list`, `remove`, `clear`) and domain faults (`order`, `outage`). */
  readonly faults: FaultControls;

  /** The request journal: `list(filter)`, `page(filter)`, `expect(match)` (throws listing the closest requests). */
  readonly requests: RequestControls;

  constructor(
    private readonly send: ControlTransport,
    /** The sandbox's base URL (data API); the management API is at `<url>/management`. */
    readonly url: string,
  ) {
    const request = <T>(method: string, path: string, body?: unknown) => this.request<T>(method, path, body);
    this.labs = labControls(request);
    this.webhooks = webhookControls(request);
    this.pipelines = pipelineControls(request);
    this.orgs = orgControls(request);
    this.teams = teamControls(request);
    this.ehr = ehrControls(request);
    this.faults = faultControls(request);

    this.requests = requestControls(request);
  }

  /** The journal mark `since: 'test'` counts from (see `beginTest`). */
  private origin = 0;

  get managementUrl(): string {
    return `${this.url}/management`;
  }

  /** The inspector page (`/_sandbox/ui`) to open in a browser: requests, users, orders, webhooks, events, clock. */
  get inspectorUrl(): string {
    return `${this.url}/_sandbox/ui`;
  }

  /** Any control-plane request: answers the parsed body or rejects with a ControlError (3xx to 5xx). */
  async request<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await this.send(method, path, body);
    if (res.status >= 300) throw new ControlError(res.status, res.body, `${method} ${path}`);
    return res.body as T;
  }

  /** Base URL, management URL, org id, management key and each team's keys (first team first). */
  async credentials(): Promise<Credentials> {
    return this.request('GET', '/_sandbox/credentials');
  }

  async clock(): Promise<ClockView> {
    return this.request('GET', '/_sandbox/clock');
  }

  /**
   * Moves the clock: seconds, `'90s'`, `'15m'`, `'2h'`, `'3d'` or ISO 8601 (`'P1DT2H'`). The
   * control plane checks it: a bad one (negative, unknown form, over 366 days) rejects with a 422.
   */
  async advance(duration: Duration): Promise<AdvanceDone> {
    return this.request('POST', '/_sandbox/clock/advance', typeof duration === 'number' ? { seconds: duration } : { duration });
  }

  /** A fresh world (same options and scenario), optionally with another seed. */
  async reset(options: { seed?: number } = {}): Promise<ResetDone> {
    const done = await this.request<ResetDone>('POST', '/_sandbox/reset', options?.seed === undefined ? {} : { seed: options.seed });
    this.origin = 0;
    return done;
  }

  /** The sequence number of the last event emitted so far (0 in a new world): pass it as `since` to wait for what follows. */
  async mark(): Promise<number> {
    return (await this.request<{ last_seq: number }>('GET', '/_sandbox/events?limit=1')).last_seq;
  }

  /**
   * Marks the start of a test without resetting the world (tests sharing a server): waits with
   * `since: 'test'` then look at events from here on. Answers the mark.
   */
  async beginTest(): Promise<number> {
    this.origin = await this.mark();
    return this.origin;
  }

  /** Replaces the world with one built from a scenario (kept across resets); `null` drops it. */
  async loadScenario(scenario: ScenarioInput | null): Promise<ScenarioLoaded> {
    return scenario === null ? this.request('DELETE', '/_sandbox/scenario') : this.request('PUT', '/_sandbox/scenario', scenario);
  }

  /** What the client's code exercised since the last reset (`GET /_sandbox/report`; fields in docs/testing.md). */
  async report(): Promise<IntegrationReport> {
    return this.request('GET', '/_sandbox/report');
  }

  /** The same report in markdown, for a CI job summary (`GET /_sandbox/report?format=md`). */
  async reportMarkdown(): Promise<string> {
    return this.request('GET', '/_sandbox/report?format=md');
  }

  /**
   * Certifies a webhook receiver (`POST /_sandbox/receivers/certify`): signed, badly signed,
   * stale, rotated, redelivered, unknown and out-of-order deliveries to `url`, signed with
   * `secret`. Answers every check; `passed` is true when all passed.
   */
  async certifyReceiver(url: string, secret: string): Promise<CertifyResult> {
    return this.request('POST', '/_sandbox/receivers/certify', { url, secret });
  }

  /** Saves the whole world in memory under a name (`POST /_sandbox/snapshots`). */
  async snapshot(name: string): Promise<SnapshotInfo> {
    return this.request('POST', '/_sandbox/snapshots', { name });
  }

  /** Rewinds the world to a snapshot: clock, pending jobs and deliveries included. */
  async restore(name: string): Promise<WorldRestored> {
    return this.request('POST', `/_sandbox/snapshots/${seg(name)}/restore`);
  }

  /** The snapshots kept, oldest first. */
  async snapshots(): Promise<SnapshotInfo[]> {
    return (await this.request<{ snapshots: SnapshotInfo[] }>('GET', '/_sandbox/snapshots')).snapshots;
  }

  /** Drops a snapshot. */
  async deleteSnapshot(name: string): Promise<void> {
    await this.request('DELETE', `/_sandbox/snapshots/${seg(name)}`);
  }

  /** The whole world as one document (keys and secrets included): check it in, import it, fork from it. */
  async exportWorld(): Promise<WorldDocument> {
    return this.request('GET', '/_sandbox/world');
  }

  /** Replaces the world with a saved one (its seed and keys win). */
  async importWorld(doc: WorldDocument): Promise<WorldRestored> {
    return this.request('PUT', '/_sandbox/world', doc);
  }

  /** Journal entries, oldest first. */
  async events(filter: EventQuery = {}): Promise<JournalEntry[]> {
    return (await this.request<{ events: JournalEntry[] }>('GET', `/_sandbox/events${queryOf(filter)}`)).events;
  }

  /**
   * Waits for an event matching the predicate and answers it. Looks at the events `since` a
   * mark (default `'test'`: every event since this client's last `reset()` or `beginTest()`, so
   * an event the request before the wait emitted is found at once), every `interval` ms (50)
   * until `timeout` ms (5000). For realtime clocks and events caused elsewhere; with a manual
   * clock, `advance` answers once what it caused is done, and `events()` reads it.
   */
  async waitForEvent(
    predicate: (entry: JournalEntry) => boolean,
    options: { since?: Since; timeout?: number; interval?: number; filter?: Omit<EventQuery, 'after_seq' | 'limit'> } = {},
  ): Promise<JournalEntry> {
    const timeout = options.timeout ?? 5000;
    const interval = options.interval ?? 50;
    const deadline = Date.now() + timeout;
    const since = options.since ?? 'test';
    const last = await this.mark();
    // A mark beyond the last event is from before a reset: the new world counts from its start.
    let after = since === 'now' ? last : Math.max(0, since === 'test' ? this.origin : since);
    if (after > last) after = 0;
    for (;;) {
      const batch = await this.events({ ...options.filter, after_seq: after, limit: 10000 });
      for (const e of batch) {
        if (predicate(e)) return e;
        after = e.seq;
      }
      if (Date.now() >= deadline)
        throw new Error(
          `No matching event within ${timeout} ms (since ${since === 'test' ? 'the start of the test' : since === 'now' ? 'the wait began' : `seq ${since}`})`,
        );
      await new Promise((r) => setTimeout(r, Math.min(interval, Math.max(1, deadline - Date.now()))));
    }
  }

  /** Pending scheduled jobs, soonest first. */
  async jobs(limit?: number): Promise<JobList> {
    return this.request('GET', `/_sandbox/jobs${queryOf({ limit })}`);
  }

  /** Liveness: `{status: 'ok'}`. */
  async health(): Promise<Health> {
    return this.request('GET', '/_sandbox/health');
  }

  /** The OpenAPI 3.1 document of the control plane. */
  async openapi(): Promise<OpenApiDocument> {
    return this.request('GET', '/_sandbox/openapi.json');
  }

  /** Every route the sandbox serves. */
  async routes(): Promise<RouteListing> {
    return this.request('GET', '/_sandbox/routes');
  }

  /** The built-in test receiver of that name. */
  receiver(name: string): ReceiverHandle {
    const path = `/_sandbox/receiver/${seg(name)}`;
    const state = async (after?: number): Promise<ReceiverState> => this.request('GET', `${path}${queryOf({ after })}`);
    return {
      name,
      url: `${this.url}${path}`,
      state,
      deliveries: async (after) => (await state(after)).deliveries,
      answer: async (config) => this.request('PUT', path, config),
      clear: async () => {
        await this.request('DELETE', path);
      },
    };
  }

  /** The periodic wearable feed: `auto` (only where someone listens), `on` or `off`. */
  async feed(mode: 'auto' | 'on' | 'off'): Promise<FeedState> {
    return this.request('POST', '/_sandbox/wearables/feed', { mode });
  }

  /** The periodic wearable feed's state. */
  async feedState(): Promise<FeedState> {
    return this.request('GET', '/_sandbox/wearables/feed');
  }

  /**
   * Sets the Health SDK's connection policy (sandbox-wide, one team, or one team environment):
   * `explicit` makes deregistering Apple HealthKit, Health Connect or Samsung Health remove the connection.
   */
  async healthSdk(body: {
    connection_policy: 'auto' | 'explicit';
    team_id?: string;
    environment?: 'sandbox' | 'production';
  }): Promise<HealthSdkSettings> {
    return this.request('POST', '/_sandbox/wearables/health-sdk', body);
  }

  /** The Health SDK's connection policies. */
  async healthSdkState(): Promise<HealthSdkSettings> {
    return this.request('GET', '/_sandbox/wearables/health-sdk');
  }

  /** Puts a connection into error (emits provider.connection.error); answers the connection. */
  async connectionError(
    userId: string,
    provider: string,
    body: { error_type?: (typeof ERROR_TYPES)[number]; message?: string } = {},
  ): Promise<Connection> {
    return this.request('POST', `/_sandbox/connections/${seg(userId)}/${seg(provider)}/error`, body);
  }

  /** Brings an errored connection back (emits provider.connection.created); answers the connection. */
  async reconnect(userId: string, provider: string): Promise<Connection> {
    return this.request('POST', `/_sandbox/connections/${seg(userId)}/${seg(provider)}/reconnect`);
  }

  /** Forces historical-pull outcomes of a connection (its unfinished pulls, or the next connection's). */
  async historicalPull(userId: string, provider: string, body: PullOutcome): Promise<HistoricalPullForced> {
    return this.request('POST', `/_sandbox/historical_pulls/${seg(userId)}/${seg(provider)}`, body);
  }

  /** Webhook delivery attempts, oldest first (the same as `webhooks.attempts(filter)`). */
  async webhookAttempts(filter: AttemptFilter = {}): Promise<DeliveryAttemptPage> {
    return this.webhooks.attempts(filter);
  }
}
