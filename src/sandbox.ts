/**
 * Builds one sandbox: options, the current world (replaced on reset; its lifecycle in
 * sandbox-worlds.ts), dispatch. Two sandboxes in one process never see each other.
 */
import { credentialsOf, type Credentials } from './engine/credentials.js';
import { type DispatchHooks, dispatchNow, type Exchange } from './engine/dispatch.js';
import { withCanonicalPath } from './engine/canonical-path.js';
import { keepJournal, RequestJournal } from './engine/journal.js';
import { interceptFault } from './engine/faults.js';
import type { SimRequest, SimResponse } from './engine/http-types.js';
import { router } from './routes.js';
import type { EventSubscriber } from './engine/events.js';
import type { AssetSources, World } from './engine/world.js';
import { durationSeconds, type Duration } from './engine/duration.js';
import { isRecovery, scenarioFailed } from './scenario/gate.js';
import { parseScenario } from './scenario/parse.js';
import type { Scenario, ScenarioInput } from './scenario/schema.js';
import { type ResolvedSandboxOptions, resolveOptions, type SandboxOptions } from './sandbox-options.js';
import { createWorlds } from './sandbox-worlds.js';
import { type SnapshotInfo, type WorldDocument, worldLogOf } from './engine/persist.js';
import { parseWorldDocument } from './engine/persist-document.js';
import { SnapshotStore, snapshotMethods, worldControl } from './engine/snapshots.js';
import { countRequest } from './sandbox-report.js';

export { DEFAULT_START_AT } from './sandbox-options.js';
export type { ResolvedSandboxOptions, SandboxOptions, StateSink } from './sandbox-options.js';

/** What a sandbox answers a request, synchronously when nothing on the way waits. */
export type AnswerNow = (request: SimRequest) => SimResponse | Promise<SimResponse>;

/** Each sandbox's `answerNow`, by its own `dispatch` function. */
const answersNow = new WeakMap<Sandbox['dispatch'], AnswerNow>();

/**
 * The sandbox's `dispatch` without a promise around an answer made synchronously (the node:http
 * adapter writes it in the turn the request arrived), or undefined when `dispatch` is not the
 * sandbox's own (a caller replaced it: then it is the one to call).
 */
export function answerNowOf(sandbox: Sandbox): AnswerNow | undefined {
  return answersNow.get(sandbox.dispatch);
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
  /** The request journal (kept across resets): `subscribe(fn)` sees each request answered (the terminal log). */
  readonly requests: RequestJournal;
  /** Saves the current world in memory under `name` (replacing one of that name). */
  snapshot(name: string): SnapshotInfo;
  /** Rewinds to a snapshot (clock, pending jobs and deliveries included); a RangeError if there is none of that name. */
  restore(name: string): Promise<void>;
  /** The snapshots kept, oldest first. */
  snapshots(): SnapshotInfo[];
  /** Removes a snapshot; false if there was none. */
  deleteSnapshot(name: string): boolean;
  /** The whole current world as one JSON-able document (keys and secrets included). */
  exportWorld(): WorldDocument;
  /** Replaces the world with a saved one (checked first: a WorldDocumentError says what is wrong, the world stays). */
  importWorld(doc: unknown): Promise<void>;
}

