import { sha256 } from '@noble/hashes/sha2.js';
import { describe, expect, it } from 'vitest';
import { sha256Text } from '../../src/engine/sha256-text.js';
import { stableUuid } from '../../src/engine/ids.js';

const hex = (b: Uint8Array): string => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

describe('sha256Text (the ids hash)', () => {
  it('is the SHA-256 of the UTF-8 bytes, across block boundaries and for any character', () => {
    const alphabet = ['a', 'Z', '9', '\u241f', 'é', '日', '\u{1f600}', '\ud800', '\udc00', '-'];
    let x = 7;
    for (let length = 0; length < 300; length++) {
      let text = '';
      for (let i = 0; i < length; i++) {
        x = (Math.imul(x, 1103515245) + 12345) >>> 0;
        text += alphabet[x % alphabet.length];
      }
      expect(hex(sha256Text(text))).toBe(hex(sha256(new TextEncoder().encode(text))));
    }
    expect(hex(sha256Text('abc'))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('keeps the ids of before (stableUuid of a fixed key)', () => {
    const b = sha256(new TextEncoder().encode(['1', 'lab_order', 'p', 3].join('\u241f')));
    b[6] = ((b[6] ?? 0) & 0x0f) | 0x40;
    b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
    const h = hex(b.subarray(0, 16));
    expect(stableUuid(1, 'lab_order', 'p', 3)).toBe(
      `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`,
    );
  });

  it('gives a fresh array each time (callers change it)', () => {
    const a = sha256Text('x');
    const b = sha256Text('x');
    expect(a).not.toBe(b);
    a[0] = 0;
    expect(hex(b)).toBe(hex(sha256(new TextEncoder().encode('x'))));
  });
});
