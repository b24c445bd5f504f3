/**
 * The official SDK's methods (`@tryvital/vital-node`), read from its own reference
 * (`reference.md`: every method with a usage example), and the endpoint each one calls, found by
 * running its example against a recording `fetch` (no network). `servedBy` maps that endpoint to
 * the sandbox's route table.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Vital, VitalClient } from '@tryvital/vital-node';
import { router } from '../../src/routes.js';

export interface SdkMethod {
  /** `user.get` */
  name: string;
  /** The reference's usage example: `await client.user.get("user_id");` */
  usage: string;
}

interface SdkEndpoint {
  method: string;
  path: string;
}

export function sdkMethods(): SdkMethod[] {
  const dir = dirname(createRequire(import.meta.url).resolve('@tryvital/vital-node/package.json'));
  const text = readFileSync(join(dir, 'reference.md'), 'utf8');
  const out: SdkMethod[] = [];
  const re = /<summary><code>client\.([A-Za-z0-9]+)\.<a [^>]*>([A-Za-z0-9]+)<\/a>[\s\S]*?```typescript\n([\s\S]*?)```/g;
  for (let m = re.exec(text); m; m = re.exec(text)) out.push({ name: `${m[1]}.${m[2]}`, usage: (m[3] ?? '').trim() });
  return out;
}

/** Runs a usage example with `client` (and `Vital`, for enum references) in scope. */
export function runUsage(usage: string, client: VitalClient): Promise<unknown> {
  const body = usage.replace(/^await /, 'return await ');
  const fn = new Function('client', 'Vital', `return (async () => { ${body} })();`) as (
    c: VitalClient,
    v: typeof Vital,
  ) => Promise<unknown>;
  return fn(client, Vital);
}

/** The request a method sends (its first), from a recording fetch; undefined if it sends none. */
export async function endpointOf(m: SdkMethod): Promise<SdkEndpoint | undefined> {
  let seen: SdkEndpoint | undefined;
  const recorder = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    seen ??= { method: (init?.method ?? 'GET').toUpperCase(), path: decodeURIComponent(url.pathname) };
    throw new Error('recorded');
  }) as typeof fetch;
  const client = new VitalClient({ apiKey: 'sk_us_recording', baseUrl: 'http://127.0.0.1:9', maxRetries: 0, fetch: recorder });
  await runUsage(m.usage, client).catch(() => undefined);
  return seen;
}

/** The sandbox route id serving an endpoint (data surface), or undefined. */
export function servedBy(endpoint: SdkEndpoint): string | undefined {
  const found = router().match('data', endpoint.method, endpoint.path);
  return found.kind === 'ok' ? found.match.route.id : undefined;
}
