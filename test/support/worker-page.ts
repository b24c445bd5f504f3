/**
 * Serves a bundled page with msw's service worker on 127.0.0.1 (a secure context, so service
 * workers run): `index.html` loading `page.js`, its lazy chunks, and `mockServiceWorker.js`. For
 * the tests that drive `setupWorker` in Chromium.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import type { BrowserBundle } from '../browser/bundle.js';

export interface ServedPage {
  origin: string;
  close(): Promise<void>;
}

export async function serveWorkerPage(bundle: BrowserBundle, title: string): Promise<ServedPage> {
  const js = 'text/javascript';
  const files = new Map<string, { type: string; body: string }>([
    [
      'index.html',
      {
        type: 'text/html',
        body: `<!doctype html><meta charset="utf-8"><title>${title}</title><script type="module" src="/page.js"></script>`,
      },
    ],
    ['page.js', { type: js, body: bundle.code }],
    ['mockServiceWorker.js', { type: js, body: readFileSync(createRequire(import.meta.url).resolve('msw/mockServiceWorker.js'), 'utf8') }],
  ]);
  for (const [name, code] of bundle.chunks) files.set(name, { type: js, body: code });
  const server = createServer((req, res) => {
    const name = (req.url ?? '/').split('?')[0] === '/' ? 'index.html' : ((req.url ?? '').slice(1).split('?')[0] ?? '');
    const file = files.get(name);
    if (!file) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': file.type, 'cache-control': 'no-store' }).end(file.body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
