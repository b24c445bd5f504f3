/**
 * Per-store save/load (issue 40 item 5; DECISIONS.md 2026-11-29): a world is saved as its build
 * plus the log of inputs that changed it, and replaying them gives the same world. A store that
 * also changes on requests the log does not keep (a fault rule fired by a GET: reads are never
 * logged) registers here how to write its state as data and read it back. A saved world (world
 * document `stores`, the state file's end line) carries what each registered store saved; a world
 * rebuilt from it replays its log, then each store loads its own state over what the replay made.
 *
 * Issue 47 (Worlds II) generalises it: every store saves and loads its state this way.
 */
import type { World } from './world.js';

/** JSON data. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface StoreState {
  /** The store's key in `stores` (stable: saved worlds name it). */
  key: string;
  /** The store's state as data, or undefined when it has none to save (then it is not written). */
  save(world: World): Json | undefined;
  /** Puts the state back (after the log's replay); `data` is what `save` wrote, checked here. */
  load(world: World, data: unknown): void;
}

const registered: StoreState[] = [];

/** Registers a store (once per key; a module registers at load). */
export function registerStoreState(store: StoreState): void {
  const i = registered.findIndex((s) => s.key === store.key);
  if (i >= 0) registered[i] = store;
  else registered.push(store);
}

/** Every registered store's saved state, or undefined when none has any. */
export function saveStores(world: World): Record<string, Json> | undefined {
  let out: Record<string, Json> | undefined;
  for (const store of registered) {
    const data = store.save(world);
    if (data !== undefined) (out ??= {})[store.key] = data;
  }
  return out;
}

/** Loads each registered store's state from `stores` (a store absent there keeps what the replay made). */
export function loadStores(world: World, stores: Record<string, unknown> | undefined): void {
  if (stores === undefined) return;
  for (const store of registered) if (store.key in stores) store.load(world, stores[store.key]);
}
