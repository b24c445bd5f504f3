/**
 * A world saved as its state (issue 47, docs/simulated/engine.md "The state form"): the clock's
 * time, the id counters, the tenancy (orgs, teams, keys and every team environment's partition
 * with its stores), the event journal, every world-level store and the scheduler's pending jobs,
 * in the state form of engine/world-codec.ts. Loading puts it into a world built from the same
 * options with nothing seeded (engine/build-world.ts `bare`): the areas' wiring (hooks, event
 * subscribers, options) is code and comes with the build; what changed is all in the state.
 */
import { type Json, STATE_FORM, decodeState, encodeState, WorldCodecError } from './world-codec.js';
import type { EventBusState } from './events.js';
import { Job, type SchedulerState } from './scheduler.js';
import type { World } from './world.js';

/** Fields of the engine's own parts that are not state (wiring, caches derived from the seed). */
const NOT_STATE = {
  ids: ['seed', 'salts'],
  tenancy: ['ids', 'teamDeleted'],
} as const;

/** The world's engine parts: a store that points at one is saved pointing at it, by name. */
function partsOf(world: World): Array<[string, object]> {
  return [
    ['world', world],
    ['scheduler', world.scheduler],
    ['clock', world.clock],
    ['ids', world.ids],
    ['tenancy', world.tenancy],
    ['events', world.events],
    ['hooks', world.hooks],
  ];
}

function fieldsOf(obj: object, skip: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(obj)) if (!skip.includes(key)) out[key] = (obj as Record<string, unknown>)[key];
  return out;
}

interface StateRoot {
  clock: { base: number };
  ids: Record<string, unknown>;
  tenancy: Record<string, unknown>;
  events: EventBusState;
  slots: Map<symbol, unknown>;
  scheduler: SchedulerState;
}

const quietChecks: Array<(world: World) => boolean> = [];

/**
 * Registers what an area says of a moment between two jobs of an advance: whether its state is all
 * there is (webhook delivery: no barrier's budget in use), so a checkpoint there loses nothing.
 */
export function registerQuietCheck(check: (world: World) => boolean): void {
  quietChecks.push(check);
}

/** Whether every area is quiet between two jobs (`registerQuietCheck`). */
export function quietBetweenJobs(world: World): boolean {
  return quietChecks.every((check) => check(world));
}

/** The world's state (JSON): what `loadWorldState` puts back into a bare world of the same build. */
export function saveWorldState(world: World): { form: number; state: Json } {
  const root: StateRoot = {
    clock: world.clock.saveState(),
    ids: fieldsOf(world.ids, NOT_STATE.ids),
    tenancy: fieldsOf(world.tenancy, NOT_STATE.tenancy),
    events: world.events.saveState(),
    slots: world.slots,
    scheduler: world.scheduler.save(),
  };
  const parts = new Map<object, string>(partsOf(world).map(([name, part]) => [part, name]));
  return { form: STATE_FORM, state: encodeState(root, parts) };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isCount = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;

/** The decoded root, each part of the shape `saveWorldState` writes (a WorldCodecError naming the first that is not). */
function checked(root: unknown): StateRoot {
  const fail = (what: string): never => {
    throw new WorldCodecError(`invalid state: ${what}`);
  };
  if (!isObject(root) || !(root.slots instanceof Map)) return fail('no stores');
  const { clock, ids, tenancy, events, scheduler } = root;
  if (!isObject(clock) || !Number.isFinite(clock.base)) fail('clock.base is not a time');
  if (!isObject(ids) || !(ids.counters instanceof Map)) fail('ids.counters is not a Map');
  if (!isObject(tenancy) || !(tenancy.partitions instanceof Map) || !(tenancy.teams instanceof Map))
    fail('tenancy has no teams or partitions');
  if (
    !isObject(events) ||
    !isCount(events.seq) ||
    !isCount(events.filteredCount) ||
    typeof (events.journal as { push?: unknown } | null)?.push !== 'function'
  )
    fail('events is not an event journal');
  if (!isObject(scheduler) || !isCount(scheduler.seq) || !Array.isArray(scheduler.jobs) || !scheduler.jobs.every((j) => j instanceof Job))
    fail('scheduler.jobs is not a list of jobs');
  return root as unknown as StateRoot;
}

/** Puts a saved state into a bare world built from the same document (nothing runs meanwhile). */
export function loadWorldState(world: World, saved: { form: number; state: unknown }): void {
  if (saved.form !== STATE_FORM) throw new WorldCodecError(`state form ${saved.form}; this build reads form ${STATE_FORM}`);
  const parts = new Map<string, object>(partsOf(world));
  const root = checked(decodeState(saved.state, parts));
  world.clock.loadState(root.clock);
  Object.assign(world.ids, root.ids);
  Object.assign(world.tenancy, root.tenancy);
  world.events.loadState(root.events);
  world.slots.clear();
  for (const [key, value] of root.slots) world.slots.set(key, value);
  world.scheduler.load(root.scheduler);
}
