/**
 * SHA-256 of a string's UTF-8 bytes, for the short keys of deterministic ids (src/engine/ids.ts):
 * the same digest as `@noble/hashes` (FIPS 180-4), without its per-call hasher object, view and
 * buffers: the text is encoded into one reused block buffer and compressed with one reused
 * schedule. A world's build hashes thousands of keys of 20-120 bytes; this is several times
 * faster there (BENCHMARKS.md, "Start-up"). Not for secrets (no wiping of the reused buffers).
 */

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be,
  0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa,
  0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85,
  0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3,
  0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f,
  0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/** The message schedule, reused. */
const W = new Uint32Array(64);
/** The chaining state, reused. */
const H = new Uint32Array(8);
/** The padded message, reused and grown when a key is longer. */
let buffer = new Uint8Array(256);

/** Writes the UTF-8 bytes of `text` into `buffer` (grown as needed); returns their count. */
function encodeInto(text: string): number {
  const most = text.length * 3 + 72;
  if (buffer.length < most) buffer = new Uint8Array(most * 2);
  const b = buffer;
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i);
    if (c < 0x80) b[n++] = c;
    else if (c < 0x800) {
      b[n++] = 0xc0 | (c >> 6);
      b[n++] = 0x80 | (c & 63);
    } else {
      if (c >= 0xd800 && c <= 0xdfff) {
        const next = i + 1 < text.length ? text.charCodeAt(i + 1) : 0;
        if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
          c = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
          i++;
          b[n++] = 0xf0 | (c >> 18);
          b[n++] = 0x80 | ((c >> 12) & 63);
          b[n++] = 0x80 | ((c >> 6) & 63);
          b[n++] = 0x80 | (c & 63);
          continue;
        }
        c = 0xfffd; // a lone surrogate, as TextEncoder writes it
      }
      b[n++] = 0xe0 | (c >> 12);
      b[n++] = 0x80 | ((c >> 6) & 63);
      b[n++] = 0x80 | (c & 63);
    }
  }
  return n;
}

function compress(b: Uint8Array, at: number): void {
  for (let i = 0; i < 16; i++) {
    const o = at + i * 4;
    W[i] = (b[o]! << 24) | (b[o + 1]! << 16) | (b[o + 2]! << 8) | b[o + 3]!;
  }
  for (let i = 16; i < 64; i++) {
    const w15 = W[i - 15]!;
    const w2 = W[i - 2]!;
    const s0 = ((w15 >>> 7) | (w15 << 25)) ^ ((w15 >>> 18) | (w15 << 14)) ^ (w15 >>> 3);
    const s1 = ((w2 >>> 17) | (w2 << 15)) ^ ((w2 >>> 19) | (w2 << 13)) ^ (w2 >>> 10);
    W[i] = (W[i - 16]! + s0 + W[i - 7]! + s1) | 0;
  }
  let a = H[0]!;
  let bb = H[1]!;
  let c = H[2]!;
  let d = H[3]!;
  let e = H[4]!;
  let f = H[5]!;
  let g = H[6]!;
  let h = H[7]!;
  for (let i = 0; i < 64; i++) {
    const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const t1 = (h + S1 + ((e & f) ^ (~e & g)) + K[i]! + W[i]!) | 0;
    const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const t2 = (S0 + ((a & bb) ^ (a & c) ^ (bb & c))) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = bb;
    bb = a;
    a = (t1 + t2) | 0;
  }
  H[0] = H[0]! + a;
  H[1] = H[1]! + bb;
  H[2] = H[2]! + c;
  H[3] = H[3]! + d;
  H[4] = H[4]! + e;
  H[5] = H[5]! + f;
  H[6] = H[6]! + g;
  H[7] = H[7]! + h;
}

/** SHA-256 of the UTF-8 bytes of `text`: a fresh 32-byte array. */
export function sha256Text(text: string): Uint8Array {
  const n = encodeInto(text);
  const b = buffer;
  // Padding: 0x80, zeros, then the bit length as 64 bits big-endian (texts here stay under 2^29 bytes).
  const blocks = Math.ceil((n + 9) / 64);
  const end = blocks * 64;
  b[n] = 0x80;
  b.fill(0, n + 1, end - 4);
  const bits = n * 8;
  b[end - 4] = bits >>> 24;
  b[end - 3] = (bits >>> 16) & 0xff;
  b[end - 2] = (bits >>> 8) & 0xff;
  b[end - 1] = bits & 0xff;
  H[0] = 0x6a09e667;
  H[1] = 0xbb67ae85;
  H[2] = 0x3c6ef372;
  H[3] = 0xa54ff53a;
  H[4] = 0x510e527f;
  H[5] = 0x9b05688c;
  H[6] = 0x1f83d9ab;
  H[7] = 0x5be0cd19;
  for (let at = 0; at < end; at += 64) compress(b, at);
  const out = new Uint8Array(32);
  for (let i = 0; i < 8; i++) {
    const v = H[i]!;
    out[i * 4] = v >>> 24;
    out[i * 4 + 1] = (v >>> 16) & 0xff;
    out[i * 4 + 2] = (v >>> 8) & 0xff;
    out[i * 4 + 3] = v & 0xff;
  }
  return out;
}