export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const resolved = resolveOptions(options);
  const subscribers: EventSubscriber[] = options.onEvent ? [options.onEvent] : [];
  const urls = {
    base: options.baseUrl ?? 'http://127.0.0.1:4250',
    management: options.managementUrl ?? 'http://127.0.0.1:4250/management',
  };
  const assets: AssetSources = {};
  const kept = new Map<symbol, unknown>(); // what survives resets: the request journal
  const routes = router();
  const worlds = createWorlds(
    { resolved, stateSink: options.stateSink, urls, subscribers, assets, kept, router: routes },
    options.scenario === undefined ? undefined : parseScenario(options.scenario),
  );
  const snapshots = new SnapshotStore();
  /** The `ready` promise known to be settled (dispatch then skips waiting on it). */
  let readyDone: Promise<void> | null = null;
  let timer: ReturnType<typeof setInterval> | undefined;

  /** What dispatch's `observe` seam calls, in order (the world's log first: it is durable before the answer leaves). */
  const observers: Array<NonNullable<DispatchHooks['observe']>> = [
    (_req, res, exchange) => worldLogOf(worlds.world)?.request(worlds.world, res, exchange),
    (req, res, exchange) => countRequest(worlds.world, req, res, exchange),
  ];
  /** The dispatch seams (engine/dispatch.ts): faults `intercept`; the world's log and the request journal `observe`. */
  const hooks: DispatchHooks = {
    intercept: (req, exchange) => interceptFault(worlds.world, req, exchange),
    admit: (req, exchange) => worldLogOf(worlds.world)?.admit(worlds.world, req, exchange),
    observe(req, res, exchange) {
      for (const fn of observers) fn(req, res, exchange);
    },
  };
  const env = {
    get world() {
      return worlds.world;
    },
    hooks,
    router: routes,
    adminToken: resolved.adminToken,
    reset: (seed?: number) => sandbox.reset(seed),
    loadScenario: async (input: unknown) => (
      await sandbox.loadScenario(input as ScenarioInput), { seed: worlds.world.seed, now: worlds.world.clock.iso() }
    ),
    worlds: worldControl(() => sandbox),
  };
  const elapsed = () => performance.now(); // wall time and durations come from the edge (here), never from the engine
  const defaultClocks =
    options.wallClock === undefined && options.requests?.wallClock === undefined && options.requests?.timer === undefined;
  const journal = new RequestJournal({ wallClock: resolved.wallClock, timer: elapsed, ...options.requests, defaultClocks }, env);
  observers.push(journal.observe);

  const startTimer = () => {
    if (resolved.clock !== 'realtime' || timer) return;
    timer = setInterval(() => {
      if (worlds.world.scheduler.hasDue()) void worlds.world.scheduler.runDue();
    }, 250);
    timer.unref?.();
  };

  /** Dispatches once the world is ready; the world's log learns when the request started (`Exchange.startedIn`). */
  const answerReady = (request: SimRequest, exchange: Exchange): SimResponse | Promise<SimResponse> => {
    const req = withCanonicalPath(request); // the scenario gate, the world's log and dispatch read one path
    const world = worlds.world;
    if (worlds.failure !== null && !isRecovery(req)) return scenarioFailed(worlds.failure);
    exchange.startedIn = world;
    exchange.startedAt = world.clock.now();
    exchange.startedDuring = world.scheduler.running;
    return dispatchNow(env, req, exchange);
  };
  /** The sandbox's answer: at once when its world is ready and nothing on the way waits (answerNowOf), else a promise. */
  const answerNow: AnswerNow = (request) => {
    const exchange: Exchange = { startedMs: journal.begin() };
    // Once the world is ready, no extra promise per request.
    if (worlds.ready === readyDone) return answerReady(request, exchange);
    const current = worlds.ready;
    return current
      .catch(() => undefined)
      .then(() => {
        if (worlds.ready === current) readyDone = current;
        return answerReady(request, exchange);
      });
  };

  const sandbox: Sandbox = {
    options: resolved,
    get world() {
      return worlds.world;
    },
    dispatch(request) {
      const answered = answerNow(request);
      return answered instanceof Promise ? answered : Promise.resolve(answered);
    },
    get ready() {
      return worlds.ready;
    },
    get scenario() {
      return worlds.scenario;
    },
    reset: (seed) => worlds.reset(seed),
    async loadScenario(input) {
      await worlds.loadScenario(input === null ? undefined : parseScenario(input));
    },
    async advance(duration) {
      await worlds.ready;
      const ms = Math.round(durationSeconds(duration) * 1000);
      worldLogOf(worlds.world)?.advance(ms);
      await worlds.world.scheduler.advance(ms);
    },
    settle: () => worlds.world.settle(),
    subscribe(fn) {
      subscribers.push(fn);
      return () => {
        const i = subscribers.indexOf(fn);
        if (i >= 0) subscribers.splice(i, 1);
      };
    },
    credentials: () => credentialsOf(worlds.world),
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
    ...snapshotMethods(snapshots, () => worlds.world, worlds.replaceWith),
    requests: journal,
  };
  // A document given in process (a fork, the CLI's state file) is already in the caller's memory: its
  // inputs are not held to what a live world keeps (a state file may hold more; an import over HTTP is).
  worlds.start(options.from === undefined ? undefined : parseWorldDocument(options.from, Number.POSITIVE_INFINITY));
  keepJournal(worlds.world, journal); // before any request: the worlds that follow share this world's `kept` map
  startTimer();
  answersNow.set(sandbox.dispatch, answerNow);
  return sandbox;
}
