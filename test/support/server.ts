/** A real express server on 127.0.0.1 for contract tests with real clients (the official SDK). */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createSandbox, type Sandbox, type SandboxOptions } from '../../src/index.js';
import { createExpressApp } from '../../src/express.js';

export interface RunningServer {
  sandbox: Sandbox;
  baseUrl: string;
  managementUrl: string;
  close(): Promise<void>;
}

export async function startServer(options: SandboxOptions = {}): Promise<RunningServer> {
  const sandbox = createSandbox({ logger: () => undefined, ...options });
  const app = createExpressApp(sandbox);
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  // The SDK validates large answers slowly on a busy machine: keep idle sockets longer than
  // that, so a reused keep-alive socket is not reset under the next request (ECONNRESET).
  server.keepAliveTimeout = 120_000;
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  sandbox.setUrls({ base: baseUrl, management: `${baseUrl}/management` });
  return {
    sandbox,
    baseUrl,
    managementUrl: `${baseUrl}/management`,
    close: () =>
      new Promise<void>((resolve) => {
        sandbox.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
