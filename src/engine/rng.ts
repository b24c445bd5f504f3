/**
 * Seeded, stable randomness. Every entity derives its own generator from a hash of
 * (seed, kind, stable key), so adding one entity never reshuffles another.
 * No Math.random anywhere in the engine.
 */
import { dataClass } from './world-codec.js';

/** 32-bit FNV-1a over a string, then an avalanche mix. Fast and stable across platforms. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return mix32(h);
}

/** FNV-1a state after `text`, continuing from state `h` (hash32 = mix32 of the state from the offset basis). */
function fnvOn(h: number, text: string): number {
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h;
}

/** FNV-1a state after the decimal digits of a non-negative safe integer (what `String(n)` holds), without the string. */
const DIGITS = new Uint8Array(20);
function fnvPart(h: number, part: string | number): number {
  if (typeof part === 'string') return fnvOn(h, part);
  let n = part;
  if (!(n >= 0 && n <= Number.MAX_SAFE_INTEGER && Math.floor(n) === n)) return fnvOn(h, String(n));
  let k = 0;
  do {
    const q = Math.floor(n / 10);
    DIGITS[k++] = n - q * 10;
    n = q;
  } while (n > 0);
  while (k > 0) h = Math.imul(h ^ (48 + (DIGITS[--k] as number)), 0x01000193);
  return h;
}

const SEP = 0x241f;
const prefixStates = new Map<string, number>();

/**
 * `hash32(\`${prefix}\u241f${a}\u241f${b}\u241f${c}\`)` without building the string: the state
 * after a prefix is kept (prefixes are few and long: seed and user keys), the parts are hashed on.
 */
export function hashParts(prefix: string, a: string | number, b: string | number, c: string | number): number {
  let h = prefixStates.get(prefix);
  if (h === undefined) {
    if (prefixStates.size >= 20_000) prefixStates.clear();
    h = fnvOn(0x811c9dc5, prefix);
    prefixStates.set(prefix, h);
  }
  h = Math.imul(h ^ SEP, 0x01000193);
  h = fnvPart(h, a);
  h = Math.imul(h ^ SEP, 0x01000193);
  h = fnvPart(h, b);
  h = Math.imul(h ^ SEP, 0x01000193);
  h = fnvPart(h, c);
  return mix32(h);
}

/**
 * A 32-bit hash of a numeric key and an integer `n` (epoch ms, day number, index; any safe
 * integer): no string is built or walked, a few multiplications. The per-sample draws of the
 * wearable generator (v2) use it: `key` comes from `hash32` of the source's text key and a salt.
 */
export function hashAt(key: number, n: number): number {
  const hi = Math.floor(n / 4294967296);
  const lo = n - hi * 4294967296;
  return mix32(mix32(key ^ lo) ^ hi ^ 0x2545f491);
}

/** Avalanche mix of a 32-bit integer (murmur3 finaliser). */
export function mix32(x: number): number {
  let h = x >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Hash of several parts, joined with a separator that cannot occur inside numbers. */
export function hashKey(...parts: ReadonlyArray<string | number>): number {
  return hash32(parts.join('\u241f'));
}

/** A uniform float in [0, 1) from a key: for one-off stateless draws on hot paths. */
export function unitFloat(...parts: ReadonlyArray<string | number>): number {
  return hashKey(...parts) / 4294967296;
}

/** A small seeded PRNG (sfc32) with convenience draws. */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    this.a = 0x9e3779b9;
    this.b = 0x243f6a88;
    this.c = 0xb7e15162;
    this.d = seed >>> 0;
    for (let i = 0; i < 12; i++) this.next();
  }

  /** The generator's position (four 32-bit words), to save it (engine/store-state.ts). */
  save(): [number, number, number, number] {
    return [this.a >>> 0, this.b >>> 0, this.c >>> 0, this.d >>> 0];
  }

  /** A generator at a saved position (its words held signed, as drawing leaves them: the same generator, the same form). */
  static at(state: readonly [number, number, number, number]): Rng {
    const rng = new Rng(0);
    rng.a = state[0] | 0;
    rng.b = state[1] | 0;
    rng.c = state[2] | 0;
    rng.d = state[3] | 0;
    return rng;
  }

  /** Derives a generator from (seed, kind, key...). */
  static of(...parts: ReadonlyArray<string | number>): Rng {
    return new Rng(hashKey(...parts));
  }

  /** Uniform 32-bit unsigned integer. */
  nextUint(): number {
    this.a >>>= 0;
    this.b >>>= 0;
    this.c >>>= 0;
    this.d >>>= 0;
    let t = (this.a + this.b) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.d = (this.d + 1) | 0;
    t = (t + this.d) | 0;
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform float in [0, 1). */
  next(): number {
    return this.nextUint() / 4294967296;
  }

  /** Uniform integer in [min, max] inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** Uniform float in [min, max). */
  float(min: number, max: number): number {
    return min + this.next() * (max - min);
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** One element of a non-empty array. */
  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error('Rng.pick on an empty array');
    return item;
  }

  /** Standard normal draw (Box-Muller). */
  normal(mean = 0, sd = 1): number {
    const u = 1 - this.next();
    const v = this.next();
    return mean + sd * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /** A fresh shuffled copy. */
  shuffle<T>(items: readonly T[]): T[] {
    const out = items.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      const tmp = out[i] as T;
      out[i] = out[j] as T;
      out[j] = tmp;
    }
    return out;
  }
}
dataClass('Rng', Rng);
