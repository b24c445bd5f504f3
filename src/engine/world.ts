/**
 * Everything one seeded world holds: clock, scheduler, ids, tenancy, events and each area's
 * stores (in slots). A reset replaces the whole world; nothing is a module-level singleton.
 */
import type { Clock } from './clock.js';
import type { EventBus } from './events.js';
import { Hook } from './hook.js';
import { nameSymbol } from './world-codec.js';
import type { IdFactory } from './ids.js';
import type { Scheduler } from './scheduler.js';
import type { Partition, Tenancy } from './tenancy.js';

/** What a user record shows of its connections (spec 2.1 ConnectedSource + the SDK's `provider`). */
export interface ConnectedSource {
  created_on: string;
  provider: { name: string; slug: string; logo: string };
  source: { name: string; slug: string; logo: string };
}

export interface WorldHooks {
  /** A user was scheduled for deletion (connections are deregistered at once). */
  userDeleted: Hook<[Partition, string]>;
  /** A user's grace period ended: purge everything of theirs. */
  userPurged: Hook<[Partition, string]>;
  /** Queues the deletion of a user and its data at `at`, without a grace period (demo users expiring); users installs it. */
  expireUserAt: (partition: Partition, userId: string, at: number) => void;
  /** Answers a user's connected sources; wearables installs the real one. */
  connectedSources: (partition: Partition, userId: string) => ConnectedSource[];
  /**
   * A number that moves whenever a user's connected sources in this world may have changed (a
   * view made of a user is kept while it stays the same: issue 33's keyed reads); wearables
   * installs it.
   */
  connectedSourcesVersion: () => number;
}

export interface WorldOptions {
  seed: number;
  /** Users in the first team's sandbox environment. */
  users: number;
  /** Users in every other team environment. */
  usersElsewhere: number;
  /** Whether the sandbox's 50-user cap applies. */
  limits: boolean;
  /** The periodic wearable feed's mode at world start. */
  feed: FeedMode;
  /** `default` (seeded demo data) or `empty` (org, teams and keys only). */
  world: WorldKind;
  /** How lab orders move unless a team says otherwise: on the clock, or only when simulated (the real sandbox). */
  labsProgression: LabsProgression;
}

/** `clock`: lab orders step on the sandbox clock; `manual`: only `POST /v3/order/{id}/test` moves them. */
export type LabsProgression = 'clock' | 'manual';

/** Which world a sandbox builds: the seeded demo world, or the org, teams and keys only. */
export type WorldKind = 'default' | 'empty';

/** `auto`: only where someone listens; `on`: always; `off`: never. */
export type FeedMode = 'auto' | 'on' | 'off';

export interface World {
  readonly options: WorldOptions;
  readonly seed: number;
  readonly clock: Clock;
  readonly scheduler: Scheduler;
  readonly ids: IdFactory;
  readonly tenancy: Tenancy;
  readonly events: EventBus;
  readonly hooks: WorldHooks;
  /** World-level stores of areas (catalogues, delivery log, ...). */
  readonly slots: Map<symbol, unknown>;
  /** What the sandbox keeps across its worlds (the request journal): the same map in every world it builds. */
  readonly kept: Map<symbol, unknown>;
  /** Background work (e.g. webhook POSTs) the control plane can wait for. */
  track(work: Promise<unknown>): void;
  /** Resolves when all tracked background work has finished. */
  settle(): Promise<void>;
  /** Whether tracked background work is in flight (a saved world waits for a moment without: engine/persist-log.ts). */
  busy(): boolean;
  /** Logs an engine-side problem (never a response body). */
  log(message: string, error?: unknown): void;
  /** The addresses the sandbox is served at (set by the adapter or CLI). */
  urls: { base: string; management: string };
  /** Files the sandbox serves but does not build (set by the Node adapters; absent in a browser). */
  assets: AssetSources;
}

/** Readers of packaged files, by purpose: `docs` reads the `/docs` page's assets (swagger-ui-dist). */
export interface AssetSources {
  docs?: (file: string) => Promise<Uint8Array | undefined>;
}

export function createHooks(): WorldHooks {
  return {
    userDeleted: new Hook(),
    userPurged: new Hook(),
    expireUserAt: () => undefined,
    connectedSources: () => [],
    connectedSourcesVersion: () => 0,
  };
}

/**
 * Where a world slot lives: `state` (the world's stores, in `world.slots`: part of its snapshot),
 * `aside` (what the world holds beside its state, never snapshotted: caches, its log's handle), or
 * `kept` (kept across the sandbox's worlds, in `world.kept`: the request journal).
 */
export type SlotPlace = 'state' | 'aside' | 'kept';

/** Each world's `aside` slots: the one map keyed by worlds (design.md rule 17's "one way to attach state"). */
const asides = new WeakMap<World, Map<symbol, unknown>>();

function placeOf(world: World, place: SlotPlace): Map<symbol, unknown> {
  if (place === 'state') return world.slots;
  if (place === 'kept') return world.kept;
  let aside = asides.get(world);
  if (aside === undefined) {
    aside = new Map();
    asides.set(world, aside);
  }
  return aside;
}

/**
 * A lazily created world-level store of one area: the one way to attach state to a world (no
 * module keeps its own map keyed by worlds; test/engine/architecture.test.ts holds it).
 */
export function worldSlot<T>(name: string, create: (world: World) => T, place: SlotPlace = 'state'): WorldSlot<T> {
  const key = Symbol(name);
  // A saved world names its stores (engine/world-codec.ts): one name per store.
  if (place === 'state') nameSymbol(key, name);
  const get = (world: World): T => {
    const slots = placeOf(world, place);
    let value = slots.get(key) as T | undefined;
    if (value === undefined) {
      value = create(world);
      slots.set(key, value);
    }
    return value;
  };
  return Object.assign(get, {
    peek: (world: World) => placeOf(world, place).get(key) as T | undefined,
    put: (world: World, value: T) => void placeOf(world, place).set(key, value),
  });
}

/** A world-level store's accessor: creates it on first use; `peek` reads it without creating it, `put` replaces it. */
export interface WorldSlot<T> {
  (world: World): T;
  peek(world: World): T | undefined;
  put(world: World, value: T): void;
}

/** A lazily created per-partition store of one area. */
export function partitionSlot<T>(
  name: string,
  create: (partition: Partition, world: World) => T,
): (partition: Partition, world: World) => T {
  const key = Symbol(name);
  nameSymbol(key, `partition:${name}`);
  return (partition, world) => {
    let value = partition.slots.get(key) as T | undefined;
    if (value === undefined) {
      value = create(partition, world);
      partition.slots.set(key, value);
    }
    return value;
  };
}
