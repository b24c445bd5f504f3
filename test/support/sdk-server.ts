/** The official SDK's client against a sandbox served over HTTP: the labs contract tests' setup. */
import { VitalClient } from '@tryvital/vital-node';
import type { SandboxOptions } from '../../src/index.js';
import { type RunningServer, startServer } from './server.js';

/**
 * A sandbox on loopback (a number: a 3-user sandbox of that seed) and an SDK client with the first
 * team's sandbox key (no retries): the contract tests' setup.
 */
export async function startSdkServer(options: number | SandboxOptions): Promise<{ server: RunningServer; client: VitalClient }> {
  const server = await startServer(typeof options === 'number' ? { seed: options, users: 3, usersElsewhere: 0 } : options);
  const client = new VitalClient({
    apiKey: server.sandbox.credentials().teams[0]?.api_keys.sandbox ?? '',
    baseUrl: server.baseUrl,
    maxRetries: 0,
  });
  return { server, client };
}
