/**
 * What the inspector's Chromium tests share: a sandbox served by the node:http adapter on
 * 127.0.0.1, a Chromium context that refuses every other host, and the page errors and console
 * errors seen (none is expected). Closed by `close()`.
 */
import type { Server } from 'node:http';
import { createSandbox, type Sandbox, type SandboxOptions } from '../../src/index.js';
import { createNodeServer } from '../../src/node.js';
import { newChromiumContext } from '../support/chromium.js';

type Context = import('playwright-core').BrowserContext;
type Page = import('playwright-core').Page;

export interface InspectorRig {
  sandbox: Sandbox;
  api: string;
  page: Page;
  context: Context;
  /** Page errors and console errors so far. */
  problems: string[];
  /** Requests the page tried beyond the sandbox. */
  outside: string[];
  /** A team API or control call from the test (not the page). */
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any }>;
  /** Opens a view by hash and waits until it is drawn. */
  open(hash: string): Promise<void>;
  close(): Promise<void>;
}

export async function inspectorRig(options: SandboxOptions = {}): Promise<InspectorRig> {
  const sandbox = createSandbox({ seed: 3, usersElsewhere: 0, feed: 'off', logger: () => undefined, ...options });
  const server: Server = createNodeServer(sandbox);
  const port = await new Promise<number>((done) => server.listen(0, '127.0.0.1', () => done((server.address() as { port: number }).port)));
  const api = `http://127.0.0.1:${port}`;
  sandbox.setUrls({ base: api, management: `${api}/management` });
  const outside: string[] = [];
  const problems: string[] = [];
  const context = await newChromiumContext({ outside: (url) => outside.push(url) });
  const page = await context.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`${r.status()} ${r.request().method()} ${r.url()}`);
  });
  const key = () => sandbox.credentials().teams[0]!.api_keys.sandbox;
  return {
    sandbox,
    api,
    page,
    context,
    problems,
    outside,
    async call(method, path, body, headers = {}) {
      const res = await fetch(`${api}${path}`, {
        method,
        headers: {
          'x-vital-api-key': key(),
          'content-type': 'application/json',
          ...(options.adminToken ? { authorization: `Bearer ${options.adminToken}` } : {}),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // not JSON
      }
      return { status: res.status, body: parsed };
    },
    async open(hash) {
      await page.goto(`${api}/_sandbox/ui#${hash}`);
      await page.locator(`#view[data-hash="${hash}"]`).waitFor({ timeout: 15_000 });
    },
    async close() {
      await context.close();
      sandbox.close();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}
