/** The official SDK's client against a sandbox served over HTTP: the labs contract tests' setup. */
import { VitalClient } from '@tryvital/vital-node';
import { type RunningServer, startServer } from './server.js';

/** A 3-user sandbox of `seed` on loopback and an SDK client with the first team's sandbox key (no retries). */
export async function startSdkServer(seed: number): Promise<{ server: RunningServer; client: VitalClient }> {
  const server = await startServer({ seed, users: 3, usersElsewhere: 0 });
  const client = new VitalClient({
    apiKey: server.sandbox.credentials().teams[0]?.api_keys.sandbox ?? '',
    baseUrl: server.baseUrl,
    maxRetries: 0,
  });
  return { server, client };
}
