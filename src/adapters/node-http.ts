/**
 * Direct node:http adapter: the CLI's server. No framework between the socket and the engine:
 * the request becomes a SimRequest, the engine answers, the answer is written. Same core, same
 * bytes as the express and msw adapters (test/adapters-parity.test.ts).
 */
import { installDocsAssets } from './docs-assets.js';
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { NetworkOptions } from '../engine/guard.js';
import { LIMITS } from '../engine/limits.js';
import type { Sandbox } from '../sandbox.js';
import { answerClientErrors, serveNode } from './node-common.js';
import './node-crypto.js';

export interface NodeAdapterOptions extends NetworkOptions {
  /** Path prefix of the management surface (default `/management`). */
  managementPath?: string;
}

/** A `(req, res)` listener that answers every request from the sandbox. */
export function createNodeListener(sandbox: Sandbox, options: NodeAdapterOptions = {}): RequestListener {
  const managementPath = (options.managementPath ?? '/management').replace(/\/+$/, '');
  installDocsAssets(sandbox);
  return (req: IncomingMessage, res: ServerResponse) => {
    serveNode(sandbox, req, res, req.url ?? '/', managementPath, options).catch((error: unknown) => {
      sandbox.world.log('node:http adapter error', error);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' }).end('{"detail":"Internal error"}');
      else res.destroy();
    });
  };
}

/**
 * An http.Server serving the sandbox (not yet listening). Heads up to
 * `LIMITS.transportHeaderBytes` reach the engine (which answers 431 JSON past `LIMITS.headerBytes`);
 * larger ones get the same JSON 431 from the parser's error handler.
 */
export function createNodeServer(sandbox: Sandbox, options: NodeAdapterOptions = {}): Server {
  const server = createServer({ maxHeaderSize: LIMITS.transportHeaderBytes }, createNodeListener(sandbox, options));
  answerClientErrors(server);
  return server;
}
