/**
 * Builds one sandbox: options, the current world (replaced on reset), dispatch. Two sandboxes
 * in one process never see each other.
 */
import { AREAS } from './areas.js';
import { credentialsOf, type Credentials } from './engine/credentials.js';
import { type DispatchHooks, dispatch } from './engine/dispatch.js';
import type { SimRequest, SimResponse } from './engine/http-types.js';
import { router } from './routes.js';
import { seedTenancy } from './fixtures/management/tenancy.js';
import { Clock, type ClockMode } from './engine/clock.js';
import { EventBus, JOURNAL_LIMIT, type EventSubscriber } from './engine/events.js';
import { IdFactory } from './engine/ids.js';
import { Scheduler } from './engine/scheduler.js';
import { Tenancy } from './engine/tenancy.js';
import { SANDBOX_USER_CAP } from './state/users/users.js';
import { createHooks, type AssetSources, type FeedMode, type World, type WorldKind, type WorldOptions } from './engine/world.js';
import { configureWebhooks, resolveWebhookOptions, type FileSink, type ResolvedWebhookOptions } from './state/webhooks/options.js';
import type { WebhookTransport } from './state/webhooks/transport.js';
import { durationSeconds, type Duration } from './engine/duration.js';
import { applyScenario } from './scenario/apply.js';
import { OutputGate, isRecovery, scenarioFailed } from './scenario/gate.js';
import { parseScenario } from './scenario/parse.js';
import type { Scenario, ScenarioInput } from './scenario/schema.js';

export const DEFAULT_START_AT = '2026-01-05T09:00:00.000Z';
const DEFAULT_USERS = 25;
const DEFAULT_USERS_ELSEWHERE = 3;

export interface SandboxOptions {
  /** World seed (default 1). */
  seed?: number;
  /** `manual` (default; moves only when advanced) or `realtime`. */
  clock?: ClockMode;
  /** Sandbox time at start (default 2026-01-05T09:00:00Z). */
  startAt?: string | number | Date;
  /** Sandbox seconds per wall second in realtime mode (default 1). */
  timeScale?: number;
  /** Users in the first team's sandbox environment (default 25). Above 50 lifts the cap. */
  users?: number;
  /** Users in every other team environment (default 3). */
  usersElsewhere?: number;
  /** Whether the sandbox's 50-user cap applies (default true, unless users > 50). */
  limits?: boolean;
  /** When set, `/_sandbox/*` requires `Authorization: Bearer <token>`. */
  adminToken?: string;
  /** Wall clock source (default Date.now); realtime mode and webhook signature timestamps. */
  wallClock?: () => number;
  /** Where engine-side errors are logged (default console.error). */
  logger?: (message: string, error?: unknown) => void;
  /** Most recent events kept in the journal (`GET /_sandbox/events`), a ring of this size; default 10000 (`JOURNAL_LIMIT`). */
  journalLimit?: number;
  /**
   * The periodic wearable feed (default `auto`): `auto` generates new-data events only for team
   * environments where someone listens (a webhook endpoint, a pipeline or an in-process
   * subscriber); `on` always (every event lands in the journal); `off` never. Kept across resets.
   */
  feed?: FeedMode | boolean;
  /** Lab orders move on the clock (`clock`, default) or only when simulated (`manual`, the real sandbox); docs/simulated/labs.md. */
  labsProgression?: WorldOptions['labsProgression'];
  /** In-process subscriber that receives every event (kept across resets). */
  onEvent?: EventSubscriber;
  /**
   * `default` (the seeded demo world) or `empty`: the org, its teams, keys and lab accounts and
   * nothing else (no users, connections or orders). Kept across resets.
   */
  world?: WorldKind;
  /**
   * A scenario (object, or JSON/YAML text; see `scenarios/`; not a file path: read it first, or
   * use `startSandbox`) applied to every world this sandbox builds, including after `reset()`. Its
   * `world`, `seed`, `clock.start_at` and `feed` win over these options. Checked at once (a
   * ScenarioError names the path); applied before the first request is answered (`await
   * sandbox.ready`), all or nothing: nothing it causes reaches subscribers, webhook receivers or
   * files until all of it applied. If applying fails, `ready` rejects with the ScenarioError and
   * every request answers 503 naming it (except `PUT|DELETE /_sandbox/scenario` and
   * `POST /_sandbox/reset`) until another scenario loads or a reset applies.
   */
  scenario?: ScenarioInput | string;
  /** Addresses the sandbox is served at (adapters set them; used in generated URLs). */
  baseUrl?: string;
  managementUrl?: string;
  /** How webhook attempts are sent (default: the global `fetch`, looked up at each attempt). */
  webhookTransport?: WebhookTransport;
  /** Wall-clock timeout of one webhook attempt, seconds (default 15; CLI `--delivery-timeout`). */
  deliveryTimeout?: number;
  /**
   * Webhook attempts to one endpoint in flight at once (default 1: one at a time; 1 to 256).
   * They start in event order; the CLI's transport pipelines them over one connection, so they
   * also arrive in that order (CLI `--delivery-window`).
   */
  deliveryWindow?: number;
  /** When set, webhook URLs must point at one of these hosts (`*.example.com` for subdomains; CLI `--webhook-allow`). */
  webhookAllow?: readonly string[];
  /** Whether webhooks may go to private networks (default true; the CLI sets false off loopback). */
  webhookPrivateNetworks?: boolean;
  /** Where pipeline NDJSON files are appended (the CLI builds one over `--data-dir`). */
  fileSink?: FileSink;
}

