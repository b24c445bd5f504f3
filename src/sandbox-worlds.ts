/**
 * The world a sandbox serves and how it is replaced (createSandbox's world lifecycle, split out of
 * sandbox.ts): built from the scenario in force (its output held while the scenario is applied),
 * rebuilt from a saved world (its log replayed aside, then served), replaced on reset and scenario
 * loads, one load after another. The world's log writes through the state sink once it is served.
 */
import { buildWorld } from './build-world.js';
import { credentialsOf } from './engine/credentials.js';
import { dispatch } from './engine/dispatch.js';
import type { EventSubscriber } from './engine/events.js';
import type { SimRequest, SimResponse } from './engine/http-types.js';
import { LogSinkError, type WorldBuild, type WorldDocument, WorldLog, worldLogOf } from './engine/persist.js';
import { WorldDocumentError } from './engine/persist-document.js';
import { loadStores, saveStores } from './engine/store-state.js';
import { loadWorldState } from './engine/world-state.js';
import type { Router } from './engine/router.js';
import { replayLog } from './engine/snapshots.js';
import type { AssetSources, World } from './engine/world.js';
import type { ResolvedSandboxOptions, StateSink } from './sandbox-options.js';
import { applyScenario } from './scenario/apply.js';
import { OutputGate } from './scenario/gate.js';
import { parseScenario, ScenarioError } from './scenario/parse.js';
import type { Scenario, ScenarioInput } from './scenario/schema.js';

/** What every world of one sandbox shares. */
export interface WorldsContext {
  resolved: ResolvedSandboxOptions;
  stateSink: StateSink | undefined;
  urls: World['urls'];
  subscribers: EventSubscriber[];
  assets: AssetSources;
  /** What survives resets: the request journal. */
  kept: Map<symbol, unknown>;
  router: Router;
}

type Built = { world: World; gate: OutputGate };

/** The options a world is built with: the scenario's world, clock start and feed win. */
function settingsOf(resolved: ResolvedSandboxOptions, s: Scenario | undefined): ResolvedSandboxOptions {
  return s
    ? {
        ...resolved,
        world: s.world,
        feed: s.feed ?? resolved.feed,
        labsProgression: s.labs?.progression ?? resolved.labsProgression,
        startAt: s.clock?.start_at ? Date.parse(s.clock.start_at) : resolved.startAt,
      }
    : resolved;
}

/** A world for a scenario; its gate holds all output while the scenario is applied. */
function buildFor(
  ctx: WorldsContext,
  s: Scenario | undefined,
  seed: number,
  replay: WorldDocument | null = null,
  holding = s !== undefined && replay === null,
): Built {
  const { resolved } = ctx;
  const gate = new OutputGate(holding);
  const o = replay ? { ...resolved, ...replay.build } : settingsOf(resolved, s);
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
  const log = new WorldLog(spec, replay?.log ?? null, replay?.version, replay?.state ?? null);
  const { urls, subscribers, assets, kept } = ctx;
  // A saved state is loaded into a world that seeds nothing (engine/world-state.ts).
  const bare = replay?.state !== undefined;
  return { world: buildWorld({ options: o, seed, urls, subscribers, assets, gate, worldLog: log, kept, bare }), gate };
}

/** The world's log writes through the state sink from now on (after the whole document). */
function persistFrom(ctx: WorldsContext, w: World): void {
  const log = worldLogOf(w);
  if (!ctx.stateSink || !log) return;
  log.sink = ctx.stateSink;
  try {
    const stores = saveStores(w);
    ctx.stateSink.write(stores === undefined ? log.document() : { ...log.document(), stores });
    log.wroteWhole();
  } catch (error) {
    // The file keeps its last world; the sink refuses every input (503 naming why) until a new world is written.
    if (!(error instanceof LogSinkError)) throw error;
    ctx.resolved.logger('The state file could not be written', error);
  }
}

/** Applies a scenario to a world not served yet (control routes without the admin token); on failure its gate drops all it did. */
async function applyTo(ctx: WorldsContext, s: Scenario | undefined, built: Built): Promise<void> {
  if (!s) return;
  const own = { world: built.world, router: ctx.router, adminToken: undefined, reset: () => undefined };
  try {
    const send = (request: SimRequest): Promise<SimResponse> => dispatch(own, request);
    await applyScenario(s, send, () => credentialsOf(built.world));
  } catch (error) {
    built.gate.discard();
    throw error;
  }
}

/** The scenario a saved world was built with (a bad one is the document's fault). */
function savedScenario(doc: WorldDocument): Scenario | undefined {
  try {
    return doc.build.scenario === null ? undefined : parseScenario(doc.build.scenario as ScenarioInput);
  } catch (error) {
    if (error instanceof ScenarioError) throw new WorldDocumentError(`invalid world document at build.scenario: ${error.message}`);
    throw error;
  }
}

