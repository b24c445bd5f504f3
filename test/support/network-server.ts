/**
 * A sandbox served on a loopback port by the express app or the node:http server (the CLI's), for
 * tests of the network guards (Host, Origin, CORS, the admin token): the server listens on port 0,
 * the sandbox's base URL follows it, and `close` ends its connections.
 */
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerHeadErrorsWithJson, createExpressApp } from '../../src/express.js';
import type { Sandbox } from '../../src/index.js';
import { createNodeServer } from '../../src/node.js';

export type NetworkAdapter = 'express' | 'node';

/** Serves `sandbox` with `options` (`cors`, ...) on 127.0.0.1; answers the port and how to close it. */
export async function serveOnLoopback(
  kind: NetworkAdapter,
  sandbox: Sandbox,
  options: { cors?: true | string[] } = {},
): Promise<{ port: number; close(): void }> {
  const server =
    kind === 'node'
      ? createNodeServer(sandbox, options)
      : answerHeadErrorsWithJson(createExpressApp(sandbox, options).listen(0, '127.0.0.1'));
  if (kind === 'node') server.listen(0, '127.0.0.1');
  await new Promise<void>((r) => (server.listening ? r() : server.once('listening', () => r())));
  const port = (server.address() as AddressInfo).port;
  sandbox.setUrls({ base: `http://127.0.0.1:${port}` });
  return {
    port,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

/**
 * A request to 127.0.0.1:`port` with exactly these headers (Host and Origin go out as given; Host
 * defaults to the loopback address), its answer read whole as text.
 */
export function rawRequest(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers: { host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => {
        text += d.toString();
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}