export interface ResolvedSandboxOptions {
  seed: number;
  clock: ClockMode;
  startAt: number;
  timeScale: number;
  users: number;
  usersElsewhere: number;
  limits: boolean;
  adminToken: string | undefined;
  wallClock: () => number;
  logger: (message: string, error?: unknown) => void;
  journalLimit: number;
  feed: FeedMode;
  labsProgression: WorldOptions['labsProgression'];
  webhooks: ResolvedWebhookOptions;
  world: WorldKind;
}

export interface Sandbox {
  readonly options: ResolvedSandboxOptions;
  /** The current world (a reset replaces it). */
  readonly world: World;
  /** Answers one request (after the scenario, if any, is applied). */
  dispatch(request: SimRequest): Promise<SimResponse>;
  /**
   * Resolves when the current world is ready (its scenario applied); rejects with the ScenarioError
   * if that failed (the sandbox then answers every request 503 naming it, serves no partial world).
   */
  readonly ready: Promise<void>;
  /** The scenario applied to every world, if any. */
  readonly scenario: Scenario | undefined;
  /**
   * Replaces the world with a fresh one built from this scenario (kept across resets). A
   * scenario that fails (ScenarioError naming the path) loads nothing: the previous world stays.
   */
  loadScenario(scenario: ScenarioInput | string | null): Promise<void>;
  /**
   * A fresh world (the scenario, if any, applied again). With a seed, that seed from now on; without
   * one, the current seed: the credentials change only when the seed does.
   */
  reset(seed?: number): void;
  /**
   * Moves the clock forward (seconds, or a duration such as `'90s'`, `'15m'`, `'2h'`, `'3d'` or
   * `'P1DT2H'`; a RangeError for a bad one), running due jobs and waiting for the work they caused
   * (their webhook attempts, each bounded by its timeout); work started by requests meanwhile
   * never extends it.
   */
  advance(duration: Duration): Promise<void>;
  /** Waits for all background work (every webhook delivery in flight, whoever started it). */
  settle(): Promise<void>;
  /** Adds an in-process event subscriber (kept across resets). */
  subscribe(fn: EventSubscriber): () => void;
  /** The seeded credentials (org, management key, team keys). */
  credentials(): Credentials;
  /** Sets readers of packaged files (the Node adapters set `docs`: the /docs page's assets). */
  setAssets(sources: AssetSources): void;
  /** Sets the addresses the sandbox is served at. */
  setUrls(urls: { base?: string; management?: string }): void;
  /** Stops realtime timers. */
  close(): void;
}

function toMs(value: string | number | Date | undefined, fallback: string): number {
  if (value === undefined) return Date.parse(fallback);
  const ms = value instanceof Date ? value.getTime() : typeof value === 'number' ? value : Date.parse(value);
  if (!Number.isFinite(ms)) throw new Error(`Invalid start time: ${String(value)}`);
  return ms;
}

