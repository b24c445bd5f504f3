/** Form bodies in the engine: multipart parsing, urlencoded, other types, malformed bodies. */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/engine/errors.js';
import { FORM_MESSAGES, parseMultipart, readForm } from '../../src/engine/multipart.js';

const enc = new TextEncoder();

function multipart(
  boundary: string,
  parts: Array<{ name: string; filename?: string; type?: string; data: Uint8Array | string }>,
): Uint8Array {
  const chunks: Uint8Array[] = [];
  for (const p of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"`;
    if (p.filename !== undefined) head += `; filename="${p.filename}"`;
    head += '\r\n';
    if (p.type) head += `Content-Type: ${p.type}\r\n`;
    chunks.push(enc.encode(`${head}\r\n`), typeof p.data === 'string' ? enc.encode(p.data) : p.data, enc.encode('\r\n'));
  }
  chunks.push(enc.encode(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

describe('engine form bodies', () => {
  it('parses text fields and files with their bytes, names and types', () => {
    const pdf = new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x0d, 0x0a, 0x2d, 0x2d, 0x00, 0xff]);
    const body = multipart('XyZ', [
      { name: 'file', filename: 'a.pdf', type: 'application/pdf', data: pdf },
      { name: 'file', filename: 'b.png', type: 'IMAGE/PNG; charset=x', data: new Uint8Array([1, 2]) },
      { name: 'user_id', data: 'abc' },
      { name: 'note', data: 'héllo' },
    ]);
    const form = parseMultipart(body, 'multipart/form-data; boundary="XyZ"');
    expect(form.user_id).toEqual(['abc']);
    expect(form.note).toEqual(['héllo']);
    expect(form.file).toEqual([
      { kind: 'upload', filename: 'a.pdf', content_type: 'application/pdf', bytes: pdf },
      { kind: 'upload', filename: 'b.png', content_type: 'image/png', bytes: new Uint8Array([1, 2]) },
    ]);
  });

  it('answers the parse error for malformed multipart bodies', () => {
    const good = multipart('B', [{ name: 'x', data: 'y' }]);
    for (const [body, type] of [
      [good, 'multipart/form-data'],
      [good, 'multipart/form-data; boundary=OTHER'],
      [enc.encode('--B\r\nContent-Disposition: form-data; name="x"\r\n\r\nno end'), 'multipart/form-data; boundary=B'],
      [enc.encode('--B\r\nContent-Type: text/plain\r\n\r\nv\r\n--B--'), 'multipart/form-data; boundary=B'],
    ] as const) {
      let thrown: unknown;
      try {
        readForm(body, type);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(ApiError);
      expect((thrown as ApiError).status).toBe(400);
      expect((thrown as ApiError).body).toEqual({ detail: FORM_MESSAGES.parseError });
    }
  });

  it('reads urlencoded forms; any other type is an empty form', () => {
    expect(readForm(enc.encode('a=1&a=2&b=x+y'), 'application/x-www-form-urlencoded')).toEqual({ a: ['1', '2'], b: ['x y'] });
    expect(Object.keys(readForm(enc.encode('{"a":1}'), 'application/json'))).toEqual([]);
    expect(Object.keys(readForm(new Uint8Array(0), undefined))).toEqual([]);
  });
});
