#!/usr/bin/env node
/**
 * `npm run test:quick`: a fast local run. The engine and in-process tests on one adapter (msw's
 * request handling, no port; `HEALTH_SANDBOX_ADAPTER=express` for the other), skipping what waits
 * on the outside world or runs long: npm pack and the packed examples (test/package/), the child
 * CLI runs (test/cli/, and the time report of test/webhooks/), every
 * Chromium test, the fuzz and robustness runs and the four-adapter parity run. No build, no type check, no lint: `npm test` (and CI) runs
 * everything. Arguments go to `vitest run` (`npm run test:quick -- -t orders`).
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

/** Folders and files skipped; and any test that drives Chromium (it imports the Chromium helpers). */
const SKIPPED_FOLDERS = ['test/package/', 'test/cli/', 'test/browser/'];
const SKIPPED_FILES = [
  'test/webhooks/advance-time-report.test.ts',
  'test/route-table/fuzz.test.ts',
  'test/route-table/robustness.test.ts',
  'test/route-table/adapters-parity.test.ts',
];
const DRIVES_CHROMIUM = /support\/(chromium|worker-page)\.js'|playwright/;

const walk = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.test.ts') ? [join(dir, e.name)] : [],
  );
const files = walk(join(root, 'test'))
  .map((f) => relative(root, f).split('\\').join('/'))
  .filter((f) => !SKIPPED_FOLDERS.some((d) => f.startsWith(d)) && !SKIPPED_FILES.includes(f))
  .filter((f) => !DRIVES_CHROMIUM.test(readFileSync(join(root, f), 'utf8')))
  .sort();

const vitest = spawn(
  process.execPath,
  [join(dirname(require.resolve('vitest/package.json')), 'vitest.mjs'), 'run', ...files, ...process.argv.slice(2)],
  { stdio: 'inherit', cwd: root, env: { HEALTH_SANDBOX_ADAPTER: 'msw', ...process.env } },
);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => vitest.kill(signal));
vitest.once('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
