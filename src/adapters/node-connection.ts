/**
 * One keep-alive HTTP/1.1 connection of the CLI's webhook transport (`node-transport.ts`): the
 * host resolved once and every address checked before connecting (to the address checked),
 * requests pipelined in order, answers parsed up to the excerpt the delivery log keeps.
 */
import { isIP, type LookupFunction, connect as netConnect, type Socket } from 'node:net';
import { createRequire } from 'node:module';
import { DESTINATION_REFUSED, RESPONSE_EXCERPT_BYTES, type TransportRequest, type TransportResponse } from '../state/webhooks/transport.js';

/**
 * `node:tls`, loaded on the first https endpoint: most sandboxes deliver to http receivers only,
 * and loading it costs the CLI's start about 3 ms of CPU (BENCHMARKS.md, "Start-up").
 */
let tls: typeof import('node:tls') | undefined;
const tlsConnect = (): typeof import('node:tls').connect => {
  tls ??= createRequire(import.meta.url)('node:tls') as typeof import('node:tls');
  return tls.connect;
};

/** Resolves a host name to all its addresses (`dns.lookup` with `all: true`; injectable for tests). */
export type Lookup = (hostname: string) => Promise<ReadonlyArray<{ address: string; family: number }>>;

/** A connection idle this long (nothing in flight) is closed. */
const IDLE_MS = 30_000;

export interface Pending {
  request: TransportRequest;
  /** The request head (latin1: status line, headers, blank line); the body is `request.body` (UTF-8). */
  head: string;
  resolve(response: TransportResponse): void;
  reject(error: Error): void;
  onAbort: () => void;
}

const CRLF2 = Buffer.from('\r\n\r\n');
const STATUS_LINE = /^HTTP\/1\.[01] (\d{3})/;

export function abortError(why: string): Error {
  const error = new Error(why);
  error.name = 'AbortError';
  return error;
}

export function connectionError(message: string, cause: unknown): Error {
  return Object.assign(new Error(message), { cause });
}

function refusedError(why: string): Error {
  const error = new Error(why);
  error.name = DESTINATION_REFUSED;
  return error;
}

/** Why `p` must not go to any of `addresses` (its `checkAddress`), or null. */
function refusal(p: Pending, addresses: readonly string[]): string | null {
  const check = p.request.checkAddress;
  if (check === undefined) return null;
  for (const address of addresses) {
    const why = check(address);
    if (why !== null) return why;
  }
  return null;
}

/** A parsed destination URL: what every request to it shares. */
export interface Target {
  url: URL;
  origin: string;
  /** `POST <path> HTTP/1.1\r\nhost: <host>\r\n` */
  start: string;
}

export const HEADER_BREAK = /[\r\n]/;

/** Whether a header name or value holds a line break (checked per string: no string is built to check them). */
function breaks(text: string): boolean {
  return text.indexOf('\n') >= 0 || text.indexOf('\r') >= 0;
}

/**
 * The request head (status line, headers, `content-length`, blank line), written as latin1; the
 * body goes after it as UTF-8, both in one write (the socket is corked): no buffer is built per
 * request. Header names and values are checked for line breaks one by one (no string joined to
 * check them: the head is the one string built per request).
 */
export function serialise(target: Target, request: TransportRequest): string {
  const headers = request.headers;
  let head = target.start;
  for (const name in headers) {
    const value = headers[name] as string;
    if (breaks(name) || breaks(value)) throw new TypeError(`Invalid header ${JSON.stringify(name)}`);
    head += `${name}: ${value}\r\n`;
  }
  return `${head}content-length: ${Buffer.byteLength(request.body, 'utf8')}\r\n\r\n`;
}

/** One keep-alive connection to one origin, answering its requests in order. */
export class Connection {
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
  /** Null until a request passed the check of every address the host resolved to. */
  private socket: Socket | null = null;
  /** Every address the host resolved to (null while resolving); the socket tries them in order. */
  private addresses: readonly string[] | null = null;
  /** Requests sent while the host is resolved. */
  private early: Pending[] = [];
  private readonly host: string;

  constructor(
    private readonly url: URL,
    lookup: Lookup,
    private readonly onDead: (conn: Connection, unsent: Pending[]) => void,
  ) {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    this.host = host;
    const resolved: Promise<readonly string[]> = isIP(host)
      ? Promise.resolve([host])
      : lookup(host).then((all) => all.map((a) => a.address));
    resolved
      .then(
        (addresses) => {
          if (this.dead) return;
          if (addresses.length === 0) throw new Error(`${host} resolved to no address`);
          this.addresses = addresses;
          const early = this.early.splice(0);
          for (const p of early) this.send(p);
        },
        (error: unknown) => this.fail(error),
      )
      .catch((error: unknown) => this.fail(error));
  }

  private open(addresses: readonly string[]): Socket {
    const { url, host } = this;
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    // Connects to the addresses checked, never resolving the name again (a rebinding name cannot
    // change them): the socket's lookup answers them, in order (tried one after the other).
    const lookup = ((_name: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
      const all = addresses.map((address) => ({ address, family: isIP(address) }));
      if (options.all) callback(null, all);
      else callback(null, all[0]?.address, all[0]?.family);
    }) as unknown as LookupFunction;
    const socket =
      url.protocol === 'https:'
        ? tlsConnect()({ host, port, lookup, servername: isIP(host) ? undefined : host })
        : netConnect({ host, port, lookup, autoSelectFamily: true });
    this.socket = socket;
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.read(chunk));
    socket.on('error', (error) => this.fail(error));
    socket.on('close', () => this.fail(new Error('socket closed')));
    socket.on('end', () => {
      if (this.mode === 'eof' && this.head !== null) this.complete();
      this.fail(new Error('the receiver closed the connection'));
    });
    socket.setTimeout(IDLE_MS, () => {
      if (this.pending.length === 0) this.fail(new Error('idle'));
    });
    socket.unref();
    return socket;
  }

  /** Requests waiting for an answer, or for the connection to open. */
  get waiting(): number {
    return this.pending.length + this.early.length;
  }

  send(p: Pending): void {
    const addresses = this.addresses;
    if (addresses === null) {
      this.early.push(p);
      return;
    }
    const why = refusal(p, addresses);
    if (why !== null) {
      p.reject(refusedError(why));
      return;
    }
    // Opened once a request may go to every address (nothing connects to a refused one).
    const socket = this.socket ?? this.open(addresses);
    if (this.pending.length === 0) socket.ref();
    this.pending.push(p);
    // Requests sent in the same turn of the event loop leave in one write: one syscall for every
    // request started by the answers read in this turn (uncorked after the I/O callbacks).
    if (!this.corked) {
      this.corked = true;
      socket.cork();
      setImmediate(() => {
        this.corked = false;
        socket.uncork();
      });
    }
    socket.write(p.head, 'latin1');
    if (p.request.body.length > 0) socket.write(p.request.body, 'utf8');
  }

  /** Fails `p` and closes the connection (its bytes are on the wire); false when `p` is not here. */
  abort(p: Pending, error: Error): boolean {
    const j = this.early.indexOf(p);
    if (j >= 0) {
      this.early.splice(j, 1);
      p.reject(error);
      return true;
    }
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
    this.socket?.destroy();
    const left = [...this.pending.splice(0), ...this.early.splice(0)];
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
    if (this.pending.length === 0) this.socket?.unref();
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
