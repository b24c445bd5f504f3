/**
 * The other two ways docs/simulated/link.md gives to point the real `useVitalLink` hook at the
 * sandbox's launcher (the Playwright route is `launcher-react.test.ts`), each in Chromium with
 * the app on its own 127.0.0.1 origin: a dev-server alias of `react-script-hook` to a shim that
 * swaps the script URL (esbuild here, Vite or webpack in a project), and an msw handler in
 * `setupWorker` that redirects the script request to the sandbox server. Each opens an unknown
 * token and sees `onError`, which only the sandbox's launcher and widget can produce.
 * Skips, saying so, without /usr/bin/chromium.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LINK_ERROR_TEXTS } from '../../src/state/link/errors.js';
import { CHROMIUM, haveChromium, newChromiumContext } from '../support/chromium.js';
import { startServer, type RunningServer } from '../support/server.js';
import { type AppServer, appSource, loadApp, nthCallback, openLink, serveApp } from './launcher-app.js';

if (!haveChromium) console.warn(`[link launcher recipes] ${CHROMIUM} is missing: the recipe browser tests are skipped.`);

const INVALID = { callback: 'onError', metadata: { state: 'error', error_type: 'invalid_token', error: LINK_ERROR_TEXTS.invalid_token } };

let server: RunningServer;
const apps: AppServer[] = [];

describe.skipIf(!haveChromium)('pointing useVitalLink at the sandbox (Chromium)', () => {
  beforeAll(async () => {
    server = await startServer({ seed: 12, users: 1, usersElsewhere: 0 });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    for (const app of apps) await app.close();
  });

  it('a dev-server alias of react-script-hook to a shim that swaps the script URL', async () => {
    // The shim of docs/simulated/link.md, with this test's sandbox URL.
    const shim = `
import useScript from 'react-script-hook/lib/use-script.js';
const SANDBOX = ${JSON.stringify(server.baseUrl)};
export default (options: { src: string; checkForExisting?: boolean }) =>
  useScript({ ...options, src: options.src.startsWith('https://link.tryvital.io/') ? SANDBOX + '/link/initialize.js' : options.src });
`;
    const app = await serveApp(appSource(), { modules: { 'react-script-hook': shim } });
    apps.push(app);
    const outside: string[] = [];
    const context = await newChromiumContext({ outside: (url) => outside.push(url) });
    try {
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      await loadApp(page, app.origin);
      await openLink(page, 'not-a-token');
      expect(await nthCallback(page, 1)).toEqual(INVALID);
      expect(outside).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);

  it("an msw handler in setupWorker redirecting the script request to the sandbox server's script", async () => {
    const prelude = `
import { http } from 'msw';
import { setupWorker } from 'msw/browser';
const SANDBOX = ${JSON.stringify(server.baseUrl)};
const worker = setupWorker(
  http.get('https://link.tryvital.io/initialize.js', () => Response.redirect(SANDBOX + '/link/initialize.js', 302)),
);
await worker.start({ quiet: true, onUnhandledRequest: 'bypass' });
`;
    const workerScript = readFileSync(createRequire(import.meta.url).resolve('msw/mockServiceWorker.js'), 'utf8');
    const app = await serveApp(appSource(prelude), { files: { '/mockServiceWorker.js': workerScript } });
    apps.push(app);
    // No request routing: it would bypass the service worker.
    const context = await newChromiumContext({ onlyLoopback: false });
    try {
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      await loadApp(page, app.origin);
      await openLink(page, 'not-a-token');
      expect(await nthCallback(page, 1)).toEqual(INVALID);
    } finally {
      await context.close();
    }
  }, 60_000);
});
