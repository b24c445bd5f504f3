/**
 * What the two Node server adapters (node:http and express) share: reading a body up to the
 * engine's limit, turning a Node request into a SimRequest, writing a SimResponse, and answering
 * a head the HTTP parser refuses with the engine's JSON 431 instead of Node's empty one.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { type Door, type DoorRequest, frontDoor, leaving } from '../engine/front-door.js';
import type { NetworkOptions } from '../engine/guard.js';
import type { SimRequest, SimResponse } from '../engine/http-types.js';
import { headersTooLarge, LIMITS } from '../engine/limits.js';
import { detailResponse, rawHttpResponse } from '../engine/render.js';
import { type AnswerNow, answerNowOf, type Sandbox } from '../sandbox.js';

const EMPTY = new Uint8Array(0);

/** HTTP/1.1: no Content-Length (or 0) and no Transfer-Encoding means no body. */
function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** Reads the body; stops one byte past the limit (the engine then answers 413). */
function readBody(req: IncomingMessage, limit: number = LIMITS.bodyBytes): Promise<Uint8Array> {
  if (!hasBody(req)) return Promise.resolve(EMPTY);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (value: Uint8Array) => {
      if (done) return;
      done = true;
      resolve(value);
    };
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      chunks.push(chunk);
      if (size > limit) {
        req.pause();
        finish(Buffer.concat(chunks, size).subarray(0, limit + 1));
      }
    });
    req.on('end', () => finish(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size)));
    req.on('error', (error) => {
      if (!done) {
        done = true;
        reject(error);
      }
    });
  });
}

/** How many `Host` lines the head carried (Node keeps the first and drops the others from `headers`). */
function hostLines(req: IncomingMessage): number {
  const raw = req.rawHeaders;
  let n = 0;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] as string;
    // `h` or `H` first: most names are refused on their length and first letter, with no copy.
    if (name.length === 4 && (name.charCodeAt(0) | 0x20) === 104 && name.toLowerCase() === 'host') n++;
  }
  return n;
}

/**
 * Why a head is refused before the engine reads it (RFC 9112 section 3.2: an HTTP/1.1 request
 * without `Host`, any request with more than one), or undefined. Node keeps the first of two
 * `Host` lines, so a loopback one followed by a foreign one would otherwise pass the guard.
 */
function hostProblem(req: IncomingMessage): DoorRequest['hostLines'] {
  const lines = hostLines(req);
  if (lines > 1) return 'duplicateHost';
  if (lines === 0 && req.httpVersionMajor === 1 && req.httpVersionMinor >= 1) return 'missingHost';
  return undefined;
}

/**
 * What the front door needs of a Node request: its method, raw path and query, headers, body and
 * `Host` lines. The door makes the whole raw path canonical first, then splits the management
 * prefix off the canonical path, so `/%6Danagement/...` or `/management/../_sandbox/...` pick the
 * surface the router and the guard will see.
 */
function doorRequest(req: IncomingMessage, url: string, rawBody: Uint8Array): DoorRequest {
  const q = url.indexOf('?');
  // Node already lower-cases names and joins repeated headers; only `set-cookie` arrives as an
  // array. Node's object is used as is unless one needs joining (no per-request copy).
  const src = req.headers;
  let headers = src as Record<string, string>;
  for (const name in src) {
    if (typeof src[name] !== 'string') {
      headers = {};
      for (const n in src) {
        const value = src[n];
        if (value !== undefined) headers[n] = typeof value === 'string' ? value : value.join(', ');
      }
      break;
    }
  }
  return {
    method: req.method ?? 'GET',
    path: q >= 0 ? url.slice(0, q) : url,
    query: q >= 0 ? url.slice(q + 1) : undefined,
    headers,
    rawBody,
    hostLines: hostProblem(req),
  };
}

/**
 * The head of an answer as `writeHead` takes it: a flat name, value list, the body's length in
 * the place a `content-length` of the answer's own has, else last (no merged header object).
 */
function headOf(response: SimResponse, length: number): Array<string | number> {
  const head: Array<string | number> = [];
  let sized = false;
  const headers = response.headers;
  for (const name in headers) {
    if (name === 'content-length') {
      head.push(name, length);
      sized = true;
    } else head.push(name, headers[name] as string);
  }
  if (!sized) head.push('content-length', length);
  return head;
}

