/**
 * The app page of the launcher tests: React with the real `useVitalLink` hook (a token field, a
 * Connect button, every callback recorded in `window.linkEvents`), bundled by esbuild, served
 * from its own origin (another 127.0.0.1 port, as a dev server would), and the helpers that drive
 * it through the sandbox's widget in the launcher's iframe.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import type { FrameLocator, Page } from 'playwright-core';
import { bundleBrowser } from '../browser/bundle.js';

/** The hook's script URL (a constant in @tryvital/vital-link 0.1.7). */
export const REAL_SCRIPT = 'https://link.tryvital.io/initialize.js';

/** The app's source; `prelude` runs first (top-level await allowed), e.g. starting msw's worker. */
export const appSource = (prelude = ''): string => `
${prelude}
import { createElement as h, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { useVitalLink } from '@tryvital/vital-link';

const events = (window as any).linkEvents = [] as Array<{ callback: string; metadata: unknown }>;
const record = (callback: string) => (metadata: unknown) => { events.push({ callback, metadata }); };

function App() {
  const [token, setToken] = useState('');
  const { open, ready, error } = useVitalLink({
    env: 'sandbox',
    region: 'us',
    onSuccess: record('onSuccess'),
    onExit: record('onExit'),
    onError: record('onError'),
  } as any);
  return h('main', null,
    h('input', { id: 'token', value: token, onChange: (e: any) => setToken(e.target.value) }),
    h('button', { id: 'connect', disabled: !ready, onClick: () => open(token) }, 'Connect a device'),
    h('p', { id: 'status' }, error ? 'script error' : ready ? 'ready' : 'loading'));
}
createRoot(document.getElementById('root')!).render(h(App));
`;

export interface AppServer {
  origin: string;
  close(): Promise<void>;
}

/** Bundles the app and serves it (`/`), with extra files by path (`/mockServiceWorker.js`). */
export async function serveApp(
  source: string,
  options: { modules?: Record<string, string>; files?: Record<string, string> } = {},
): Promise<AppServer> {
  const bundle = await bundleBrowser(source, { modules: options.modules ?? {} });
  const html = `<!doctype html><html><head><meta charset="utf-8"><title>App</title></head><body><div id="root"></div><script type="module" src="/app.js"></script></body></html>`;
  const files: Record<string, [string, string]> = { '/': ['text/html', html], '/app.js': ['text/javascript', bundle.code] };
  for (const [name, code] of bundle.chunks) files[`/${name}`] = ['text/javascript', code];
  for (const [path, body] of Object.entries(options.files ?? {})) files[path] = ['text/javascript', body];
  const server: Server = createServer((req, res) => {
    const file = files[(req.url ?? '/').split('?')[0] ?? '/'];
    if (!file) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': `${file[0]}; charset=utf-8`, 'cache-control': 'no-store' }).end(file[1]);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

export type Recorded = { callback: string; metadata: Record<string, unknown> };

/** Loads the app and waits until the hook is ready (its script loaded, the handler created). */
export async function loadApp(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}/`);
  await page.waitForFunction(() => document.getElementById('status')?.textContent === 'ready');
}

/**
 * Opens Link for `token` through the app's button; answers the widget's frame (its locators wait
 * for it; an unusable token's frame may be gone before anyone looks, so nothing waits here).
 */
export async function openLink(page: Page, token: string): Promise<FrameLocator> {
  await page.fill('#token', token);
  await page.click('#connect');
  return page.frameLocator('#vital-link-overlay iframe#vital-link-frame');
}

/** Waits for callback number `count` and answers it; the overlay is gone by then. */
export async function nthCallback(page: Page, count: number): Promise<Recorded> {
  await page.waitForFunction((n) => (window as any).linkEvents.length >= n, count);
  const events = (await page.evaluate(() => (window as any).linkEvents)) as Recorded[];
  expect(events).toHaveLength(count);
  expect(await page.locator('#vital-link-overlay').count()).toBe(0);
  return events[count - 1] as Recorded;
}
