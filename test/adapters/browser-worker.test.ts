/**
 * The msw handlers in a real browser: a page bundled with esbuild starts msw's `setupWorker`
 * with `createMswHandlers` (mockServiceWorker.js from the msw package served beside it), and
 * headless Chromium (Debian's, through playwright-core) runs the scenario of
 * `test/browser/scenario.ts`. The same scenario runs in Node with `setupServer`: both answer
 * the same, byte for byte. Skips with one line when /usr/bin/chromium is missing.
 */
import { setupServer } from 'msw/node';
import { afterAll, expect, it } from 'vitest';
import { createSandbox } from '../../src/index.js';
import { createMswHandlers } from '../../src/msw.js';
import { bundleBrowser } from '../browser/bundle.js';
import { runScenario, type Step } from '../browser/scenario.js';
import { CHROMIUM, haveChromium, newChromiumContext } from '../support/chromium.js';
import { type ServedPage, serveWorkerPage } from '../support/worker-page.js';

if (!haveChromium) console.warn(`browser test skipped: ${CHROMIUM} is missing (apt-get install -y chromium; .ci/run does it)`);

const SEED = 3;
const BASE = 'http://127.0.0.1:4250';

const PAGE = `
import { setupWorker } from 'msw/browser';
import { createSandbox } from 'health-sandbox';
import { createMswHandlers } from 'health-sandbox/msw';
import { runScenario } from './test/browser/scenario.ts';

const sandbox = createSandbox({ seed: ${SEED}, clock: 'manual' });
const worker = setupWorker(...createMswHandlers(sandbox));
(window as any).runScenario = async () => {
  await worker.start({ quiet: true, onUnhandledRequest: 'error' });
  return runScenario(${JSON.stringify(BASE)}, sandbox.credentials().teams[0]!.api_keys.sandbox);
};
`;

let served: ServedPage | undefined;
afterAll(async () => {
  await served?.close();
});

async function inNode(): Promise<Step[]> {
  const sandbox = createSandbox({ seed: SEED, clock: 'manual' });
  const msw = setupServer(...createMswHandlers(sandbox));
  msw.listen({ onUnhandledRequest: 'error' });
  try {
    return await runScenario(BASE, sandbox.credentials().teams[0]?.api_keys.sandbox ?? '');
  } finally {
    msw.close();
  }
}

it.skipIf(!haveChromium)(
  'setupWorker in headless Chromium answers the scenario exactly as setupServer in Node',
  async () => {
    const bundle = await bundleBrowser(PAGE, { minify: false });
    expect(bundle.nodeBuiltins).toEqual([]);
    // The PDF writer is loaded on first use: it is a lazy chunk, not part of the page's bundle.
    expect(bundle.entryInputs.filter((p) => p.includes('node_modules/pdf-lib/'))).toEqual([]);
    served = await serveWorkerPage(bundle, 'health-sandbox');
    const { origin } = served;

    // No request routing here: the page's requests go to its service worker (msw), which routing would bypass.
    const context = await newChromiumContext({ onlyLoopback: false });
    let inBrowser: Step[];
    try {
      const page = await context.newPage();
      page.setDefaultTimeout(30_000);
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      await page.goto(`${origin}/`);
      await page.waitForFunction(() => typeof (window as any).runScenario === 'function');
      inBrowser = (await page.evaluate(() => (window as any).runScenario())) as Step[];
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }

    expect(inBrowser.map((s) => [s.step, s.status])).toEqual([
      ['create user', 200],
      ['duplicate user', 400],
      ['connect demo', 200],
      ['advance clock', 200],
      ['ecg summaries', 200],
      ['no api key', 401],
    ]);
    expect(((inBrowser[4]?.body as { electrocardiogram: unknown[] }).electrocardiogram ?? []).length).toBeGreaterThan(0);
    expect(JSON.stringify(inBrowser)).toBe(JSON.stringify(await inNode()));
  },
  120_000,
);
