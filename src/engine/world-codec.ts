/**
 * The world's state as data (issue 47, docs/simulated/engine.md "The state form"): every store of
 * every area, the scheduler's jobs and the engine's own state written as JSON and read back into
 * the same object graph. Maps and Sets keep their order, objects reached twice stay one object
 * (a store's index and its rows, a job and the order that holds its handle), and references to the
 * world's engine parts (its scheduler, clock, tenancy ...) are named, not copied.
 *
 * The form, version 1 (`STATE_FORM`): JSON, where a value is
 * - `null`, a boolean, a string, or a finite number (not -0): itself; a string of LONG_STRING
 *   characters or more written before (an event's JSON kept by the journal and by its webhook
 *   message) is `{"$str":n}`, the n-th such string written (counted from 0, in writing order);
 * - an array: an array of values;
 * - a plain object: an object whose keys are its keys (a key starting with `$` gets one more `$`);
 * - a tagged object, one key starting with `$`: `{"$u":0}` undefined, `{"$num":"NaN"|"Infinity"|"-Infinity"|"-0"}`,
 *   `{"$big":"12"}` a bigint, `{"$re":"source","f":"flags"}` a regular expression, `{"$r":n}` the n-th object written before (counted from 0, in
 *   writing order), `{"$w":"scheduler"}` an engine part of the world, `{"$k":"provider:oura"}` a
 *   catalogue's object (`constantObjects`), `{"$sym":"users"}` a store's
 *   key, `{"$m":[k1,v1,k2,v2]}` a Map, `{"$s":[v1,v2]}` a Set, `{"$d":ms}` a Date, `{"$t":"Uint8Array","b":"<base64>"}`
 *   a typed array, `{"$n":{...}}` an object without prototype, `{"$c":"Name","f":{...}}` an instance
 *   of a registered class (its own fields, less those it declares as not state).
 * Arrays, objects, Maps, Sets, Dates, typed arrays and class instances are numbered in the order
 * they are first written (a depth-first walk), and the reader numbers them in the same order.
 *
 * What cannot be written is refused, naming where it was found: a function (a closure is not
 * state: a job is a kind and its arguments, engine/scheduler.ts), an instance of a class nobody
 * registered, a promise, a symbol no store owns. test/engine/world-state.test.ts saves a world that
 * went through every route, so a store holding such a thing fails it.
 */
import { fromBase64, toBase64 } from './bytes.js';

/** The version of the state form this build writes and reads. */
export const STATE_FORM = 1;

/** Strings this long or longer are written once and referred to after (`{"$str":n}`). */
const LONG_STRING = 200;

/** JSON data. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export class WorldCodecError extends Error {}

/** How a registered class is written: fields that are not state (rebuilt by `revive`), and how to rebuild them. */
export interface ClassCodec<T> {
  /** Own fields not written (caches, callbacks wired at construction). */
  skip?: readonly string[];
  /** Rebuilds what `skip` left out, once the whole state is read. */
  revive?: (value: T) => void;
}

interface ClassEntry {
  name: string;
  ctor: abstract new (...args: never[]) => unknown;
  proto: object;
  skip: ReadonlySet<string>;
  revive?: (value: never) => void;
}

const classesByProto = new Map<object, ClassEntry>();
const classesByName = new Map<string, ClassEntry>();

/**
 * Registers a class whose instances are state (a store, a queue): written as their own fields,
 * read back as an instance of the same class without running its constructor.
 */
export function dataClass<T>(name: string, ctor: abstract new (...args: never[]) => T, codec: ClassCodec<T> = {}): void {
  const entry: ClassEntry = {
    name,
    ctor,
    proto: ctor.prototype as object,
    skip: new Set(codec.skip ?? []),
    revive: codec.revive as ClassEntry['revive'],
  };
  const known = classesByName.get(name);
  if (known && known.proto !== entry.proto) throw new Error(`Two state classes named ${name}`);
  classesByName.set(name, entry);
  classesByProto.set(entry.proto, entry);
}

const constantsByObject = new Map<object, string>();
const constantsByKey = new Map<string, object>();

/**
 * Registers a catalogue's objects (a provider, a lab, a marker: module constants a store points
 * at and compares by identity): a saved world names them (`{"$k":"provider:oura"}`) and a loaded
 * one points at the same constants.
 */
export function constantObjects(kind: string, entries: Iterable<readonly [string, object]>): void {
  for (const [name, obj] of entries) {
    const key = `${kind}:${name}`;
    if (constantsByKey.has(key) && constantsByKey.get(key) !== obj) throw new Error(`Two catalogue objects named ${key}`);
    constantsByObject.set(obj, key);
    constantsByKey.set(key, obj);
  }
}

const symbolsByName = new Map<string, symbol>();
const namesBySymbol = new Map<symbol, string>();

