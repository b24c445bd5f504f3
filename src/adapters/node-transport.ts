/**
 * The CLI's webhook transport: HTTP/1.1 over node:net / node:tls with one keep-alive connection
 * per endpoint (and origin), requests pipelined in the order they are sent (so attempts to one
 * endpoint, which start in event order, also reach the receiver in that order; two endpoints never
 * share a connection, so one that hangs never holds another's attempts), and `close()` to abort
 * every delivery in flight at shutdown. Answers are read up to the excerpt the delivery log keeps.
 *
 * Destinations are checked as resolved: a connection resolves its host once (`lookup`, all
 * addresses), asks the attempt's `checkAddress` about every address (the sandbox's own listener,
 * link-local, metadata: refused with a `DestinationRefused` error, recorded as `refused: ...`) and
 * connects only to the addresses it checked (its socket lookup answers them), so a name rebinding between check and connect changes
 * nothing. Idle connections close after IDLE_MS.
 *
 * Compared with the global `fetch` (the default transport): no per-request connection pool
 * lookup, no WHATWG stream per body, no round trip per attempt when the delivery window allows.
 *
 * Failures: a refused or reset connection fails every request waiting on it (the retry policy
 * takes over); an aborted request (its attempt timed out) closes its connection, so the requests
 * pipelined behind it fail too. Requests sent after a response that announced `connection:
 * close` were not processed and are sent again on a new connection.
 */
import { createRequire } from 'node:module';
import type { TransportRequest, TransportResponse, WebhookTransport } from '../state/webhooks/transport.js';
import {
  abortError,
  Connection,
  connectionError,
  HEADER_BREAK,
  type Lookup,
  type Pending,
  serialise,
  type Target,
} from './node-connection.js';

export type { Lookup } from './node-connection.js';

export interface NodeTransport {
  readonly transport: WebhookTransport;
  /** Requests sent and not answered yet. */
  inFlight(): number;
  /** Aborts every request in flight, closes every connection; later requests fail at once. */
  close(): void;
}

export interface NodeTransportOptions {
  /** Default: `dns.promises.lookup(host, { all: true })`. */
  lookup?: Lookup;
}

/** `node:dns/promises`, loaded on the first name to resolve, not at start (BENCHMARKS.md, "Start-up"). */
let dns: typeof import('node:dns/promises') | undefined;
const defaultLookup: Lookup = (hostname) => {
  dns ??= createRequire(import.meta.url)('node:dns/promises') as typeof import('node:dns/promises');
  return dns.lookup(hostname, { all: true, verbatim: true });
};

/** What a request's `Pending` needs of its transport (one per transport, shared by its requests). */
interface Owner {
  unwatch(p: Sent): void;
  connection(key: string): Connection | undefined;
}

/**
 * One request in flight: its settle functions are methods, not closures made per request (an
 * attempt at a time to a fast receiver made three per delivery).
 */
class Sent implements Pending {
  /** Set once serialised (in `transport`). */
  head = '';
  bodyBytes = 0;

  constructor(
    readonly request: TransportRequest,
    private readonly key: string,
    private readonly owner: Owner,
    private readonly done: (response: TransportResponse) => void,
    private readonly fail: (error: Error) => void,
  ) {}

  resolve(response: TransportResponse): void {
    this.owner.unwatch(this);
    this.done(response);
  }

  reject(error: Error): void {
    this.owner.unwatch(this);
    this.fail(error);
  }

  onAbort(): void {
    if (this.owner.connection(this.key)?.abort(this, abortError('aborted')) !== true) this.reject(abortError('aborted'));
  }
}

/** A transport with one pipelined keep-alive connection per endpoint and origin. */
export function createNodeTransport(options: NodeTransportOptions = {}): NodeTransport {
  const lookup = options.lookup ?? defaultLookup;
  /** `<endpoint> <origin>` -> its connection. */
  const connections = new Map<string, Connection>();
  let closed = false;

  const dispatch = (key: string, url: URL, p: Pending): void => {
    let conn = connections.get(key);
    if (conn === undefined || conn.dead) {
      const fresh: Connection = new Connection(url, lookup, (dead, unsent) => {
        if (connections.get(key) === dead) connections.delete(key);
        // Sent after a `connection: close` answer: never processed, so sent again.
        for (const q of unsent) {
          if (closed || q.request.signal.aborted) q.reject(abortError('aborted'));
          else dispatch(key, url, q);
        }
      });
      connections.set(key, fresh);
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

  /** `<endpoint> <origin>`, the last one built kept (an endpoint's attempts come in runs): no string built per request. */
  let lastKey = { endpoint: '', origin: '', key: ' ' };
  const keyOf = (endpoint: string, origin: string): string => {
    if (endpoint !== lastKey.endpoint || origin !== lastKey.origin) lastKey = { endpoint, origin, key: `${endpoint} ${origin}` };
    return lastKey.key;
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
  const owner: Owner = {
    unwatch: (p) => {
      bySignal.get(p.request.signal)?.delete(p);
    },
    connection: (key) => connections.get(key),
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
      let head: string;
      const bodyBytes = Buffer.byteLength(request.body, 'utf8');
      try {
        target = targetOf(request.url);
        head = serialise(target, request, bodyBytes);
      } catch (error) {
        reject(connectionError(error instanceof Error ? error.message : String(error), error));
        return;
      }
      const { origin, url } = target;
      const key = keyOf(request.endpoint ?? '', origin);
      const p = new Sent(request, key, owner, resolve, reject);
      p.head = head;
      p.bodyBytes = bodyBytes;
      watch(p);
      dispatch(key, url, p);
    });

  transport.sharesSignals = true;
  transport.pipelines = true;

  return {
    transport,
    inFlight: () => {
      let n = 0;
      for (const conn of connections.values()) n += conn.waiting;
      return n;
    },
    close() {
      closed = true;
      for (const conn of [...connections.values()]) {
        const left = conn.pending.splice(0);
        conn.fail(new Error('the sandbox is shutting down'));
        // (requests still waiting for the lookup are failed by `fail`)
        for (const p of left) p.reject(abortError('the sandbox is shutting down'));
      }
      connections.clear();
    },
  };
}
