/**
 * The CLI's webhook transport: HTTP/1.1 over node:net / node:tls with one keep-alive connection
 * per origin, requests pipelined in the order they are sent (so attempts to one endpoint, which
 * start in event order, also reach the receiver in that order), and `close()` to abort every
 * delivery in flight at shutdown. Answers are read up to the excerpt the delivery log keeps.
 *
 * Compared with the global `fetch` (the default transport): no per-request connection pool
 * lookup, no WHATWG stream per body, no round trip per attempt when the delivery window allows.
 *
 * Failures: a refused or reset connection fails every request waiting on it (the retry policy
 * takes over); an aborted request (its attempt timed out) closes its connection, so the requests
 * pipelined behind it fail too. Requests sent after a response that announced `connection:
 * close` were not processed and are sent again on a new connection.
 */
import { connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import {
  RESPONSE_EXCERPT_BYTES,
  type TransportRequest,
  type TransportResponse,
  type WebhookTransport,
} from '../state/webhooks/transport.js';

export interface NodeTransport {
  readonly transport: WebhookTransport;
  /** Requests sent and not answered yet. */
  inFlight(): number;
  /** Aborts every request in flight, closes every connection; later requests fail at once. */
  close(): void;
}

interface Pending {
  request: TransportRequest;
  bytes: Buffer;
  resolve(response: TransportResponse): void;
  reject(error: Error): void;
  onAbort: () => void;
}

const CRLF2 = Buffer.from('\r\n\r\n');
const STATUS_LINE = /^HTTP\/1\.[01] (\d{3})/;

function abortError(why: string): Error {
  const error = new Error(why);
  error.name = 'AbortError';
  return error;
}

function connectionError(message: string, cause: unknown): Error {
  return Object.assign(new Error(message), { cause });
}

/** A parsed destination URL: what every request to it shares. */
interface Target {
  url: URL;
  origin: string;
  /** `POST <path> HTTP/1.1\r\nhost: <host>\r\n` */
  start: string;
}

const HEADER_BREAK = /[\r\n]/;

/** The request's bytes in one buffer: head (latin1) then body (UTF-8). */
function serialise(target: Target, request: TransportRequest): Buffer {
  let head = target.start;
  for (const name in request.headers) {
    const value = request.headers[name] as string;
    if (HEADER_BREAK.test(name) || HEADER_BREAK.test(value)) throw new TypeError(`Invalid header ${JSON.stringify(name)}`);
    head += `${name}: ${value}\r\n`;
  }
  const bodyBytes = Buffer.byteLength(request.body, 'utf8');
  head += `content-length: ${bodyBytes}\r\n\r\n`;
  const headBytes = Buffer.byteLength(head, 'latin1');
  const out = Buffer.allocUnsafe(headBytes + bodyBytes);
  out.write(head, 0, 'latin1');
  out.write(request.body, headBytes, 'utf8');
  return out;
}

/** One keep-alive connection to one origin, answering its requests in order. */
class Connection {
  readonly pending: Pending[] = [];
  private buf: Buffer = Buffer.alloc(0);
  private head: { status: number; headers: Record<string, string>; close: boolean } | null = null;
  /** The last response head read and its parse (receivers repeat their heads: parsed once, shared). */
  private lastHeadText = '';
  private lastHead: { status: number; headers: Record<string, string> } | null = null;
  /** Body framing of the response being read. */
  private mode: 'length' | 'chunked' | 'eof' = 'length';
  private remaining = 0;
  private excerpt: Buffer[] = [];
  private excerptBytes = 0;
  private chunkState: 'size' | 'data' | 'crlf' | 'trailer' = 'size';
  private closing = false;
  private corked = false;
  dead = false;
  readonly socket: Socket;

  constructor(
    url: URL,
    private readonly onDead: (conn: Connection, unsent: Pending[]) => void,
  ) {
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    const host = url.hostname.replace(/^\[|\]$/g, '');
    this.socket =
      url.protocol === 'https:'
        ? tlsConnect({ host, port, servername: /^[\d.:]+$/.test(host) ? undefined : host })
        : netConnect({ host, port });
    this.socket.setNoDelay(true);
    this.socket.on('data', (chunk: Buffer) => this.read(chunk));
    this.socket.on('error', (error) => this.fail(error));
    this.socket.on('close', () => this.fail(new Error('socket closed')));
    this.socket.on('end', () => {
      if (this.mode === 'eof' && this.head !== null) this.complete();
      this.fail(new Error('the receiver closed the connection'));
    });
    this.socket.unref();
  }

  send(p: Pending): void {
    if (this.pending.length === 0) this.socket.ref();
    this.pending.push(p);
    // Requests sent in the same turn of the event loop leave in one write: one syscall for every
    // request started by the answers read in this turn (uncorked after the I/O callbacks).
    if (!this.corked) {
      this.corked = true;
      this.socket.cork();
      setImmediate(() => {
        this.corked = false;
        this.socket.uncork();
      });
    }
    this.socket.write(p.bytes);
  }

  /** Fails `p` and closes the connection (its bytes are on the wire); false when `p` is not here. */
  abort(p: Pending, error: Error): boolean {
    const i = this.pending.indexOf(p);
    if (i < 0) return false;
    this.pending.splice(i, 1);
    p.reject(error);
    this.fail(new Error('an earlier request on this pipelined connection was aborted'));
    return true;
  }

  /** Ends the connection; requests not answered fail (or, after `connection: close`, are handed back). */
  fail(error: unknown): void {
    if (this.dead) return;
    this.dead = true;
    this.socket.destroy();
    const left = this.pending.splice(0);
    this.onDead(this, this.closing ? left : []);
    if (!this.closing) for (const p of left) p.reject(connectionError(error instanceof Error ? error.message : String(error), error));
  }

  private read(chunk: Buffer): void {
    this.buf = this.buf.length === 0 ? chunk : Buffer.concat([this.buf, chunk]);
    try {
      while (!this.dead && this.step()) {
        /* keep parsing */
      }
    } catch (error) {
      this.fail(error);
    }
  }

  /** Parses what it can; false when it needs more bytes. */
  private step(): boolean {
    if (this.head === null) {
      const end = this.buf.indexOf(CRLF2);
      if (end < 0) {
        if (this.buf.length > 64 * 1024) throw new Error('response head too large');
        return false;
      }
      const text = this.buf.toString('latin1', 0, end);
      this.buf = this.buf.subarray(end + 4);
      let status: number;
      let headers: Record<string, string>;
      if (text === this.lastHeadText && this.lastHead !== null) {
        ({ status, headers } = this.lastHead); // the headers object is never changed once parsed
      } else {
        const m = STATUS_LINE.exec(text);
        if (!m) throw new Error('malformed response status line');
        status = Number(m[1]);
        headers = {};
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
        this.lastHeadText = text;
        this.lastHead = { status, headers };
      }
      if (status >= 100 && status < 200) return true; // interim answer: the real one follows
      this.head = { status, headers, close: /\bclose\b/i.test(headers.connection ?? '') };
      if (this.head.close) this.closing = true;
      this.excerpt = [];
      this.excerptBytes = 0;
      if (/\bchunked\b/i.test(headers['transfer-encoding'] ?? '')) {
        this.mode = 'chunked';
        this.chunkState = 'size';
      } else if (headers['content-length'] !== undefined) {
        this.mode = 'length';
        this.remaining = Number(headers['content-length']);
        if (!Number.isSafeInteger(this.remaining) || this.remaining < 0) throw new Error('malformed content-length');
      } else if (status === 204 || status === 304) {
        this.mode = 'length';
        this.remaining = 0;
      } else {
        this.mode = 'eof';
        this.closing = true;
      }
    }
    if (this.mode === 'eof') {
      this.keep(this.buf);
      this.buf = Buffer.alloc(0);
      return false;
    }
    if (this.mode === 'length') {
      const take = Math.min(this.remaining, this.buf.length);
      this.keep(this.buf.subarray(0, take));
      this.buf = this.buf.subarray(take);
      this.remaining -= take;
      if (this.remaining > 0) return false;
      this.complete();
      return true;
    }
    return this.chunk();
  }

  private chunk(): boolean {
    if (this.chunkState === 'size' || this.chunkState === 'crlf' || this.chunkState === 'trailer') {
      const eol = this.buf.indexOf('\r\n');
      if (eol < 0) return false;
      const line = this.buf.toString('latin1', 0, eol);
      this.buf = this.buf.subarray(eol + 2);
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
    const take = Math.min(this.remaining, this.buf.length);
    this.keep(this.buf.subarray(0, take));
    this.buf = this.buf.subarray(take);
    this.remaining -= take;
    if (this.remaining > 0) return false;
    this.chunkState = 'crlf';
    return true;
  }

  private keep(part: Buffer): void {
    if (this.excerptBytes >= RESPONSE_EXCERPT_BYTES || part.length === 0) return;
    const slice = part.subarray(0, RESPONSE_EXCERPT_BYTES - this.excerptBytes);
    this.excerpt.push(Buffer.from(slice));
    this.excerptBytes += slice.length;
  }

  private complete(): void {
    const head = this.head;
    if (head === null) return;
    this.head = null;
    const p = this.pending.shift();
    if (this.pending.length === 0) this.socket.unref();
    const body =
      this.excerpt.length === 0
        ? ''
        : this.excerpt.length === 1
          ? (this.excerpt[0] as Buffer).toString('utf8')
          : Buffer.concat(this.excerpt).toString('utf8');
    p?.resolve({ status: head.status, headers: head.headers, body });
    if (head.close) this.fail(new Error('the receiver closed the connection'));
  }
}

/** A transport with one pipelined keep-alive connection per origin. */
export function createNodeTransport(): NodeTransport {
  const connections = new Map<string, Connection>();
  let closed = false;

  const dispatch = (origin: string, url: URL, p: Pending): void => {
    let conn = connections.get(origin);
    if (conn === undefined || conn.dead) {
      const fresh: Connection = new Connection(url, (dead, unsent) => {
        if (connections.get(origin) === dead) connections.delete(origin);
        // Sent after a `connection: close` answer: never processed, so sent again.
        for (const q of unsent) {
          if (closed || q.request.signal.aborted) q.reject(abortError('aborted'));
          else dispatch(origin, url, q);
        }
      });
      connections.set(origin, fresh);
      conn = fresh;
    }
    conn.send(p);
  };

  /** Destination URL -> its parsed target (an endpoint's URL is parsed once, not per attempt). */
  const targets = new Map<string, Target>();
  const targetOf = (raw: string): Target => {
    let target = targets.get(raw);
    if (target === undefined) {
      const url = new URL(raw);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`unsupported protocol ${url.protocol}`);
      if (HEADER_BREAK.test(url.host)) throw new TypeError('Invalid host');
      target = {
        url,
        origin: `${url.protocol}//${url.host}`,
        start: `POST ${url.pathname}${url.search} HTTP/1.1\r\nhost: ${url.host}\r\n`,
      };
      if (targets.size >= 1024) targets.clear();
      targets.set(raw, target);
    }
    return target;
  };

  /**
   * Signal -> its requests still waiting. Attempts started together share one signal (one
   * deadline, `send` in transport.ts): one abort listener per signal, not per request.
   */
  const bySignal = new WeakMap<AbortSignal, Set<Pending>>();
  const watch = (p: Pending): void => {
    const signal = p.request.signal;
    let set = bySignal.get(signal);
    if (set === undefined) {
      const own = new Set<Pending>();
      bySignal.set(signal, (set = own));
      signal.addEventListener(
        'abort',
        () => {
          for (const q of [...own]) q.onAbort();
          own.clear();
        },
        { once: true },
      );
    }
    set.add(p);
  };
  const unwatch = (p: Pending): void => {
    bySignal.get(p.request.signal)?.delete(p);
  };

  const transport: WebhookTransport = (request) =>
    new Promise<TransportResponse>((resolve, reject) => {
      if (closed) {
        reject(abortError('the sandbox is shutting down'));
        return;
      }
      if (request.signal.aborted) {
        reject(abortError('aborted'));
        return;
      }
      let target: Target;
      let bytes: Buffer;
      try {
        target = targetOf(request.url);
        bytes = serialise(target, request);
      } catch (error) {
        reject(connectionError(error instanceof Error ? error.message : String(error), error));
        return;
      }
      const { origin, url } = target;
      const p: Pending = {
        request,
        bytes,
        resolve: (response) => {
          unwatch(p);
          resolve(response);
        },
        reject: (error) => {
          unwatch(p);
          reject(error);
        },
        onAbort: () => {
          if (connections.get(origin)?.abort(p, abortError('aborted')) !== true) p.reject(abortError('aborted'));
        },
      };
      watch(p);
      dispatch(origin, url, p);
    });

  transport.sharesSignals = true;

  return {
    transport,
    inFlight: () => {
      let n = 0;
      for (const conn of connections.values()) n += conn.pending.length;
      return n;
    },
    close() {
      closed = true;
      for (const conn of [...connections.values()]) {
        const left = conn.pending.splice(0);
        conn.fail(new Error('the sandbox is shutting down'));
        for (const p of left) p.reject(abortError('the sandbox is shutting down'));
      }
      connections.clear();
    },
  };
}
