/**
 * Recipe: a Playwright end-to-end test against the CLI server. A browser page talks to the
 * sandbox over HTTP (here a page on the sandbox's own origin stands in for your web app, which
 * you would point at the `url` the CLI prints); the test steers time and reads events with
 * `connectSandbox`. Uses the system Chromium through `playwright-core`; skipped, with one line,
 * when it is missing.
 * In your project: `import { connectSandbox } from 'health-sandbox/testing'`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connectSandbox, type SandboxControl } from '../src/testing.js';
import { cliArgs } from '../test/support/cli-command.js';
import { CHROMIUM, haveChromium as available, sharedChromium } from '../test/support/chromium.js';
import { ownTeam } from './own-team.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
if (!available) console.warn(`[playwright recipe] skipped: no Chromium at ${CHROMIUM} (set CHROMIUM_PATH)`);

describe.skipIf(!available)('recipe: Playwright against the CLI server', () => {
  let child: ChildProcess;
  let control: SandboxControl;
  let browser: Browser;

  beforeAll(async () => {
    // In a project: spawn('npx', ['health-sandbox', '--port', '0', '--json', '--clock', 'manual', '--world', 'empty']);
    // here the same bin, compiled (see examples/ci-cli.example.ts).
    child = spawn(process.execPath, cliArgs(['--port', '0', '--json', '--clock', 'manual', '--world', 'empty']), { cwd: root });
    const line = await new Promise<string>((done, fail) => {
      createInterface({ input: child.stdout! }).once('line', done);
      child.once('exit', (code) => fail(new Error(`CLI exited with ${code}`)));
    });
    control = connectSandbox((JSON.parse(line) as { url: string }).url);
    // In a project: `browser = await chromium.launch({ executablePath: CHROMIUM })` (playwright-core).
    // Here: the Chromium this test worker already runs for the other browser tests (one launch).
    browser = await sharedChromium();
  });
  afterAll(async () => {
    child?.kill('SIGTERM');
  });
  beforeEach(() => control.reset());

  it('a page creates a user and connects a device; the test sees the events', async () => {
    const { apiKey } = await ownTeam(control);
    const page = await browser.newPage();
    await page.goto(`${control.url}/_sandbox/health`);
    const userId = await page.evaluate(async (key) => {
      const headers = { 'x-vital-api-key': key, 'content-type': 'application/json' };
      const user = await (
        await fetch('/v2/user', { method: 'POST', headers, body: JSON.stringify({ client_user_id: 'browser-user' }) })
      ).json();
      await fetch('/v2/link/connect/demo', {
        method: 'POST',
        headers,
        body: JSON.stringify({ user_id: user.user_id, provider: 'apple_health_kit' }),
      });
      return user.user_id as string;
    }, apiKey);
    await control.advance('1h');
    const events = await control.events({ user_id: userId, event_type: 'provider.connection.created' });
    expect(events).toHaveLength(1);
    await page.close();
  });
});
