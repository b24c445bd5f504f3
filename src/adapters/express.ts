/**
 * Express 5 adapter, for users who mount the sandbox in their own express app: one catch-all
 * middleware that turns the request into a SimRequest and writes the engine's SimResponse. The
 * management surface is mounted at `/management`. Body limit, error bodies, the control plane's
 * network guard and CORS are the engine's, shared with the node:http adapter (the CLI's server).
 */
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import type { Server } from 'node:http';
import type { NetworkOptions } from '../engine/guard.js';
import { detailResponse } from '../engine/render.js';
import type { Sandbox } from '../sandbox.js';
import { canonicalPrefix } from '../engine/canonical-path.js';
import { installDocsAssets } from './docs-assets.js';
import { answerClientErrors, nodeDoor, serveNode, writeResponse } from './node-common.js';

export interface ExpressAdapterOptions extends NetworkOptions {
  /** Path prefix of the management surface (default `/management`). */
  managementPath?: string;
}

export function createExpressApp(sandbox: Sandbox, options: ExpressAdapterOptions = {}): Express {
  const door = nodeDoor(sandbox, canonicalPrefix(options.managementPath ?? '/management'), options);
  installDocsAssets(sandbox);
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use((req: Request, res: Response, next: NextFunction) => {
    serveNode(sandbox, req, res, req.originalUrl, door).catch(next);
  });
  // Anything that escapes the engine: JSON, never HTML.
  app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    sandbox.world.log('Express adapter error', error);
    if (!res.headersSent) writeResponse(res, detailResponse(500, 'Internal error'));
  });
  return app;
}

/**
 * Makes a server that runs an express app answer over-long request heads with the engine's JSON
 * 431 (Node otherwise sends an empty one). `app.listen()` returns such a server.
 */
export function answerHeadErrorsWithJson(server: Server): Server {
  answerClientErrors(server);
  return server;
}
