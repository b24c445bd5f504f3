/**
 * The headless Chromium the browser test files and the browser recipes of examples/ use. In a
 * vitest run it is the run's one browser (test/support/chromium-broker.ts, launched on the first
 * ask and shared by every worker), connected to once per worker; elsewhere (no broker to ask)
 * one launched by the worker on first use. Either way each file gets its own context (cookies,
 * storage, service workers, routes) and closes it.
 */
import { connect } from 'node:net';
import type { Browser, BrowserContext } from 'playwright-core';
import { inject } from 'vitest';
import { CHROMIUM_LAUNCH } from './chromium-launch.js';

export { CHROMIUM, haveChromium } from './chromium-launch.js';

/** The broker's port, when this runs in a vitest run whose global setup started one. */
function brokerPort(): number | undefined {
  try {
    return inject('chromiumBroker');
  } catch {
    return undefined;
  }
}

/** The run's browser's WebSocket endpoint, from the broker (which launches it on the first ask). */
function askBroker(port: number): Promise<string> {
  return new Promise((answered, failed) => {
    let text = '';
    const socket = connect(port, '127.0.0.1');
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => (text += d));
    socket.on('error', failed);
    socket.on('end', () => (text ? answered(text) : failed(new Error('the Chromium broker could not launch Chromium'))));
  });
}

let browser: Promise<Browser> | undefined;

/** The worker's Chromium connection (the run's browser), made on first use (again if it went away). */
export function sharedChromium(): Promise<Browser> {
  if (!browser) {
    const port = brokerPort();
    const launching = import('playwright-core').then(async ({ chromium }) =>
      port === undefined ? chromium.launch(CHROMIUM_LAUNCH) : chromium.connect(await askBroker(port), { timeout: CHROMIUM_LAUNCH.timeout }),
    );
    browser = launching;
    launching.then(
      (b) =>
        b.on('disconnected', () => {
          if (browser === launching) browser = undefined;
        }),
      () => {
        if (browser === launching) browser = undefined;
      },
    );
  }
  return browser;
}

/**
 * A fresh context in the worker's Chromium. With `onlyLoopback` (the default) every request to a
 * host other than 127.0.0.1 is refused, and its URL handed to `outside` when given.
 */
export async function newChromiumContext(
  options: { onlyLoopback?: boolean; outside?: (url: string) => void } = {},
): Promise<BrowserContext> {
  const context = await (await sharedChromium()).newContext();
  if (options.onlyLoopback ?? true) {
    await context.route('**/*', (route) => {
      const url = new URL(route.request().url());
      if (url.hostname === '127.0.0.1') return route.continue();
      options.outside?.(url.href);
      return route.abort();
    });
  }
  return context;
}
