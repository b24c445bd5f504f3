/**
 * Builds one world of a sandbox: clock, scheduler, ids, tenancy, events, every area installed and
 * seeded. Its `WorldLog` (engine/persist.ts) sits between the world and what leaves the sandbox
 * (webhook transport, file sink, in-process subscribers): it records, or replays a saved world.
 */
import { AREAS } from './areas.js';
import { seedTenancy } from './fixtures/management/tenancy.js';
import { Clock, isoNow } from './engine/clock.js';
import { EventBus, type EventSubscriber } from './engine/events.js';
import { IdFactory } from './engine/ids.js';
import { attachWorldLog, type WorldLog } from './engine/persist.js';
import { Scheduler } from './engine/scheduler.js';
import { Tenancy } from './engine/tenancy.js';
import { createHooks, type AssetSources, type World, type WorldOptions } from './engine/world.js';
import type { ResolvedSandboxOptions } from './sandbox-options.js';
import type { OutputGate } from './scenario/gate.js';
import { configureWebhooks } from './state/webhooks/options.js';

/** What one world is built from. */
export interface WorldParts {
  options: ResolvedSandboxOptions;
  seed: number;
  urls: World['urls'];
  /** The in-process event subscribers (shared by the sandbox's worlds). */
  subscribers: EventSubscriber[];
  assets: AssetSources;
  /** What the world may let out (held while a scenario is applied to it). */
  gate: OutputGate;
  worldLog: WorldLog;
  /** The world's `kept` map (World['kept']). */
  kept: Map<symbol, unknown>;
  /** Installs the areas but seeds nothing: a world its saved state is loaded into (engine/world-state.ts). */
  bare?: boolean;
}

export function buildWorld({ options, seed, urls, subscribers, assets, gate, worldLog, kept, bare = false }: WorldParts): World {
  // A realtime clock stands still at the start time while the world is built: what is seeded is dated
  // at the start time itself, whatever the build took (the same world each time, so a build of a seed built before copies it).
  const clock = new Clock({ mode: options.clock, startAt: options.startAt, scale: options.timeScale, wall: options.wallClock, held: true });
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
    kept,
    track(work) {
      const p = work.catch((error: unknown) => log('Background work failed', error)).finally(() => inflight.delete(p));
      inflight.add(p);
    },
    async settle() {
      while (inflight.size > 0) await Promise.all([...inflight]);
    },
    busy: () => inflight.size > 0,
    log,
    urls,
    assets,
  };
  scheduler.attach(world);
  attachWorldLog(world, worldLog);
  clock.setWallHook((raw, key) => worldLog.wallRead(raw, key));
  const transport = worldLog.transport(gate.holding ? gate.transport(options.webhooks.transport) : options.webhooks.transport);
  const fileSink = worldLog.fileSink(gate.holding ? gate.sink(options.webhooks.fileSink) : options.webhooks.fileSink);
  configureWebhooks(world, { ...options.webhooks, transport, fileSink });
  for (const area of AREAS) area.install?.(world);
  if (!bare) {
    seedTenancy(world);
    // An empty world keeps what belongs to the org (management: lab accounts); no users, data or orders.
    for (const area of AREAS) if (options.world !== 'empty' || area.name === 'management') area.seed?.(world);
  }
  world.events.subscribe(worldLog.subscriber(gate.subscriber(subscribers)));
  world.events.watch(() => subscribers.length > 0);
  clock.releaseDrift();
  return world;
}
