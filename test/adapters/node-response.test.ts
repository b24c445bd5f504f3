/**
 * The node transport's response parser (src/adapters/node-response.ts): pipelined answers read in
 * order whatever the chunks they arrive in, a head repeated byte for byte shares its parse (and a
 * head that differs is parsed again), bodies kept up to the excerpt, and the framing errors that
 * fail the connection.
 */
import { describe, expect, it } from 'vitest';
import { ResponseParser } from '../../src/adapters/node-response.js';
import { RESPONSE_EXCERPT_BYTES, type TransportResponse } from '../../src/state/webhooks/transport.js';

interface Read {
  responses: Array<{ response: TransportResponse; close: boolean }>;
  closings: number;
  parser: ResponseParser;
}

function reader(): Read {
  const read: Read = { responses: [], closings: 0, parser: null as unknown as ResponseParser };
  read.parser = new ResponseParser({
    response: (response, close) => read.responses.push({ response, close }),
    closing: () => read.closings++,
  });
  return read;
}

const alive = (): boolean => true;

/** Feeds `text` (latin1 bytes) in chunks of `size` bytes. */
function feedIn(text: Buffer, size: number): Read {
  const read = reader();
  for (let at = 0; at < text.length; at += size) read.parser.feed(Buffer.from(text.subarray(at, at + size)), alive);
  return read;
}

const head204 = (date: string): string => `HTTP/1.1 204 No Content\r\nDate: ${date}\r\nConnection: keep-alive\r\n\r\n`;
const long = 'é'.repeat(RESPONSE_EXCERPT_BYTES); // 2 KB of UTF-8: cut at the excerpt

const stream = Buffer.concat([
  Buffer.from(head204('Sun, 29 Nov 2026 12:00:00 GMT')),
  Buffer.from(head204('Sun, 29 Nov 2026 12:00:00 GMT')),
  Buffer.from('HTTP/1.1 100 Continue\r\n\r\n'),
  Buffer.from(head204('Sun, 29 Nov 2026 12:00:01 GMT')),
  Buffer.from('HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nX-Two: a\r\nx-two: b\r\nContent-Length: 5\r\n\r\nhello'),
  Buffer.from(`HTTP/1.1 500 Oops\r\nContent-Length: ${Buffer.byteLength(long)}\r\n\r\n${long}`),
  Buffer.from('HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nhel\r\n2;x=1\r\nlo\r\n0\r\nTrailer: 1\r\n\r\n'),
  Buffer.from(head204('Sun, 29 Nov 2026 12:00:01 GMT')),
  Buffer.from('HTTP/1.1 410 Gone\r\nConnection: close\r\nContent-Length: 4\r\n\r\ngone'),
]);

describe('ResponseParser', () => {
  it('reads pipelined answers in order, whatever the chunks they arrive in', () => {
    const whole = feedIn(stream, stream.length);
    const summary = whole.responses.map(({ response, close }) => [response.status, response.body.length, close]);
    expect(summary).toEqual([
      [204, 0, false],
      [204, 0, false],
      [204, 0, false],
      [200, 5, false],
      [500, RESPONSE_EXCERPT_BYTES / 2, false],
      [201, 5, false],
      [204, 0, false],
      [410, 4, true],
    ]);
    expect(whole.responses[3]?.response.headers).toEqual({ 'content-type': 'text/plain', 'x-two': 'a, b', 'content-length': '5' });
    expect(whole.responses[4]?.response.body).toBe('é'.repeat(RESPONSE_EXCERPT_BYTES / 2));
    expect(whole.responses[5]?.response.body).toBe('hello');
    expect(whole.responses[2]?.response.headers.date).toBe('Sun, 29 Nov 2026 12:00:01 GMT');
    expect(whole.closings).toBe(1);
    for (const size of [1, 2, 3, 7, 13, 64, 500]) {
      const read = feedIn(stream, size);
      expect(read.responses, `chunks of ${size}`).toEqual(whole.responses);
      expect(read.closings).toBe(1);
    }
  });

  it('shares the parse of the last head when the next repeats it byte for byte, and parses one that differs', () => {
    const read = feedIn(stream, stream.length);
    const [a, b, c, , , , d] = read.responses.map((r) => r.response.headers);
    expect(b).toBe(a);
    expect(c).not.toBe(a);
    // Only the last head is remembered: after other answers, the same head is parsed again.
    expect(d).toEqual(c);
  });

  it('reads an answer without a length to the end of the stream', () => {
    const read = feedIn(Buffer.from('HTTP/1.0 200 OK\r\n\r\npart one, part two'), 5);
    expect(read.responses).toHaveLength(0);
    expect(read.parser.readingToEnd).toBe(true);
    expect(read.closings).toBe(1);
    read.parser.complete();
    expect(read.responses.map((r) => r.response.body)).toEqual(['part one, part two']);
  });

  it('fails on a malformed status line, length or chunk size, and on a head past 64 KB', () => {
    for (const bad of [
      'HTTQ/1.1 200 OK\r\n\r\n',
      'HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n',
      'HTTP/1.1 200 OK\r\nContent-Length: 1, 2\r\n\r\n',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
      `HTTP/1.1 200 OK\r\nX: ${'a'.repeat(70_000)}`,
    ]) {
      expect(() => feedIn(Buffer.from(bad), bad.length), bad.slice(0, 40)).toThrow();
    }
  });
});
