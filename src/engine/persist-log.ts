/**
 * The recording half of a world's log (engine/persist.ts `WorldLog` extends it): which requests
 * enter it (dispatch's `admit` seam: a request that authenticated and passed validation, written
 * before its handler runs, taken back when its handler refused it), the sink it writes through
 * first (the state file), the bounds it keeps in memory (entries, bytes, one input), and the
 * document it saves (docs/simulated/engine.md "Worlds that last").
 */
import { toBase64 } from './bytes.js';
import { apiError } from './errors.js';
import type { SimRequest, SimResponse } from './http-types.js';
import type { LogEntry, LogSink, OutcomeEntry, RequestEntry, SavedState, WorldBuild, WorldDocument } from './persist-types.js';
import {
  entrySize,
  LogSinkError,
  STATE_FILE_COMPACT_BYTES,
  WORLD_ENTRY_BYTES,
  WORLD_FORMAT,
  WORLD_LOG_BYTES,
  WORLD_LOG_LIMIT,
} from './persist-types.js';
import { detailResponse } from './render.js';
import { saveStores } from './store-state.js';
import { quietBetweenJobs, saveWorldState } from './world-state.js';
import type { World } from './world.js';

/** The control route that advances the clock (its request may be checkpointed between its jobs). */
const ADVANCE_PATH = '/_sandbox/clock/advance';

/**
 * Paths whose requests replace the world or the sandbox rather than change it, or change nothing
 * in it (a receiver certification only sends requests out): never logged.
 */
const UNLOGGED = ['/_sandbox/reset', '/_sandbox/scenario', '/_sandbox/snapshots', '/_sandbox/world', '/_sandbox/receivers'];

/** What `admit` reads of dispatch's `Exchange` (restated: the engine's log imports no dispatch). */
export interface AdmitExchange {
  route?: { changesOnRead?: string };
  startedIn?: World;
  startedAt?: number;
  startedDuring?: boolean;
  logged?: object;
}

export abstract class LogCore {
  readonly entries: LogEntry[];
  /** `replay` while the world is rebuilt from a document. */
  protected mode: 'replay' | 'live';
  /** Receivers' attempts so far, by url, then message id (the key of their answers). */
  protected readonly calls = new Map<string, Map<string, number>>();
  /** Unkeyed wall-clock reads not yet attached to an entry (live), or still to answer (replay). */
  protected walls: number[] = [];
  /**
   * Keyed wall-clock reads not yet attached to an entry (live), by key: a dictionary (no
   * prototype, so V8 keeps it in dictionary mode) that becomes the entry's `wk` as it is, where a
   * `Map` turned into an object by `Object.fromEntries` built a new hidden class for every
   * attempt's unique key.
   */
  protected pendingKeyed: Record<string, number[]> | null = null;
  sink: LogSink | null = null;
  /** Entries kept in memory at most (WORLD_LOG_LIMIT; a test may lower it). */
  limit = WORLD_LOG_LIMIT;
  /** Bytes of entries kept in memory at most (WORLD_LOG_BYTES; a test may lower it). */
  byteLimit = WORLD_LOG_BYTES;
  /** Bytes one request entry may take (WORLD_ENTRY_BYTES; a test may lower it). */
  entryLimit = WORLD_ENTRY_BYTES;
  /** About the bytes of the entries kept in memory (their JSON). */
  private bytes = 0;
  /** Set once the in-memory log passed `limit` and was dropped: the world cannot be saved from memory. */
  overflowed = false;
  /** Which limit it passed (what a refused save names). */
  private overflowedBy = '';
  /** The last entry added and its size (what `retract` may take back). */
  private lastAdded: object | null = null;
  private lastSize = 0;
  /** Why the state file missed an entry it could not refuse (then every input answers 503). */
  private broken: string | null = null;

  /** The stores' state last given to the sink (JSON; '' for none). */
  private lastStores = '';

  /** The world this log records (engine/persist.ts `attachWorldLog`). */
  world: World | null = null;
  /**
   * The world's state the entries follow (issue 47, docs/simulated/engine.md "Checkpoints"): null
   * while they follow the build. A checkpoint is taken when the world is quiet (`quiet`): when it
   * is saved, and when the entries in memory pass `limit` or `byteLimit`.
   */
  private saved: { form: number; state?: unknown; text?: string } | null;

  /** Whether the entries follow a checkpoint (not the build). */
  get hasCheckpoint(): boolean {
    return this.saved !== null;
  }

