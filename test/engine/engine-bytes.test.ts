/** src/engine/bytes.ts agrees with Node's Buffer (the reference) on every encoding it replaces. */
import { describe, expect, it } from 'vitest';
import {
  constantTimeEqual,
  decodeText64,
  encodeText64,
  fromBase64,
  toBase64,
  toBase64Url,
  toHex,
  utf8Decode,
  utf8Length,
} from '../../src/engine/bytes.js';
import { stableBytes } from '../../src/engine/ids.js';

const samples: Uint8Array[] = [new Uint8Array(0)];
for (let n = 1; n <= 70; n++) samples.push(stableBytes(n, 'bytes-test', n));

describe('engine bytes', () => {
  it('encodes base64, base64url and hex like Buffer', () => {
    for (const b of samples) {
      const ref = Buffer.from(b);
      expect(toBase64(b)).toBe(ref.toString('base64'));
      expect(toBase64Url(b)).toBe(ref.toString('base64url'));
      expect(toHex(b)).toBe(ref.toString('hex'));
      expect([...fromBase64(ref.toString('base64'))]).toEqual([...b]);
      expect([...fromBase64(ref.toString('base64url'))]).toEqual([...b]);
    }
  });

  it('decodes malformed text like Buffer, without throwing', () => {
    for (const text of ['', 'a', 'ab', 'abc', '@@@@', 'dTox', 'dTox===', 'd T o x', '∆∆', 'dTo*x', 'dTox\u00e9']) {
      expect(decodeText64(text)).toBe(Buffer.from(text, 'base64url').toString('utf8'));
    }
  });

  it('round-trips cursor text and counts UTF-8 bytes', () => {
    for (const text of ['t:1700000000000', 'u:42', 'users:7', 'é∆😀']) {
      expect(encodeText64(text)).toBe(Buffer.from(text, 'utf8').toString('base64url'));
      expect(decodeText64(encodeText64(text))).toBe(text);
      expect(utf8Length(text)).toBe(Buffer.byteLength(text, 'utf8'));
    }
    expect(utf8Decode(new Uint8Array([0xff, 0x41]))).toBe(Buffer.from([0xff, 0x41]).toString('utf8'));
  });

  it('compares bytes', () => {
    expect(constantTimeEqual(new Uint8Array([1, 2]), new Uint8Array([1, 2]))).toBe(true);
    expect(constantTimeEqual(new Uint8Array([1, 2]), new Uint8Array([1, 3]))).toBe(false);
    expect(constantTimeEqual(new Uint8Array([1]), new Uint8Array([1, 2]))).toBe(false);
  });
});