/** Names a store's key (engine/world.ts slots): a saved world names its stores. */
export function nameSymbol(sym: symbol, name: string): void {
  if (symbolsByName.has(name) && symbolsByName.get(name) !== sym) throw new Error(`Two stores named ${JSON.stringify(name)}`);
  symbolsByName.set(name, sym);
  namesBySymbol.set(sym, name);
}

/** The store names registered so far. */
export function storeNames(): string[] {
  return [...symbolsByName.keys()];
}

const TYPED: Record<string, new (buffer: ArrayBuffer) => ArrayBufferView> = {
  Uint8Array,
  Int8Array,
  Uint16Array,
  Int16Array,
  Uint32Array,
  Int32Array,
  Float32Array,
  Float64Array,
};

/** Writes `value` (and everything it reaches) as the state form; `parts` names the world's engine parts. */
export function encodeState(value: unknown, parts: ReadonlyMap<object, string>): Json {
  const seen = new Map<object, number>();
  const strings = new Map<string, number>();
  const path: string[] = [];
  const fail = (what: string): never => {
    throw new WorldCodecError(`cannot save ${what} at ${path.join('') || '(root)'}`);
  };
  const own = (obj: object, skip?: ReadonlySet<string>): { [key: string]: Json } => {
    const out: { [key: string]: Json } = {};
    for (const key of Object.keys(obj)) {
      if (skip?.has(key)) continue;
      path.push(`.${key}`);
      out[key.startsWith('$') ? `$${key}` : key] = enc((obj as Record<string, unknown>)[key]);
      path.pop();
    }
    return out;
  };
  const enc = (v: unknown): Json => {
    switch (typeof v) {
      case 'string': {
        if (v.length < LONG_STRING) return v;
        const known = strings.get(v);
        if (known !== undefined) return { $str: known };
        strings.set(v, strings.size);
        return v;
      }
      case 'boolean':
        return v;
      case 'number':
        if (Number.isFinite(v) && !Object.is(v, -0)) return v;
        return { $num: Object.is(v, -0) ? '-0' : String(v) };
      case 'undefined':
        return { $u: 0 };
      case 'bigint':
        return { $big: v.toString() };
      case 'symbol': {
        const name = namesBySymbol.get(v);
        return name === undefined ? fail(`a symbol no store owns (${String(v)})`) : { $sym: name };
      }
      case 'function':
        return fail(`a function (${(v as { name?: string }).name || 'anonymous'}): a store keeps data, a job is a kind and its arguments`);
    }
    if (v === null) return null;
    const obj = v as object;
    const part = parts.get(obj);
    if (part !== undefined) return { $w: part };
    const constant = constantsByObject.get(obj);
    if (constant !== undefined) return { $k: constant };
    const ref = seen.get(obj);
    if (ref !== undefined) return { $r: ref };
    seen.set(obj, seen.size);
    if (Array.isArray(obj)) {
      const out: Json[] = new Array(obj.length);
      for (let i = 0; i < obj.length; i++) {
        path.push(`[${i}]`);
        out[i] = enc(obj[i]);
        path.pop();
      }
      return out;
    }
    const proto = Object.getPrototypeOf(obj) as object | null;
    if (proto === Object.prototype) return own(obj);
    if (proto === null) return { $n: own(obj) };
    if (proto === Map.prototype) {
      const out: Json[] = [];
      let i = 0;
      for (const [k, val] of obj as Map<unknown, unknown>) {
        path.push(`<key ${i}>`);
        out.push(enc(k));
        path.pop();
        path.push(`[${typeof k === 'string' ? JSON.stringify(k) : i}]`);
        out.push(enc(val));
        path.pop();
        i++;
      }
      return { $m: out };
    }
    if (proto === Set.prototype) {
      const out: Json[] = [];
      let i = 0;
      for (const item of obj as Set<unknown>) {
        path.push(`{${i++}}`);
        out.push(enc(item));
        path.pop();
      }
      return { $s: out };
    }
    if (obj instanceof Date) return { $d: obj.getTime() };
    if (obj instanceof RegExp) return { $re: obj.source, f: obj.flags };
    if (ArrayBuffer.isView(obj) && !(obj instanceof DataView)) {
      const name = obj.constructor.name;
      if (!(name in TYPED)) return fail(`a ${name}`);
      return { $t: name, b: toBase64(new Uint8Array(obj.buffer, obj.byteOffset, obj.byteLength)) };
    }
    const cls = classesByProto.get(proto);
    if (cls === undefined) return fail(`an instance of ${obj.constructor?.name ?? 'an unknown class'} (not a registered state class)`);
    const f = own(obj, cls.skip);
    if (!(obj instanceof Map)) return { $c: cls.name, f };
    // A Map of a registered class (an indexed map): its fields, then its entries as the Map itself holds them.
    const m: Json[] = [];
    for (const [k, val] of Map.prototype.entries.call(obj) as IterableIterator<[unknown, unknown]>) m.push(enc(k), enc(val));
    return { $c: cls.name, f, m };
  };
  return enc(value);
}

