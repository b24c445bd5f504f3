/** A data-surface `SimRequest` with the team's API key and a JSON body (for tests that call `dispatch` directly). */
import type { SimRequest } from '../../src/index.js';

export function jsonRequest(key: string, method: string, path: string, body?: unknown): SimRequest {
  return {
    method,
    surface: 'data',
    path,
    query: {},
    headers: { 'x-service-api-key': key, 'content-type': 'application/json' },
    rawBody: new TextEncoder().encode(body === undefined ? '' : JSON.stringify(body)),
  };
}