  /**
   * The last checkpoint: its objects right after it was taken (or read), its JSON once the world
   * moved on (an input was logged since: a fraction of its objects' memory), parsed when asked for.
   */
  private checkpoint(): SavedState | null {
    const saved = this.saved;
    if (saved === null) return null;
    return { form: saved.form, state: saved.state ?? JSON.parse(saved.text as string) };
  }
  /** Logged requests whose answers have not left yet. */
  private open = 0;
  /** The entries in memory passed a bound while the world was busy: a checkpoint at its next quiet moment. */
  private due = false;
  /** About the bytes given to the sink since it last wrote a whole world (what its compaction waits for). */
  private sinkTail = 0;
  /** Bytes of inputs the sink takes before it is compacted into a checkpoint (STATE_FILE_COMPACT_BYTES; a test may lower it). */
  compactBytes = STATE_FILE_COMPACT_BYTES;
  private compacting = false;

  constructor(
    readonly build: WorldBuild,
    replaying: readonly LogEntry[] | null,
    readonly version: number,
    checkpoint: SavedState | null = null,
  ) {
    this.mode = replaying ? 'replay' : 'live';
    this.entries = replaying ? [...replaying] : [];
    this.saved = checkpoint;
  }

  /**
   * Whether the world is quiet: live, nothing of it in flight (no request whose answer has not
   * left, no advance running, no tracked background work such as a webhook attempt): its state
   * is then all there is, and a checkpoint replaces the entries before it. A world restored from a
   * version 1 document keeps its log (its wall-clock reads are in the old form).
   */
  quiet(): boolean {
    const w = this.world;
    return w !== null && this.mode === 'live' && this.version >= 2 && this.open === 0 && !w.scheduler.running && !w.busy();
  }

  /** Requests to `POST /_sandbox/clock/advance` whose answers have not left (a long advance may be checkpointed between its jobs). */
  private advancing = 0;

  /**
   * Between two jobs of an advance (`Scheduler.betweenJobs`): when a checkpoint is due (the
   * entries in memory or the state file's inputs passed their bound) and nothing but the advance
   * is in flight, the world's state is saved here and the inputs become what is left of the
   * advance (`{"k":"adv","ms":...}`), so a month-long advance with a busy receiver keeps the file
   * and the memory bounded. Not while anything else runs: a request's answer, an attempt in
   * flight, a job a request made during this advance, a delivery barrier's budget in use.
   */
  midAdvance(target: number): void {
    const w = this.world;
    if (w === null || this.mode !== 'live' || this.version < 2 || this.broken !== null) return;
    const fileDue = this.sink?.write !== undefined && this.sinkTail > this.compactBytes;
    if (!this.due && !fileDue) return;
    // Attempts in flight are the areas' to tell (`quietBetweenJobs`): the world's tracked promises settle a turn later.
    if (this.open !== this.advancing || w.scheduler.foreignPending() || !quietBetweenJobs(w)) return;
    const left = target - w.clock.base();
    this.takeCheckpoint();
    const rest: LogEntry = { k: 'adv', ms: Math.max(0, left) };
    this.entries.push(rest);
    this.bytes = 64;
    if (fileDue) this.compact();
  }

  /** Takes a checkpoint now (the world is quiet): the entries before it are no longer needed. */
  private takeCheckpoint(): void {
    // Kept as its objects until the world moves on (a save answers them as they are), then as text.
    this.saved = saveWorldState(this.world as World);
    this.entries.length = 0;
    this.bytes = 0;
    this.calls.clear();
    this.walls = [];
    this.pendingKeyed = null;
    this.lastAdded = null;
    this.overflowed = false;
    this.overflowedBy = '';
    this.due = false;
  }

  /**
   * A quiet moment (an answer left, an advance ended): a checkpoint when one is due, and the
   * state file's compaction when its inputs passed `compactBytes` (after this turn of the event
   * loop: the answer leaves first).
   */
  settled(): void {
    if (this.due && this.quiet()) this.takeCheckpoint();
    if (this.sinkTail > this.compactBytes && this.sink?.write && !this.compacting) {
      this.compacting = true;
      setTimeout(() => this.compactWhenQuiet(), 0);
    }
  }

  /**
   * Compacts once the world is quiet: while only its background work (webhook attempts) is in
   * flight, after that work settles; while a request or an advance runs, their end tries again.
   */
  private compactWhenQuiet(): void {
    const w = this.world;
    if (this.quiet() || w === null || this.mode !== 'live' || this.open > 0 || w.scheduler.running) {
      this.compacting = false;
      this.compact();
      return;
    }
    void w.settle().then(() => setTimeout(() => this.compactWhenQuiet(), 0));
  }