/** Reads the state form back (the inverse of `encodeState`); `parts` names the world's engine parts. */
export function decodeState(data: unknown, parts: ReadonlyMap<string, object>): unknown {
  const seen: unknown[] = [];
  const strings: string[] = [];
  const revivals: Array<() => void> = [];
  const fail = (what: string): never => {
    throw new WorldCodecError(`invalid state: ${what}`);
  };
  const fields = (target: Record<string, unknown>, src: unknown): void => {
    if (typeof src !== 'object' || src === null || Array.isArray(src)) fail('fields that are not an object');
    for (const key of Object.keys(src as object)) {
      target[key.startsWith('$$') ? key.slice(1) : key] = dec((src as Record<string, unknown>)[key]);
    }
  };
  const dec = (v: unknown): unknown => {
    if (v === null || typeof v !== 'object') {
      if (typeof v === 'number' && !Number.isFinite(v)) fail('a number that is not finite');
      if (typeof v === 'string' && v.length >= LONG_STRING) strings.push(v);
      return v;
    }
    if (Array.isArray(v)) {
      const out: unknown[] = new Array(v.length);
      seen.push(out);
      for (let i = 0; i < v.length; i++) out[i] = dec(v[i]);
      return out;
    }
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o);
    const tag = keys[0];
    if (tag === undefined || !tag.startsWith('$') || tag.startsWith('$$')) {
      const out: Record<string, unknown> = {};
      seen.push(out);
      fields(out, o);
      return out;
    }
    switch (tag) {
      case '$u':
        return undefined;
      case '$str': {
        const n = o.$str;
        if (typeof n !== 'number' || !(n in strings)) fail(`a reference to string ${String(n)} before it was written`);
        return strings[n as number];
      }
      case '$num':
        return o.$num === '-0' ? -0 : Number(o.$num);
      case '$big':
        return BigInt(String(o.$big));
      case '$r': {
        const n = o.$r;
        if (typeof n !== 'number' || !(n in seen)) fail(`a reference to object ${String(n)} before it was written`);
        return seen[n as number];
      }
      case '$w': {
        const part = parts.get(String(o.$w));
        return part ?? fail(`an unknown engine part ${JSON.stringify(o.$w)}`);
      }
      case '$k': {
        const constant = constantsByKey.get(String(o.$k));
        return constant ?? fail(`an unknown catalogue object ${JSON.stringify(o.$k)}`);
      }
      case '$sym': {
        const sym = symbolsByName.get(String(o.$sym));
        return sym ?? fail(`an unknown store ${JSON.stringify(o.$sym)}`);
      }
      case '$n': {
        const out = Object.create(null) as Record<string, unknown>;
        seen.push(out);
        fields(out, o.$n);
        return out;
      }
      case '$m': {
        const out = new Map<unknown, unknown>();
        seen.push(out);
        const flat = o.$m;
        if (!Array.isArray(flat) || flat.length % 2 !== 0) fail('a Map that is not a list of key and value pairs');
        for (let i = 0; i < (flat as unknown[]).length; i += 2) {
          const k = dec((flat as unknown[])[i]);
          out.set(k, dec((flat as unknown[])[i + 1]));
        }
        return out;
      }
      case '$s': {
        const out = new Set<unknown>();
        seen.push(out);
        if (!Array.isArray(o.$s)) fail('a Set that is not a list');
        for (const item of o.$s as unknown[]) out.add(dec(item));
        return out;
      }
      case '$re': {
        const out = new RegExp(String(o.$re), String(o.f ?? ''));
        seen.push(out);
        return out;
      }
      case '$d': {
        const out = new Date(Number(o.$d));
        seen.push(out);
        return out;
      }
      case '$t': {
        const Ctor = TYPED[String(o.$t)];
        if (Ctor === undefined || typeof o.b !== 'string') fail(`an unknown typed array ${JSON.stringify(o.$t)}`);
        const bytes = fromBase64(o.b as string);
        const out = new (Ctor as new (buffer: ArrayBuffer) => ArrayBufferView)(bytes.slice().buffer as ArrayBuffer);
        seen.push(out);
        return out;
      }
      case '$c': {
        const cls = classesByName.get(String(o.$c));
        if (cls === undefined) return fail(`an unknown state class ${JSON.stringify(o.$c)}`);
        const isMap = cls.proto instanceof Map;
        const out = (isMap ? Reflect.construct(Map, [], cls.ctor) : Object.create(cls.proto)) as Record<string, unknown>;
        seen.push(out);
        fields(out, o.f);
        if (isMap) {
          const flat = Array.isArray(o.m) ? (o.m as unknown[]) : [];
          for (let i = 0; i < flat.length; i += 2) {
            const k = dec(flat[i]);
            Map.prototype.set.call(out, k, dec(flat[i + 1]));
          }
        }
        const revive = cls.revive;
        if (revive) revivals.push(() => revive(out as never));
        return out;
      }
      default:
        return fail(`an unknown tag ${tag}`);
    }
  };
  const out = dec(data);
  for (const revive of revivals) revive();
  return out;
}
