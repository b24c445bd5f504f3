/**
 * Deterministic identifiers. A UUID (version 4 layout) or token is a pure function of
 * (seed, kind, stable key), so the same seed and the same requests give the same ids.
 */
import { concatBytes, toHex } from './bytes.js';
import { mix32 } from './rng.js';
import { sha256Text } from './sha256-text.js';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** SHA-256 of a string's UTF-8 bytes (portable; node:crypto is no faster on inputs this short; src/engine/sha256-text.ts). */
function hashString(data: string): Uint8Array {
  return sha256Text(data);
}

function digest(parts: ReadonlyArray<string | number>): Uint8Array {
  return hashString(parts.join('\u241f'));
}

/**
 * Recent UUIDs by their digest input: generators derive the same id again and again (a day's
 * activity summary at every feed tick), a SHA-256 each time. Bounded; a pure memo.
 */
const recentUuids = new Map<string, string>();
const RECENT_UUIDS = 10_000;

/** A version-4-shaped UUID derived from the parts. */
export function stableUuid(...parts: ReadonlyArray<string | number>): string {
  const input = parts.join('\u241f');
  const kept = recentUuids.get(input);
  if (kept !== undefined) return kept;
  const b = hashString(input);
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x40;
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
  const h = toHex(b.subarray(0, 16));
  const id = `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
  if (recentUuids.size >= RECENT_UUIDS) recentUuids.clear();
  recentUuids.set(input, id);
  return id;
}

/** A base62 token of the given length derived from the parts. */
export function stableToken(length: number, ...parts: ReadonlyArray<string | number>): string {
  const prefix = parts.length === 0 ? '' : `${parts.join('\u241f')}\u241f`;
  let out = '';
  let round = 0;
  while (out.length < length) {
    const b = hashString(prefix + round++);
    for (let i = 0; i < b.length; i++) {
      const byte = b[i]!;
      if (byte < 248) out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/** Random-looking bytes derived from the parts (for secrets). */
export function stableBytes(length: number, ...parts: ReadonlyArray<string | number>): Uint8Array {
  const chunks: Uint8Array[] = [];
  let have = 0;
  let round = 0;
  while (have < length) {
    const b = digest([...parts, 'bytes', round++]);
    chunks.push(b);
    have += b.length;
  }
  return concatBytes(chunks).subarray(0, length);
}

/** A positive 31-bit integer id derived from the parts. */
export function stableInt(...parts: ReadonlyArray<string | number>): number {
  const b = digest(parts);
  return ((b[0]! << 24) | (b[1]! << 16) | (b[2]! << 8) | b[3]!) & 0x7fffffff;
}

/** Character codes of BASE62. */
const BASE62_CODES = Array.from(BASE62, (c) => c.charCodeAt(0));
/** A reused buffer of character codes (tokens are built flat, not by concatenation). */
const codes: number[] = [];

/** Appends the base62 digits of a 32-bit word, least significant first. */
function pushBase62(word: number, digits: number): void {
  for (let i = 0; i < digits; i++) {
    codes.push(BASE62_CODES[word % 62]!);
    word = Math.floor(word / 62);
  }
}

/** The buffered codes as one flat string (prefix first), then clears the buffer. */
function takeCodes(prefix: string, length: number): string {
  codes.length = length;
  const out = prefix + String.fromCharCode.apply(null, codes);
  codes.length = 0;
  return out;
}

/**
 * A base62 token for the n-th entity (n < 2^32) of a salted kind, without a hash per token: the
 * first 6 characters encode `mix32(n ^ salt[0])`, a bijection of n (so tokens of one kind and
 * scope never repeat), the rest are words mixed from it and the salt. Used for ids issued at
 * event rate (webhook messages).
 */
function countedToken(salt: Uint32Array, n: number, length: number, prefix: string): string {
  const w0 = mix32((n ^ salt[0]!) >>> 0);
  codes.length = 0;
  pushBase62(w0, 6);
  for (let j = 1; codes.length < length; j++) {
    pushBase62(mix32((w0 ^ salt[j % salt.length]!) + Math.imul(j, 0x9e3779b9) + Math.floor(n / 0x100000000)), 5);
  }
  return takeCodes(prefix, length);
}

/** 32-bit multiplicative hash of a string's UTF-16 code units, from a seed. */
function stringHash(text: string, seed: number): number {
  let h = seed >>> 0;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x5bd1e995) ^ (h >>> 15);
  return mix32(h ^ text.length);
}

/**
 * A base62 token derived from a key string without SHA-256: two independently seeded 32-bit
 * hashes of the key (64 bits: a collision among a million keys has odds of about 3 in 10^8),
 * expanded by mixing. For ids derived at event rate from keys that are themselves unique
 * (webhook attempts: message, endpoint, attempt number).
 */
export function keyedToken(length: number, prefix: string, seed: number, key: string): string {
  const a = stringHash(key, Math.imul(seed, 0x27d4eb2d) ^ 0x165667b1);
  const b = stringHash(key, Math.imul(seed ^ 0x5f356495, 0x85ebca77) + 1);
  codes.length = 0;
  pushBase62(a, 6);
  pushBase62(b, 6);
  for (let j = 1; codes.length < length; j++) pushBase62(mix32((a ^ Math.imul(j, 0x9e3779b9)) + mix32(b + j)), 5);
  return takeCodes(prefix, length);
}

/**
 * Issues ids for entities created at run time: the n-th entity of a kind within a scope
 * gets the same id in every run with the same seed and the same requests.
 */
export class IdFactory {
  private readonly counters = new Map<string, number>();

  constructor(private readonly seed: number) {}

  /** Next sequence number for a kind within a scope (1-based). */
  nextSeq(kind: string, scope = ''): number {
    const key = `${kind}\u241f${scope}`;
    const n = (this.counters.get(key) ?? 0) + 1;
    this.counters.set(key, n);
    return n;
  }

  /** A fresh UUID for a new entity of a kind. */
  uuid(kind: string, scope = ''): string {
    return stableUuid(this.seed, 'runtime', kind, scope, this.nextSeq(kind, scope));
  }

  /** A fresh base62 token for a new entity of a kind. */
  token(kind: string, length: number, scope = ''): string {
    return stableToken(length, this.seed, 'runtime', kind, scope, this.nextSeq(kind, scope));
  }

  /** Per (kind, scope): the salt of `countedToken`, derived once from the seed (8 words). */
  private readonly salts = new Map<string, Uint32Array>();

  /**
   * A fresh base62 token for a new entity of a kind issued at event rate: derived from the seed,
   * kind, scope and sequence number like `token`, through one SHA-256 per (kind, scope) and a
   * few multiplications per token (`countedToken`) instead of a SHA-256 per token.
   */
  countedToken(kind: string, length: number, scope = '', prefix = ''): string {
    const key = `${kind}\u241f${scope}`;
    let salt = this.salts.get(key);
    if (salt === undefined) {
      const b = digest([this.seed, 'runtime-counted', kind, scope]);
      salt = new Uint32Array(8);
      for (let i = 0; i < 8; i++) salt[i] = ((b[4 * i]! << 24) | (b[4 * i + 1]! << 16) | (b[4 * i + 2]! << 8) | b[4 * i + 3]!) >>> 0;
      this.salts.set(key, salt);
    }
    return countedToken(salt, this.nextSeq(kind, scope), length, prefix);
  }

  /** A fresh integer id (monotonic per kind). */
  int(kind: string, scope = ''): number {
    return this.nextSeq(kind, scope);
  }

  /** Derived bytes for a new secret of a kind. */
  bytes(kind: string, length: number, scope = ''): Uint8Array {
    return stableBytes(length, this.seed, 'runtime', kind, scope, this.nextSeq(kind, scope));
  }
}
