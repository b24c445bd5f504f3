/**
 * Express 5 adapter: one catch-all middleware that turns the request into a SimRequest and
 * writes the engine's SimResponse. The management surface is mounted at `/management`.
 */
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import type { Surface, SimRequest, SimResponse } from '../engine/http-types.js';
import type { Sandbox } from '../sandbox.js';
import { splitQuery } from '../engine/query.js';

export interface ExpressAdapterOptions {
  /** Path prefix of the management surface (default `/management`). */
  managementPath?: string;
  /** Largest accepted request body (default 10 MB). */
  bodyLimit?: string;
}

export function createExpressApp(sandbox: Sandbox, options: ExpressAdapterOptions = {}): Express {
  const managementPath = (options.managementPath ?? '/management').replace(/\/+$/, '');
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(express.raw({ type: () => true, limit: options.bodyLimit ?? '10mb' }));

  app.use(async (req: Request, res: Response) => {
    const url = req.originalUrl;
    const q = url.indexOf('?');
    const rawPath = q >= 0 ? url.slice(0, q) : url;
    let surface: Surface = 'data';
    let path = rawPath;
    if (rawPath === managementPath || rawPath.startsWith(`${managementPath}/`)) {
      surface = 'management';
      path = rawPath.slice(managementPath.length) || '/';
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
    }
    const simRequest: SimRequest = {
      method: req.method,
      surface,
      path,
      query: splitQuery(q >= 0 ? url.slice(q + 1) : ''),
      headers,
      rawBody: Buffer.isBuffer(req.body) ? req.body : new Uint8Array(0),
      remoteAddress: req.socket.remoteAddress,
    };
    write(res, await sandbox.dispatch(simRequest));
  });

  // Body-parser failures (too large, bad encoding) and anything else: JSON, never HTML.
  app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const status = typeof error === 'object' && error !== null && 'status' in error && typeof error.status === 'number' ? error.status : 500;
    if (status >= 500) sandbox.world.log('Express adapter error', error);
    res.status(status).type('application/json').send(JSON.stringify({ detail: status >= 500 ? 'Internal error' : (error as Error).message }));
  });
  return app;
}

function write(res: Response, response: SimResponse): void {
  res.status(response.status);
  for (const [name, value] of Object.entries(response.headers)) res.setHeader(name, value);
  if (response.body.length === 0) res.end();
  else res.end(Buffer.from(response.body.buffer, response.body.byteOffset, response.body.byteLength));
}
