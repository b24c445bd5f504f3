/**
 * The responses of one pipelined HTTP/1.1 connection of the CLI's webhook transport
 * (`node-connection.ts`), parsed in order up to the excerpt the delivery log keeps. Bytes are read
 * where they arrived (an offset into the last chunk, no copy or view per response), and a
 * response head repeated byte for byte (a receiver answers the same head over and over; its `date`
 * changes once a second) is compared as bytes and shares the first one's parse: a `204` builds no
 * string.
 */
import { RESPONSE_EXCERPT_BYTES, type TransportResponse } from '../state/webhooks/transport.js';

const CRLF2 = Buffer.from('\r\n\r\n');
const STATUS_LINE = /^HTTP\/1\.[01] (\d{3})/;
const EMPTY = Buffer.alloc(0);
/** A response head longer than this fails the connection. */
const MAX_HEAD = 64 * 1024;

/** A parsed response head (shared by every answer whose head has the same bytes: never changed once parsed). */
interface Head {
  status: number;
  headers: Record<string, string>;
  close: boolean;
  chunked: boolean;
  /** The `content-length` as a number (NaN when it is not one), null when there is none. */
  length: number | null;
}

function parseHead(text: string): Head {
  const m = STATUS_LINE.exec(text);
  if (!m) throw new Error('malformed response status line');
  const status = Number(m[1]);
  const headers: Record<string, string> = {};
  let at = text.indexOf('\r\n');
  while (at >= 0) {
    const next = text.indexOf('\r\n', at + 2);
    const line = text.slice(at + 2, next < 0 ? text.length : next);
    at = next;
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  const declared = headers['content-length'];
  return {
    status,
    headers,
    close: /\bclose\b/i.test(headers.connection ?? ''),
    chunked: /\bchunked\b/i.test(headers['transfer-encoding'] ?? ''),
    length: declared === undefined ? null : Number(declared),
  };
}

/** What the parser tells its connection. */
export interface ResponseSink {
  /** A whole response (or, at the end of the stream, one read to its end); `close`: it announced `connection: close`. */
  response(response: TransportResponse, close: boolean): void;
  /** A response announced `connection: close` (requests sent after it were not processed). */
  closing(): void;
}

export class ResponseParser {
  private buf: Buffer = EMPTY;
  /** Where the unread bytes of `buf` start. */
  private pos = 0;
  /** The head of the response being read (null between responses). */
  private head: Head | null = null;
  /** The bytes of the last head parsed (a copy) and its parse. */
  private lastBytes: Buffer = EMPTY;
  private lastHead: Head | null = null;
  /** Body framing of the response being read. */
  private mode: 'length' | 'chunked' | 'eof' = 'length';
  private remaining = 0;
  private readonly excerpt: Buffer[] = [];
  private excerptBytes = 0;
  private chunkState: 'size' | 'data' | 'crlf' | 'trailer' = 'size';

  constructor(private readonly sink: ResponseSink) {}

  /** Whether a response read to the end of the stream is under way. */
  get readingToEnd(): boolean {
    return this.mode === 'eof' && this.head !== null;
  }

  /** Bytes arrived; `alive()` false stops the parse (the connection failed meanwhile). */
  feed(chunk: Buffer, alive: () => boolean): void {
    this.buf = this.pos < this.buf.length ? Buffer.concat([this.buf.subarray(this.pos), chunk]) : chunk;
    this.pos = 0;
    while (alive() && this.step()) {
      /* keep parsing */
    }
    if (this.pos >= this.buf.length) {
      this.buf = EMPTY;
      this.pos = 0;
    }
  }

  /** Parses what it can; false when it needs more bytes. */
  private step(): boolean {
    if (this.head === null && !this.readHead()) return false;
    const head = this.head as Head | null;
    if (head === null) return true; // an interim answer: the real one follows
    const buf = this.buf;
    if (this.mode === 'eof') {
      this.keep(buf, this.pos, buf.length);
      this.pos = buf.length;
      return false;
    }
    if (this.mode === 'chunked') return this.chunk();
    const take = Math.min(this.remaining, buf.length - this.pos);
    this.keep(buf, this.pos, this.pos + take);
    this.pos += take;
    this.remaining -= take;
    if (this.remaining > 0) return false;
    this.complete();
    return true;
  }

  /** Reads a head (`this.head` set, or left null for an interim answer); false when it needs more bytes. */
  private readHead(): boolean {
    const buf = this.buf;
    const start = this.pos;
    const end = buf.indexOf(CRLF2, start);
    if (end < 0) {
      if (buf.length - start > MAX_HEAD) throw new Error('response head too large');
      return false;
    }
    this.pos = end + 4;
    const last = this.lastBytes;
    let head = this.lastHead;
    if (head === null || end - start !== last.length || buf.compare(last, 0, last.length, start, end) !== 0) {
      head = parseHead(buf.toString('latin1', start, end));
      this.lastBytes = Buffer.from(buf.subarray(start, end));
      this.lastHead = head;
    }
    const status = head.status;
    if (status >= 100 && status < 200) return true;
    this.head = head;
    if (head.close) this.sink.closing();
    this.excerpt.length = 0;
    this.excerptBytes = 0;
    if (head.chunked) {
      this.mode = 'chunked';
      this.chunkState = 'size';
    } else if (head.length !== null) {
      this.mode = 'length';
      this.remaining = head.length;
      if (!Number.isSafeInteger(this.remaining) || this.remaining < 0) throw new Error('malformed content-length');
    } else if (status === 204 || status === 304) {
      this.mode = 'length';
      this.remaining = 0;
    } else {
      this.mode = 'eof';
      this.sink.closing();
    }
    return true;
  }

  private chunk(): boolean {
    const buf = this.buf;
    if (this.chunkState !== 'data') {
      const eol = buf.indexOf('\r\n', this.pos);
      if (eol < 0) return false;
      const line = buf.toString('latin1', this.pos, eol);
      this.pos = eol + 2;
      if (this.chunkState === 'crlf') {
        this.chunkState = 'size';
        return true;
      }
      if (this.chunkState === 'trailer') {
        if (line === '') this.complete();
        return true;
      }
      const size = parseInt(line, 16);
      if (!Number.isFinite(size) || size < 0) throw new Error('malformed chunk size');
      if (size === 0) this.chunkState = 'trailer';
      else {
        this.remaining = size;
        this.chunkState = 'data';
      }
      return true;
    }
    const take = Math.min(this.remaining, buf.length - this.pos);
    this.keep(buf, this.pos, this.pos + take);
    this.pos += take;
    this.remaining -= take;
    if (this.remaining > 0) return false;
    this.chunkState = 'crlf';
    return true;
  }

  /** Keeps `buf[from, to)` up to the excerpt's size (a copy: the chunk is not held). */
  private keep(buf: Buffer, from: number, to: number): void {
    if (this.excerptBytes >= RESPONSE_EXCERPT_BYTES || to <= from) return;
    const end = Math.min(to, from + RESPONSE_EXCERPT_BYTES - this.excerptBytes);
    this.excerpt.push(Buffer.from(buf.subarray(from, end)));
    this.excerptBytes += end - from;
  }

  /** The response read so far is whole (or the stream ended it). */
  complete(): void {
    const head = this.head;
    if (head === null) return;
    this.head = null;
    const parts = this.excerpt;
    const body =
      parts.length === 0 ? '' : parts.length === 1 ? (parts[0] as Buffer).toString('utf8') : Buffer.concat(parts).toString('utf8');
    parts.length = 0;
    this.sink.response({ status: head.status, headers: head.headers, body }, head.close);
  }
}