/** Builds a saved world aside (its scenario, then its log replayed; nothing leaves the sandbox meanwhile). */
async function rebuild(ctx: WorldsContext, doc: WorldDocument): Promise<Built & { scenario: Scenario | undefined }> {
  const s = savedScenario(doc);
  const built = buildFor(ctx, s, doc.build.seed, doc);
  const log = worldLogOf(built.world) as WorldLog;
  built.world.clock.holdDrift();
  if (doc.state !== undefined) {
    // Version 3: the saved state, then the inputs since it (the scenario's work is in the state).
    try {
      loadWorldState(built.world, doc.state);
    } catch (error) {
      // The world being loaded is aside (nothing served yet): whatever the state holds that this build cannot read is the document's fault.
      throw new WorldDocumentError(`invalid world document at state: ${error instanceof Error ? error.message : String(error)}`);
    }
  } else await applyTo(ctx, s, built);
  await replayLog(built.world, ctx.router, doc.log, log);
  try {
    loadStores(built.world, doc.stores);
  } catch (error) {
    throw new WorldDocumentError(`invalid world document at stores: ${error instanceof Error ? error.message : String(error)}`);
  }
  built.world.clock.releaseDrift();
  return { ...built, scenario: s };
}

/** The current world, its readiness and its replacements. */
export function createWorlds(ctx: WorldsContext, initial: Scenario | undefined) {
  const { resolved } = ctx;
  let scenario = initial;
  let seedOverride: number | undefined; // the last seed given to reset (until a scenario with its own seed loads)
  let world: World;
  let failure: unknown = null; // why the scenario failed to apply (requests then answer 503 naming it)
  let ready: Promise<void> = Promise.resolve();
  let loading: Promise<void> = Promise.resolve(); // scenario loads run one after another

  const seedOf = (s: Scenario | undefined, override: number | undefined): number => override ?? s?.seed ?? resolved.seed;
  /** Serves a rebuilt world: its seed and scenario become the sandbox's (kept across resets). */
  const adopt = (next: { world: World; scenario: Scenario | undefined }): void => {
    scenario = next.scenario;
    seedOverride = next.world.seed;
    world = next.world;
    failure = null;
    ready = Promise.resolve();
    persistFrom(ctx, world);
    worldLogOf(world)?.goLive();
  };
  /** Runs after the loads before it; the next waits for it (and goes on if it failed). */
  const queue = (run: () => Promise<void>): Promise<void> => {
    const next = loading.then(async () => {
      await ready.catch(() => undefined);
      await run();
    });
    loading = next.catch(() => undefined);
    return next;
  };
  /** Builds and applies the world of the scenario in force (requests wait for `ready`); a failed one is not served (503s). */
  const start = (from?: WorldDocument): void => {
    if (from) {
      world = buildFor(ctx, undefined, from.build.seed).world; // serves nothing: requests wait for the saved world
      ready = rebuild(ctx, from).then(adopt);
      loading = ready.catch(() => undefined);
      ready.catch((error: unknown) => resolved.logger('Restoring the saved world failed', error));
      return;
    }
    const s = scenario;
    const seed = seedOf(s, seedOverride);
    const built = buildFor(ctx, s, seed);
    world = built.world;
    failure = null;
    const applying = applyTo(ctx, s, built).then(
      () => {
        if (world === built.world) {
          built.gate.release();
          persistFrom(ctx, world);
        } else built.gate.discard();
      },
      (error: unknown) => {
        if (world === built.world) {
          world = buildFor(ctx, s, seed, null, false).world;
          failure = error;
        }
        throw error;
      },
    );
    ready = applying;
    applying.catch((error: unknown) => resolved.logger('Applying the scenario failed', error));
  };

  return {
    get world(): World {
      return world;
    },
    get scenario(): Scenario | undefined {
      return scenario;
    },
    get ready(): Promise<void> {
      return ready;
    },
    get failure(): unknown {
      return failure;
    },
    start,
    /** A fresh world of the scenario in force; with a seed, that seed from now on. */
    reset(seed?: number): void {
      if (seed !== undefined) seedOverride = seed;
      start();
    },
    /** Replaces the world with a saved one, after other loads; the world stays if it fails. */
    replaceWith: (doc: WorldDocument): Promise<void> => queue(async () => adopt(await rebuild(ctx, doc))),
    /** Replaces the world with one of this scenario (null: none); a scenario that fails loads nothing. */
    loadScenario: (next: Scenario | undefined): Promise<void> =>
      queue(async () => {
        // A scenario's own seed wins over an earlier reset's; without one, the current seed stays.
        const override = next?.seed !== undefined ? undefined : seedOverride;
        const built = buildFor(ctx, next, seedOf(next, override));
        await applyTo(ctx, next, built);
        scenario = next;
        seedOverride = override;
        world = built.world;
        failure = null;
        ready = Promise.resolve();
        built.gate.release();
        persistFrom(ctx, world);
        await world.settle();
      }),
  };
}
