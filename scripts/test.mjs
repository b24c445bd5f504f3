#!/usr/bin/env node
/**
 * The second half of `npm test` (the first, `npm run build`, writes src's declarations and the
 * esbuild bundle into dist/, which the CLI and pack tests use): vitest and the type check of the tests, scripts and
 * examples (`tsc -b tsconfig.json`, against src's declarations) run side by side instead of one
 * after the other. vitest's workers spend much of the run waiting (Chromium, npm, child CLIs,
 * loopback HTTP), so the check, at a lower priority, fills the idle core instead of adding its
 * 20 s to the wall time. The check's output is printed after vitest's; the command fails when
 * either fails. Arguments go to `vitest run` (`npm test -- test/cli/cli.test.ts`).
 *
 * With `HEALTH_SANDBOX_SLOW_TESTS=1` (`.ci/run` sets it), once both pass, the worked example of
 * docs/ENGINE.md is applied to a scratch copy and the full route-table suites run there
 * (`scripts/check-engine-example.sh`, minutes); `npm test` always runs its fast in-process check
 * (test/engine/engine-example-applied.test.ts).
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { setPriority } from 'node:os';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const exited = (child) => new Promise((done) => child.once('exit', (code, signal) => done(code ?? (signal ? 1 : 0))));

const tsc = spawn(process.execPath, [require.resolve('typescript/bin/tsc'), '-b', 'tsconfig.json'], { stdio: ['ignore', 'pipe', 'pipe'] });
try {
  // Nice 10: the check takes what vitest leaves; vitest keeps its pace (and its time limits).
  if (tsc.pid !== undefined) setPriority(tsc.pid, 10);
} catch {
  // Not allowed to lower it: it simply runs at the same priority.
}
let checked = '';
tsc.stdout.on('data', (d) => (checked += d));
tsc.stderr.on('data', (d) => (checked += d));

const vitest = spawn(
  process.execPath,
  [join(dirname(require.resolve('vitest/package.json')), 'vitest.mjs'), 'run', ...process.argv.slice(2)],
  { stdio: 'inherit' },
);
// An interrupted run stops both.
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => {
    tsc.kill(signal);
    vitest.kill(signal);
  });

const [testsCode, checkCode] = await Promise.all([exited(vitest), exited(tsc)]);
if (checkCode === 0) process.stdout.write('\ntsc -b tsconfig.json: the tests, scripts and examples type-check\n');
else process.stdout.write(`\ntsc -b tsconfig.json failed (exit ${checkCode}):\n${checked}\n`);
if (testsCode !== 0 || checkCode !== 0) process.exit(testsCode !== 0 ? testsCode : checkCode);
if (process.env.HEALTH_SANDBOX_SLOW_TESTS === '1') {
  process.stdout.write('\nscripts/check-engine-example.sh: the worked example of docs/ENGINE.md on a scratch copy\n');
  process.exit(await exited(spawn('bash', ['scripts/check-engine-example.sh'], { stdio: 'inherit' })));
}
