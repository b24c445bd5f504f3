/**
 * The bytes of a GET answer rendered once and handed out again while the answer stays the same
 * (issue 33: `JSON.stringify` of a view was the largest part of a read). Content-addressed: the
 * route and path only pick the candidate; the new view is compared, value by value and key by
 * key in order, with a flat record ("tape") of the view the bytes were rendered from, so the bytes
 * handed out are always exactly `JSON.stringify` of the new view. Nothing is invalidated and
 * nothing can go stale: a view that changed in any way renders anew. Only plain data is
 * recorded (plain objects, arrays, strings, finite numbers, booleans, null); anything else (a
 * class instance, a `toJSON`, a function) is rendered every time.
 *
 * A view its maker sealed (`sealView`: frozen through and through, so its JSON can never change)
 * is rendered once and its bytes kept with the view itself, whatever path reads it: an area that
 * hands out the same sealed view while its record is unchanged (users.ts `userView`) answers a read
 * without the view being walked or rendered again (issue 33's keyed reads).
 */
import type { Route } from './route.js';
import { jsonBytes } from './render.js';

const OPEN_OBJECT: unknown = Object.freeze({ token: '{' });
const OPEN_ARRAY: unknown = Object.freeze({ token: '[' });
const CLOSE: unknown = Object.freeze({ token: ']}' });

/** Longest tape recorded, and largest body kept (larger views are rendered every time). */
const MAX_TOKENS = 1024;
const MAX_BYTES = 16 * 1024;
/** Paths remembered (all routes together) before the memo starts over: at most about 24 MB. */
const MAX_PATHS = 1024;
/** A path whose view changed this many times in a row is no longer recorded. */
const MAX_CHANGES = 3;

/** `Entry.changes` of a path seen once: nothing recorded yet. */
const SEEN_ONCE = -1;

interface Entry {
  /** The view's tape, or null: not recorded (too large, not plain data, or changing). */
  tape: unknown[] | null;
  bytes: Uint8Array;
  changes: number;
}

let byRoute = new WeakMap<Route, Map<string, Entry>>();
let remembered = 0;

/** The bytes of each sealed view (EMPTY until its first render), held as long as the view is. */
const sealed = new WeakMap<object, Uint8Array>();

/**
 * Freezes a plain-data view through and through and marks it sealed: its bytes are rendered once.
 * Only for a view nothing will write to again (every object and array in it is frozen here).
 */
export function sealView<T extends object>(view: T): T {
  deepFreeze(view);
  sealed.set(view, EMPTY);
  return view;
}

function deepFreeze(value: unknown): void {
  if (value === null || typeof value !== 'object') return;
  Object.freeze(value);
  const object = value as Record<string, unknown>;
  for (const key in object) deepFreeze(object[key]);
}

/** The JSON bytes of a GET answer's view, rendered again only when it differs from the last one. */
export function renderedJson(route: Route, path: string, view: unknown): Uint8Array {
  if (typeof view === 'object' && view !== null) {
    const kept = sealed.get(view);
    if (kept !== undefined) {
      if (kept !== EMPTY) return kept;
      const bytes = own(jsonBytes(view));
      sealed.set(view, bytes);
      return bytes;
    }
  }
  let paths = byRoute.get(route);
  const entry = paths?.get(path);
  if (entry !== undefined) {
    if (entry.tape !== null && matches(view, entry.tape)) {
      entry.changes = 0;
      return entry.bytes;
    }
    const bytes = jsonBytes(view);
    if (entry.changes === SEEN_ONCE) {
      // Asked for a second time: worth recording.
      entry.changes = 0;
      entry.tape = tapeOf(view, bytes);
    } else {
      entry.changes++;
      entry.tape = entry.tape === null || entry.changes >= MAX_CHANGES ? null : tapeOf(view, bytes);
    }
    entry.bytes = entry.tape === null ? EMPTY : own(bytes);
    return bytes;
  }
  const bytes = jsonBytes(view);
  if (remembered >= MAX_PATHS) {
    byRoute = new WeakMap();
    remembered = 0;
    paths = undefined;
  }
  if (paths === undefined) byRoute.set(route, (paths = new Map()));
  // A path seen for the first time is only noted: a world read once per path (many users, each
  // read once) pays no recording; the second read records the view, the third is served from it.
  paths.set(path, { tape: null, bytes: EMPTY, changes: SEEN_ONCE });
  remembered++;
  return bytes;
}

const EMPTY = new Uint8Array(0);

/** Bytes kept by the memo: a copy of a pooled view, so a kept entry holds no pool alive. */
function own(bytes: Uint8Array): Uint8Array {
  return bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
}

function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** The tape of a plain-data view, or null when it is not plain data or too large. */
function tapeOf(view: unknown, bytes: Uint8Array): unknown[] | null {
  if (bytes.byteLength > MAX_BYTES) return null;
  const tape: unknown[] = [];
  return record(view, tape) ? tape : null;
}

function record(value: unknown, tape: unknown[]): boolean {
  if (tape.length >= MAX_TOKENS) return false;
  if (value === null || typeof value === 'string' || typeof value === 'boolean') {
    tape.push(value);
    return true;
  }
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return false;
    tape.push(value);
    return true;
  }
  if (typeof value !== 'object') return false;
  if (Array.isArray(value)) {
    tape.push(OPEN_ARRAY, value.length);
    for (let i = 0; i < value.length; i++) if (!record(value[i], tape)) return false;
    tape.push(CLOSE);
    return true;
  }
  if (!isPlainObject(value)) return false;
  tape.push(OPEN_OBJECT);
  const object = value as Record<string, unknown>;
  for (const key in object) {
    if (!Object.hasOwn(object, key)) return false;
    const item = object[key];
    // JSON leaves out a key whose value is undefined: so does the tape.
    if (item === undefined) continue;
    tape.push(key);
    if (!record(item, tape)) return false;
  }
  tape.push(CLOSE);
  return true;
}

/** Whether `view` is, token for token, the view `tape` was recorded from. */
function matches(view: unknown, tape: readonly unknown[]): boolean {
  const at = walk(view, tape, 0);
  return at === tape.length;
}

/** The tape position after `value` when it matches from `at`, or -1. */
function walk(value: unknown, tape: readonly unknown[], at: number): number {
  if (at >= tape.length) return -1;
  if (value === null || typeof value !== 'object') return tape[at] === value ? at + 1 : -1;
  if (Array.isArray(value)) {
    if (tape[at] !== OPEN_ARRAY || tape[at + 1] !== value.length) return -1;
    let i = at + 2;
    for (let k = 0; k < value.length; k++) {
      i = walk(value[k], tape, i);
      if (i < 0) return -1;
    }
    return tape[i] === CLOSE ? i + 1 : -1;
  }
  if (tape[at] !== OPEN_OBJECT || !isPlainObject(value)) return -1;
  let i = at + 1;
  const object = value as Record<string, unknown>;
  for (const key in object) {
    const item = object[key];
    if (item === undefined) continue;
    if (tape[i] !== key) return -1;
    i = walk(item, tape, i + 1);
    if (i < 0) return -1;
  }
  return tape[i] === CLOSE ? i + 1 : -1;
}
