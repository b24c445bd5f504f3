/**
 * Vitest global setup: one headless Chromium for the whole run, shared by every worker, launched
 * when a worker first asks for it (a run with no browser file launches none). It listens on a
 * loopback TCP port (given to the workers as `chromiumBroker`, vitest's `provide`/`inject`): a
 * connection launches the browser on the first ask (playwright-core's `launchServer`, 127.0.0.1
 * only) and is answered with its WebSocket endpoint, then closed. Each worker connects to it once
 * (test/support/chromium.ts) and each test file opens its own context, so the files stay as
 * independent as with one browser per worker, at one browser's start and idle cost instead of
 * one per worker. The browser is closed when the run ends. A plain TCP answer, not HTTP: a
 * worker's msw interception of `fetch` and node:http never sees it.
 */
import { createServer, type AddressInfo, type Socket } from 'node:net';
import type { BrowserServer } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { CHROMIUM_LAUNCH, haveChromium } from './chromium-launch.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The broker's loopback port (test/support/chromium-broker.ts), absent without Chromium. */
    chromiumBroker?: number;
  }
}

export default async function chromiumBroker(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  if (!haveChromium) return undefined;
  let browser: Promise<BrowserServer> | undefined;
  const launched = (): Promise<BrowserServer> => {
    if (!browser) {
      const launching = import('playwright-core').then(({ chromium }) => chromium.launchServer({ ...CHROMIUM_LAUNCH, host: '127.0.0.1' }));
      browser = launching;
      launching.then(
        (b) =>
          b.process().once('exit', () => {
            if (browser === launching) browser = undefined;
          }),
        () => {
          if (browser === launching) browser = undefined;
        },
      );
    }
    return browser;
  };
  const answer = (socket: Socket): void => {
    socket.on('error', () => undefined);
    launched().then(
      (b) => socket.end(b.wsEndpoint()),
      () => socket.end(),
    );
  };
  const server = createServer(answer);
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  project.provide('chromiumBroker', (server.address() as AddressInfo).port);
  return async () => {
    await new Promise((closed) => server.close(closed));
    const b = await browser?.catch(() => undefined);
    await b?.close();
  };
}
