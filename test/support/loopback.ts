/**
 * Tests send traffic to loopback only: a webhook to any other host (tests register
 * `https://example.com/...` endpoints) fails at once like a refused connection instead of a DNS
 * lookup (or a wait for the attempt's timeout) on a machine without internet. `.test` hosts are
 * msw's (intercepted, never resolved). The test clients' sandboxes and the conformance report's
 * use it as their webhook transport.
 */
import { fetchTransport, type WebhookTransport } from '../../src/state/webhooks/transport.js';

export const loopbackOnly: WebhookTransport = (request) => {
  const host = new URL(request.url).hostname;
  if (host === '127.0.0.1' || host === 'localhost' || host === '[::1]' || host.endsWith('.test')) return fetchTransport(request);
  const refused = Object.assign(new Error(`connect ECONNREFUSED ${host} (tests reach loopback only)`), { code: 'ECONNREFUSED' });
  return Promise.reject(new TypeError('fetch failed', { cause: refused }));
};
