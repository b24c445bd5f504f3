/**
 * `/docs` time to interactive in Chromium (issue 45): from `page.goto` to the first operation's
 * block (`users.list`) on screen, the page as it opens (the data interface's `users` area, its own
 * document) against the same page showing the whole data document first (Swagger UI's
 * `?urls.primaryName=` picks it: what `/docs` loaded before). Rounds interleaved, median of the
 * rounds, one fresh browser context per page (nothing cached between them). Debian's
 * /usr/bin/chromium (or CHROMIUM_PATH) through playwright-core. `npm run bench -- --docs` runs
 * only this.
 */
import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { createSandbox } from '../src/index.js';
import { createNodeServer } from '../src/node.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

/** Milliseconds from navigation to the `users.list` block being visible. */
async function interactive(browser: Browser, url: string): Promise<number> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const start = performance.now();
    await page.goto(url);
    await page.locator('id=operations-users-users\\.list').waitFor({ timeout: 120_000 });
    return performance.now() - start;
  } finally {
    await context.close();
  }
}

export async function benchDocs(quick: boolean): Promise<void> {
  if (!existsSync(CHROMIUM)) {
    console.log(`\n/docs in Chromium: ${CHROMIUM} is missing: skipped`);
    return;
  }
  const sandbox = createSandbox({ seed: 1, users: 2, feed: 'off', logger: () => undefined });
  const server = createNodeServer(sandbox);
  const port = await new Promise<number>((done) => server.listen(0, '127.0.0.1', () => done((server.address() as { port: number }).port)));
  const api = `http://127.0.0.1:${port}`;
  sandbox.setUrls({ base: api, management: `${api}/management` });
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run'],
  });
  const rounds = quick ? 2 : 3;
  const area: number[] = [];
  const whole: number[] = [];
  try {
    await interactive(browser, `${api}/docs`); // warm-up: the assets read, the server's documents built
    for (let r = 0; r < rounds; r++) {
      whole.push(await interactive(browser, `${api}/docs?urls.primaryName=${encodeURIComponent('Data interface, all areas')}`));
      area.push(await interactive(browser, `${api}/docs`));
    }
  } finally {
    await browser.close();
    sandbox.close();
    server.close();
  }
  const a = median(area);
  const w = median(whole);
  console.log(
    `\n/docs time to interactive in Chromium (navigation to the first operation's block; median of ${rounds} interleaved rounds)`,
  );
  console.log(
    `${"/docs (the users area's document)".padEnd(44)} ${'the whole data document first'.padEnd(34)} ${`${w.toFixed(0)} ms`.padStart(8)} ${`${a.toFixed(0)} ms`.padStart(8)} ${`${(a / w).toFixed(2)}x`.padStart(7)}  goal under 1500 ms`,
  );
}

if (process.argv[1]?.endsWith('bench-docs.ts')) await benchDocs(process.argv.includes('--quick'));
