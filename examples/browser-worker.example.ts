/**
 * Recipe: a browser test with msw's `setupWorker`. The page (examples/browser/page.ts) creates
 * an in-page sandbox, starts the service worker with `createMswHandlers`, and runs its tests
 * against the app's own `fetch` client, resetting between tests and giving each test its own
 * team. Here the page is bundled with esbuild (your bundler, e.g. Vite, does this for you),
 * served on 127.0.0.1 with msw's `mockServiceWorker.js` beside it (in your project:
 * `npx msw init public/`), and run in headless Chromium through `playwright-core`. Skipped, with
 * one line, when no Chromium is installed (`CHROMIUM_PATH`, default /usr/bin/chromium).
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleBrowser } from '../test/browser/bundle.js';
import { CHROMIUM, haveChromium as available, newChromiumContext } from '../test/support/chromium.js';
import type { Outcome } from './browser/page.js';

if (!available) console.warn(`[browser recipe] skipped: no Chromium at ${CHROMIUM} (set CHROMIUM_PATH)`);

/** The page's entry: what your app's test page does. */
const ENTRY = `
import { runBrowserRecipe } from './examples/browser/page.ts';
(window as any).runBrowserRecipe = runBrowserRecipe;
`;

describe.skipIf(!available)('recipe: a browser test with setupWorker', () => {
  let server: Server | undefined;
  afterAll(async () => {
    await new Promise((done) => (server ? server.close(done) : done(undefined)));
  });

  it('runs the page tests in Chromium: users, demo connections, reset, own teams', async () => {
    const bundle = await bundleBrowser(ENTRY, { minify: false });
    const js = 'text/javascript';
    const files = new Map<string, { type: string; body: string }>([
      [
        'index.html',
        {
          type: 'text/html',
          body: '<!doctype html><meta charset="utf-8"><title>app under test</title><script type="module" src="/page.js"></script>',
        },
      ],
      ['page.js', { type: js, body: bundle.code }],
      [
        'mockServiceWorker.js',
        { type: js, body: readFileSync(createRequire(import.meta.url).resolve('msw/mockServiceWorker.js'), 'utf8') },
      ],
    ]);
    for (const [name, code] of bundle.chunks) files.set(name, { type: js, body: code });
    server = createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      const file = files.get(path === '/' ? 'index.html' : path.slice(1));
      if (!file) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': file.type, 'cache-control': 'no-store' }).end(file.body);
    });
    await new Promise<void>((done) => server?.listen(0, '127.0.0.1', done));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    // In a project: `const browser = await chromium.launch({ executablePath: CHROMIUM })` (playwright-core),
    // then `browser.newContext()`. Here: a fresh context in the Chromium this test worker already
    // runs for the other browser tests (one launch). No request routing: the page's requests go to
    // its service worker (msw), which routing would bypass.
    const context = await newChromiumContext({ onlyLoopback: false });
    try {
      const page = await context.newPage();
      page.setDefaultTimeout(30_000);
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      await page.goto(`${origin}/`);
      await page.waitForFunction(() => typeof (window as any).runBrowserRecipe === 'function');
      const outcomes = (await page.evaluate(() => (window as any).runBrowserRecipe())) as Outcome[];
      expect(errors).toEqual([]);
      expect(outcomes).toEqual([
        { test: 'creates a user and connects a demo provider', ok: true, detail: ['oura'] },
        { test: 'starts from an empty world after the reset', ok: true, detail: 0 },
        { test: 'a missing key answers 401 as the real service does', ok: true, detail: 401 },
      ]);
    } finally {
      await context.close();
    }
  }, 120_000);
});
