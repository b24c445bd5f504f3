/**
 * Builds one sandbox: options, the current world (replaced on reset), dispatch. Two sandboxes
 * in one process never see each other.
 */
import { credentialsOf, type Credentials } from './engine/credentials.js';
import { type DispatchHooks, dispatch } from './engine/dispatch.js';
import { withCanonicalPath } from './engine/canonical-path.js';
import { RequestJournal } from './engine/journal.js';
import { interceptFault } from './engine/faults.js';
import type { SimRequest, SimResponse } from './engine/http-types.js';
import { router } from './routes.js';
import type { EventSubscriber } from './engine/events.js';
import type { AssetSources, World } from './engine/world.js';
import { durationSeconds, type Duration } from './engine/duration.js';
import { applyScenario } from './scenario/apply.js';
import { OutputGate, isRecovery, scenarioFailed } from './scenario/gate.js';
import { parseScenario } from './scenario/parse.js';
import type { Scenario, ScenarioInput } from './scenario/schema.js';
import { buildWorld } from './build-world.js';
import { type ResolvedSandboxOptions, resolveOptions, type SandboxOptions } from './sandbox-options.js';
import { type SnapshotInfo, type WorldBuild, type WorldDocument, WorldLog, worldLogOf } from './engine/persist.js';
import { parseWorldDocument } from './engine/persist-document.js';
import { replayLog, SnapshotStore, snapshotMethods, worldControl } from './engine/snapshots.js';

export { DEFAULT_START_AT } from './sandbox-options.js';
export type { ResolvedSandboxOptions, SandboxOptions, StateSink } from './sandbox-options.js';

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
  const kept = new Map<symbol, unknown>(); // what survives resets: the request journal
  /** A world for a scenario; its gate holds all output while the scenario is applied. */
  const build = (
    s: Scenario | undefined,
    seed: number,
    replay: WorldDocument | null = null,
    holding = s !== undefined && replay === null,
  ): { world: World; gate: OutputGate } => {
    const gate = new OutputGate(holding);
    const o = replay ? { ...resolved, ...replay.build } : settings(s);
    const spec: WorldBuild = {
      seed,
      scenario: s ?? null,
      users: o.users,
      usersElsewhere: o.usersElsewhere,
      limits: o.limits,
      feed: o.feed,
      world: o.world,
      startAt: o.startAt,
      labsProgression: o.labsProgression,
    };
    return {
      world: buildWorld(o, seed, urls, subscribers, assets, gate, new WorldLog(spec, replay?.log ?? null, replay?.version), kept),
      gate,
    };
  };
  /** The world's log writes through the state sink from now on (after the whole document). */
  const persistFrom = (w: World): void => {
    const log = worldLogOf(w);
    if (!options.stateSink || !log) return;
    options.stateSink.write(log.document());
    log.sink = options.stateSink;
  };
  const snapshots = new SnapshotStore();
  /** Builds a saved world aside (its scenario, then its log replayed; nothing leaves the sandbox meanwhile). */
  const rebuild = async (doc: WorldDocument): Promise<{ world: World; gate: OutputGate; scenario: Scenario | undefined }> => {
    const s = doc.build.scenario === null ? undefined : parseScenario(doc.build.scenario as ScenarioInput);
    const built = build(s, doc.build.seed, doc);
    const log = worldLogOf(built.world) as WorldLog;
    built.world.clock.holdDrift();
    await apply(s, built);
    await replayLog(built.world, env.router, doc.log, log);
    built.world.clock.releaseDrift();
    return { ...built, scenario: s };
  };
  /** Serves a rebuilt world: its seed and scenario become the sandbox's (kept across resets). */
  const adopt = (next: { world: World; scenario: Scenario | undefined }): void => {
    scenario = next.scenario;
    seedOverride = next.world.seed;
    world = next.world;
    failure = null;
    ready = Promise.resolve();
    persistFrom(world);
    worldLogOf(world)?.goLive();
  };
  /** Replaces the world with a saved one, after other loads; the world stays if it fails. */
  const replaceWith = (doc: WorldDocument): Promise<void> => {
    const run = loading.then(async () => {
      await ready.catch(() => undefined);
      adopt(await rebuild(doc));
    });
    loading = run.catch(() => undefined);
    return run;
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
  const start = (from?: WorldDocument): void => {
    if (from) {
      const initial = build(undefined, from.build.seed);
      world = initial.world; // serves nothing: requests wait for the saved world
      ready = rebuild(from).then(adopt);
      loading = ready.catch(() => undefined);
      ready.catch((error: unknown) => resolved.logger('Restoring the saved world failed', error));
      return;
    }
    const s = scenario;
    const seed = seedOf(s, seedOverride);
    const built = build(s, seed);
    world = built.world;
    failure = null;
    const applying = apply(s, built).then(
      () => {
        if (world === built.world) {
          built.gate.release();
          persistFrom(world);
        } else built.gate.discard();
      },
      (error: unknown) => {
        if (world === built.world) {
          world = build(s, seed, null, false).world;
          failure = error;
        }
        throw error;
      },
    );
    ready = applying;
    applying.catch((error: unknown) => resolved.logger('Applying the scenario failed', error));
  };
  let timer: ReturnType<typeof setInterval> | undefined;

  /** What dispatch's `observe` seam calls, in order (the world's log first: it is durable before the answer leaves). */
  const observers: Array<NonNullable<DispatchHooks['observe']>> = [
    (req, res, exchange) => worldLogOf(world)?.request(world, req, res, exchange),
  ];
  /** The dispatch seams (engine/dispatch.ts): faults `intercept`; the world's log and the request journal `observe`. */
  const hooks: DispatchHooks = {
    intercept: (req, exchange) => interceptFault(world, req, exchange),
    observe(req, res, exchange) {
      for (const fn of observers) fn(req, res, exchange);
    },
  };
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
    worlds: worldControl(() => sandbox),
  };
  const elapsed = () => performance.now(); // wall time and durations come from the edge (here), never from the engine
  const journal = new RequestJournal({ wallClock: resolved.wallClock, timer: elapsed, ...options.requests }, env, kept);
  observers.push(journal.observe);

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
      journal.begin(request);
      // Once the world is ready, no extra promise per request.
      if (ready !== readyDone) {
        const current = ready;
        await current.catch(() => undefined);
        if (ready === current) readyDone = current;
      }
      const req = withCanonicalPath(request); // the scenario gate, the world's log and dispatch read one path
      if (failure !== null && !isRecovery(req)) return scenarioFailed(failure);
      worldLogOf(world)?.begin(req, world.clock.now(), world.scheduler.running);
      return dispatch(env, req);
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
        persistFrom(world);
        await world.settle();
      });
      loading = run.catch(() => undefined);
      return run;
    },
    async advance(duration) {
      await ready;
      const ms = Math.round(durationSeconds(duration) * 1000);
      worldLogOf(world)?.advance(ms);
      await world.scheduler.advance(ms);
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
    ...snapshotMethods(snapshots, () => world, replaceWith),
    requests: journal,
  };
  start(options.from === undefined ? undefined : parseWorldDocument(options.from));
  startTimer();
  return sandbox;
}
