/**
 * Saved worlds of one sandbox (`/_sandbox/snapshots`, `sandbox.snapshot(name)`): each is a world
 * document (engine/persist.ts) kept in memory, so restoring one rebuilds the world it names and
 * replays its inputs. Kept across resets and restores; gone with the sandbox.
 */
import { dispatch, type DispatchHooks } from './dispatch.js';
import type { SimRequest, SimResponse } from './http-types.js';
import {
  entryRequest,
  type LogEntry,
  type SnapshotInfo,
  type WorldControl,
  type WorldDocument,
  type WorldLog,
  worldLogOf,
} from './persist.js';
import { parseWorldDocument } from './persist-document.js';
import { saveStores } from './store-state.js';
import type { Router } from './router.js';
import type { World } from './world.js';

/** Most snapshots one sandbox keeps (each holds its world's log). */
const MAX_SNAPSHOTS = 100;

export class SnapshotStore {
  private readonly saved = new Map<string, { doc: WorldDocument; info: SnapshotInfo }>();

  /** Saves (or replaces) a snapshot; false when the store is full. */
  save(name: string, doc: WorldDocument, now: string): SnapshotInfo | null {
    if (!this.saved.has(name) && this.saved.size >= MAX_SNAPSHOTS) return null;
    const info = { name, now, seed: doc.build.seed, inputs: doc.log.length };
    this.saved.delete(name);
    this.saved.set(name, { doc, info });
    return info;
  }

  get(name: string): WorldDocument | undefined {
    return this.saved.get(name)?.doc;
  }

  list(): SnapshotInfo[] {
    return [...this.saved.values()].map((s) => s.info);
  }

  remove(name: string): boolean {
    return this.saved.delete(name);
  }
}

/** Inputs replayed between two turns of the event loop (issue 40: a replay never blocks the server for long). */
const REPLAY_CHUNK = 64;

/** Lets every microtask run (an attempt answered from the log finishes before the next input, as it did live). */
const macrotask = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * Replays a world's log into a world just built from the same document: each request at the
 * sandbox time it ran (due jobs run first, as they did), each in-process advance. Nothing leaves
 * the sandbox meanwhile (the world's log is replaying).
 */
export async function replayLog(world: World, router: Router, entries: readonly LogEntry[], log: WorldLog): Promise<void> {
  const hooks: DispatchHooks = {};
  const env = { world, router, adminToken: undefined, hooks, reset: () => undefined };
  const send = (req: SimRequest): Promise<SimResponse> => dispatch(env, req);
  log.replayDispatch = (e) => send(entryRequest(e));
  let since = 0;
  for (const [i, e] of entries.entries()) {
    if (e.k === 'out' || e.k === 'wall' || log.nestedAt(i)) continue;
    // Other requests (a health check, another world's) are answered between chunks: a long log never holds the server.
    if (++since >= REPLAY_CHUNK && log.idle) {
      since = 0;
      await macrotask();
    }
    if (e.k === 'adv') await world.scheduler.advance(e.ms);
    else if (!e.d) {
      // A realtime clock moved between requests: to the time this one ran (due jobs first). A manual one moves only by advances.
      const gap = e.at - world.clock.base();
      if (world.clock.mode === 'realtime' && gap > 0) await world.scheduler.advance(gap);
      await send(entryRequest(e));
    }
    if (log.answered()) await macrotask();
  }
  await log.replayNested();
  log.releaseHeld();
  log.replayDispatch = null;
}

/** The sandbox's methods over its saved worlds (`sandbox.snapshot(name)`, ...). */
export function snapshotMethods(store: SnapshotStore, current: () => World, replaceWith: (doc: WorldDocument) => Promise<void>) {
  const exportWorld = (): WorldDocument => {
    const doc = (worldLogOf(current()) as WorldLog).document();
    const stores = saveStores(current());
    return stores === undefined ? doc : { ...doc, stores };
  };
  return {
    snapshot(name: string): SnapshotInfo {
      const info = store.save(name, exportWorld(), current().clock.iso());
      if (!info) throw new RangeError(`Too many snapshots (${MAX_SNAPSHOTS}): delete one first`);
      return info;
    },
    restore(name: string): Promise<void> {
      const doc = store.get(name);
      if (!doc) return Promise.reject(new RangeError(`No snapshot named ${JSON.stringify(name)}`));
      return replaceWith(doc);
    },
    snapshots: (): SnapshotInfo[] => store.list(),
    deleteSnapshot: (name: string): boolean => store.remove(name),
    exportWorld,
    importWorld: async (doc: unknown): Promise<void> => replaceWith(parseWorldDocument(doc)),
  };
}

type Methods = ReturnType<typeof snapshotMethods> & { readonly world: World };

/** The control routes' view of those methods (`ctx.worlds`): restores answer the world now served. */
export function worldControl(sandbox: () => Methods): WorldControl {
  const served = () => ({ seed: sandbox().world.seed, now: sandbox().world.clock.iso() });
  return {
    snapshot: (name) => sandbox().snapshot(name),
    restore: async (name) => (await sandbox().restore(name), served()),
    list: () => sandbox().snapshots(),
    remove: (name) => sandbox().deleteSnapshot(name),
    export: () => sandbox().exportWorld(),
    import: async (doc) => (await sandbox().importWorld(doc), served()),
  };
}