function resolveOptions(options: SandboxOptions = {}): ResolvedSandboxOptions {
  const users = options.users ?? DEFAULT_USERS;
  if (!Number.isInteger(users) || users < 0) throw new Error(`users must be a whole number >= 0, got ${users}`);
  const seed = options.seed ?? 1;
  if (!Number.isInteger(seed)) throw new Error(`seed must be an integer, got ${seed}`);
  const timeScale = options.timeScale ?? 1;
  if (!(timeScale > 0)) throw new Error(`timeScale must be > 0, got ${timeScale}`);
  return {
    seed,
    clock: options.clock ?? 'manual',
    startAt: toMs(options.startAt, DEFAULT_START_AT),
    timeScale,
    users,
    usersElsewhere: options.usersElsewhere ?? DEFAULT_USERS_ELSEWHERE,
    limits: users > SANDBOX_USER_CAP ? false : (options.limits ?? true),
    adminToken: options.adminToken,
    wallClock: options.wallClock ?? (() => Date.now()),
    logger: options.logger ?? ((message, error) => console.error(`[health-sandbox] ${message}`, error ?? '')),
    journalLimit: options.journalLimit ?? JOURNAL_LIMIT,
    feed: options.feed === true ? 'on' : options.feed === false ? 'off' : (options.feed ?? 'auto'),
    labsProgression: options.labsProgression ?? 'clock',
    webhooks: resolveWebhookOptions({
      ...(options.webhookTransport ? { transport: options.webhookTransport } : {}),
      ...(options.deliveryTimeout !== undefined ? { attemptTimeoutMs: options.deliveryTimeout * 1000 } : {}),
      ...(options.deliveryWindow !== undefined ? { window: options.deliveryWindow } : {}),
      ...(options.webhookAllow ? { allowHosts: options.webhookAllow } : {}),
      ...(options.webhookPrivateNetworks !== undefined ? { privateNetworks: options.webhookPrivateNetworks } : {}),
      ...(options.fileSink ? { fileSink: options.fileSink } : {}),
    }),
    world: options.world ?? 'default',
  };
}

/** The clock's time as ISO, formatted once per instant (a feed tick emits thousands of events at one instant). */
function isoNow(clock: { now(): number }): () => string {
  let at = Number.NaN;
  let text = '';
  return () => {
    const now = clock.now();
    if (now !== at) {
      text = new Date(now).toISOString();
      at = now;
    }
    return text;
  };
}

/** `gate`: what the world may let out (held while a scenario is applied to it). */
function buildWorld(
  options: ResolvedSandboxOptions,
  seed: number,
  urls: World['urls'],
  subscribers: EventSubscriber[],
  assets: AssetSources,
  gate: OutputGate,
): World {
  const clock = new Clock({ mode: options.clock, startAt: options.startAt, scale: options.timeScale, wall: options.wallClock });
  const log = options.logger;
  const scheduler = new Scheduler(clock, (label, error) => log(`Scheduled job "${label}" failed`, error));
  const ids = new IdFactory(seed);
  const inflight = new Set<Promise<unknown>>();
  const worldOptions: WorldOptions = {
    seed,
    users: options.users,
    usersElsewhere: options.usersElsewhere,
    limits: options.limits,
    feed: options.feed,
    world: options.world,
    labsProgression: options.labsProgression,
  };
  const world: World = {
    options: worldOptions,
    seed,
    clock,
    scheduler,
    ids,
    tenancy: new Tenancy(ids),
    events: new EventBus(isoNow(clock), options.journalLimit),
    hooks: createHooks(),
    slots: new Map(),
    track(work) {
      const p = work.catch((error: unknown) => log('Background work failed', error)).finally(() => inflight.delete(p));
      inflight.add(p);
    },
    async settle() {
      while (inflight.size > 0) await Promise.all([...inflight]);
    },
    log,
    urls,
    assets,
  };
  const { transport, fileSink } = options.webhooks;
  configureWebhooks(
    world,
    gate.holding ? { ...options.webhooks, transport: gate.transport(transport), fileSink: gate.sink(fileSink) } : options.webhooks,
  );
  for (const area of AREAS) area.install?.(world);
  seedTenancy(world);
  // An empty world keeps what belongs to the org (management: lab accounts); no users, data or orders.
  for (const area of AREAS) if (options.world !== 'empty' || area.name === 'management') area.seed?.(world);
  world.events.subscribe(gate.subscriber(subscribers));
  world.events.watch(() => subscribers.length > 0);
  return world;
}