  /**
   * Compacts the sink into a checkpoint and the inputs since (nothing when the world is busy: the
   * next quiet moment does); between an advance's jobs, `midAdvance` took the checkpoint.
   */
  compact(): void {
    const sink = this.sink;
    if (!sink?.write || this.broken !== null) return;
    if (this.quiet()) this.takeCheckpoint();
    else if (!(this.entries.length === 1 && this.entries[0]?.k === 'adv' && this.saved !== null)) return;
    try {
      sink.write(this.document(), true);
      this.sinkTail = 0;
    } catch (error) {
      if (!(error instanceof LogSinkError)) throw error;
      // The file keeps its last good world; its sink refuses inputs (503) until a whole world is written.
    }
  }

  /** The sink wrote a whole world: its inputs start again. */
  wroteWhole(): void {
    this.sinkTail = 0;
  }

  /**
   * Adds an entry: to the sink first (a sink that cannot take it throws a LogSinkError and the
   * entry is not kept: the log stays as it was), then in memory.
   */
  private add(entry: LogEntry, size = 64): void {
    if (this.mode === 'replay') return;
    const saved = this.saved;
    if (saved?.state !== undefined) this.saved = { form: saved.form, text: JSON.stringify(saved.state) };
    const walls = this.walls;
    const keyed = this.pendingKeyed;
    if (walls.length > 0) {
      entry.w = walls;
      this.walls = [];
      size += walls.length * 16;
    }
    if (keyed !== null) {
      entry.wk = keyed;
      this.pendingKeyed = null;
      size += 64;
    }
    try {
      if (this.sink !== null) this.sinkTail += this.sink.append(entry) ?? size;
    } catch (error) {
      this.walls = walls;
      this.pendingKeyed = keyed;
      delete entry.w;
      delete entry.wk;
      throw error;
    }
    this.lastAdded = entry;
    this.lastSize = size;
    if (!this.overflowed) {
      this.entries.push(entry);
      this.bytes += size;
      // Past a bound: a checkpoint at the next quiet moment; only a world that stays busy far past it drops its entries.
      if (this.entries.length > this.limit || this.bytes > this.byteLimit) this.due = true;
      if (this.entries.length > 4 * this.limit) this.drop(`${this.limit} inputs with no quiet moment to save its state`);
      else if (this.bytes > 2 * this.byteLimit) this.drop(`${this.byteLimit} bytes of inputs with no quiet moment to save its state`);
    }
  }

  /** Takes back the last entry added (an input its handler refused), from the sink and memory; nothing when another came after it. */
  private retract(entry: object): void {
    if (this.lastAdded !== entry || this.mode === 'replay') return;
    const e = entry as LogEntry;
    if (this.sink?.retract && !this.sink.retract()) return;
    this.lastAdded = null;
    if (!this.overflowed && this.entries.at(-1) === e) {
      this.entries.pop();
      this.bytes -= this.lastSize;
    }
    // Its wall-clock reads go with the next entry.
    if (e.w) this.walls = [...e.w, ...this.walls];
    if (e.wk) {
      const pending = (this.pendingKeyed ??= Object.create(null) as Record<string, number[]>);
      for (const key in e.wk) pending[key] = [...(e.wk[key] as number[]), ...(pending[key] ?? [])];
    }
  }

  /** Past a limit: the in-memory entries go (a state file keeps them), and without a file what only they needed. */
  private drop(limit: string): void {
    this.overflowed = true;
    this.overflowedBy = limit;
    this.entries.length = 0;
    this.bytes = 0;
    if (this.sink === null) this.calls.clear();
  }

  /**
   * Whether a request that authenticated and passed validation is one the world's log keeps: a
   * write (or a read whose route says why it changes the world) that neither replaces the world
   * nor the sandbox (UNLOGGED).
   */
  private keeps(req: SimRequest, route: { changesOnRead?: string }): boolean {
    const method = req.method.toUpperCase();
    if ((method === 'GET' || method === 'HEAD') && !route.changesOnRead) return false;
    return !UNLOGGED.some((p) => req.path === p || req.path.startsWith(`${p}/`));
  }

