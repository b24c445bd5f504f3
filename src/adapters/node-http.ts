/**
 * Direct node:http adapter: the CLI's server. No framework between the socket and the engine:
 * the request becomes a SimRequest, the engine answers, the answer is written. Same core, same
 * bytes as the express and msw adapters (test/route-table/adapters-parity.test.ts).
 */
import { installDocsAssets } from './docs-assets.js';
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { NetworkOptions } from '../engine/guard.js';
import { LIMITS } from '../engine/limits.js';
import type { Sandbox } from '../sandbox.js';
import { canonicalPrefix } from '../engine/canonical-path.js';
import { answerClientErrors, DONE, nodeDoor, serveNode } from './node-common.js';
import './node-crypto.js';

export interface NodeAdapterOptions extends NetworkOptions {
  /** Path prefix of the management surface (default `/management`). */
  managementPath?: string;
}

/** A `(req, res)` listener that answers every request from the sandbox. */
export function createNodeListener(sandbox: Sandbox, options: NodeAdapterOptions = {}): RequestListener {
  const serve = serving(sandbox, options);
  return (req: IncomingMessage, res: ServerResponse) => {
    const served = serve(req, res);
    if (served !== DONE) served.catch((error: unknown) => failed(sandbox, res, error));
  };
}

/** Serves one request (the door made once per listener); settles once its answer is written. */
function serving(sandbox: Sandbox, options: NodeAdapterOptions): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const door = nodeDoor(sandbox, canonicalPrefix(options.managementPath ?? '/management'), options);
  installDocsAssets(sandbox);
  return (req, res) => serveNode(sandbox, req, res, req.url ?? '/', door);
}

/** An error on the way out (never the engine's answers, which are JSON): a JSON 500, or the connection cut. */
function failed(sandbox: Sandbox, res: ServerResponse, error: unknown): void {
  sandbox.world.log('node:http adapter error', error);
  if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' }).end('{"detail":"Internal error"}');
  else res.destroy();
}

/**
 * An http.Server serving the sandbox (not yet listening). Heads up to
 * `LIMITS.transportHeaderBytes` reach the engine (which answers 431 JSON past `LIMITS.headerBytes`);
 * larger ones get the same JSON 431 from the parser's error handler.
 */
export function createNodeServer(sandbox: Sandbox, options: NodeAdapterOptions = {}): Server {
  const server = createServer({ maxHeaderSize: LIMITS.transportHeaderBytes, requireHostHeader: false });
  const open = new Set<ServerResponse>();
  inFlight.set(server, open);
  const serve = serving(sandbox, options);
  // One 'request' listener (an event with two copies its listener list on every emit): the
  // response is tracked first, so one written synchronously by the listener is tracked already.
  // It leaves the set once its answer is written (the promise serving it settled): no listener
  // per response; `stopServer` listens to the ones still in flight when it runs.
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    open.add(res);
    if (!server.listening && !res.headersSent) {
      res.setHeader('connection', 'close');
      res.on('close', () => closeIdleSoon(server));
    }
    const served = serve(req, res);
    // An answer written at once (the adapter's settled promise): no callback to wait for.
    if (served === DONE) open.delete(res);
    else
      served.then(
        () => open.delete(res),
        (error: unknown) => {
          open.delete(res);
          failed(sandbox, res, error);
        },
      );
  });
  answerClientErrors(server);
  return server;
}

/**
 * A response of a stopping server is finished: the connection that carried it is idle now (or
 * closing): close it.
 */
function closeIdleSoon(server: Server): void {
  setImmediate(() => server.closeIdleConnections());
}

/** Each server's responses not finished yet (for `stopServer`). */
const inFlight = new WeakMap<Server, Set<ServerResponse>>();

/**
 * Stops a server made by `createNodeServer` without cutting anything: no new connections, idle
 * keep-alive connections close now, each request in flight gets its answer with
 * `connection: close` (when its head is not written yet) and its connection closes once the
 * answer is out. `done` runs when the last connection has closed, without any timer.
 */
export function stopServer(server: Server, done: () => void): void {
  server.close(() => done());
  for (const res of inFlight.get(server) ?? []) {
    if (!res.headersSent) res.setHeader('connection', 'close');
    // Once its answer is out, the connection that carried it is idle: it closes then.
    if (!res.writableFinished) res.on('close', () => closeIdleSoon(server));
    else closeIdleSoon(server);
  }
  server.closeIdleConnections();
}
