/**
 * Bytes without Node's `Buffer`, so the core runs in a browser: UTF-8, base64, base64url and
 * hex over `Uint8Array`. Decoders never throw: characters outside the alphabet are skipped
 * (as Node's decoder does), so a malformed cursor decodes to text the caller then rejects.
 */

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8');

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
/** Both alphabets decode (like Node): '+' and '-' are 62, '/' and '_' are 63. */
const DECODE = new Int8Array(128).fill(-1);
for (let i = 0; i < 64; i++) {
  DECODE[B64.charCodeAt(i)] = i;
  DECODE[B64URL.charCodeAt(i)] = i;
}

/** The UTF-8 bytes of a string. */
export function utf8Encode(text: string): Uint8Array {
  return encoder.encode(text);
}

/** A string from UTF-8 bytes (invalid sequences become U+FFFD). */
export function utf8Decode(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

/** The number of UTF-8 bytes of a string. */
export function utf8Length(text: string): number {
  // ASCII (every header and path on the request path, in practice): one byte per character.
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) >= 0x80) return encoder.encode(text).byteLength;
  return text.length;
}

const B64_CODES = encoder.encode(B64);
const B64URL_CODES = encoder.encode(B64URL);

/**
 * Base64 of `bytes`: the characters' codes written into one buffer and decoded once (ASCII), not a
 * string grown four characters at a time (a 10 MB upload logged for replay made a 13 MB rope, most
 * of its cost in the garbage it left).
 */
function encode(bytes: Uint8Array, alphabet: Uint8Array, pad: boolean): string {
  const whole = bytes.length - (bytes.length % 3);
  const rest = bytes.length - whole;
  const out = new Uint8Array((whole / 3) * 4 + (rest === 0 ? 0 : pad ? 4 : rest + 1));
  let o = 0;
  for (let i = 0; i < whole; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out[o++] = alphabet[(n >> 18) & 63]!;
    out[o++] = alphabet[(n >> 12) & 63]!;
    out[o++] = alphabet[(n >> 6) & 63]!;
    out[o++] = alphabet[n & 63]!;
  }
  if (rest > 0) {
    const n = (bytes[whole]! << 16) | (rest === 2 ? bytes[whole + 1]! << 8 : 0);
    out[o++] = alphabet[(n >> 18) & 63]!;
    out[o++] = alphabet[(n >> 12) & 63]!;
    if (rest === 2) out[o++] = alphabet[(n >> 6) & 63]!;
    if (pad) for (let k = rest; k < 3; k++) out[o++] = 61; // '='
  }
  return decoder.decode(out);
}

function decode(text: string): Uint8Array {
  const out = new Uint8Array(Math.floor((text.length * 3) / 4) + 3);
  let acc = 0;
  let bits = 0;
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 61) break; // '=': the end
    const v = c < 128 ? DECODE[c]! : -1;
    if (v < 0) continue;
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[n++] = (acc >> bits) & 0xff;
    }
  }
  return out.subarray(0, n);
}

/** Standard base64 with padding. */
export function toBase64(bytes: Uint8Array): string {
  return encode(bytes, B64_CODES, true);
}

/** URL-safe base64 without padding (as Node's `base64url`). */
export function toBase64Url(bytes: Uint8Array): string {
  return encode(bytes, B64URL_CODES, false);
}

/** Bytes from base64 or base64url (either alphabet, padding optional). */
export function fromBase64(text: string): Uint8Array {
  return decode(text);
}

/** Lowercase hex. */
export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += (b < 16 ? '0' : '') + b.toString(16);
  return out;
}

/** Concatenation of byte arrays. */
export function concatBytes(chunks: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const c of chunks) length += c.byteLength;
  const out = new Uint8Array(length);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/** Equality of two byte arrays in time that depends only on their lengths. */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

/** base64url of the UTF-8 of a string (opaque cursors). */
export function encodeText64(text: string): string {
  return toBase64Url(utf8Encode(text));
}

/** The UTF-8 text of a base64/base64url string (opaque cursors); never throws. */
export function decodeText64(text: string): string {
  return utf8Decode(fromBase64(text));
}
