/**
 * A transport-free client over `sandbox.dispatch` with the call shape of the test client, for
 * scripts (no adapter, no vitest).
 */
import type { Sandbox } from '../../src/sandbox.js';
import type { CallOptions, TestClient, TestResponse } from '../../test/support/client.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function dispatchClient(sandbox: Sandbox): TestClient {
  const creds = sandbox.credentials();
  const apiKey = creds.teams[0]?.api_keys.sandbox ?? '';
  const call = async (method: string, path: string, options: CallOptions = {}): Promise<TestResponse> => {
    const surface = options.surface ?? 'data';
    const headers: Record<string, string> = {};
    if (!options.anonymous && !path.startsWith('/_sandbox')) {
      if (surface === 'management') headers['x-management-key'] = creds.management_key;
      else headers['x-service-api-key'] = apiKey;
    }
    let raw = new Uint8Array(0);
    if (options.body !== undefined) {
      raw = encoder.encode(typeof options.body === 'string' ? options.body : JSON.stringify(options.body));
      headers['content-type'] = 'application/json';
    }
    Object.assign(headers, options.headers ?? {});
    const query: Record<string, string[]> = {};
    for (const [k, v] of Object.entries(options.query ?? {})) query[k] = Array.isArray(v) ? v.map(String) : [String(v)];
    const res = await sandbox.dispatch({ method: method.toUpperCase(), surface, path, query, headers, rawBody: raw });
    const text = decoder.decode(res.body);
    let body: unknown;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      body = undefined;
    }
    return { status: res.status, headers: res.headers, text, body, bytes: Buffer.from(res.body) };
  };
  const client: TestClient = {
    adapter: 'express',
    sandbox,
    creds,
    apiKey,
    managementKey: creds.management_key,
    orgId: creds.org_id,
    call,
    get: (path, options) => call('GET', path, options),
    post: (path, body, options) => call('POST', path, { ...options, body }),
    patch: (path, body, options) => call('PATCH', path, { ...options, body }),
    put: (path, body, options) => call('PUT', path, { ...options, body }),
    delete: (path, options) => call('DELETE', path, options),
    mgmt: (method, path, options) => call(method, path, { ...options, surface: 'management' }),
    advance: (seconds) => call('POST', '/_sandbox/clock/advance', { body: { seconds } }),
  };
  return client;
}
