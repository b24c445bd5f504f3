/**
 * The official SDK (`@tryvital/vital-node`) with its requests sent through a test client (express
 * over HTTP, msw through intercepted fetch), so one test drives both adapters with the real SDK.
 */
import { VitalClient } from '@tryvital/vital-node';
import type { TestClient } from './client.js';

export function sdkOf(c: TestClient, apiKey = c.apiKey): VitalClient {
  const bridge = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((v, k) => {
      headers[k] = v;
    });
    const res = await c.call(init?.method ?? 'GET', `${url.pathname}${url.search}`, {
      anonymous: true,
      headers,
      ...(init?.body !== undefined && init.body !== null ? { body: String(init.body) } : {}),
    });
    return new Response(res.status === 204 ? null : new Uint8Array(res.bytes), { status: res.status, headers: res.headers });
  };
  return new VitalClient({ apiKey, baseUrl: 'http://sdk.sandbox.test', maxRetries: 0, fetch: bridge as typeof fetch });
}
