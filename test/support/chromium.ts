/**
 * One headless Chromium per vitest worker, shared by the browser test files and the browser
 * recipes of examples/ (Debian's /usr/bin/chromium, or `CHROMIUM_PATH`, through playwright-core,
 * never a downloaded browser). The suite runs without
 * module isolation, so a worker that runs several browser files launches Chromium once, on first
 * use, instead of once per file; each file gets its own context (cookies, storage, service
 * workers, routes) and closes it. The browser goes with the worker: playwright closes the
 * browsers it launched when its process exits or is told to stop.
 */
import { existsSync } from 'node:fs';
import type { Browser, BrowserContext } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const haveChromium = existsSync(CHROMIUM);

const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

let browser: Promise<Browser> | undefined;

/** The worker's Chromium, launched on first use (again if it went away). */
export function sharedChromium(): Promise<Browser> {
  if (!browser) {
    const launching = import('playwright-core').then(({ chromium }) =>
      chromium.launch({ executablePath: CHROMIUM, headless: true, timeout: 30_000, args: ARGS }),
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