  /**
   * The dispatch seam's `admit` (engine/dispatch.ts): a request that authenticated and passed
   * validation, before its handler runs. One the log keeps is written now (to the state file
   * first, then in memory), so an input that cannot be kept is refused with nothing applied: 413
   * naming the limit for one larger than `entryLimit` (or past the state file's size), 503 naming
   * the cause when the state file cannot be written. Refused requests (401, 404, 422, 413 ...)
   * never get here: the log holds only what a replay needs.
   */
  admit(world: World, req: SimRequest, exchange: AdmitExchange): SimResponse | undefined {
    if (this.mode === 'replay' || !exchange.route || !this.keeps(req, exchange.route)) return undefined;
    // Nothing keeps it (the in-memory log was dropped, no state file): no entry is built.
    if (this.overflowed && this.sink === null) return undefined;
    const here = exchange.startedIn === world;
    const entry: RequestEntry = {
      ...(here && exchange.startedDuring ? { d: true as const } : {}),
      k: 'req',
      at: here && exchange.startedAt !== undefined ? exchange.startedAt : world.clock.now(),
      m: req.method.toUpperCase(),
      s: req.surface,
      p: req.path,
      q: req.query,
      h: req.headers,
      b: toBase64(req.rawBody),
    };
    if (this.broken !== null && this.sink !== null)
      return detailResponse(
        503,
        `The state file is behind this world and takes no more inputs (${this.broken}): restart the sandbox (it restores the file's last good world)`,
      );
    const size = entrySize(entry);
    if (size > this.entryLimit)
      return detailResponse(
        413,
        `This request would take about ${size} bytes in the world's log, more than the ${this.entryLimit} bytes it keeps of one input (the body is kept whole for replay): send a smaller body`,
      );
    try {
      this.add(entry, size);
    } catch (error) {
      if (error instanceof LogSinkError) return detailResponse(error.status, error.message);
      throw error;
    }
    exchange.logged = entry;
    this.open++;
    if (entry.p === ADVANCE_PATH) this.advancing++;
    return undefined;
  }

  /**
   * After an answer: wall-clock reads made since the last entry (an attempt's latency after its
   * answer) go before this answer does; with a state file, the stores' state when the request
   * changed it (a fault rule a GET fired) goes to the file's end line.
   */
  request(world: World, res: SimResponse, exchange: AdmitExchange): void {
    if (exchange.logged !== undefined && this.open > 0) {
      this.open--;
      if ((exchange.logged as RequestEntry).p === ADVANCE_PATH && this.advancing > 0) this.advancing--;
    }
    // The handler refused it (404 unknown user, 409, 400 ...: nothing applied): taken back when nothing came after it.
    if (exchange.logged !== undefined && res.status >= 400 && res.status < 500) this.retract(exchange.logged);
    if (this.sink?.checkpoint && this.mode === 'live') {
      const stores = saveStores(world);
      const text = stores === undefined ? '' : JSON.stringify(stores);
      if (text !== this.lastStores) {
        try {
          this.sink.checkpoint(stores);
          this.lastStores = text;
        } catch (error) {
          if (!(error instanceof LogSinkError)) throw error;
        }
      }
    }
    if (this.walls.length > 0 || this.pendingKeyed !== null) {
      try {
        this.add({ k: 'wall' });
      } catch (error) {
        // The state file cannot take them: the reads stay pending and go with the next entry.
        if (!(error instanceof LogSinkError)) throw error;
      }
    }
    this.settled();
  }

  advance(ms: number): void {
    this.add({ k: 'adv', ms });
  }

  /**
   * Adds what the world did on its own (a receiver's answer): it cannot be refused. When the
   * state file cannot take it, the file stays at its last good state (the next start restores
   * that world, which sends the attempt again), the in-memory log keeps it, and from then on
   * every input is refused with 503 (`broken`): the file could no longer replay them.
   */
  protected safeAdd(entry: LogEntry): void {
    try {
      this.add(entry);
    } catch (error) {
      if (!(error instanceof LogSinkError)) throw error;
      this.broken = error.message;
      const sink = this.sink;
      this.sink = null;
      try {
        this.add(entry, 64 + ((entry as OutcomeEntry).r?.body.length ?? 0));
      } finally {
        this.sink = sink;
      }
    }
  }

  /**
   * The world as a document: its state now when it is quiet (a checkpoint, no inputs after it),
   * otherwise the last checkpoint and the inputs since (what is in flight finishes in the replay).
   */
  document(): WorldDocument {
    if (this.entries.length > 0 && this.quiet()) this.takeCheckpoint();
    if (this.overflowed)
      throw apiError(
        409,
        `This world stayed busy past ${this.overflowedBy}: its inputs are no longer kept in memory, so it cannot be saved until it is quiet (nothing in flight)`,
      );
    const checkpoint = this.checkpoint();
    const state = checkpoint === null ? {} : { state: checkpoint };
    return {
      format: WORLD_FORMAT,
      version: checkpoint === null ? this.version : 3,
      build: this.build,
      ...state,
      log: [...this.entries],
    };
  }
}