export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const resolved = resolveOptions(options);
  const subscribers: EventSubscriber[] = options.onEvent ? [options.onEvent] : [];
  const urls = {
    base: options.baseUrl ?? 'http://127.0.0.1:4250',
    management: options.managementUrl ?? 'http://127.0.0.1:4250/management',
  };
  let scenario: Scenario | undefined = options.scenario === undefined ? undefined : parseScenario(options.scenario);
  let seedOverride: number | undefined; // the last seed given to reset (until a scenario with its own seed loads)
  const seedOf = (s: Scenario | undefined, override: number | undefined): number => override ?? s?.seed ?? resolved.seed;
  /** The options a world is built with: the scenario's world, clock start and feed win. */
  const settings = (s: Scenario | undefined): ResolvedSandboxOptions =>
    s
      ? {
          ...resolved,
          world: s.world,
          feed: s.feed ?? resolved.feed,
          labsProgression: s.labs?.progression ?? resolved.labsProgression,
          startAt: s.clock?.start_at ? Date.parse(s.clock.start_at) : resolved.startAt,
        }
      : resolved;
  const assets: AssetSources = {};
  /** A world for a scenario; its gate holds all output while the scenario is applied. */
  const build = (s: Scenario | undefined, seed: number): { world: World; gate: OutputGate } => {
    const gate = new OutputGate(s !== undefined);
    return { world: buildWorld(settings(s), seed, urls, subscribers, assets, gate), gate };
  };
  /** Applies a scenario to a world not served yet (control routes without the admin token); on failure its gate drops all it did. */
  const apply = async (s: Scenario | undefined, built: { world: World; gate: OutputGate }): Promise<void> => {
    if (!s) return;
    const own = { world: built.world, router: env.router, adminToken: undefined, reset: () => undefined };
    try {
      const send = (request: SimRequest): Promise<SimResponse> => dispatch(own, request);
      await applyScenario(s, send, () => credentialsOf(built.world));
    } catch (error) {
      built.gate.discard();
      throw error;
    }
  };
  let world: World;
  let failure: unknown = null; // why the scenario failed to apply (requests then answer 503 naming it)
  let ready: Promise<void> = Promise.resolve();
  /** The `ready` promise known to be settled (dispatch then skips waiting on it). */
  let readyDone: Promise<void> | null = null;
  let loading: Promise<void> = Promise.resolve(); // scenario loads run one after another
  /** Builds and applies the world of the scenario in force (requests wait for `ready`); a failed one is not served (503s). */
  const start = (): void => {
    const s = scenario;
    const seed = seedOf(s, seedOverride);
    const built = build(s, seed);
    world = built.world;
    failure = null;
    const applying = apply(s, built).then(
      () => {
        if (world === built.world) built.gate.release();
        else built.gate.discard();
      },
      (error: unknown) => {
        if (world === built.world) {
          world = buildWorld(settings(s), seed, urls, subscribers, assets, new OutputGate(false));
          failure = error;
        }
        throw error;
      },
    );
    ready = applying;
    applying.catch((error: unknown) => resolved.logger('Applying the scenario failed', error));
  };
  let timer: ReturnType<typeof setInterval> | undefined;

  /** The dispatch seams (engine/dispatch.ts): faults set `intercept`, the request journal `observe`. */
  const hooks: DispatchHooks = {};
  const env = {
    get world() {
      return world;
    },
    hooks,
    router: router(),
    adminToken: resolved.adminToken,
    reset: (seed?: number) => sandbox.reset(seed),
    loadScenario: async (input: unknown) => (
      await sandbox.loadScenario(input as ScenarioInput), { seed: world.seed, now: world.clock.iso() }
    ),
  };

  const startTimer = () => {
    if (resolved.clock !== 'realtime' || timer) return;
    timer = setInterval(() => {
      if (world.scheduler.hasDue()) void world.scheduler.runDue();
    }, 250);
    timer.unref?.();
  };

  const sandbox: Sandbox = {
    options: resolved,
    get world() {
      return world;
    },
    async dispatch(request) {
      // Once the world is ready, no extra promise per request.
      if (ready !== readyDone) {
        const current = ready;
        await current.catch(() => undefined);
        if (ready === current) readyDone = current;
      }
      if (failure !== null && !isRecovery(request)) return scenarioFailed(failure);
      return dispatch(env, request);
    },
    get ready() {
      return ready;
    },
    get scenario() {
      return scenario;
    },
    reset(seed) {
      if (seed !== undefined) seedOverride = seed;
      start();
    },
    async loadScenario(input) {
      const next = input === null ? undefined : parseScenario(input);
      const run = loading.then(async () => {
        await ready.catch(() => undefined);
        // A scenario's own seed wins over an earlier reset's; without one, the current seed stays.
        const override = next?.seed !== undefined ? undefined : seedOverride;
        const built = build(next, seedOf(next, override));
        await apply(next, built);
        scenario = next;
        seedOverride = override;
        world = built.world;
        failure = null;
        ready = Promise.resolve();
        built.gate.release();
        await world.settle();
      });
      loading = run.catch(() => undefined);
      return run;
    },
    async advance(duration) {
      await ready;
      await world.scheduler.advance(Math.round(durationSeconds(duration) * 1000));
    },
    settle: () => world.settle(),
    subscribe(fn) {
      subscribers.push(fn);
      return () => {
        const i = subscribers.indexOf(fn);
        if (i >= 0) subscribers.splice(i, 1);
      };
    },
    credentials: () => credentialsOf(world),
    setAssets(next) {
      Object.assign(assets, next);
    },
    setUrls(next) {
      if (next.base !== undefined) urls.base = next.base.replace(/\/+$/, '');
      if (next.management !== undefined) urls.management = next.management.replace(/\/+$/, '');
    },
    close() {
      if (timer) clearInterval(timer);
      timer = undefined;
    },
  };
  start();
  startTimer();
  return sandbox;
}
