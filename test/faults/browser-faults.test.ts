/**
 * A page's error handling against faults in a real browser (issue 28): the page (bundled with
 * esbuild, the harness of test/adapters/browser-worker.test.ts) runs the sandbox behind msw `setupWorker`
 * in headless Chromium and loads its users with a fetch, showing "offline" on a network error,
 * "error <status>" on an error answer and the list otherwise. A `drop` rule makes that fetch fail
 * as a network error (`HttpResponse.error()`), once; a 503 rule gives an error answer. Skips with
 * one line when /usr/bin/chromium is missing.
 */
import { afterAll, expect, it } from 'vitest';
import { bundleBrowser } from '../browser/bundle.js';
import { CHROMIUM, haveChromium, newChromiumContext } from '../support/chromium.js';
import { type ServedPage, serveWorkerPage } from '../support/worker-page.js';

if (!haveChromium) console.warn(`browser fault test skipped: ${CHROMIUM} is missing (apt-get install -y chromium; .ci/run does it)`);

const BASE = 'http://127.0.0.1:4250';

const PAGE = `
import { setupWorker } from 'msw/browser';
import { createSandbox } from 'health-sandbox';
import { createMswHandlers } from 'health-sandbox/msw';

const sandbox = createSandbox({ seed: 9, users: 2, usersElsewhere: 1, feed: 'off', clock: 'manual' });
const worker = setupWorker(...createMswHandlers(sandbox));
const key = sandbox.credentials().teams[0]!.api_keys.sandbox;

/** The page's own error handling: what it shows for each outcome of loading the users. */
async function loadUsers(): Promise<string> {
  let shown: string;
  try {
    const res = await fetch(${JSON.stringify(BASE)} + '/v2/user', { headers: { 'x-vital-api-key': key } });
    shown = res.ok ? 'users ' + (await res.json()).users.length : 'error ' + res.status;
  } catch (error) {
    shown = 'offline (' + (error as Error).name + ')';
  }
  document.body.textContent = shown;
  return shown;
}

const fault = (rule: unknown) =>
  fetch(${JSON.stringify(BASE)} + '/_sandbox/faults', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(rule) }).then((r) => r.status);

(window as any).run = async () => {
  await worker.start({ quiet: true, onUnhandledRequest: 'error' });
  const shown: unknown[] = [];
  shown.push(await loadUsers());
  shown.push(await fault({ match: { method: 'GET', path: '/v2/user' }, action: { drop: true }, times: 1 }));
  shown.push(await loadUsers());
  shown.push(await loadUsers());
  shown.push(await fault({ match: { path: '/v2/user' }, action: { status: 503 }, times: 1 }));
  shown.push(await loadUsers());
  shown.push(await loadUsers());
  return shown;
};
`;

let served: ServedPage | undefined;
afterAll(async () => {
  await served?.close();
});

it.skipIf(!haveChromium)(
  'a drop rule is a network error to the page behind setupWorker; it shows offline, then recovers',
  async () => {
    const bundle = await bundleBrowser(PAGE, { minify: false });
    served = await serveWorkerPage(bundle, 'faults');
    const { origin } = served;
    const context = await newChromiumContext({ onlyLoopback: false });
    try {
      const page = await context.newPage();
      page.setDefaultTimeout(30_000);
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      await page.goto(`${origin}/`);
      await page.waitForFunction(() => typeof (window as any).run === 'function');
      const shown = await page.evaluate(() => (window as any).run());
      expect(shown).toEqual(['users 2', 200, 'offline (TypeError)', 'users 2', 200, 'error 503', 'users 2']);
      expect(await page.textContent('body')).toBe('users 2');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  },
  120_000,
);
