/**
 * MSW 2 adapter: request handlers for `setupServer` / `setupWorker` that answer every request
 * under the base URL (and the management URL) from the same engine as the express server.
 */
import { http, HttpResponse, type HttpHandler } from 'msw';
import type { Surface, SimRequest } from '../engine/http-types.js';
import type { Sandbox } from '../sandbox.js';
import { splitQuery } from '../engine/query.js';

export interface MswAdapterOptions {
  /** Where the data API is served (default `http://127.0.0.1:4250`). */
  baseUrl?: string;
  /** Where the management API is served (default `<baseUrl>/management`). */
  managementUrl?: string;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function prefixPattern(url: string): RegExp {
  return new RegExp(`^${escape(url)}(?:[/?#]|$)`);
}

export function createMswHandlers(sandbox: Sandbox, options: MswAdapterOptions = {}): HttpHandler[] {
  const base = (options.baseUrl ?? 'http://127.0.0.1:4250').replace(/\/+$/, '');
  const management = (options.managementUrl ?? `${base}/management`).replace(/\/+$/, '');
  sandbox.setUrls({ base, management });

  const handle = (surface: Surface, prefix: string) =>
    async ({ request }: { request: Request }) => {
      const url = new URL(request.url);
      const prefixPath = new URL(prefix).pathname.replace(/\/+$/, '');
      const path = url.pathname.slice(prefixPath.length) || '/';
      const headers: Record<string, string> = {};
      request.headers.forEach((value, name) => {
        headers[name.toLowerCase()] = value;
      });
      const simRequest: SimRequest = {
        method: request.method,
        surface,
        path,
        query: splitQuery(url.search.slice(1)),
        headers,
        rawBody: new Uint8Array(await request.arrayBuffer()),
      };
      const response = await sandbox.dispatch(simRequest);
      return new HttpResponse(response.status === 204 || response.body.length === 0 ? null : response.body, {
        status: response.status,
        headers: response.headers,
      });
    };

  return [
    http.all(prefixPattern(management), handle('management', management)),
    http.all(prefixPattern(base), handle('data', base)),
  ];
}
