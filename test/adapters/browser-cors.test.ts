/**
 * `--cors` seen from a real browser: a page served from another origin (another 127.0.0.1 port)
 * calls the sandbox with fetch and an API key header (so Chromium sends a preflight). With the
 * page's origin allowed the call succeeds; without `--cors` Chromium blocks it. Debian's
 * /usr/bin/chromium through playwright-core; skipped with one line when it is missing.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/index.js';
import { createNodeServer } from '../../src/node.js';
import { CHROMIUM, haveChromium, newChromiumContext } from '../support/chromium.js';

if (!haveChromium) console.warn(`[browser-cors] ${CHROMIUM} is missing: the CORS browser test is skipped.`);

type Context = import('playwright-core').BrowserContext;

function listen(server: Server): Promise<number> {
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done((server.address() as { port: number }).port)));
}

describe.skipIf(!haveChromium)('--cors from a page on another origin (Chromium)', () => {
  let context: Context | undefined;
  const servers: Server[] = [];
  let pageOrigin = '';

  beforeAll(async () => {
    const page = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>app</title><p>app</p>');
    });
    servers.push(page);
    pageOrigin = `http://127.0.0.1:${await listen(page)}`;
    context = await newChromiumContext();
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    await Promise.all(servers.map((s) => new Promise<void>((done) => s.close(() => done()))));
  });

  /** Starts a sandbox server and returns what the page's cross-origin fetch saw. */
  async function fetchFromPage(
    cors: true | string[] | undefined,
  ): Promise<{ ok: boolean; status?: number; users?: number; error?: string }> {
    const sandbox = createSandbox({ seed: 2, users: 2, usersElsewhere: 0, logger: () => undefined });
    const server = createNodeServer(sandbox, cors === undefined ? {} : { cors });
    servers.push(server);
    const api = `http://127.0.0.1:${await listen(server)}`;
    const key = sandbox.credentials().teams[0]?.api_keys.sandbox ?? '';
    const page = await context!.newPage();
    await page.goto(`${pageOrigin}/`);
    const seen = await page.evaluate(
      async ({ api, key }) => {
        try {
          const res = await fetch(`${api}/v2/user?limit=5`, { headers: { 'x-vital-api-key': key } });
          const body = (await res.json()) as { users?: unknown[] };
          return { ok: true, status: res.status, users: body.users?.length ?? 0 };
        } catch (error) {
          return { ok: false, error: String(error) };
        }
      },
      { api, key },
    );
    await page.close();
    return seen;
  }

  it('allowed origin: the preflight passes and the answer is readable', async () => {
    const seen = await fetchFromPage([pageOrigin]);
    expect(seen).toEqual({ ok: true, status: 200, users: 2 });
  });

  it('--cors alone allows any origin', async () => {
    expect((await fetchFromPage(true)).ok).toBe(true);
  });

  it('without --cors, or with another origin listed, the browser blocks the call', async () => {
    expect((await fetchFromPage(undefined)).ok).toBe(false);
    expect((await fetchFromPage(['https://app.example.com'])).ok).toBe(false);
  });
});