export function writeResponse(res: ServerResponse, response: SimResponse): void {
  // A fault's dropped connection: the socket closes with no answer.
  if (response.drop) {
    res.destroy();
    return;
  }
  const body = response.body;
  const length = body.byteLength;
  // The length goes in with the other headers, in one writeHead: a header set before writeHead
  // makes Node merge two header maps on every response.
  // An empty answer says so (as msw's and the fetch handler's do), except a 204 or 304.
  if (length === 0 && (response.status === 204 || response.status === 304)) res.writeHead(response.status, response.headers);
  else res.writeHead(response.status, headOf(response, length));
  if (length === 0) res.end();
  else res.end(Buffer.from(body.buffer, body.byteOffset, length));
}

/**
 * The front door of a Node server adapter: the management surface under `managementPath`
 * (canonical prefix), the rest on the data surface, facing the network with `options`.
 */
export function nodeDoor(sandbox: Sandbox, managementPath: string, options: NetworkOptions): Door {
  return {
    mounts: [{ surface: 'management', prefix: managementPath }],
    network: {
      options,
      context: {
        get urls() {
          return sandbox.world.urls;
        },
        adminToken: sandbox.options.adminToken,
      },
    },
  };
}

/** The promise of a request whose answer is written already (settled; the caller may compare with it). */
export const DONE: Promise<void> = Promise.resolve();

/** Serves one Node request through the sandbox: the front door, dispatch, the way out. */
export function serveNode(sandbox: Sandbox, req: IncomingMessage, res: ServerResponse, url: string, door: Door): Promise<void> {
  // No extra turn of the event loop, and no promise of its own, for a request without a body.
  if (hasBody(req)) {
    return readBody(req).then(
      (rawBody) => serveRequest(sandbox, res, door, doorRequest(req, url, rawBody)),
      () => {
        if (!res.headersSent) writeResponse(res, detailResponse(400, 'Request body could not be read'));
      },
    );
  }
  try {
    return serveRequest(sandbox, res, door, doorRequest(req, url, EMPTY));
  } catch (error) {
    return Promise.reject(error);
  }
}

/** The last sandbox `dispatch` seen and its synchronous form (one comparison per request, no lookup). */
let lastDispatch: Sandbox['dispatch'] | undefined;
let lastNow: AnswerNow | undefined;

/** The sandbox's answer, synchronous when nothing on its way waits (its `dispatch` when a caller replaced it). */
function answerOf(sandbox: Sandbox, request: SimRequest): SimResponse | Promise<SimResponse> {
  const own = sandbox.dispatch;
  if (own !== lastDispatch) {
    lastDispatch = own;
    lastNow = answerNowOf(sandbox);
  }
  return lastNow === undefined ? sandbox.dispatch(request) : lastNow(request);
}

function serveRequest(sandbox: Sandbox, res: ServerResponse, door: Door, raw: DoorRequest): Promise<void> {
  const entry = frontDoor(door, raw);
  const simRequest = entry.request;
  if (entry.answer !== undefined) {
    if (entry.close) res.shouldKeepAlive = false;
    writeResponse(res, entry.answer);
    return DONE;
  }
  // An answer made synchronously is written at once, in the turn the request arrived (no promise).
  const answered = answerOf(sandbox, simRequest);
  if (answered instanceof Promise) return answered.then((response) => written(res, door, simRequest, response));
  return written(res, door, simRequest, answered);
}

function written(res: ServerResponse, door: Door, simRequest: SimRequest, response: SimResponse): Promise<void> {
  // A fault's latency: wall time before the answer (it never moves the sandbox clock).
  if (!response.delayMs) {
    writeResponse(res, leaving(door, simRequest, response));
    return DONE;
  }
  const from = performance.now();
  return new Promise<void>((resolve) => setTimeout(resolve, response.delayMs)).then(() => {
    writeResponse(res, leaving(door, simRequest, response));
    // The wait the client saw, measured here where it was carried out (the request journal's record).
    response.waited?.(performance.now() - from);
  });
}

/**
 * Answers a request head Node's parser refuses (over `maxHeaderSize`) with the engine's JSON 431,
 * and other unparsable requests (and, in serveNode, a missing `Host`) with a JSON 400, instead
 * of Node's empty answers.
 */
export function answerClientErrors(server: Server): void {
  // Node answers an HTTP/1.1 request without `Host` with a bare 400 before any listener runs;
  // with this off the request reaches serveNode, which answers the engine's JSON 400.
  (server as Server & { requireHostHeader?: boolean }).requireHostHeader = false;
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable || (error as { code?: string }).code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const overflow = error.code === 'HPE_HEADER_OVERFLOW';
    const response = overflow ? headersTooLarge() : detailResponse(400, 'Bad Request');
    socket.end(rawHttpResponse(response, overflow ? 'Request Header Fields Too Large' : 'Bad Request'));
  });
}
